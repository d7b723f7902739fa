/**
 * The one retry loop (transport/retry.ts): p-retry runs the attempts, `next` names every wait,
 * and the waits run on the injected timers.
 */
import { describe, expect, it } from 'vitest';
import { retry } from '../../src/resilience/retry.js';
import { instantTimers } from '../fakes/httpHarness.js';

describe('retry(): the loop under every retry of mcp-live', () => {
  it('waits what next() names, on the injected timers, and stops when the retries are spent', async () => {
    const timers = instantTimers();
    const judged: number[] = [];
    let calls = 0;
    const failure = new Error('down');
    await expect(
      retry(
        () => {
          calls++;
          return Promise.reject(failure);
        },
        {
          retries: 2,
          timers,
          next: (_error, attempt) => {
            judged.push(attempt);
            return attempt * 100;
          },
        },
      ),
    ).rejects.toBe(failure);
    expect(calls).toBe(3);
    // The last failure is not judged: nothing is left to wait for.
    expect(judged).toEqual([1, 2]);
    expect(timers.delays).toEqual([100, 200]);
  });

  it('lets next() judge every failure, a TypeError too, and stop with it', async () => {
    const timers = instantTimers();
    let calls = 0;
    const result = await retry(
      async () => {
        calls++;
        if (calls < 3) throw new TypeError(`not yet ${calls}`);
        return 'done';
      },
      { retries: Number.POSITIVE_INFINITY, timers, next: () => 0 },
    );
    expect(result).toBe('done');
    expect(calls).toBe(3);

    const final = new TypeError('final');
    await expect(retry(() => Promise.reject(final), { retries: 5, timers, next: () => undefined })).rejects.toBe(final);
  });
});
