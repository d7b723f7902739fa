/**
 * The panel's actions, run in the page on the host the recorder is attached to (no server in
 * between): the same actions, and the same answers, as the page a Node host serves.
 */
import type { DevtoolsRecorder } from '../recorder.js';
import type { DevtoolsAction, DevtoolsActionResult, DevtoolsActionSender } from '../ui/feed.js';

/**
 * An action sender acting on `recorder.host`; it rejects with an `Error` saying why an action
 * cannot run (an `InvalidArgumentError` -32602 of the recorder's for an entry or an approval
 * that is gone, or arguments that are not the approval's).
 */
export function recorderActions(recorder: DevtoolsRecorder): DevtoolsActionSender {
  return async (action: DevtoolsAction): Promise<DevtoolsActionResult> => {
    switch (action.action) {
      case 'invalidate-cache': {
        const cache = recorder.host?.client(action.server)?.cache;
        if (cache === undefined) throw new Error(`no server with a cache by that name: ${action.server}`);
        return { invalidated: await cache.invalidateAll() };
      }
      case 'invalidate-entry':
        return { invalidated: await recorder.invalidateCacheEntry(action.server, action.entry) };
      case 'refetch-entry':
        return { refetched: await recorder.refetchCacheEntry(action.server, action.entry) };
      case 'answer-approval':
        recorder.answerApproval(action.approval, action.argumentsHash, action.verdict);
        return { answered: action.verdict };
      default:
        throw new Error(`unknown action ${String((action as { action?: unknown }).action)}`);
    }
  };
}
