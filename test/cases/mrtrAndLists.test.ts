/**
 * Cases that need the whole client: the input_required loop (B39, B41), list walks (B01, B02)
 * and the cache as seen through the client (B16 R7, B10 eviction). The pure modules have their
 * own tests in test/inputRequired, test/pagination and test/cache.
 */
import { describe, expect, it, vi } from 'vitest';
import { connectedPair } from '../fakes/scriptedServer.js';
import { InputRequestFailedError } from '../../src/inputRequired/errors.js';
import { PaginationLimitError } from '../../src/pagination/errors.js';
import { ConnectionClosedError, ResourceNotFoundError } from '../../src/errors/errors.js';

const META_KEYS = [
  'io.modelcontextprotocol/protocolVersion',
  'io.modelcontextprotocol/clientCapabilities',
  'io.modelcontextprotocol/clientInfo',
];

describe('B39: MRTR, the shape of each retry', () => {
  it('B39: new ids, full _meta, inputResponses and requestState exactly as the rules say', async () => {
    const elicit = vi.fn(async () => ({ action: 'accept' as const, content: { name: '<user-login>' } }));
    const { client, server } = await connectedPair({ handlers: { elicitation: { form: elicit } } });
    let round = 0;
    server.on('tools/call', () => {
      round++;
      if (round === 1) {
        return {
          result: {
            resultType: 'input_required',
            inputRequests: {
              login: {
                method: 'elicitation/create',
                params: {
                  mode: 'form',
                  message: 'Your username?',
                  requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
                },
              },
            },
            requestState: 'AbC+/==',
          },
        };
      }
      if (round === 2) return { result: { resultType: 'input_required', requestState: 's2' } };
      if (round === 3) {
        return {
          result: {
            resultType: 'input_required',
            inputRequests: {
              confirm: {
                method: 'elicitation/create',
                params: {
                  mode: 'form',
                  message: 'Sure?',
                  requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
                },
              },
            },
          },
        };
      }
      return { result: { resultType: 'complete', content: [{ type: 'text', text: 'created' }] } };
    });
    server.on('tools/list', () => ({ result: { resultType: 'complete', tools: [], ttlMs: 0, cacheScope: 'public' } }));

    const [result] = await Promise.all([client.callTool('create_ticket', { title: 'x' }), client.listTools()]);
    expect(result.content).toEqual([{ type: 'text', text: 'created' }]);

    const calls = server.requests('tools/call');
    expect(calls).toHaveLength(4);
    const ids = calls.map((c) => c['id']);
    expect(new Set(ids).size).toBe(4);
    for (const call of calls) {
      expect(call['params']['name']).toBe('create_ticket');
      expect(call['params']['arguments']).toEqual({ title: 'x' });
      for (const key of META_KEYS) expect(call['params']['_meta']).toHaveProperty([key]);
    }
    expect(calls[0]!['params']).not.toHaveProperty('inputResponses');
    expect(calls[1]!['params']['inputResponses']).toEqual({
      login: { action: 'accept', content: { name: '<user-login>' } },
    });
    expect(calls[1]!['params']['requestState']).toBe('AbC+/==');
    expect(calls[2]!['params']['requestState']).toBe('s2');
    expect(calls[2]!['params']).not.toHaveProperty('inputResponses');
    expect(calls[3]!['params']['inputResponses']).toEqual({
      confirm: { action: 'accept', content: { name: '<user-login>' } },
    });
    expect(calls[3]!['params']).not.toHaveProperty('requestState');
    // The unrelated concurrent request carries neither.
    const [list] = server.requests('tools/list');
    expect(list!['params']).not.toHaveProperty('inputResponses');
    expect(list!['params']).not.toHaveProperty('requestState');
    expect(elicit).toHaveBeenCalledTimes(2);
    await client.close();
  });
});

