/**
 * Listen streams and `input_required` loops that never behave, over Streamable HTTP (and stdio
 * for the rounds), through the public API: bounded, typed, and nothing left after `close()`.
 */
import { fileURLToPath } from 'node:url';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient, type ClientOptions, type SubscriptionEvent } from '../../src/index.js';
import { StdioTransport, StreamableHttpTransport } from '../../src/node.js';
import { DISCOVER, sendJson, sseEvent, startSse, type RecordedRequest } from '../fakes/httpFake.js';
import { expectGroupGone, expectNoLeakedHandles, expectRejects, faultProbe, settleWithin } from './harness.js';
import { faultyServer, type MethodHandler } from './httpServers.js';

const SUB_ID = 'io.modelcontextprotocol/subscriptionId';
const LISTENING = {
  'server/discover': (request: RecordedRequest, res: ServerResponse) =>
    sendJson(res, 200, {
      jsonrpc: '2.0',
      id: request.json.id,
      result: { ...DISCOVER, capabilities: { tools: { listChanged: true }, resources: {} } },
    }),
};

function ack(request: RecordedRequest): string {
  return sseEvent({
    jsonrpc: '2.0',
    method: 'notifications/subscriptions/acknowledged',
    params: { notifications: request.json.params.notifications, _meta: { [SUB_ID]: request.json.id } },
  });
}

describe('misbehaving listen streams and input loops', () => {
  const probe = faultProbe();
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function start(
    listen: MethodHandler,
    options: Partial<ClientOptions> = {},
  ): Promise<{ client: McpClient; requests: RecordedRequest[] }> {
    const server = await faultyServer({ ...LISTENING, 'subscriptions/listen': listen });
    cleanups.push(() => server.close());
    const client = new McpClient({
      transport: new StreamableHttpTransport(server.url),
      clientInfo: { name: 'faults', version: '0.0.0' },
      onError: () => {},
      ...options,
    });
    cleanups.push(() => client.close());
    await client.connect({ timeoutMs: 5000 });
    return { client, requests: server.requests };
  }

  async function closeAndCheck(): Promise<void> {
    for (const cleanup of cleanups.splice(0).reverse()) await settleWithin(cleanup(), 2000, 'close');
    await expectNoLeakedHandles(probe.baseline);
  }

  const listens = (requests: RecordedRequest[]): number =>
    requests.filter((r) => r.json?.method === 'subscriptions/listen').length;

  it('a list_changed ending in CR CR on a quiet listen stream arrives at once', async () => {
    const { client } = await start((request, res) => {
      startSse(res, [ack(request)]);
      setTimeout(() => {
        const changed = {
          jsonrpc: '2.0',
          method: 'notifications/tools/list_changed',
          params: { _meta: { [SUB_ID]: request.json.id } },
        };
        res.write(`event: message\rdata: ${JSON.stringify(changed)}\r\r`); // then nothing more
      }, 20);
    });
    const subscription = await client.subscribe({ toolsListChanged: true });
    const first = new Promise<SubscriptionEvent>((resolve) => subscription.on(resolve));
    const event = await settleWithin(first, 1000, 'the list_changed event');
    expect(event).toMatchObject({ status: 'fulfilled', value: { type: 'toolsListChanged' } });
    await closeAndCheck();
  });

  it('a list_changed sent in the same chunk as the ack reaches a listener attached after subscribe() resolves', async () => {
    const { client } = await start((request, res) => {
      const changed = {
        jsonrpc: '2.0',
        method: 'notifications/tools/list_changed',
        params: { _meta: { [SUB_ID]: request.json.id } },
      };
      startSse(res, [ack(request) + sseEvent(changed)]);
    });
    const subscription = await client.subscribe({ toolsListChanged: true });
    const first = new Promise<SubscriptionEvent>((resolve) => subscription.on(resolve));
    const event = await settleWithin(first, 1000, 'the list_changed event');
    expect(event).toMatchObject({ status: 'fulfilled', value: { type: 'toolsListChanged' } });
    await closeAndCheck();
  });

  it('a listen that is never acknowledged: TimeoutError at its timeout, the stream closed', async () => {
    let closedByClient = false;
    const { client } = await start((_request, res) => {
      startSse(res, [': waiting\n\n']);
      res.on('close', () => (closedByClient = true));
    });
    await expectRejects(client.subscribe({ toolsListChanged: true }, { timeoutMs: 200 }), 1500, {
      name: 'TimeoutError',
      code: -32001,
    });
    for (let waited = 0; !closedByClient && waited < 1000; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(closedByClient).toBe(true);
    await closeAndCheck();
  });

  it('a listen stream dropped after every ack is reopened within its budget, then waits; no storm', async () => {
    const { client, requests } = await start(
      (request, res) => {
        startSse(res, [ack(request)]);
        setTimeout(() => res.socket?.destroy(), 5);
      },
      {
        subscriptions: {
          reopen: { minDelayMs: 10, maxDelayMs: 20, jitter: false, maxQuickRetries: 2, coolDownMs: 60_000 },
        },
      },
    );
    const subscription = await client.subscribe({ toolsListChanged: true });
    const events: SubscriptionEvent[] = [];
    subscription.on((event) => events.push(event));
    await new Promise((resolve) => setTimeout(resolve, 600));
    // The first stream, then quick reopens within the budget; then the cool-down: nothing more.
    const seen = listens(requests);
    expect(seen).toBeGreaterThanOrEqual(3);
    expect(seen).toBeLessThanOrEqual(4);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(listens(requests)).toBe(seen);
    expect(events.some((e) => e.type === 'resync')).toBe(true);
    expect(events.filter((e) => e.type === 'subscriptionLost').length).toBeGreaterThanOrEqual(2);
    await settleWithin(subscription.close(), 500, 'subscription.close()');
    expect((await subscription.closed).reason).toBe('closed');
    await closeAndCheck();
  });

  it('input_required forever: InputRequiredRoundsError at maxInputRounds, within a bound (stdio)', async () => {
    const server = fileURLToPath(new URL('./children/faulty-server.mjs', import.meta.url));
    const transport = new StdioTransport({
      command: process.execPath,
      args: [server, 'input-forever'],
      closeTimeoutMs: 300,
    });
    let asked = 0;
    const client = new McpClient({
      transport,
      clientInfo: { name: 'faults', version: '0.0.0' },
      handlers: { roots: { list: () => (asked++, { roots: [{ uri: 'file:///tmp' }] }) } },
      maxInputRounds: 5,
    });
    cleanups.push(() => client.close());
    await client.connect({ timeoutMs: 5000 });
    const error = await expectRejects(client.callTool('go', {}), 3000, {
      name: 'InputRequiredRoundsError',
      code: -33006,
    });
    expect(error.data.rounds).toBe(5);
    expect(asked).toBe(5);
    const pgid = transport.pid!;
    await closeAndCheck();
    await expectGroupGone(pgid);
  });
});
