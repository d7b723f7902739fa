/**
 * `{ ...object, [key]: value }` built another way. On Node 20 (V8 11.3), an object spread
 * followed by a key the source lacks takes a slow runtime path (about 2 µs, against 0.1 µs for
 * a copy by `Object.assign` and the same key set after); the hot paths of a request copy this
 * way instead.
 */

/**
 * A shallow copy of `object` (its own enumerable keys, symbols too, in their order) with `key`
 * set to `value`, exactly as `{ ...object, [key]: value }`: a `key` the object has keeps its
 * place. An own `__proto__` key is copied as a key (a spread), never as the prototype; `key`
 * itself is never `__proto__`.
 */
export function copyWith<T extends object, K extends string, V>(object: T, key: K, value: V): T & Record<K, V> {
  // Object.assign sets keys on the copy: an own "__proto__" would set its prototype instead.
  const copy = (Object.hasOwn(object, '__proto__') ? { ...object } : Object.assign({}, object)) as Record<
    string,
    unknown
  >;
  copy[key] = value;
  return copy as T & Record<K, V>;
}
