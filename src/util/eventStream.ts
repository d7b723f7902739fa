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

  constructor(private readonly options: EventStreamOptions<E>) {}

  /** Adds a listener (the same function twice counts twice); returns the function that removes this one. */
  on(listener: (event: E) => void): () => void {
    if (typeof listener !== 'function') throw new TypeError('listener must be a function');
    // A wrapper, so adding the same function twice gives two independent registrations.
    const registration = (event: E): void => listener(event);
    this.listeners.add(registration);
    return () => {
      this.listeners.delete(registration);
    };
  }

  /** Delivers `event` to every listener (synchronously, in order of registration) and every iterator. */
  emit(event: E): void {
    if (this.ended) return;
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

  /** Ends the stream: listeners are dropped; iterators finish after what they have queued. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.listeners.clear();
    for (const reader of this.readers) reader.wake?.();
  }

  /** An iterator over the events from now on. `return()` detaches it. */
  iterate(): AsyncIterableIterator<E> {
    const reader: Reader<E> = { queue: [], wake: undefined };
    if (!this.ended) this.readers.add(reader);
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
