/**
 * The cache view: every server's response cache entries (method, what each is about, scope and
 * partition label, when stored, a countdown to its expiry rendered here from `expiresAt`, size,
 * a public entry's value cut), with "invalidate" and "refetch" per entry when the UI may act.
 * A private entry shows no value: the recorder never sends one.
 */
import type { DevtoolsCacheEntry } from '../snapshot.js';
import { actionButton } from './actionButton.js';
import { badge, el, muted, table, when, type Cell } from './dom.js';
import type { DevtoolsView, ViewContext } from './view.js';

/** The TTL cell: `fresh, N.N s left` counting down, or `expired` once `expiresAt` has passed. */
function ttlCell(entry: DevtoolsCacheEntry, now: number): Cell {
  const left = entry.expiresAt - now;
  if (left <= 0) return el('span', { class: 'ttl' }, [badge('expired'), ` ttl ${Math.round(entry.ttlMs)} ms`]);
  return el('span', { class: 'ttl' }, [
    badge('fresh'),
    ` ${(left / 1000).toFixed(1)} s left of ${Math.round(entry.ttlMs)} ms`,
  ]);
}

function render(context: ViewContext): Node[] {
  const { snapshot, now } = context;
  const entries = snapshot.cache;
  const columns = ['server', 'method', 'about', 'scope', 'partition', 'stored', 'ttl', 'bytes', 'value'];
  if (context.act !== undefined) columns.push('actions');
  const rows = entries.map((e) => {
    const row: Cell[] = [
      e.server,
      el('code', { text: e.method }),
      e.about ?? '',
      badge(e.scope),
      e.partition,
      when(e.storedAt),
      ttlCell(e, now),
      e.bytes,
      e.preview === undefined ? muted('private: not shown') : el('code', { class: 'preview', text: e.preview }),
    ];
    if (context.act !== undefined)
      row.push(
        el('span', {}, [
          actionButton(context, { action: 'invalidate-entry', server: e.server, entry: e.id }, 'invalidate'),
          ' ',
          actionButton(
            context,
            { action: 'refetch-entry', server: e.server, entry: e.id },
            'refetch',
            (result) => `refetched ${result.refetched ?? ''}`,
          ),
        ]),
      );
    return row;
  });
  return [
    el('h2', { text: `Cache (${entries.length} entries, read at most once a second)` }),
    entries.length === 0 ? muted('No cache entry.') : table(columns, rows, 'cache'),
  ];
}

export const cacheView: DevtoolsView = { name: 'cache', ticks: true, render };
