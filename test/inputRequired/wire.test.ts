import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { InMemoryTransport } from '../../src/transport/memory.js';
import type { JsonObject } from '../../src/wire/messages.js';
import { driveInputRequired } from '../../src/inputRequired/driver.js';
import { fulfilInputRequests } from '../../src/inputRequired/inputHandlers.js';
import type { InputHandlers } from '../../src/inputRequired/handlers.js';
import { withInputRetry } from '../../src/inputRequired/retry.js';
import { ScriptedServer, type Wire } from '../fakes/scriptedServer.js';

/**
 * A minimal JSON-RPC caller over the client end of an in-memory pair: one fresh id per
 * request, starting at `firstId`. Stands in for the client's session until the lead wires the
 * driver into McpClient.
 */
function miniCaller(transport: InMemoryTransport, firstId: number) {
  let nextId = firstId;
  const pending = new Map<number, { resolve: (result: JsonObject) => void; reject: (error: Error) => void }>();
  const started = transport.start({
    onMessage: (message) => {
      const m = message as Wire;
      const waiter = pending.get(m['id'] as number);
      if (waiter === undefined) return;
      pending.delete(m['id'] as number);
      if ('error' in m) waiter.reject(new Error(m['error'].message));
      else waiter.resolve(m['result'] as JsonObject);
    },
    onError: () => {},
    onClose: () => {},
  });
  return {
    started,
    request(method: string, params: JsonObject): Promise<JsonObject> {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        void transport.send({ jsonrpc: '2.0', id, method, params });
      });
    },
  };
}

/** The composition the client will do: first request, then the driver with retry = same request, new id. */
async function callWithInput(
  caller: ReturnType<typeof miniCaller>,
  handlers: InputHandlers,
  method: string,
  params: JsonObject,
  signal?: AbortSignal,
) {
  const first = await caller.request(method, params);
  return driveInputRequired({
    method,
    first,
    signal,
    retry: (fields) => caller.request(method, withInputRetry(params, fields)),
    fulfil: (requests, context) =>
      fulfilInputRequests(handlers, requests, { requestMethod: method, signal: context.signal }),
  });
}

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
  'io.modelcontextprotocol/clientInfo': { name: 'test-host', version: '1.0.0' },
};

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('B39: the shape of each retry, on the wire', () => {
  it('new ids, byte-identical requestState, no stale fields, no leaks into a parallel request', async () => {
    const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair('memory:b39');
    const server = new ScriptedServer(serverEnd);
    let step = 0;
    server.on('tools/call', () => {
      step += 1;
      if (step === 1) {
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
      if (step === 2) return { result: { resultType: 'input_required', requestState: 's2' } };
      if (step === 3) {
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
    server.on('tools/list', () => ({ result: { resultType: 'complete', tools: [] } }));
    await server.start();
    const caller = miniCaller(clientEnd, 20);
    await caller.started;

    const handlers: InputHandlers = {
      elicitation: {
        form: async (params) => {
          if (params.message === 'Your username?') {
            // An unrelated request sent while the user answers must carry nothing of this call.
            await caller.request('tools/list', { _meta: META });
            return { action: 'accept', content: { name: '<user-login>' } };
          }
          return { action: 'accept', content: { ok: true } };
        },
      },
    };
    const params = { name: 'create_ticket', arguments: { title: 'x' }, _meta: META };
    const promise = callWithInput(caller, handlers, 'tools/call', params);
    let done = false;
    void promise.then(() => (done = true));
    await vi.advanceTimersByTimeAsync(99); // retry 2 answers a state-only result: paced, the first time too
    expect(server.requests('tools/call')).toHaveLength(2);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);

    expect(done).toBe(true);
    await expect(promise).resolves.toEqual({ resultType: 'complete', content: [{ type: 'text', text: 'created' }] });

    const calls = server.requests('tools/call');
    expect(calls.map((m) => m['id'])).toEqual([20, 22, 23, 24]);
    expect(new Set(calls.map((m) => m['id'])).size).toBe(4);
    const base = { name: 'create_ticket', arguments: { title: 'x' }, _meta: META };
    expect(calls[0]).toEqual({ jsonrpc: '2.0', id: 20, method: 'tools/call', params: base });
    expect(calls[1]).toEqual({
      jsonrpc: '2.0',
      id: 22,
      method: 'tools/call',
      params: {
        ...base,
        inputResponses: { login: { action: 'accept', content: { name: '<user-login>' } } },
        requestState: 'AbC+/==',
      },
    });
    expect(calls[2]).toEqual({ jsonrpc: '2.0', id: 23, method: 'tools/call', params: { ...base, requestState: 's2' } });
    expect(calls[2]?.['params']).not.toHaveProperty('inputResponses');
    expect(calls[3]).toEqual({
      jsonrpc: '2.0',
      id: 24,
      method: 'tools/call',
      params: { ...base, inputResponses: { confirm: { action: 'accept', content: { ok: true } } } },
    });
    expect(calls[3]?.['params']).not.toHaveProperty('requestState');

    const [list] = server.requests('tools/list');
    expect(list).toEqual({ jsonrpc: '2.0', id: 21, method: 'tools/list', params: { _meta: META } });
    // The caller's params object was never mutated.
    expect(params).toEqual(base);
    expect(vi.getTimerCount()).toBe(0);
  });
});
