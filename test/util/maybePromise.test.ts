import { describe, expect, it } from 'vitest';
import { isPromise, thenMaybe } from '../../src/util/maybePromise.js';

describe('thenMaybe', () => {
  it('applies the function at once to a value, and after resolution to a promise', async () => {
    expect(thenMaybe(20, (n) => n + 1)).toBe(21);
    const later = thenMaybe(Promise.resolve(20), (n) => n * 2);
    expect(isPromise(later)).toBe(true);
    expect(await later).toBe(40);
    await expect(thenMaybe(Promise.reject(new Error('no')), () => 1)).rejects.toThrow('no');
  });
});
