/**
 * The servers view: one row per server (state, transport, era, server info, capabilities, listen
 * or polling, reconnect, cache counters, last error), with an "invalidate cache" button per
 * server when the UI may act.
 */
import type { DevtoolsServer } from '../snapshot.js';
import { actionButton } from './actionButton.js';
import { badge, el, errorText, muted, table, type Cell } from './dom.js';
import type { DevtoolsView, ViewContext } from './view.js';

/** The reconnect cell: the next attempt and when, or the attempts so far once open again. */
function reconnectText(server: DevtoolsServer, now: number): Cell {
  const r = server.reconnect;
  if (r === undefined) return server.reconnectAttempts > 0 ? muted(`${server.reconnectAttempts} attempts so far`) : '';
  const wait = Math.max(0, Math.round((r.retryAt - now) / 1000));
  return (
    `attempt ${r.attempt}${r.coolDown ? ' (cool-down)' : ''}, ${wait > 0 ? `in ${wait} s` : 'running'} ` +
    `after ${r.cause} (${server.reconnectAttempts} in all)`
  );
}

function render(context: ViewContext): Node[] {
  const { snapshot, now } = context;
  const columns = ['server', 'state', 'transport', 'era', 'server info', 'capabilities', 'updates', 'reconnect'];
  columns.push('cache', 'last error');
  if (context.act !== undefined) columns.push('actions');
  const rows = snapshot.servers.map((s) => {
    const row: Cell[] = [
      el('b', { text: s.name }),
      badge(s.state),
      s.type ?? '',
      s.era !== undefined ? `${s.era} ${s.protocolVersion ?? ''}` : '',
      s.serverInfo ?? '',
      s.capabilities.join(', '),
      s.updates === 'polling' ? `polling every ${s.pollIntervalMs} ms (${s.pollReason})` : 'listen',
      reconnectText(s, now),
      s.cache !== undefined ? `${s.cache.hits} hits / ${s.cache.misses} misses` : muted('no cache'),
      s.lastError !== undefined ? el('code', { text: errorText(s.lastError) }) : '',
    ];
    if (context.act !== undefined)
      row.push(
        s.cache !== undefined
          ? actionButton(context, { action: 'invalidate-cache', server: s.name }, 'invalidate cache')
          : '',
      );
    return row;
  });
  return [el('h2', { text: `Servers (${snapshot.servers.length})` }), table(columns, rows)];
}

export const serversView: DevtoolsView = { name: 'servers', ticks: true, render };
