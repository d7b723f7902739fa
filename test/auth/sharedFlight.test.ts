/** One operation shared by concurrent callers, each with its own signal. */
import { describe, expect, it } from 'vitest';
import { FlightGroup } from '../../src/auth/sharedFlight.js';

function deferred<T>(): { promise: Promise<T>; resolve(value: T): void; reject(error: unknown): void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('FlightGroup', () => {
  it('runs once for concurrent callers of one key and again after it settled', async () => {
    const group = new FlightGroup<string>();
    let runs = 0;
    const gate = deferred<string>();
    const run = async (): Promise<string> => {
      runs++;
      return gate.promise;
    };
    const never = new AbortController().signal;
    const all = Promise.all([group.join('k', never, run), group.join('k', never, run), group.join('k', never, run)]);
    expect(group.has('k')).toBe(true);
    gate.resolve('v');
    expect(await all).toEqual(['v', 'v', 'v']);
    expect(runs).toBe(1);
    expect(group.has('k')).toBe(false);
    await group.join('k', never, async () => {
      runs++;
      return 'w';
    });
    expect(runs).toBe(2);
  });

  it('a caller that aborts leaves; the operation is aborted only when every caller left', async () => {
    const group = new FlightGroup<string>();
    let flightSignal: AbortSignal | undefined;
    const gate = deferred<string>();
    const run = async (signal: AbortSignal): Promise<string> => {
      flightSignal = signal;
      signal.addEventListener('abort', () => gate.reject(signal.reason));
      return gate.promise;
    };
    const a = new AbortController();
    const b = new AbortController();
    const first = group.join('k', a.signal, run);
    const second = group.join('k', b.signal, run);
    await Promise.resolve();
    await Promise.resolve();
    a.abort(new Error('a left'));
    await expect(first).rejects.toThrow('a left');
    expect(flightSignal?.aborted).toBe(false);
    b.abort(new Error('b left'));
    await expect(second).rejects.toThrow('b left');
    expect(flightSignal?.aborted).toBe(true);
  });

  it('shares a failure with every caller and rejects an already-aborted caller without running', async () => {
    const group = new FlightGroup<string>();
    const never = new AbortController().signal;
    const failing = async (): Promise<string> => {
      throw new Error('boom');
    };
    await expect(Promise.all([group.join('k', never, failing), group.join('k', never, failing)])).rejects.toThrow(
      'boom',
    );
    const aborted = AbortSignal.abort(new Error('gone'));
    let ran = false;
    await expect(
      group.join('x', aborted, async () => {
        ran = true;
        return 'v';
      }),
    ).rejects.toThrow('gone');
    expect(ran).toBe(false);
    await expect(group.settle('k', never)).resolves.toBeUndefined();
  });
});
