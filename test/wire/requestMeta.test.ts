import { describe, expect, it } from 'vitest';
import { MetaBase, RequestMeta, requestJson } from '../../src/wire/requestMeta.js';

const PV = 'io.modelcontextprotocol/protocolVersion';
const CAPS = 'io.modelcontextprotocol/clientCapabilities';
const INFO = 'io.modelcontextprotocol/clientInfo';

const baseValues = () => ({
  [PV]: '2026-07-28',
  [CAPS]: { roots: { listChanged: true }, extensions: { 'x/y': { a: [1, 'two', null] } } },
  [INFO]: { name: 'client "quoted" \u2028 ü', version: '1.0.0' },
});

/** A request as the session makes it, with params as the caller makes them. */
function request(meta: RequestMeta, params: Record<string, unknown> = { name: 'echo', arguments: { text: 'hi' } }) {
  return { jsonrpc: '2.0' as const, id: 7, method: 'tools/call', params: RequestMeta.params(params, meta) };
}

describe('requestJson', () => {
  it('writes exactly what JSON.stringify writes, for the base keys as made and after every kind of change to the _meta', () => {
    const base = new MetaBase(baseValues());
    const changes: Array<(meta: RequestMeta) => void> = [
      () => {},
      (meta) => {
        meta['progressToken'] = 7;
      },
      (meta) => {
        Object.assign(meta, { skipped: undefined, progressToken: 'p"1', nested: { a: [1] } });
      },
      (meta) => {
        meta[CAPS] = { other: {} };
      },
      (meta) => {
        delete meta[PV];
        meta[PV] = '2025-11-25';
      },
      (meta) => {
        // The base's values, in another order.
        const version = meta[PV];
        delete meta[PV];
        meta[PV] = version;
      },
      (meta) => {
        delete meta[INFO];
      },
      (meta) => {
        Object.assign(meta, { traceparent: '00-abc-def-01', [INFO]: undefined, skipped: () => 1, n: -0, inf: NaN });
      },
      (meta) => {
        meta['when'] = { nested: new Date(0) };
      },
      (meta) => {
        for (const key of Object.keys(meta)) delete meta[key];
      },
    ];
    const paramsList: Array<Record<string, unknown>> = [
      { name: 'echo', arguments: { text: 'hi', list: [undefined, 1, { d: new Date(0) }] } },
      { uri: 'a\nb"c', gone: undefined },
      {},
      { only: undefined },
    ];
    for (const change of changes)
      for (const params of paramsList) {
        const message = request(new RequestMeta(base), params);
        change(message.params['_meta'] as RequestMeta);
        const json = requestJson(message);
        expect(json).toBeDefined();
        expect(json).toBe(JSON.stringify(message));
      }
    const notification = {
      jsonrpc: '2.0',
      method: 'notifications/x',
      params: RequestMeta.params({ a: 1 }, new RequestMeta(base)),
    };
    expect(requestJson(notification)).toBe(JSON.stringify(notification));
    const stringId = {
      jsonrpc: '2.0',
      id: 'a"b',
      method: 'm/é',
      params: RequestMeta.params({}, new RequestMeta(base)),
    };
    expect(requestJson(stringId)).toBe(JSON.stringify(stringId));
  });

  it('an own "__proto__" key of params is written as a key', () => {
    const params = JSON.parse('{"__proto__":{"a":1},"uri":"u"}') as Record<string, unknown>;
    const message = request(new RequestMeta(new MetaBase(baseValues())), params);
    expect(requestJson(message)).toBe(JSON.stringify(message));
    expect(requestJson(message)).toContain('"__proto__":{"a":1}');
  });

  it('params changed since they were made, or a message of another shape: left to JSON.stringify', () => {
    const base = new MetaBase(baseValues());
    const given = { name: 'echo', arguments: {} };
    const changed = request(new RequestMeta(base), given);
    given.name = 'other'; // the caller's object changed after the copy: the copy is what goes out
    expect(requestJson(changed)).toBeUndefined();
    expect(JSON.stringify(changed)).toContain('"name":"echo"');

    const added = request(new RequestMeta(base));
    added.params['extra'] = 1;
    expect(requestJson(added)).toBeUndefined();

    const extraKey = { ...request(new RequestMeta(base)), extra: true };
    expect(requestJson(extraKey)).toBeUndefined();
    const { id: _id, ...withoutId } = request(new RequestMeta(base));
    expect(requestJson({ ...withoutId, id: 7 })).toBeUndefined(); // keys out of order

    const plainMeta = { jsonrpc: '2.0', id: 1, method: 'm', params: { _meta: { ...baseValues() } } };
    expect(requestJson(plainMeta)).toBeUndefined();
    const spread = request(new RequestMeta(base));
    const reissued = { ...spread, params: { ...spread.params, _meta: { ...(spread.params['_meta'] as object) } } };
    expect(requestJson(reissued)).toBeUndefined();
    expect(requestJson({ jsonrpc: '2.0', id: 1, result: {} })).toBeUndefined();
  });

  it('leaves to JSON.stringify what only it can tell: a toJSON, a BigInt, a cycle', () => {
    const base = new MetaBase(baseValues());
    expect(requestJson(request(new RequestMeta(base), { toJSON: () => 'params' }))).toBeUndefined();

    const withToJson = request(new RequestMeta(base));
    (withToJson.params['_meta'] as RequestMeta)['x'] = { toJSON: (key: string) => key };
    expect(requestJson(withToJson)).toBeUndefined();
    expect(JSON.stringify(withToJson)).toContain('"x":"x"');

    const bigint = request(new RequestMeta(base));
    (bigint.params['_meta'] as RequestMeta)['n'] = 1n;
    expect(requestJson(bigint)).toBeUndefined();

    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(requestJson(request(new RequestMeta(base), { arguments: cyclic }))).toBeUndefined();
  });
});

