/**
 * The subscriptions view: each server's listen subscriptions open now (what each asked for, what
 * the server acknowledged, what it left out, its state), and the notifications they heard,
 * newest first, with when.
 */
import { badge, el, muted, table, when } from './dom.js';
import type { DevtoolsView, ViewContext } from './view.js';

/** The last notifications shown. */
const SHOWN_HEARD = 50;

function render({ snapshot }: ViewContext): Node[] {
  const { subscriptions, heard } = snapshot;
  const newest = heard.slice(-SHOWN_HEARD).reverse();
  return [
    el('h2', { text: `Subscriptions (${subscriptions.length} open)` }),
    subscriptions.length === 0
      ? muted('No listen subscription is open.')
      : table(
          ['server', 'listen id', 'state', 'asked', 'acknowledged', 'left out', 'reopens'],
          subscriptions.map((s) => [
            s.server,
            s.id ?? '',
            badge(s.state),
            s.requested.join(', '),
            s.honoured.join(', '),
            s.notHonoured.join(', '),
            s.reopens,
          ]),
          'subscriptions',
        ),
    el('h3', { text: `Heard (${heard.length} kept, the last ${SHOWN_HEARD} shown, newest first)` }),
    newest.length === 0
      ? muted('Nothing heard yet.')
      : table(
          ['at', 'server', 'notification', 'listen id', 'uri'],
          newest.map((h) => [when(h.at), h.server, el('code', { text: h.method }), h.subscription ?? '', h.uri ?? '']),
          'heard',
        ),
  ];
}

export const subscriptionsView: DevtoolsView = { name: 'subscriptions', ticks: false, render };
