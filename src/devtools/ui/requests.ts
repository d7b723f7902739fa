/**
 * The requests view: a waterfall of the last requests per server on one time axis (with their
 * `input_required` rounds and sends after a reconnect as parts of one call), then every kept
 * request in a table, slowest first (a pending one counts its time so far) or by start, with
 * method, target, start, duration, outcome, result size, error and sends.
 */
import { badge, el, errorText, muted, table, when } from './dom.js';
import { isFailure, MAX_FAILED } from './state.js';
import type { DevtoolsView, ViewContext } from './view.js';
import { lengthOf, sendsText, waterfall, WATERFALL_MAX } from './waterfall.js';

/** A button that sets the table's order. */
function orderButton(context: ViewContext, order: 'slowest' | 'start', label: string): HTMLButtonElement {
  return el('button', {
    id: `order-${order}`,
    class: 'order',
    'aria-pressed': String(context.state.requestOrder === order),
    text: label,
    onclick: () => {
      context.state.requestOrder = order;
      context.renderNow();
    },
  });
}

function render(context: ViewContext): Node[] {
  const { state, now } = context;
  const all = state.requestList();
  const slowest = state.requestOrder === 'slowest';
  const list = [...all].sort(
    slowest ? (a, b) => lengthOf(b, now) - lengthOf(a, now) : (a, b) => b.startedAt - a.startedAt || b.id - a.id,
  );
  const failed = list.filter(isFailure).length;
  const order = slowest ? 'slowest first' : 'newest first';
  return [
    el('h2', {
      text: `Requests (${list.length}, ${order}; ${failed} failed or refused, the last ${MAX_FAILED} failed kept)`,
    }),
    el('h3', { text: `Timeline (the last ${WATERFALL_MAX}, per server)` }),
    waterfall(all, now),
    el('div', { class: 'orders' }, [
      orderButton(context, 'slowest', 'slowest first'),
      orderButton(context, 'start', 'by start'),
    ]),
    table(
      ['server', 'method', 'target', 'started', 'duration', 'outcome', 'bytes', 'error', 'sends'],
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
        sendsText(r),
      ]),
    ),
  ];
}

export const requestsView: DevtoolsView = { name: 'requests', ticks: true, render };
