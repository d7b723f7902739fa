import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MAX_TTL_MS,
  ageMs,
  combinePages,
  expiresAt,
  isFresh,
  isWithinStaleWindow,
  normalizeScope,
  normalizeTtl,
  timeUntilStale,
} from '../../src/cache/freshness.js';

describe('normalizeTtl', () => {
  it.each([
    ['absent', undefined, 0],
    ['null', null, 0],
    ['zero', 0, 0],
    ['negative', -5, 0],
    ['NaN', Number.NaN, 0],
    ['string "60000" (not parsed)', '60000', 0],
    ['boolean', true, 0],
    ['positive', 300_000, 300_000],
    ['fractional', 1.5, 1.5],
    ['exactly the cap', DEFAULT_MAX_TTL_MS, DEFAULT_MAX_TTL_MS],
    ['1e15 (capped)', 1e15, DEFAULT_MAX_TTL_MS],
    ['Infinity (capped)', Number.POSITIVE_INFINITY, DEFAULT_MAX_TTL_MS],
  ])('%s', (_label, raw, expected) => {
    expect(normalizeTtl(raw)).toBe(expected);
  });

  it('takes a custom cap', () => {
    expect(normalizeTtl(10_000, 5_000)).toBe(5_000);
    expect(DEFAULT_MAX_TTL_MS).toBe(86_400_000);
  });
});

describe('normalizeScope', () => {
  it.each([
    ['public', 'public'],
    ['private', 'private'],
    ['shared', 'private'],
    ['PUBLIC', 'private'],
    [undefined, 'private'],
    [1, 'private'],
  ])('%s → %s', (raw, expected) => {
    expect(normalizeScope(raw)).toBe(expected);
  });
});

describe('freshness of an entry', () => {
  const entry = { receivedAt: 1_000, ttlMs: 500 };

  it('is fresh while now < receivedAt + ttlMs', () => {
    expect(isFresh(entry, 1_000)).toBe(true);
    expect(isFresh(entry, 1_499)).toBe(true);
    expect(isFresh(entry, 1_500)).toBe(false);
    expect(expiresAt(entry)).toBe(1_500);
    expect(timeUntilStale(entry, 1_200)).toBe(300);
    expect(timeUntilStale(entry, 2_000)).toBe(0);
    expect(ageMs(entry, 1_250)).toBe(250);
    expect(ageMs(entry, 900)).toBe(0);
  });

  it('ttl 0 is never fresh, not even at the instant it was received', () => {
    expect(isFresh({ receivedAt: 1_000, ttlMs: 0 }, 1_000)).toBe(false);
  });

  it('stale windows extend after expiry; 0 never matches, Infinity always does', () => {
    expect(isWithinStaleWindow(entry, 1_600, 200)).toBe(true);
    expect(isWithinStaleWindow(entry, 1_700, 200)).toBe(false);
    expect(isWithinStaleWindow(entry, 1_500, 0)).toBe(false);
    expect(isWithinStaleWindow(entry, 1e12, Number.POSITIVE_INFINITY)).toBe(true);
  });
});

describe('combinePages', () => {
  it('R6: shortest expiry wins and one private page makes the list private', () => {
    const combined = combinePages([
      { receivedAt: 0, ttlMs: 300_000, scope: 'public' },
      { receivedAt: 10, ttlMs: 5_000, scope: 'private' },
    ]);
    expect(combined).toEqual({ scope: 'private', scopeMismatch: true, freshUntil: 5_010 });
  });

  it('all public stays public; all private is no mismatch', () => {
    expect(
      combinePages([
        { receivedAt: 0, ttlMs: 10, scope: 'public' },
        { receivedAt: 0, ttlMs: 20, scope: 'public' },
      ]),
    ).toEqual({
      scope: 'public',
      scopeMismatch: false,
      freshUntil: 10,
    });
    expect(
      combinePages([
        { receivedAt: 0, ttlMs: 10, scope: 'private' },
        { receivedAt: 0, ttlMs: 20, scope: 'private' },
      ]).scopeMismatch,
    ).toBe(false);
  });

  it('an empty list is private and never fresh', () => {
    expect(combinePages([])).toEqual({ scope: 'private', scopeMismatch: false, freshUntil: Number.NEGATIVE_INFINITY });
  });
});
