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
});
