/**
 * The requests view: the kept requests of every server, slowest first (a pending one counts its
 * time so far), with method, target, start, duration, outcome, result size and error.
 */
import type { DevtoolsRequest } from '../snapshot.js';
import { badge, el, errorText, muted, table, when } from './dom.js';
import { isFailure, MAX_FAILED } from './state.js';
import type { DevtoolsView, ViewContext } from './view.js';

/** How long a request took, or has run so far, in ms. */
export function lengthOf(request: DevtoolsRequest, now: number): number {
  return request.durationMs ?? now - request.startedAt;
}

function render({ state, now }: ViewContext): Node[] {
  const list = state.requestList().sort((a, b) => lengthOf(b, now) - lengthOf(a, now));
  const failed = list.filter(isFailure).length;
  return [
    el('h2', {
      text: `Requests (${list.length}, slowest first; ${failed} failed or refused, the last ${MAX_FAILED} failed kept)`,
    }),
    table(
      ['server', 'method', 'target', 'started', 'duration', 'outcome', 'bytes', 'error'],
      list.map((r) => [
        r.server ?? '',
        el('code', { text: r.method }),
        r.target ?? '',
        when(r.startedAt),
        r.durationMs === undefined
          ? muted(`${Math.round(now - r.startedAt)} ms so far`)
          : `${r.durationMs.toFixed(1)} ms`,
        badge(r.outcome),
        r.bytes ?? '',
        r.error !== undefined ? el('code', { text: errorText(r.error) }) : '',
      ]),
    ),
  ];
}

export const requestsView: DevtoolsView = { name: 'requests', ticks: true, render };
