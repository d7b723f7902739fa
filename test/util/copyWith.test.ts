import { describe, expect, it } from 'vitest';
import { copyWith } from '../../src/util/copyWith.js';

describe('copyWith', () => {
  it('copies like { ...object, [key]: value }: keys in order, a new key last, the source untouched', () => {
    const source = { b: 1, a: { deep: true } };
    const copy = copyWith(source, '_meta', { x: 1 });
    expect(copy).toEqual({ b: 1, a: { deep: true }, _meta: { x: 1 } });
    expect(Object.keys(copy)).toEqual(['b', 'a', '_meta']);
    expect(copy.a).toBe(source.a);
    expect(source).toEqual({ b: 1, a: { deep: true } });
    expect(JSON.stringify(copy)).toBe(JSON.stringify({ ...source, _meta: { x: 1 } }));
  });

  it('a key the object has keeps its place and takes the new value', () => {
    const copy = copyWith({ _meta: { old: 1 }, name: 'n' }, '_meta', { fresh: 2 });
    expect(Object.keys(copy)).toEqual(['_meta', 'name']);
    expect(copy._meta).toEqual({ fresh: 2 });
  });

  it('copies symbol keys and getter values, as a spread does', () => {
    const tag = Symbol('tag');
    const source = {
      [tag]: 'kept',
      get computed() {
        return 42;
      },
    };
    const copy = copyWith(source, 'signal', undefined);
    expect(copy[tag]).toBe('kept');
    expect(Object.getOwnPropertyDescriptor(copy, 'computed')).toEqual({
      value: 42,
      writable: true,
      enumerable: true,
      configurable: true,
    });
    expect(Object.hasOwn(copy, 'signal')).toBe(true);
  });

  it('an own "__proto__" key (as JSON.parse makes it) is copied as a key, not as the prototype', () => {
    const source = JSON.parse('{"__proto__":{"polluted":true},"uri":"a"}') as Record<string, unknown>;
    const copy = copyWith(source, '_meta', {});
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect((copy as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
    expect(JSON.stringify(copy)).toBe('{"__proto__":{"polluted":true},"uri":"a","_meta":{}}');
  });
});
