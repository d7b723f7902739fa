/**
 * A 2025-11-25 server's URLElicitationRequiredError (-32042, `data.elicitations`; spec 2025-11-25
 * client/elicitation, "URL Elicitation Required Error"), against a scripted legacy wire: typed
 * as `UrlElicitationRequiredError`; with a URL handler, each URL shown, the server's
 * `notifications/elicitation/complete` awaited, the request sent again; bounded by the round
 * cap, the signal and the total budget; without a handler, the error carries the URLs.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client/client.js';
import { UrlElicitationRequiredError, type UrlElicitParams } from '../../src/index.js';
import { connectedLegacyPair } from '../fakes/legacyScripted.js';
import type { Reply, ScriptedServer, Wire } from '../fakes/scriptedServer.js';

const ELICITATION = {
  mode: 'url',
  elicitationId: 'e-1',
  url: 'https://mcp.example.com/connect?elicitationId=e-1',
  message: 'Authorization is required to access your files.',
};
const REQUIRED = {
  error: { code: -32042, message: 'This request requires more information.', data: { elicitations: [ELICITATION] } },
};
const DONE = { result: { content: [{ type: 'text', text: 'done' }] } };

let client: McpClient | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

/** A server that answers `tools/call` with each reply of `replies` in turn (the last one after that). */
function scriptCalls(server: ScriptedServer, replies: Reply[]): void {
  let n = 0;
  server.on('tools/call', () => replies[Math.min(n++, replies.length - 1)]!);
}

/** Sends the completion notification of `id` once the client has shown its URL. */
const completeAfterShown =
  (server: ScriptedServer, id = 'e-1') =>
  () => {
    void server.send({ jsonrpc: '2.0', method: 'notifications/elicitation/complete', params: { elicitationId: id } });
  };

describe('URLElicitationRequiredError (2025-11-25)', () => {
  it('without a URL handler: a UrlElicitationRequiredError that carries the URLs, sent once', async () => {
    const pair = await connectedLegacyPair();
    client = pair.client;
    scriptCalls(pair.server, [REQUIRED]);
    const error = await client.callTool('files', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UrlElicitationRequiredError);
    expect(error).toMatchObject({
      code: -32042,
      local: false,
      method: 'tools/call',
      name: 'UrlElicitationRequiredError',
    });
    expect((error as UrlElicitationRequiredError).elicitations).toEqual([ELICITATION]);
    expect(pair.server.requests('tools/call')).toHaveLength(1);
  });

  it('with a URL handler: shows the URL, waits for notifications/elicitation/complete, retries with the same params', async () => {
    const shown: UrlElicitParams[] = [];
    let server!: ScriptedServer;
    const pair = await connectedLegacyPair({
      handlers: {
        elicitation: {
          url: (params) => {
            shown.push(params);
            setTimeout(completeAfterShown(server), 20);
            return { action: 'accept' };
          },
        },
      },
    });
    ({ client, server } = pair);
    scriptCalls(server, [REQUIRED, DONE]);
    const result = await client.callTool('files', { path: '/a' });
    expect(result.content).toEqual(DONE.result.content);
    expect(shown).toEqual([ELICITATION]);
    const calls = server.requests('tools/call');
    expect(calls).toHaveLength(2);
    const { _meta: _first, ...firstParams } = calls[0]!['params'] as Wire;
    const { _meta: _second, ...secondParams } = calls[1]!['params'] as Wire;
    expect(secondParams).toEqual(firstParams);
    expect(secondParams).toEqual({ name: 'files', arguments: { path: '/a' } });
    expect(calls[1]!['id']).not.toBe(calls[0]!['id']);
  });

  it('does not retry before the server says the elicitation is complete', async () => {
    let server!: ScriptedServer;
    const pair = await connectedLegacyPair({ handlers: { elicitation: { url: () => ({ action: 'accept' }) } } });
    ({ client, server } = pair);
    scriptCalls(server, [REQUIRED, DONE]);
    const call = client.callTool('files', {});
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.requests('tools/call')).toHaveLength(1);
    // An unknown id is ignored (spec: clients MUST ignore unknown or already completed ids).
    completeAfterShown(server, 'other')();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(server.requests('tools/call')).toHaveLength(1);
    completeAfterShown(server)();
    await expect(call).resolves.toMatchObject({ content: DONE.result.content });
  });

  it('a declined URL: the error, no retry', async () => {
    const pair = await connectedLegacyPair({ handlers: { elicitation: { url: () => ({ action: 'decline' }) } } });
    client = pair.client;
    scriptCalls(pair.server, [REQUIRED, DONE]);
    await expect(client.callTool('files', {})).rejects.toBeInstanceOf(UrlElicitationRequiredError);
    expect(pair.server.requests('tools/call')).toHaveLength(1);
  });

  it('bounded by maxInputRounds: the last error after that many retries', async () => {
    let server!: ScriptedServer;
    const pair = await connectedLegacyPair({
      maxInputRounds: 2,
      handlers: {
        elicitation: {
          url: () => {
            setTimeout(completeAfterShown(server), 5);
            return { action: 'accept' };
          },
        },
      },
    });
    ({ client, server } = pair);
    scriptCalls(server, [REQUIRED]);
    await expect(client.callTool('files', {})).rejects.toBeInstanceOf(UrlElicitationRequiredError);
    expect(server.requests('tools/call')).toHaveLength(3);
  });

  it("bounded by the call's signal and its total budget while it waits for completion", async () => {
    const pair = await connectedLegacyPair({ handlers: { elicitation: { url: () => ({ action: 'accept' }) } } });
    client = pair.client;
    scriptCalls(pair.server, [REQUIRED]);
    const controller = new AbortController();
    const aborted = client.callTool('files', {}, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user gave up')), 30);
    await expect(aborted).rejects.toMatchObject({ name: 'CancelledError', code: -32800 });
    await expect(client.callTool('files', {}, { maxTotalTimeoutMs: 100 })).rejects.toMatchObject({
      name: 'TimeoutError',
      data: { kind: 'total' },
    });
    expect(pair.server.requests('tools/call')).toHaveLength(2);
  });

  it('an entry that is not a URL elicitation with an id: the error as sent, nothing shown', async () => {
    const shown: unknown[] = [];
    const pair = await connectedLegacyPair({
      handlers: { elicitation: { url: (params) => (shown.push(params), { action: 'accept' }) } },
    });
    client = pair.client;
    const bad = { ...REQUIRED.error, data: { elicitations: [ELICITATION, { mode: 'url', url: 'https://x' }] } };
    scriptCalls(pair.server, [{ error: bad }]);
    const error = (await client.callTool('files', {}).catch((e: unknown) => e)) as UrlElicitationRequiredError;
    expect(error).toBeInstanceOf(UrlElicitationRequiredError);
    expect(error.wellFormed).toBe(false);
    expect(error.data).toEqual(bad.data);
    expect(error.elicitations).toEqual([ELICITATION]);
    expect(shown).toEqual([]);
  });
});
