import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AuthPartitioner } from '../../src/cache/authContext.js';
import {
  CacheKeyBuilder,
  KEY_NAMESPACE,
  cacheKey,
  keyParam,
  keyPrefix,
  parseCacheKey,
  quoteJson,
  serverTag,
} from '../../src/cache/cacheKey.js';
import { sha256Hex } from '../../src/util/sha256.js';
import { InvalidArgumentError } from '../../src/errors/errors.js';

const tricky = [
  '',
  'plain',
  'with "quotes"',
  'back\\slash',
  'new\nline',
  'tab\t',
  '\u0000nul',
  'emoji 😀',
  'lone \ud800 surrogate',
  'é',
  ',',
  '"]',
  'a/b',
];

describe('quoteJson', () => {
  it.each(tricky.map((s) => [s]))('equals JSON.stringify for %j', (s) => {
    expect(quoteJson(s)).toBe(JSON.stringify(s));
  });
});

describe('cache keys', () => {
  const server = 'stdio:node server.js --port "1"';

  it('builder output equals the canonical JSON array text', () => {
    const builder = new CacheKeyBuilder(server);
    const tag = serverTag(server);
    for (const param of [...tricky, null]) {
      for (const partition of ['public', 'private:abc', 'private:"x"']) {
        const parts = { serverTag: tag, method: 'resources/read', param, protocolVersion: '2026-07-28', partition };
        const key = builder.key(parts.method, parts.param, parts.protocolVersion, parts.partition);
        expect(key).toBe(cacheKey(parts));
        expect(key).toBe(JSON.stringify([KEY_NAMESPACE, tag, 'resources/read', param, '2026-07-28', partition]));
        expect(parseCacheKey(key)).toEqual(parts);
      }
    }
  });

  it('keys carry a short stable tag of the server identity, never the identity itself', () => {
    const builder = new CacheKeyBuilder(server);
    expect(builder.tag).toBe(serverTag(server));
    expect(builder.tag).toMatch(/^[0-9a-f]{16}$/);
    expect(serverTag(server)).toBe(sha256Hex(`mcp-live/cache/server\u0000${server}`).slice(0, 16));
    const key = builder.key('resources/read', 'file:///a', 'v', 'public');
    expect(key).not.toContain('server.js');
    // Different identities (even ones that differ by one character) get different tags.
    const tags = new Set(
      ['stdio:node a.js', 'stdio:node b.js', 'stdio:node a.js ', 'https://h/mcp', 'https://h/mcp/', server].map(
        serverTag,
      ),
    );
    expect(tags.size).toBe(6);
  });

  it('request keys are built fresh (nothing memoized per request) and equal the canonical text', () => {
    const builder = new CacheKeyBuilder(server);
    const tag = serverTag(server);
    const keys = builder.requestKeys('resources/read', 'file:///a', 'v', 'private:p', 'private:p');
    expect(keys).toEqual({
      protocolVersion: 'v',
      privateTag: 'private:p',
      publicKey: cacheKey({
        serverTag: tag,
        method: 'resources/read',
        param: 'file:///a',
        protocolVersion: 'v',
        partition: 'public',
      }),
      privateKey: cacheKey({
        serverTag: tag,
        method: 'resources/read',
        param: 'file:///a',
        protocolVersion: 'v',
        partition: 'private:p',
      }),
      dedupeKey: cacheKey({
        serverTag: tag,
        method: 'resources/read',
        param: 'file:///a',
        protocolVersion: 'v',
        partition: 'private:p',
      }),
    });
    const shared = builder.requestKeys('tools/list', null, 'v', undefined, 'anonymous');
    expect(shared.privateKey).toBeUndefined();
    expect(shared.dedupeKey).toBe(builder.key('tools/list', null, 'v', 'anonymous'));
  });

  it('an absent cursor and "" are different keys', () => {
    expect(keyParam('tools/list', {})).toBeNull();
    expect(keyParam('tools/list', { cursor: '' })).toBe('');
    const builder = new CacheKeyBuilder(server);
    expect(builder.key('tools/list', null, 'v', 'public')).not.toBe(builder.key('tools/list', '', 'v', 'public'));
  });

  it('resources/read keys on uri, list methods on cursor', () => {
    expect(keyParam('resources/read', { uri: 'file:///a', cursor: 'x' })).toBe('file:///a');
    expect(keyParam('prompts/list', { uri: 'file:///a', cursor: 'x' })).toBe('x');
    expect(keyParam('server/discover', {})).toBeNull();
  });

  it('separators cannot collide: values containing the separator still give distinct keys', () => {
    const a = cacheKey({ serverTag: 'a","b', method: 'm', param: null, protocolVersion: 'v', partition: 'public' });
    const b = cacheKey({ serverTag: 'a', method: 'b","m', param: null, protocolVersion: 'v', partition: 'public' });
    expect(a).not.toBe(b);
  });

  it('prefixes select exactly the keys of one server / one method', () => {
    const builder = new CacheKeyBuilder(server);
    const key = builder.key('tools/list', 'c', 'v', 'public');
    expect(key.startsWith(keyPrefix(builder.tag))).toBe(true);
    expect(key.startsWith(keyPrefix(builder.tag, 'tools/list'))).toBe(true);
    expect(key.startsWith(keyPrefix(builder.tag, 'tools/lis'))).toBe(false);
    expect(key.startsWith(keyPrefix(serverTag(`${server}x`)))).toBe(false);
    expect(builder.prefix).toBe(keyPrefix(builder.tag));
  });

  it('parseCacheKey rejects foreign keys', () => {
    expect(parseCacheKey('not json')).toBeUndefined();
    expect(parseCacheKey('["other",1]')).toBeUndefined();
    expect(parseCacheKey(JSON.stringify([KEY_NAMESPACE, 's', 'm', 5, 'v', 'p']))).toBeUndefined();
  });
});

