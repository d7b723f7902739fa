/**
 * The hit index on its own: what it answers after keys come and go, including the bucket it
 * remembers from the last lookup (a dropped bucket must never answer for its successor).
 */
import { describe, expect, it } from 'vitest';
import { HitIndex } from '../../src/cache/hitIndex.js';

describe('HitIndex', () => {
  it('answers for the exact method, version, partition and param, and nothing else', () => {
    const index = new HitIndex('s', 100);
    index.add('resources/read', 'v1', 'public', 'a', 'k-a');
    index.add('resources/read', 'v1', 'user-1', 'a', 'k-a-private');
    expect(index.get('resources/read', 'v1', 'public', 'a')).toBe('k-a');
    expect(index.get('resources/read', 'v1', 'user-1', 'a')).toBe('k-a-private');
    expect(index.get('resources/read', 'v1', 'public', 'a')).toBe('k-a');
    expect(index.get('resources/read', 'v1', 'public', 'b')).toBeUndefined();
    expect(index.get('resources/read', 'v2', 'public', 'a')).toBeUndefined();
    expect(index.get('tools/list', 'v1', 'public', null)).toBeUndefined();
    expect(index.size).toBe(2);
  });

  it('a bucket emptied and made again answers with the new key, not the remembered one', () => {
    const index = new HitIndex('s', 100);
    index.add('resources/read', 'v1', 'public', 'a', 'old');
    expect(index.get('resources/read', 'v1', 'public', 'a')).toBe('old');
    index.remove('resources/read', 'v1', 'public', 'a');
    expect(index.get('resources/read', 'v1', 'public', 'a')).toBeUndefined();
    index.add('resources/read', 'v1', 'public', 'a', 'new');
    expect(index.get('resources/read', 'v1', 'public', 'a')).toBe('new');
    // A key added to the remembered bucket is seen at once.
    index.add('resources/read', 'v1', 'public', 'b', 'b');
    expect(index.get('resources/read', 'v1', 'public', 'b')).toBe('b');
  });

  it('clear forgets everything, the remembered bucket too; going over the limit clears', () => {
    const index = new HitIndex('s', 2);
    index.add('resources/read', 'v1', 'public', 'a', 'k-a');
    expect(index.get('resources/read', 'v1', 'public', 'a')).toBe('k-a');
    index.clear();
    expect(index.get('resources/read', 'v1', 'public', 'a')).toBeUndefined();
    index.add('resources/read', 'v1', 'public', 'a', 'k-a');
    index.add('resources/read', 'v1', 'public', 'b', 'k-b');
    expect(index.get('resources/read', 'v1', 'public', 'a')).toBe('k-a');
    index.add('resources/read', 'v1', 'public', 'c', 'k-c');
    expect(index.size).toBe(0);
    expect(index.get('resources/read', 'v1', 'public', 'a')).toBeUndefined();
  });
});
