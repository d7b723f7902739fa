/**
 * The catalog view: the last ten catalog changes (what came, left, changed availability, with
 * the servers' state then), the model's tool search tried on a query (the ranking, each tool's
 * score, or why nothing was found), every item with a filter box, what was left out, and the
 * collisions.
 */
import { badge, el, table, when, type Cell } from './dom.js';
import type { DevtoolsView, ViewContext } from './view.js';

/** At most six names, one a line, and how many more. */
function names(list: readonly string[]): Cell {
  if (list.length === 0) return '';
  const more = list.length > 6 ? `\n… ${list.length - 6} more` : '';
  return el('code', { text: list.slice(0, 6).join('\n') + more });
}

/** The search box, its button, and the last ranking (or why there is none). */
function toolSearch(context: ViewContext): Node[] {
  const search = context.search;
  if (search === undefined) return [];
  const now = context.state.toolSearch;
  const input = el('input', {
    type: 'search',
    id: 'tool-search',
    placeholder: 'a query, as the model would search',
    value: now.query,
  });
  const run = (): void => {
    const query = input.value;
    context.state.toolSearch = { query, result: undefined, error: undefined, busy: true };
    context.renderNow();
    search(query).then(
      (result) => {
        context.state.toolSearch = { query, result, error: undefined, busy: false };
        context.schedule();
      },
      (error: unknown) => {
        context.state.toolSearch = { query, result: undefined, error: String(error), busy: false };
        context.schedule();
      },
    );
  };
  input.addEventListener('input', () => {
    now.query = input.value; // kept across the renders a catalog change makes
  });
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') run();
  });
  const button = el('button', {
    text: now.busy ? 'searching…' : 'search tools',
    id: 'tool-search-run',
    disabled: now.busy,
  });
  button.addEventListener('click', run);
  const out: Node[] = [el('h3', { text: 'Tool search' }), el('div', {}, [input, button])];
  if (now.error !== undefined) out.push(el('p', { class: 'error', text: `failed: ${now.error}` }));
  const result = now.result;
  if (result === undefined) return out;
  if (result.matches.length === 0)
    out.push(
      el('p', {
        class: 'muted',
        text: `nothing found for "${result.query}"${result.reason ? `: ${result.reason}` : ''}`,
      }),
    );
  else
    out.push(
      table(
        ['rank', 'exposed name', 'server', 'name', 'score'],
        result.matches.map((m, i) => [
          String(i + 1),
          el('code', { text: m.exposedName }),
          m.server,
          m.name,
          String(m.score),
        ]),
        'tool-search',
      ),
    );
  if (result.missing.length > 0)
    out.push(el('p', { class: 'muted', text: `no tool named: ${result.missing.join(', ')}` }));
  return out;
}

function render(context: ViewContext): Node[] {
  const { snapshot, state } = context;
  const items = snapshot.catalog.items.filter((i) => {
    const text = `${i.exposedName} ${i.server} ${i.description ?? ''}`.toLowerCase();
    return state.filter === '' || text.includes(state.filter);
  });
  const search = el('input', { type: 'search', id: 'filter', placeholder: 'filter', value: state.filter });
  search.addEventListener('input', () => {
    state.filter = search.value.toLowerCase();
    context.renderNow();
    const again = context.section.querySelector<HTMLInputElement>('#filter');
    if (again === null) return;
    again.focus();
    again.setSelectionRange(again.value.length, again.value.length);
  });
  const changes = snapshot.catalogChanges.slice(-10).reverse();
  const out: Node[] = [el('h2', { text: `Catalog (${snapshot.catalog.items.length} items)` }), ...toolSearch(context)];
  if (changes.length > 0)
    out.push(
      el('h3', { text: `Last changes (${snapshot.catalogChanges.length} kept, newest first)` }),
      table(
        ['at', 'servers (state then)', 'added', 'removed', 'unavailable', 'available again', 'more items'],
        changes.map((c) => [
          when(c.at),
          c.servers.map((s) => `${s.name} (${s.state})`).join(', '),
          names(c.added),
          names(c.removed),
          names(c.unavailable),
          names(c.available),
          c.more > 0 ? `${c.more} more` : '',
        ]),
        'changes',
      ),
      el('h3', { text: 'Items' }),
    );
  out.push(
    search,
    table(
      ['kind', 'exposed name', 'server', 'name', 'availability', 'description'],
      items.map((i) => [
        i.kind,
        el('code', { text: i.exposedName }),
        i.server,
        i.name,
        badge(i.availability),
        i.description ?? '',
      ]),
      'items',
    ),
  );
  const { leftOut, collisions } = snapshot.catalog;
  if (leftOut.length > 0)
    out.push(
      el('h3', { text: 'Left out' }),
      table(
        ['kind', 'server', 'name', 'reason'],
        leftOut.map((l) => [l.kind, l.server, l.name, l.reason]),
      ),
    );
  if (collisions.length > 0)
    out.push(
      el('h3', { text: 'Collisions' }),
      table(
        ['exposed name', 'resolution', 'servers'],
        collisions.map((c) => [c.exposedName, c.resolution, c.servers.join(', ')]),
      ),
    );
  return out;
}

export const catalogView: DevtoolsView = { name: 'catalog', ticks: false, render };
