import { describe, expect, it } from 'vitest';
import {
  DEFAULT_REOPEN_POLICY,
  resolveReopenPolicy,
  type ResolvedReopenPolicy,
} from '../../src/resilience/reopenPolicy.js';
import { InvalidArgumentError } from '../../src/errors/errors.js';
import { backoffDelay } from '../../src/resilience/backoff.js';

const exact = resolveReopenPolicy({ jitter: false }) as ResolvedReopenPolicy;

describe('resolveReopenPolicy', () => {
  it('fills defaults, keeps false, rejects bad values', () => {
    expect(resolveReopenPolicy(undefined)).toEqual(DEFAULT_REOPEN_POLICY);
    expect(resolveReopenPolicy(false)).toBe(false);
    expect(resolveReopenPolicy({ minDelayMs: 10, maxQuickRetries: 1 })).toMatchObject({
      minDelayMs: 10,
      maxQuickRetries: 1,
      coolDownMs: 900_000,
    });
    expect(() => resolveReopenPolicy({ minDelayMs: -1 })).toThrow(InvalidArgumentError);
    expect(() => resolveReopenPolicy({ factor: 0.5 })).toThrow(InvalidArgumentError);
    expect(() => resolveReopenPolicy({ maxQuickRetries: 1.5 })).toThrow(InvalidArgumentError);
    expect(() => resolveReopenPolicy({ coolDownMs: Number.POSITIVE_INFINITY })).toThrow(InvalidArgumentError);
  });
});

describe('backoffDelay over a reopen policy', () => {
  it('grows by factor from minDelayMs up to maxDelayMs; jitter scales into [0.5, 1)', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => backoffDelay(exact, n, Math.random))).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000,
    ]);
    const jittered = { ...exact, jitter: true };
    expect(backoffDelay(jittered, 1, () => 0)).toBe(500);
    expect(backoffDelay(jittered, 1, () => 0.999)).toBe(1000);
    expect(backoffDelay(jittered, 3, () => 0.5)).toBe(3000);
    // The cap applies after the jitter: 64000 x 0.75 = 48000 is capped at 30000.
    expect(backoffDelay(jittered, 7, () => 0.5)).toBe(30_000);
  });
});
