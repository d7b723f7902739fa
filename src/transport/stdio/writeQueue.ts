/**
 * The stdio transport's writes to the server's stdin: lines sent in the same turn go out in one
 * `write` (from a microtask), and while the pipe is full later lines wait for it to drain, in
 * call order. Node only.
 */
import type { Writable } from 'node:stream';

/**
 * Lines sent in the same turn (and, while the pipe is full, until it drains), written with one
 * `stdin.write`. Every `send` of the batch gets the batch's promise.
 */
interface Batch {
  data: string;
  readonly promise: Promise<void>;
  resolve: () => void;
  reject: (error: Error) => void;
}

function newBatch(): Batch {
  const batch = { data: '' } as Batch;
  (batch as { promise: Promise<void> }).promise = new Promise<void>((resolve, reject) => {
    batch.resolve = resolve;
    batch.reject = reject;
  });
  return batch;
}

/** What a {@link WriteQueue} writes to, and when it may. */
export interface WriteTarget {
  /** The server's stdin, once spawned. */
  stdin(): Writable | null | undefined;
  /** True while lines may be written (the transport is open). */
  open(): boolean;
  /** The error a write that cannot happen, or that failed with `cause`, rejects with. */
  closedError(cause?: unknown): Error;
  /** A write failed with `error` (EPIPE: the server is gone): stdin leads nowhere any more. */
  broken(error: Error): void;
}

/** The lines not handed to stdin yet (see the file's opening comment). */
export class WriteQueue {
  /** Lines not handed to stdin yet: written by a microtask, or on 'drain' when the pipe is full. */
  private pending: Batch | undefined;
  private flushScheduled = false;
  private waitingForDrain = false;

  constructor(private readonly target: WriteTarget) {}

  /** Queues `data` (whole lines); resolves once the batch holding it is handed to the OS. */
  push(data: string): Promise<void> {
    let batch = this.pending;
    if (batch === undefined) {
      batch = newBatch();
      this.pending = batch;
    }
    batch.data += data;
    if (!this.flushScheduled && !this.waitingForDrain) {
      this.flushScheduled = true;
      queueMicrotask(this.flush);
    }
    return batch.promise;
  }

  /** Writes the pending batch now, unless the pipe is full (then 'drain' writes it). */
  writePending(): void {
    const batch = this.pending;
    if (batch === undefined || this.waitingForDrain) return;
    this.pending = undefined;
    const stdin = this.target.stdin();
    if (!this.target.open() || !stdin || !stdin.writable) {
      batch.reject(this.target.closedError());
      return;
    }
    const ok = stdin.write(batch.data, (error) => {
      if (error) {
        batch.reject(this.target.closedError(error));
        this.target.broken(error);
      } else {
        batch.resolve();
      }
    });
    if (!ok) {
      this.waitingForDrain = true;
      stdin.once('drain', this.onDrain);
    }
  }

  /** Rejects what is still queued, and stops waiting for 'drain'. */
  rejectQueued(): void {
    const batch = this.pending;
    this.pending = undefined;
    if (batch !== undefined) {
      batch.reject(this.target.closedError());
    }
    if (this.waitingForDrain) {
      this.waitingForDrain = false;
      this.target.stdin()?.off('drain', this.onDrain);
    }
  }

  private readonly flush = (): void => {
    this.flushScheduled = false;
    this.writePending();
  };

  private readonly onDrain = (): void => {
    this.waitingForDrain = false;
    this.writePending();
  };
}