describe('MetaBase and RequestMeta', () => {
  it('a RequestMeta holds the base keys in order, as plain data: keys, spread and JSON see nothing else', () => {
    const meta = new RequestMeta(new MetaBase(baseValues()));
    RequestMeta.params({ a: 1 }, meta);
    expect(Object.keys(meta)).toEqual([PV, CAPS, INFO]);
    expect(meta).toEqual(baseValues());
    expect({ ...meta }).toEqual(baseValues());
    expect(JSON.parse(JSON.stringify(meta))).toEqual(baseValues());
  });

  it('RequestMeta.params copies the params with _meta last, as a spread would', () => {
    const meta = new RequestMeta(new MetaBase(baseValues()));
    const given = { uri: 'u', n: 1 };
    const params = RequestMeta.params(given, meta);
    expect(Object.keys(params)).toEqual(['uri', 'n', '_meta']);
    expect(params['_meta']).toBe(meta);
    expect(given).toEqual({ uri: 'u', n: 1 });
  });

  it('copies the values it is made from: a later change of the caller object is not sent; the copies are frozen', () => {
    const values = baseValues();
    const base = new MetaBase(values);
    values[INFO].version = '9.9.9';
    const meta = new RequestMeta(base);
    expect((meta[INFO] as { version: string }).version).toBe('1.0.0');
    expect(Object.isFrozen(meta[CAPS])).toBe(true);
    expect(Object.isFrozen((meta[CAPS] as { roots: object }).roots)).toBe(true);
    expect(requestJson(request(meta))).toContain('"version":"1.0.0"');
  });

  it('a value that is not JSON is kept as given, and a request carrying it fails in JSON.stringify as before', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    const meta = new RequestMeta(new MetaBase({ [PV]: '2026-07-28', [CAPS]: cyclic }));
    expect(meta[CAPS]).toBe(cyclic);
    const message = request(meta);
    expect(requestJson(message)).toBeUndefined();
    expect(() => JSON.stringify(message)).toThrow(TypeError);
  });
});
