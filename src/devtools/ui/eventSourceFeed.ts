/**
 * The feed of the page a Node host serves: its Server-Sent Events stream (`/events?token=`), a
 * `snapshot` event then `changes` events. The browser's `EventSource` reconnects on its own; the
 * stream then starts again with a fresh snapshot.
 */
import type { DevtoolsChange } from '../snapshot.js';
import type { DevtoolsFeed, DevtoolsFeedStart } from './feed.js';

/** A feed over the stream at `url` (same origin, the token in its query). */
export function eventSourceFeed(url: string): DevtoolsFeed {
  return (hooks) => {
    const events = new EventSource(url);
    events.addEventListener('snapshot', (message: MessageEvent<string>) => {
      hooks.snapshot(JSON.parse(message.data) as DevtoolsFeedStart);
      hooks.status('live');
    });
    events.addEventListener('changes', (message: MessageEvent<string>) => {
      hooks.changes(JSON.parse(message.data) as DevtoolsChange[]);
    });
    events.addEventListener('error', () => hooks.status('disconnected: reconnecting'));
    return () => events.close();
  };
}
