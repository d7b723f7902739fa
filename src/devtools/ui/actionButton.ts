/**
 * A button that runs one action through the UI's action sender, always under its own label, with
 * what its last click did beside it (`working…`, its result, why it failed; class
 * `action-result`), kept in the UI's state by action so that a re-render shows it too. (The
 * result once replaced the label, and a new user read `done (1)` as a state, not a button.)
 */
import type { DevtoolsAction, DevtoolsActionResult } from './feed.js';
import { el } from './dom.js';
import type { ViewContext } from './view.js';

/** What a result says by default: `done`, with the number of entries dropped when there is one. */
function doneText(result: DevtoolsActionResult): string {
  return result.invalidated === undefined ? 'done' : `done (${result.invalidated})`;
}

/**
 * A button labelled `label` that runs `action` (`data-server` names its server), in a span with
 * its last result; `''` in a read-only UI.
 */
export function actionButton(
  context: ViewContext,
  action: DevtoolsAction,
  label: string,
  describe: (result: DevtoolsActionResult) => string = doneText,
): HTMLElement | '' {
  const send = context.act;
  if (send === undefined) return '';
  const key = JSON.stringify(action);
  const now = context.state.acting.get(key);
  const run = async (): Promise<void> => {
    context.state.acting.set(key, { busy: true, text: 'working…' });
    context.schedule();
    let text: string;
    try {
      text = describe(await send(action));
    } catch (error) {
      text = `failed: ${error instanceof Error ? error.message : String(error)}`;
    }
    context.state.acting.set(key, { busy: false, text });
    context.schedule();
  };
  const button = el('button', {
    text: label,
    'data-server': action.server,
    disabled: now?.busy === true,
    onclick: () => void run(),
  });
  return el('span', { class: 'action' }, [
    button,
    now === undefined ? null : el('span', { class: 'action-result muted', text: ` ${now.text}` }),
  ]);
}