describe('B41: capabilities match the handlers', () => {
  it('B41 (a): with no elicitation handler no elicitation key is declared anywhere', async () => {
    const { client, server } = await connectedPair();
    const caps =
      server.requests('server/discover')[0]!['params']['_meta']['io.modelcontextprotocol/clientCapabilities'];
    expect(caps).toEqual({});
    await client.close();
  });

  it('B41 (b): a URL-only handler declares {elicitation:{url:{}}} and a form request fails without calling it', async () => {
    const url = vi.fn(async () => ({ action: 'accept' as const }));
    const { client, server } = await connectedPair({ handlers: { elicitation: { url } } });
    expect(
      server.requests('server/discover')[0]!['params']['_meta']['io.modelcontextprotocol/clientCapabilities'],
    ).toEqual({ elicitation: { url: {} } });
    server.on('tools/call', () => ({
      result: {
        resultType: 'input_required',
        inputRequests: {
          q: {
            method: 'elicitation/create',
            params: { mode: 'form', message: '?', requestedSchema: { type: 'object', properties: {} } },
          },
        },
      },
    }));
    const error = await client.callTool('t').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputRequestFailedError);
    expect((error as InputRequestFailedError).data).toMatchObject({ key: 'q', reason: 'unsupported' });
    expect(url).not.toHaveBeenCalled();
    expect(server.requests('tools/call')).toHaveLength(1);
    await client.close();
  });

  it('B41 (c)/(d): a throwing or empty handler fails the call at once, with no retry sent', async () => {
    for (const form of [
      async () => {
        throw new Error('handler broke');
      },
      async () => undefined as never,
    ]) {
      const { client, server } = await connectedPair({ handlers: { elicitation: { form } } });
      server.on('tools/call', () => ({
        result: {
          resultType: 'input_required',
          inputRequests: {
            e1: {
              method: 'elicitation/create',
              params: { mode: 'form', message: '?', requestedSchema: { type: 'object', properties: {} } },
            },
          },
        },
      }));
      await expect(client.callTool('t')).rejects.toBeInstanceOf(InputRequestFailedError);
      expect(server.requests('tools/call')).toHaveLength(1);
      await client.close();
    }
  });
});

