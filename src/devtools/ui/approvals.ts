/**
 * The approvals view: the tool calls waiting for an approval hook, with their (redacted)
 * arguments and the hash of the arguments as they will be sent; "allow" and "deny" for a call
 * the app lets the page answer, when the UI may act (the answer names that hash).
 */
import type { DevtoolsApproval } from '../snapshot.js';
import { actionButton } from './actionButton.js';
import { el, muted, table, when, type Cell } from './dom.js';
import type { DevtoolsView, ViewContext } from './view.js';

function answers(context: ViewContext, a: DevtoolsApproval): Cell {
  if (context.act === undefined) return '';
  if (!a.answerable) return muted('answered by the app');
  const answer = (verdict: 'allow' | 'deny') =>
    actionButton(
      context,
      { action: 'answer-approval', server: a.server, approval: a.id, argumentsHash: a.argumentsHash, verdict },
      verdict,
      () => (verdict === 'allow' ? 'allowed' : 'denied'),
    );
  return el('span', {}, [answer('allow'), ' ', answer('deny')]);
}

function render(context: ViewContext): Node[] {
  const { approvals } = context.snapshot;
  const columns = ['tool', 'server', 'name', 'waiting since', 'arguments', 'arguments hash'];
  if (context.act !== undefined) columns.push('answer');
  return [
    el('h2', { text: `Approvals waiting (${approvals.length})` }),
    approvals.length === 0
      ? muted('No tool call is waiting for an approval.')
      : table(
          columns,
          approvals.map((a) => {
            const row: Cell[] = [
              el('code', { text: a.exposedName }),
              a.server,
              a.name,
              when(a.since),
              el('pre', { text: JSON.stringify(a.arguments, null, 2) }),
              el('code', { text: a.argumentsHash.slice(0, 16) }),
            ];
            if (context.act !== undefined) row.push(answers(context, a));
            return row;
          }),
        ),
  ];
}

export const approvalsView: DevtoolsView = { name: 'approvals', ticks: false, render };