describe('sha256Hex', () => {
  it.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
  ])('known vector %j', (input, hex) => {
    expect(sha256Hex(input)).toBe(hex);
  });

  it('matches node:crypto on multi-block and non-ASCII input', () => {
    for (const input of ['a'.repeat(55), 'a'.repeat(56), 'a'.repeat(64), 'b'.repeat(1000), 'Bearer é😀 token']) {
      expect(sha256Hex(input)).toBe(createHash('sha256').update(input, 'utf8').digest('hex'));
    }
  });
});

describe('AuthPartitioner', () => {
  it('hashes the declared id; the raw value never appears in the tag', () => {
    const tag = new AuthPartitioner('user-A', true).current().privateTag;
    expect(tag).toMatch(/^private:[0-9a-f]{32}$/);
    expect(tag).not.toContain('user-A');
  });

  it('an id and a credential with the same text get different partitions', () => {
    const id = new AuthPartitioner('same', false).current();
    const credential = new AuthPartitioner({ credential: 'same' }, false).current();
    expect(id.privateTag).not.toBe(credential.privateTag);
  });

  it('reads a function per call and memoizes the digest', () => {
    let who: string | undefined = 'a';
    const partitioner = new AuthPartitioner(() => who, false);
    const first = partitioner.current();
    expect(partitioner.current()).toBe(first);
    who = 'b';
    expect(partitioner.current().privateTag).not.toBe(first.privateTag);
    who = undefined;
    expect(partitioner.current()).toEqual({ privateTag: 'private:anonymous', dedupeTag: 'private:anonymous' });
  });

  it('no auth context: anonymous partition of an own store, no private partition with a shared store', () => {
    expect(new AuthPartitioner(undefined, false).current().privateTag).toBe('private:anonymous');
    expect(new AuthPartitioner(undefined, true).current().privateTag).toBeUndefined();
    expect(new AuthPartitioner('', true).current().privateTag).toBeUndefined();
  });

  it('an invalid auth context throws InvalidArgumentError without echoing it', () => {
    const partitioner = new AuthPartitioner((() => ({ token: 'SECRET' })) as never, false);
    const thrown = (() => {
      try {
        partitioner.current();
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(thrown).toBeInstanceOf(InvalidArgumentError);
    expect(thrown).toMatchObject({ code: -32602, data: { name: 'authContext', value: 'object' } });
    expect(JSON.stringify((thrown as InvalidArgumentError).data)).not.toContain('SECRET');
  });
});
