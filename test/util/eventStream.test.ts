import { describe, expect, it } from 'vitest';
import { EventStream } from '../../src/util/eventStream.js';

type E = { type: string; uri?: string };

describe('EventStream', () => {
  it('any number of listeners; removing one leaves the others; a throwing listener is reported', () => {
    const errors: Error[] = [];
    const stream = new EventStream<E>({ onError: (e) => errors.push(e) });
    const a: string[] = [];
    const b: string[] = [];
    const listener = (e: E) => a.push(e.type);
    const offA = stream.on(listener);
    const offA2 = stream.on(listener); // the same function twice: two registrations
    stream.on((e) => b.push(e.type));
    stream.on(() => {
      throw new Error('boom');
    });
    stream.emit({ type: 'one' });
    offA();
    stream.emit({ type: 'two' });
    offA2();
    offA2();
    stream.emit({ type: 'three' });
    expect(a).toEqual(['one', 'one', 'two']);
    expect(b).toEqual(['one', 'two', 'three']);
    expect(errors.map((e) => e.message)).toEqual(['boom', 'boom', 'boom']);
  });

  it('iterators see events from their creation, coalesce keyed events while lagging, and end after draining', async () => {
    const stream = new EventStream<E>({
      onError: () => {},
      keyOf: (e) => (e.type === 'lost' ? undefined : `${e.type}${e.uri ?? ''}`),
    });
    stream.emit({ type: 'before' });
    const it1 = stream.iterate();
    stream.emit({ type: 'changed' });
    stream.emit({ type: 'updated', uri: 'a' });
    stream.emit({ type: 'changed' });
    stream.emit({ type: 'lost' });
    stream.emit({ type: 'lost' });
    stream.emit({ type: 'updated', uri: 'b' });
    stream.end();
    stream.emit({ type: 'after' });
    const seen: E[] = [];
    for await (const e of it1) seen.push(e);
    expect(seen).toEqual([
      { type: 'changed' },
      { type: 'updated', uri: 'a' },
      { type: 'lost' },
      { type: 'lost' },
      { type: 'updated', uri: 'b' },
    ]);
  });

  it('a pending next() resolves on emit, and return() ends it', async () => {
    const stream = new EventStream<E>({ onError: () => {} });
    const iterator = stream.iterate();
    const pending = iterator.next();
    stream.emit({ type: 'x' });
    expect(await pending).toEqual({ done: false, value: { type: 'x' } });
    const waiting = iterator.next();
    await iterator.return?.();
    expect(await waiting).toEqual({ done: true, value: undefined });
  });
  describe('holdUntilHeard', () => {
    const keyOf = (e: E): string | undefined => (e.type === 'updated' ? `updated ${e.uri}` : undefined);

    it('holds what comes before the first listener and hands it over in a microtask, in order, before later events', async () => {
      const stream = new EventStream<E>({ onError: () => {}, keyOf, holdUntilHeard: 3 });
      stream.emit({ type: 'updated', uri: 'a' });
      stream.emit({ type: 'changed' });
      stream.emit({ type: 'updated', uri: 'a', n: 2 } as E);
      const first: E[] = [];
      stream.on((e) => first.push(e));
      expect(first).toEqual([]); // never from inside on()
      stream.emit({ type: 'after' });
      const second: E[] = [];
      stream.on((e) => second.push(e));
      await Promise.resolve();
      expect(first).toEqual([{ type: 'updated', uri: 'a', n: 2 }, { type: 'changed' }, { type: 'after' }]);
      expect(second).toEqual([{ type: 'updated', uri: 'a', n: 2 }, { type: 'changed' }, { type: 'after' }]);
      stream.emit({ type: 'live' });
      expect(first.at(-1)).toEqual({ type: 'live' });
    });

    it('keeps the newest events up to its limit, and gives them to a first iterator', async () => {
      const stream = new EventStream<E>({ onError: () => {}, holdUntilHeard: 2 });
      for (const type of ['1', '2', '3']) stream.emit({ type });
      const iterator = stream.iterate();
      expect(await iterator.next()).toEqual({ done: false, value: { type: '2' } });
      expect(await iterator.next()).toEqual({ done: false, value: { type: '3' } });
    });

    it('a stream that ends right after its first listener still hands over what it held; without the option nothing is held', async () => {
      const held = new EventStream<E>({ onError: () => {}, holdUntilHeard: 4 });
      held.emit({ type: 'early' });
      const heard: E[] = [];
      held.on((e) => heard.push(e));
      held.end();
      expect(heard).toEqual([{ type: 'early' }]);
      const plain = new EventStream<E>({ onError: () => {} });
      plain.emit({ type: 'early' });
      const missed: E[] = [];
      plain.on((e) => missed.push(e));
      await Promise.resolve();
      expect(missed).toEqual([]);
    });
  });
});
