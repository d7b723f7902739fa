/**
 * The requests' waterfall: the last requests on one shared time axis, grouped by server, each a
 * bar from its start to its end (to now while pending), and inside it its sends (the first, each
 * `input_required` round, a send again after a reconnect) as parts of the one call; the gaps
 * between them are the client's own time (answering the server's input requests). Built of
 * elements positioned through the CSSOM (allowed under the page's CSP), no table rows.
 */
import type { DevtoolsAttempt, DevtoolsRequest } from '../snapshot.js';
import { el, when } from './dom.js';

/** The requests the waterfall shows: the last ones by start. */
export const WATERFALL_MAX = 40;

/** How long a request took, or has run so far, in ms. */
export function lengthOf(request: DevtoolsRequest, now: number): number {
  return request.durationMs ?? Math.max(0, now - request.startedAt);
}

/** `12.3 ms`, `1.52 s`. */
function duration(ms: number): string {
  return ms < 1000 ? `${ms.toFixed(1)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

/** One send as text: `round +120.0 ms, 30.1 ms: input_required`. */
function attemptText(attempt: DevtoolsAttempt): string {
  const took = attempt.durationMs === undefined ? 'waiting' : duration(attempt.durationMs);
  return `${attempt.kind} +${duration(attempt.offsetMs)}, ${took}: ${attempt.outcome}`;
}

/** What a request's sends were, in a few words: `2 sends (1 input_required round)`. */
export function sendsText(request: DevtoolsRequest): string {
  const { attempts } = request;
  if (attempts.length <= 1) return attempts.length === 0 ? '' : '1';
  const rounds = attempts.filter((attempt) => attempt.kind === 'round').length;
  const resends = attempts.filter((attempt) => attempt.kind === 'resend').length;
  const parts = [
    rounds > 0 ? `${rounds} input_required round${rounds > 1 ? 's' : ''}` : '',
    resends > 0 ? `${resends} sent again` : '',
  ].filter((part) => part !== '');
  return `${attempts.length} sends (${parts.join(', ')})`;
}

/** Places `node` from `from` to `to`, in percent of its parent's width (at least a sliver). */
function place(node: HTMLElement, from: number, to: number): HTMLElement {
  node.style.setProperty('left', `${Math.min(100, Math.max(0, from)).toFixed(3)}%`);
  node.style.setProperty('width', `${Math.max(0.3, to - from).toFixed(3)}%`);
  return node;
}

/** The waterfall of `requests` (any order) at `now`. */
export function waterfall(requests: readonly DevtoolsRequest[], now: number): HTMLElement {
  const shown = requests
    .filter((request) => request.outcome !== 'refused')
    .sort((a, b) => a.startedAt - b.startedAt || a.id - b.id)
    .slice(-WATERFALL_MAX);
  if (shown.length === 0) return el('div', { class: 'waterfall muted', text: 'No request yet.' });
  const start = shown[0]!.startedAt;
  const end = Math.max(...shown.map((request) => request.startedAt + lengthOf(request, now)));
  const span = Math.max(1, end - start);
  const percent = (at: number): number => ((at - start) / span) * 100;
  const servers = new Map<string, DevtoolsRequest[]>();
  for (const request of shown) {
    const server = request.server ?? '(host)';
    servers.set(server, [...(servers.get(server) ?? []), request]);
  }
  const lanes = [...servers].map(([server, list]) =>
    el('div', { class: 'wf-server', 'data-server': server }, [
      el('div', { class: 'wf-name', text: server }),
      ...list.map((request) => row(request, now, percent)),
    ]),
  );
  return el('div', { class: 'waterfall' }, [
    el('div', { class: 'wf-axis' }, [
      el('span', { text: `${when(start)} +0` }),
      el('span', { text: `+${duration(span)}` }),
    ]),
    ...lanes,
  ]);
}

/** One request's row: its label, and its bar with its sends inside. */
function row(request: DevtoolsRequest, now: number, percent: (at: number) => number): HTMLElement {
  const length = lengthOf(request, now);
  const sends = sendsText(request);
  const label = `${request.method}${request.target !== undefined ? ` ${request.target}` : ''}`;
  const bar = place(
    el('div', { class: `wf-bar ${request.outcome}` }),
    percent(request.startedAt),
    percent(request.startedAt + length),
  );
  // The sends, placed inside the bar (in percent of the call's own length).
  const scale = Math.max(1, length);
  for (const attempt of request.attempts) {
    const to = attempt.offsetMs + (attempt.durationMs ?? Math.max(0, length - attempt.offsetMs));
    bar.append(
      place(
        el('div', { class: `wf-send ${attempt.kind} ${attempt.outcome}`, title: attemptText(attempt) }),
        (attempt.offsetMs / scale) * 100,
        (to / scale) * 100,
      ),
    );
  }
  const title = [`${label}: ${duration(length)}, ${request.outcome}`, ...request.attempts.map(attemptText)].join('\n');
  return el(
    'div',
    {
      class: 'wf-row',
      'data-id': request.id,
      'data-sends': request.attempts.map((attempt) => `${attempt.kind}:${attempt.outcome}`).join(' '),
      title,
    },
    [
      el('span', { class: 'wf-label' }, [el('code', { text: label }), sends.length > 1 ? ` · ${sends}` : '']),
      el('div', { class: 'wf-track' }, [bar]),
      el('span', { class: 'wf-time', text: duration(length) }),
    ],
  );
}
