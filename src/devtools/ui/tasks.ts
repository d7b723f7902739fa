/** The tasks view: the tasks servers run for calls, newest first, with each status heard and when. */
import { badge, el, muted, table, when } from './dom.js';
import type { DevtoolsView, ViewContext } from './view.js';

function render({ snapshot }: ViewContext): Node[] {
  const tasks = [...snapshot.tasks].reverse();
  return [
    el('h2', { text: `Tasks (${tasks.length}, newest first)` }),
    tasks.length === 0
      ? muted('No task seen.')
      : table(
          ['server', 'tool', 'task', 'status', 'message', 'history'],
          tasks.map((t) => [
            t.server ?? '',
            t.tool ?? '',
            el('code', { text: t.taskId }),
            badge(t.status),
            t.statusMessage ?? '',
            el('code', { text: t.history.map((h) => `${when(h.at)} ${h.status}`).join('\n') }),
          ]),
          'tasks',
        ),
  ];
}

export const tasksView: DevtoolsView = { name: 'tasks', ticks: false, render };
