/**
 * The panel's actions, run in the page on the host the recorder is attached to (no server in
 * between): the same actions, and the same answers, as the page a Node host serves.
 */
import type { DevtoolsRecorder } from '../recorder.js';
import type { DevtoolsAction, DevtoolsActionResult, DevtoolsActionSender } from '../ui/feed.js';

/** An action sender acting on `recorder.host`; it rejects with an `Error` saying why an action cannot run. */
export function recorderActions(recorder: DevtoolsRecorder): DevtoolsActionSender {
  return async (action: DevtoolsAction): Promise<DevtoolsActionResult> => {
    if (action.action !== 'invalidate-cache') throw new Error(`unknown action ${String(action.action)}`);
    const cache = recorder.host?.client(action.server)?.cache;
    if (cache === undefined) throw new Error(`no server with a cache by that name: ${action.server}`);
    return { invalidated: await cache.invalidateAll() };
  };
}
