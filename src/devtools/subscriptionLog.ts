/**
 * The subscriptions the devtools show: per server, the listen subscriptions open now (what each
 * asked for, what the server acknowledged, its state), read from the client when a snapshot is
 * taken, and a ring of the last {@link MAX_HEARD} notifications the clients' subscriptions
 * handled (acknowledgments, list and resource changes, task statuses), with when. Uris are
 * redacted and cut; a task id is counted, never shown.
 */
import { partsOf } from '../client/clientView.js';
import type { McpClient } from '../client/client.js';
import type { HeardNotification } from '../subscriptions/subscriptionManager.js';
import type { Subscription } from '../subscriptions/types.js';
import { redactText } from '../observability/debug.js';
import { headOf } from '../util/text.js';
import type { SubscriptionFilter } from '../wire/protocol.js';
import { RingBuffer } from './ringBuffer.js';
import type { DevtoolsHeard, DevtoolsSubscription } from './snapshot.js';

/** Notifications kept, all servers together. */
export const MAX_HEARD = 200;
const MAX_URI = 200;

/** A filter as the names of what it asks for: `toolsListChanged`, `resource demo://x`, `3 task ids`. */
export function filterNames(filter: SubscriptionFilter): string[] {
  const out: string[] = [];
  for (const flag of ['toolsListChanged', 'promptsListChanged', 'resourcesListChanged'] as const)
    if (filter[flag] === true) out.push(flag);
  for (const uri of filter.resourceSubscriptions ?? []) out.push(`resource ${redactText(headOf(uri, MAX_URI))}`);
  const tasks = filter.taskIds?.length ?? 0;
  if (tasks > 0) out.push(`${tasks} task id${tasks === 1 ? '' : 's'}`);
  return out;
}

/** A subscription id as sent (a JSON-RPC id: a string or a number) as text; `undefined` for anything else. */
function idText(id: unknown): string | undefined {
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}

/** See the file's opening comment. */
export class SubscriptionLog {
  private readonly heard = new RingBuffer<DevtoolsHeard>(MAX_HEARD);
  /** The clients watched, and the function that stops watching each. */
  private readonly watched = new Map<McpClient, () => void>();

  /**
   * @param wallClock when a notification was heard
   * @param changed told after each notification heard
   */
  constructor(
    private readonly now: () => number,
    private readonly changed: () => void,
  ) {}

  /** Watches `client` of `server` (once per client). */
  watch(server: string, client: McpClient): void {
    if (this.watched.has(client)) return;
    const off = partsOf(client).subscriptions.watch((heard) => this.hear(server, heard));
    this.watched.set(client, off);
  }

  /** Stops watching every client. */
  stop(): void {
    for (const off of this.watched.values()) off();
    this.watched.clear();
  }

  /** The notifications heard, oldest first. */
  list(): DevtoolsHeard[] {
    return this.heard.toArray();
  }

  /** The subscriptions of `client` open now. */
  openOf(server: string, client: McpClient): DevtoolsSubscription[] {
    return partsOf(client)
      .subscriptions.openSubscriptions()
      .map((s: Subscription) => ({
        server,
        id: idText(s.subscriptionId),
        state: s.state,
        requested: filterNames(s.requested),
        honoured: filterNames(s.honoured),
        notHonoured: filterNames(s.notHonoured),
        reopens: s.reopens,
      }));
  }

  private hear(server: string, heard: HeardNotification): void {
    const uri = heard.params?.['uri'];
    this.heard.push({
      server,
      method: heard.method,
      subscription: idText(heard.subscriptionId),
      uri: typeof uri === 'string' ? redactText(headOf(uri, MAX_URI)) : undefined,
      at: this.now(),
    });
    this.changed();
  }
}
