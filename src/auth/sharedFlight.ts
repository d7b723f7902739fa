/**
 * One asynchronous operation shared by every caller that needs it (one refresh for many
 * concurrent 401s). Each caller waits with its own signal; the operation is aborted only when
 * every caller has given up. Runtime-neutral.
 */

/** A shared operation; see {@link FlightGroup.join}. */
class Flight<T> {
  readonly promise: Promise<T>;
  private readonly controller = new AbortController();
  private waiters = 0;
  private settled = false;

  constructor(run: (signal: AbortSignal) => Promise<T>) {
    this.promise = Promise.resolve().then(() => run(this.controller.signal));
    this.promise.then(
      () => {
        this.settled = true;
      },
      () => {
        this.settled = true;
      },
    );
  }

  /** Waits for the result; rejects with `signal.reason` if `signal` aborts first. */
  join(signal: AbortSignal): Promise<T> {
    if (signal.aborted) return Promise.reject(signal.reason);
    this.waiters++;
    return new Promise<T>((resolve, reject) => {
      let left = false;
      const leave = (): void => {
        if (left) return;
        left = true;
        signal.removeEventListener('abort', onAbort);
        this.waiters--;
      };
      const onAbort = (): void => {
        leave();
        if (this.waiters === 0 && !this.settled) this.controller.abort(signal.reason);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.promise.then(
        (value) => {
          leave();
          resolve(value);
        },
        (error: unknown) => {
          leave();
          reject(error);
        },
      );
    });
  }
}

/** Flights by key: a second caller with the same key joins the running flight. */
export class FlightGroup<T> {
  private readonly flights = new Map<string, Flight<T>>();

  /** True while a flight for `key` runs. */
  has(key: string): boolean {
    return this.flights.has(key);
  }

  /**
   * Joins the flight for `key`, starting it with `run` when none runs. The flight is forgotten
   * once it settles, so a later call starts a new one.
   */
  join(key: string, signal: AbortSignal, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (signal.aborted) return Promise.reject(signal.reason);
    let flight = this.flights.get(key);
    if (flight === undefined) {
      const created = new Flight(run);
      flight = created;
      this.flights.set(key, created);
      const forget = (): void => {
        if (this.flights.get(key) === created) this.flights.delete(key);
      };
      created.promise.then(forget, forget);
    }
    return flight.join(signal);
  }

  /** Waits for the flight of `key`, if one runs; never rejects except with `signal.reason`. */
  async settle(key: string, signal: AbortSignal): Promise<void> {
    const flight = this.flights.get(key);
    if (flight === undefined) return;
    try {
      await flight.join(signal);
    } catch {
      if (signal.aborted) throw signal.reason;
    }
  }
}
