/**
 * Where the client hands the extension's notifications (`notifications/events/*`): push streams
 * by the `_meta.subscriptionId` their notifications carry (all share stdout on stdio), and
 * `notifications/events/list_changed` to whoever caches the list. Loaded with every client
 * (a few hundred bytes); the subscription code registers here once it is loaded.
 */
import { isObject, type JsonRpcNotification, type RequestId } from '../wire/messages.js';
import { EVENTS_SUBSCRIPTION_ID_META, EventsMethod } from '../wire/events.js';

export class EventsRouter {
  private readonly streams = new Map<RequestId, (notification: JsonRpcNotification) => void>();
  private readonly listChanged = new Set<() => void>();

  /** Takes an `notifications/events/*` notification; false for any other. */
  handle(notification: JsonRpcNotification): boolean {
    if (!notification.method.startsWith('notifications/events/')) return false;
    if (notification.method === EventsMethod.listChanged) {
      for (const listener of [...this.listChanged]) listener();
      return true;
    }
    const meta = notification.params?.['_meta'];
    const id = isObject(meta) ? meta[EVENTS_SUBSCRIPTION_ID_META] : undefined;
    if (typeof id !== 'string' && typeof id !== 'number') return false;
    const stream = this.streams.get(id) ?? this.streams.get(typeof id === 'number' ? String(id) : Number(id));
    if (stream === undefined) return false;
    stream(notification);
    return true;
  }

  /** Routes the notifications of the stream with request id `id` to `handler`; returns the function that stops it. */
  stream(id: RequestId, handler: (notification: JsonRpcNotification) => void): () => void {
    this.streams.set(id, handler);
    return () => {
      if (this.streams.get(id) === handler) this.streams.delete(id);
    };
  }

  /** Calls `listener` on each `notifications/events/list_changed`; returns the function that stops it. */
  onListChanged(listener: () => void): () => void {
    this.listChanged.add(listener);
    return () => void this.listChanged.delete(listener);
  }
}
