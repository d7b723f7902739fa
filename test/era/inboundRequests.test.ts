/**
 * Server-to-client requests on the legacy wire, answered by the host handlers the
 * input_required loop uses (spec 2025-11-25: client/elicitation, client/sampling, client/roots,
 * basic/utilities/ping).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { McpClient } from '../../src/client/client.js';
import type { InputHandlers } from '../../src/inputRequired/handlers.js';
import { fulfilInputRequests } from '../../src/inputRequired/inputHandlers.js';
import { connectedLegacyPair } from '../fakes/legacyScripted.js';
import type { ScriptedServer, Wire } from '../fakes/scriptedServer.js';

let client: McpClient | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

async function pair(handlers?: InputHandlers): Promise<ScriptedServer> {
  const connected = await connectedLegacyPair(handlers === undefined ? {} : { handlers });
  client = connected.client;
  return connected.server;
}

let nextId = 0;
async function serverAsks(server: ScriptedServer, method: string, params?: Record<string, unknown>): Promise<Wire> {
  const id = `r${nextId++}`;
  await server.send({ jsonrpc: '2.0', id, method, ...(params !== undefined && { params }) });
  return server.waitFor((m) => m['id'] === id && !('method' in m));
}

const DEFAULTS_SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', default: 'Ada' },
    age: { type: 'integer', default: 36 },
    score: { type: 'number', default: 9.5 },
    status: { type: 'string', enum: ['active', 'inactive'], default: 'active' },
    verified: { type: 'boolean', default: true },
    nick: { type: 'string' },
    broken: { type: 'integer', default: 'not a number' },
  },
};

describe('legacy server requests', () => {
  it('ping is answered with an empty result, even without handlers', async () => {
    const server = await pair();
    expect(await serverAsks(server, 'ping')).toEqual({ jsonrpc: '2.0', id: expect.any(String), result: {} });
  });

  it('an unknown method gets -32601', async () => {
    const server = await pair();
    expect((await serverAsks(server, 'tasks/list'))['error']).toMatchObject({ code: -32601 });
  });

  it('roots/list and sampling/createMessage reach their handlers, with the request id as key', async () => {
    const list = vi.fn((_params: unknown, _context: unknown) => ({ roots: [{ uri: 'file:///work', name: 'work' }] }));
    const createMessage = vi.fn(() => ({
      role: 'assistant' as const,
      model: 'm',
      content: { type: 'text' as const, text: 'ok' },
    }));
    const server = await pair({ roots: { list }, sampling: { createMessage } });
    expect(server.requests('initialize')[0]?.['params']?.capabilities).toEqual({ roots: {}, sampling: {} });
    expect((await serverAsks(server, 'roots/list'))['result']).toEqual({
      roots: [{ uri: 'file:///work', name: 'work' }],
    });
    const sampled = await serverAsks(server, 'sampling/createMessage', {
      messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
      maxTokens: 5,
    });
    expect(sampled['result']).toMatchObject({ role: 'assistant', model: 'm' });
    expect(list.mock.calls[0]?.[1]).toMatchObject({
      key: expect.stringMatching(/^r\d+$/),
      requestMethod: 'roots/list',
    });
  });

  it('malformed params and features the handlers do not cover get -32602 without calling the handler', async () => {
    const createMessage = vi.fn(() => ({
      role: 'assistant' as const,
      model: 'm',
      content: { type: 'text' as const, text: 'ok' },
    }));
    const server = await pair({ sampling: { createMessage } });
    expect((await serverAsks(server, 'sampling/createMessage', { maxTokens: 5 }))['error']).toMatchObject({
      code: -32602,
    });
    const withTools = await serverAsks(server, 'sampling/createMessage', { messages: [], maxTokens: 5, tools: [] });
    expect(withTools['error']).toMatchObject({ code: -32602, message: expect.stringContaining('sampling.tools') });
    expect(createMessage).not.toHaveBeenCalled();
  });

  it('a root that is not a file:// URI is an invalid result: -32603', async () => {
    const server = await pair({ roots: { list: () => ({ roots: [{ uri: 'https://example.com' }] }) } });
    expect((await serverAsks(server, 'roots/list'))['error']).toMatchObject({ code: -32603 });
  });

  it('SEP-1034: an accepted form is completed with the schema defaults for the fields left out', async () => {
    const server = await pair({ elicitation: { form: () => ({ action: 'accept', content: { age: 40 } }) } });
    const response = await serverAsks(server, 'elicitation/create', {
      message: 'Your details',
      requestedSchema: DEFAULTS_SCHEMA,
    });
    expect(response['result']).toEqual({
      action: 'accept',
      content: { age: 40, name: 'Ada', score: 9.5, status: 'active', verified: true },
    });
  });

  it('SEP-1034: a decline carries no content, defaults or not', async () => {
    const server = await pair({ elicitation: { form: () => ({ action: 'decline' }) } });
    const response = await serverAsks(server, 'elicitation/create', { message: '?', requestedSchema: DEFAULTS_SCHEMA });
    expect(response['result']).toEqual({ action: 'decline' });
  });

  it('a request the server cancels stops the handler and gets no response', async () => {
    let aborted = false;
    const server = await pair({
      elicitation: {
        form: (_params, { signal }) =>
          new Promise((resolve) => {
            signal.addEventListener('abort', () => {
              aborted = true;
              resolve({ action: 'cancel' });
            });
          }),
      },
    });
    await server.send({
      jsonrpc: '2.0',
      id: 'slow',
      method: 'elicitation/create',
      params: { message: '?', requestedSchema: { type: 'object', properties: {} } },
    });
    await server.send({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 'slow', reason: 'user left' },
    });
    await vi.waitFor(() => expect(aborted).toBe(true));
    await client?.request('ping');
    expect(server.received.filter((m) => m['id'] === 'slow')).toEqual([]);
  });
});

describe('SEP-1034 defaults in the input_required loop', () => {
  it('fulfilInputRequests completes an accepted form the same way', async () => {
    const responses = await fulfilInputRequests(
      { elicitation: { form: () => ({ action: 'accept', content: {} }) } },
      {
        details: { method: 'elicitation/create', params: { message: '?', requestedSchema: DEFAULTS_SCHEMA } },
      } as never,
      { requestMethod: 'tools/call' },
    );
    expect(responses['details']).toEqual({
      action: 'accept',
      content: { name: 'Ada', age: 36, score: 9.5, status: 'active', verified: true },
    });
  });
});