describe('B01/B02 through the client', () => {
  it('B01: "" continues the walk, null and absent end it; exactly 2 requests', async () => {
    for (const last of [{ nextCursor: null }, {}]) {
      const { client, server } = await connectedPair();
      server.on('tools/list', (req) =>
        req['params']['cursor'] === undefined
          ? {
              result: {
                resultType: 'complete',
                tools: [{ name: 'a', inputSchema: { type: 'object' } }],
                nextCursor: '',
                ttlMs: 0,
                cacheScope: 'private',
              },
            }
          : {
              result: {
                resultType: 'complete',
                tools: [{ name: 'b', inputSchema: { type: 'object' } }],
                ...last,
                ttlMs: 0,
                cacheScope: 'private',
              },
            },
      );
      const all = await client.listAllTools();
      expect(all.items.map((t) => t.name)).toEqual(['a', 'b']);
      const requests = server.requests('tools/list');
      expect(requests).toHaveLength(2);
      expect(requests[0]!['params']).not.toHaveProperty('cursor');
      expect(requests[1]!['params']['cursor']).toBe('');
      await client.close();
    }
  });

  it('B02: a server repeating its page ends in PaginationLimitError, nothing cached', async () => {
    const { client, server } = await connectedPair();
    server.on('tools/list', () => ({
      result: {
        resultType: 'complete',
        tools: [
          { name: 'search', inputSchema: { type: 'object' } },
          { name: 'fetch', inputSchema: { type: 'object' } },
        ],
        nextCursor: 'p2',
        ttlMs: 60000,
        cacheScope: 'public',
      },
    }));
    const before = client.cacheStats().stores;
    const error = await client.listAllTools({ maxPages: 16 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaginationLimitError);
    expect((error as PaginationLimitError).data).toMatchObject({ method: 'tools/list' });
    expect(server.requests('tools/list').length).toBeLessThanOrEqual(16);
    expect(client.cacheStats().stores).toBe(before);
    await client.close();
  });
});

describe('the cache through the client', () => {
  it('serves a second read of a fresh resource from the cache', async () => {
    const { client, server } = await connectedPair();
    server.on('resources/read', (req) => ({
      result: {
        resultType: 'complete',
        contents: [{ uri: req['params']['uri'], text: 'hi' }],
        ttlMs: 60000,
        cacheScope: 'public',
      },
    }));
    const before = client.cacheStats();
    const first = await client.readResource('mem://a');
    const second = await client.readResource('mem://a');
    expect(second).toBe(first);
    expect(Object.isFrozen(second)).toBe(true);
    expect(server.requests('resources/read')).toHaveLength(1);
    const after = client.cacheStats();
    expect([after.hits - before.hits, after.misses - before.misses, after.stores - before.stores]).toEqual([1, 1, 1]);
    await client.readResource('mem://a', { cacheMode: 'reload' });
    expect(server.requests('resources/read')).toHaveLength(2);
    await client.close();
    // A closed client serves nothing, not even a fresh cache entry.
    await expect(client.readResource('mem://a')).rejects.toBeInstanceOf(ConnectionClosedError);
  });

  it('B16 R7: a read that completed on an MRTR retry is not cached', async () => {
    const form = async () => ({ action: 'accept' as const, content: {} });
    const { client, server } = await connectedPair({ handlers: { elicitation: { form } } });
    server.on('resources/read', (req) =>
      req['params']['inputResponses'] === undefined
        ? {
            result: {
              resultType: 'input_required',
              inputRequests: {
                ok: {
                  method: 'elicitation/create',
                  params: { mode: 'form', message: '?', requestedSchema: { type: 'object', properties: {} } },
                },
              },
            },
          }
        : {
            result: {
              resultType: 'complete',
              contents: [{ uri: 'mem://r7', text: 'x' }],
              ttlMs: 600000,
              cacheScope: 'public',
            },
          },
    );
    const before = client.cacheStats().stores;
    await client.readResource('mem://r7');
    await client.readResource('mem://r7');
    expect(server.requests('resources/read')).toHaveLength(4);
    expect(client.cacheStats().stores).toBe(before);
    await client.close();
  });

  it('B10: a not-found read evicts any cached read of that uri', async () => {
    const { client, server } = await connectedPair();
    let gone = false;
    server.on('resources/read', () =>
      gone
        ? { error: { code: -32602, message: 'Resource not found', data: { uri: 'file:///x' } } }
        : {
            result: {
              resultType: 'complete',
              contents: [{ uri: 'file:///x', text: 'x' }],
              ttlMs: 60000,
              cacheScope: 'public',
            },
          },
    );
    await client.readResource('file:///x');
    gone = true;
    await expect(client.readResource('file:///x', { cacheMode: 'reload' })).rejects.toBeInstanceOf(
      ResourceNotFoundError,
    );
    await expect(client.readResource('file:///x')).rejects.toBeInstanceOf(ResourceNotFoundError);
    expect(server.requests('resources/read')).toHaveLength(3);
    await client.close();
  });

  it('a whole list walk is served from the cache the second time', async () => {
    const { client, server } = await connectedPair();
    server.on('prompts/list', (req) =>
      req['params']['cursor'] === undefined
        ? {
            result: {
              resultType: 'complete',
              prompts: [{ name: 'p1' }],
              nextCursor: 'c2',
              ttlMs: 60000,
              cacheScope: 'public',
            },
          }
        : { result: { resultType: 'complete', prompts: [{ name: 'p2' }], ttlMs: 30000, cacheScope: 'public' } },
    );
    expect((await client.listAllPrompts()).items.map((p) => p.name)).toEqual(['p1', 'p2']);
    expect((await client.listAllPrompts()).items.map((p) => p.name)).toEqual(['p1', 'p2']);
    expect(server.requests('prompts/list')).toHaveLength(2);
    const names: string[] = [];
    for await (const prompt of client.prompts()) names.push(prompt.name);
    expect(names).toEqual(['p1', 'p2']);
    expect(server.requests('prompts/list')).toHaveLength(2);
    await client.close();
    await expect(client.listAllPrompts()).rejects.toBeInstanceOf(ConnectionClosedError);
  });
});
