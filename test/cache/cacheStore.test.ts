import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_ENTRIES, MemoryCacheStore } from '../../src/cache/cacheStore.js';
import type { CacheEntry } from '../../src/cache/types.js';
import { deepFreezeAndMeasure } from '../../src/cache/freeze.js';
import { InvalidArgumentError } from '../../src/errors/errors.js';

const entry = (bytes: number): CacheEntry => ({ value: {}, receivedAt: 0, ttlMs: 0, scope: 'public', bytes });

describe('MemoryCacheStore', () => {
  it('defaults to 5000 entries and 50 MiB', () => {
    const store = new MemoryCacheStore();
    expect(store.maxEntries).toBe(DEFAULT_MAX_ENTRIES);
    expect(store.maxBytes).toBe(DEFAULT_MAX_BYTES);
    expect(DEFAULT_MAX_ENTRIES).toBe(5000);
    expect(DEFAULT_MAX_BYTES).toBe(52_428_800);
  });

  it('[Symbol.asyncDispose]() empties the store and drops its eviction listeners; the store stays usable', async () => {
    const store = new MemoryCacheStore({ maxEntries: 1 });
    const evicted: string[] = [];
    store.onEvict((key) => evicted.push(key));
    store.set('a', entry(1));
    await store[Symbol.asyncDispose]();
    expect(store.size).toBe(0);
    store.set('b', entry(1));
    store.set('c', entry(1)); // evicts b: no listener left to hear it
    expect(evicted).toEqual([]);
    expect(store.keys('')).toEqual(['c']);
    await store.close(); // idempotent
    expect(store.size).toBe(0);
  });

  it('evicts the least recently used entry past maxEntries and tells listeners', () => {
    const store = new MemoryCacheStore({ maxEntries: 2 });
    const evicted: string[] = [];
    store.onEvict((key) => evicted.push(key));
    store.set('a', entry(1));
    store.set('b', entry(1));
    store.get('a'); // a is now the most recently used
    store.set('c', entry(1));
    expect(evicted).toEqual(['b']);
    expect(store.keys('')).toEqual(['c', 'a']);
  });

  it('evicts by bytes, and refuses an entry larger than maxBytes', () => {
    const store = new MemoryCacheStore({ maxBytes: 100 });
    const evicted: string[] = [];
    const off = store.onEvict((key) => evicted.push(key));
    expect(store.set('a', entry(60))).toBe(true);
    expect(store.set('b', entry(60))).toBe(true);
    expect(evicted).toEqual(['a']);
    expect(store.bytes).toBe(60);
    expect(store.set('big', entry(101))).toBe(false);
    expect(store.get('big')).toBeUndefined();
    expect(store.size).toBe(1);
    off();
    store.set('c', entry(60));
    expect(evicted).toEqual(['a']);
  });

  it('delete, overwrite and clear are not evictions', () => {
    const store = new MemoryCacheStore({ maxEntries: 5 });
    const evicted: string[] = [];
    store.onEvict((key) => evicted.push(key));
    store.set('a', entry(1));
    store.set('a', entry(2));
    store.delete('a');
    store.set('b', entry(1));
    store.clear();
    expect(evicted).toEqual([]);
    expect(store.size).toBe(0);
  });

  it('keys(prefix) filters', () => {
    const store = new MemoryCacheStore();
    store.set('x:1', entry(1));
    store.set('y:1', entry(1));
    expect(store.keys('x:')).toEqual(['x:1']);
  });

  it.each([0, -1, 1.5, Number.NaN])('rejects maxEntries %s with InvalidArgumentError', (value) => {
    expect(() => new MemoryCacheStore({ maxEntries: value })).toThrow(InvalidArgumentError);
  });
});

describe('deepFreezeAndMeasure', () => {
  it('freezes every nested object and array', () => {
    const value = { a: [{ b: 'x' }], c: { d: [1, 2] } };
    deepFreezeAndMeasure(value);
    expect(Object.isFrozen(value)).toBe(true);
    expect(Object.isFrozen(value.a)).toBe(true);
    expect(Object.isFrozen(value.a[0])).toBe(true);
    expect(Object.isFrozen(value.c.d)).toBe(true);
  });

  it('estimates the JSON length of ASCII JSON within a few bytes', () => {
    const value = {
      tools: [{ name: 'search', inputSchema: { type: 'object' } }],
      ttlMs: 600000,
      cacheScope: 'private',
      ok: true,
      none: null,
    };
    const exact = JSON.stringify(value).length;
    const estimate = deepFreezeAndMeasure(value);
    expect(Math.abs(estimate - exact)).toBeLessThanOrEqual(4);
  });
});

describe('src/cache is runtime-neutral', () => {
  it('imports no node: modules and uses no Node globals', () => {
    const dir = new URL('../../src/cache/', import.meta.url);
    const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const text = readFileSync(new URL(file, dir), 'utf8');
      expect(text, file).not.toMatch(/from ['"]node:|require\(|\bBuffer\b|\bprocess\.[a-z]/);
    }
  });
});
