import { describe, expect, it } from 'vitest';
import { ArtifactStore, utf8Length } from '../../src/host/contextBudget/artifacts.js';
import { wordsOf } from '../../src/host/contextBudget/toolIndex.js';

const result = { content: [] };

describe('ArtifactStore', () => {
  it('keeps at most maxCount and maxBytes, oldest out first, and expires artifacts', () => {
    let now = 0;
    const store = new ArtifactStore({ maxCount: 2, maxBytes: 10, ttlMs: 100, clock: { now: () => now } });
    const a = store.put({ server: 's', tool: 't', text: 'aaaa', result });
    const b = store.put({ server: 's', tool: 't', text: 'bbbb', result });
    expect(store.list().map((x) => x.id)).toEqual([a?.id, b?.id]);
    const c = store.put({ server: 's', tool: 't', text: 'cccc', result });
    expect(store.list().map((x) => x.id)).toEqual([b?.id, c?.id]);
    store.put({ server: 's', tool: 't', text: 'dddddddd', result }); // 8 bytes: c and b out
    expect(store.list().map((x) => x.text)).toEqual(['dddddddd']);
    expect(store.bytes).toBe(8);
    expect(store.put({ server: 's', tool: 't', text: 'x'.repeat(11), result })).toBeUndefined();
    now = 100;
    expect(store.size).toBe(0);
  });

  it('pages without splitting a surrogate pair', () => {
    const store = new ArtifactStore();
    const id = store.put({ server: 's', tool: 't', text: 'ab😀cd', result })!.id;
    const first = store.read(id, 0, 3)!;
    expect(first).toMatchObject({ text: 'ab', nextOffset: 2, totalChars: 6 });
    expect(store.read(id, 2, 10)).toMatchObject({ text: '😀cd', nextOffset: undefined });
    expect(store.read('art_999', 0, 10)).toBeUndefined();
    expect(utf8Length('a😀é')).toBe(1 + 4 + 2);
  });

  it('splits words on case humps, digits and punctuation', () => {
    expect(wordsOf('getIssue2 github__list-PRs')).toEqual(['get', 'issue', '2', 'github', 'list', 'prs']);
  });
});
