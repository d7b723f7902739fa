/**
 * A tiny typed event channel: listeners (`on` returns the function that removes that listener)
 * and async iterators (each with its own queue from the moment it is created). Used by
 * subscriptions and live lists.
 */

/** Options of {@link EventStream}. */
export interface EventStreamOptions<E> {
  /** Receives errors thrown by listeners; they never stop delivery to the others. */
  onError(error: Error): void;
  /**
   * While an iterator lags, an event whose key equals that of an event still queued replaces it
   * in place (the newer one wins) instead of queueing twice. `undefined` keys never coalesce.
   */
  keyOf?: ((event: E) => string | undefined) | undefined;
  /**
   * Until a first listener or iterator is attached, hold up to this many events (coalesced by
   * `keyOf`, the oldest dropped past the limit) and hand them to it, in order, in a microtask
   * after it is attached (a listener is never called from inside `on()`). For a stream whose first
   * events may come before its owner could attach anything. Default: nothing is held.
   */
  holdUntilHeard?: number | undefined;
}

interface Reader<E> {
  queue: E[];
  wake: (() => void) | undefined;
}

/** Listeners and iterators over one sequence of events; ends once. */
export class EventStream<E> {
  private readonly listeners = new Set<(event: E) => void>();
  private readonly readers = new Set<Reader<E>>();
  private ended = false;
  /** Events held until someone hears them; `undefined` once they were handed over (or never held). */
  private held: E[] | undefined;
  private releasing = false;

  constructor(private readonly options: EventStreamOptions<E>) {
    if ((options.holdUntilHeard ?? 0) > 0) this.held = [];
  }

  /** Adds a listener (the same function twice counts twice); returns the function that removes this one. */
  on(listener: (event: E) => void): () => void {
    if (typeof listener !== 'function') throw new TypeError('listener must be a function');
    // A wrapper, so adding the same function twice gives two independent registrations.
    const registration = (event: E): void => listener(event);
    this.listeners.add(registration);
    this.release();
    return () => {
      this.listeners.delete(registration);
    };
  }

  /** Delivers `event` to every listener (synchronously, in order of registration) and every iterator. */
  emit(event: E): void {
    if (this.ended) return;
    if (this.held !== undefined) {
      this.hold(this.held, event);
      return;
    }
    this.deliver(event);
  }

  private deliver(event: E): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        this.options.onError(error instanceof Error ? error : new Error(String(error)));
      }
    }
    const key = this.options.keyOf?.(event);
    for (const reader of this.readers) {
      const at = key === undefined ? -1 : reader.queue.findIndex((queued) => this.options.keyOf?.(queued) === key);
      if (at >= 0) reader.queue[at] = event;
      else reader.queue.push(event);
      reader.wake?.();
    }
  }

  private hold(held: E[], event: E): void {
    const key = this.options.keyOf?.(event);
    const at = key === undefined ? -1 : held.findIndex((queued) => this.options.keyOf?.(queued) === key);
    if (at >= 0) held[at] = event;
    else if (held.push(event) > (this.options.holdUntilHeard ?? 0)) held.shift();
  }

  /** The first listener or iterator is attached: what was held goes to it in a microtask. */
  private release(): void {
    if (this.held === undefined || this.releasing) return;
    this.releasing = true;
    queueMicrotask(() => this.flush());
  }

  private flush(): void {
    const held = this.held;
    this.held = undefined;
    if (held === undefined || this.ended) return;
    for (const event of held) this.deliver(event);
  }

  /** Ends the stream: listeners are dropped; iterators finish after what they have queued. */
  end(): void {
    if (this.ended) return;
    if (this.releasing) this.flush(); // what a listener was promised reaches it before the end
    this.held = undefined;
    this.ended = true;
    this.listeners.clear();
    for (const reader of this.readers) reader.wake?.();
  }

  /** An iterator over the events from now on. `return()` detaches it. */
  iterate(): AsyncIterableIterator<E> {
    const reader: Reader<E> = { queue: [], wake: undefined };
    if (!this.ended) this.readers.add(reader);
    this.release();
    const done = (): IteratorResult<E> => {
      this.readers.delete(reader);
      reader.queue.length = 0;
      return { done: true, value: undefined };
    };
    const iterator: AsyncIterableIterator<E> = {
      next: async () => {
        for (;;) {
          const event = reader.queue.shift();
          if (event !== undefined) return { done: false, value: event };
          if (this.ended || !this.readers.has(reader)) return done();
          await new Promise<void>((resolve) => {
            reader.wake = resolve;
          });
          reader.wake = undefined;
        }
      },
      return: () => {
        const result = done();
        reader.wake?.();
        return Promise.resolve(result);
      },
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  }
}
