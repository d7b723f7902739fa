/**
 * Deep freezing of results that go into the cache, with a size estimate computed in the same
 * walk (so storing never needs a `JSON.stringify` just to size a value).
 */

/**
 * Deeply freezes a JSON value (objects and arrays, recursively) and returns an estimate of its
 * JSON size in bytes: string lengths in UTF-16 code units (exact for ASCII, which covers
 * base64 blobs), 8 per number, plus quotes, brackets, colons and commas. Non-JSON values
 * (functions, symbols) count as 4. Already-frozen objects are still walked, since
 * `Object.freeze` is shallow. The value must be acyclic (JSON from the wire always is).
 */
export function deepFreezeAndMeasure(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return value.length + 2;
    case 'number':
      return 8;
    case 'boolean':
      return 5;
    case 'object': {
      if (value === null) return 4;
      Object.freeze(value);
      if (Array.isArray(value)) {
        let size = 2 + (value.length > 0 ? value.length - 1 : 0);
        for (const item of value as unknown[]) size += deepFreezeAndMeasure(item);
        return size;
      }
      let size = 2;
      let first = true;
      for (const key in value) {
        if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
        size += key.length + (first ? 3 : 4);
        first = false;
        size += deepFreezeAndMeasure((value as Record<string, unknown>)[key]);
      }
      return size;
    }
    default:
      return 4;
  }
}

/** Deeply freezes a JSON value in place and returns it. */
export function deepFreeze<T>(value: T): T {
  deepFreezeAndMeasure(value);
  return value;
}
