/**
 * The feed of a recorder in the same page: its snapshot at once, then its changes in batches (at
 * most one every 100 ms, a newer change of one thing replacing the older, as the page's stream
 * sends them). The recorder is listened to only while the feed runs. The status says `live`, or
 * `not attached` while the recorder has no host.
 */
import { systemTimers, type Timers } from '../../util/clock.js';
import { ChangeBatch } from '../changeBatch.js';
import type { DevtoolsRecorder } from '../recorder.js';
import type { DevtoolsFeed } from '../ui/feed.js';

/** The longest a change waits before the UI hears it, in ms. */
const BATCH_MS = 100;

/** A feed over `recorder`; `timers` run the batches. */
export function recorderFeed(recorder: DevtoolsRecorder, timers: Timers = systemTimers): DevtoolsFeed {
  return (hooks) => {
    const status = (): void => hooks.status(recorder.host === undefined ? 'not attached' : 'live');
    const batch = new ChangeBatch(BATCH_MS, timers, (changes) => {
      hooks.changes(changes);
      status();
    });
    const off = recorder.on((change) => batch.add(change));
    hooks.snapshot({ snapshot: recorder.snapshot(), maxRequests: recorder.maxRequests });
    status();
    return () => {
      off();
      batch.clear();
    };
  };
}
