/** The approvals view: the tool calls waiting for an approval hook, with their (redacted) arguments. */
import { el, muted, table, when } from './dom.js';
import type { DevtoolsView, ViewContext } from './view.js';

function render({ snapshot }: ViewContext): Node[] {
  const { approvals } = snapshot;
  return [
    el('h2', { text: `Approvals waiting (${approvals.length})` }),
    approvals.length === 0
      ? muted('No tool call is waiting for an approval.')
      : table(
          ['tool', 'server', 'name', 'waiting since', 'arguments'],
          approvals.map((a) => [
            el('code', { text: a.exposedName }),
            a.server,
            a.name,
            when(a.since),
            el('pre', { text: JSON.stringify(a.arguments, null, 2) }),
          ]),
        ),
  ];
}

export const approvalsView: DevtoolsView = { name: 'approvals', ticks: false, render };
