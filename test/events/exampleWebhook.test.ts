/**
 * Webhook delivery end to end: the example server (a real process over Streamable HTTP) POSTs
 * signed `demo.tick` deliveries to a WebhookReceiver on an https server of this process
 * (127.0.0.1, a self-signed certificate the server trusts through NODE_EXTRA_CA_CERTS); each
 * tick is handed on once and counted once on the server, and close() unsubscribes.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExampleHttpServer } from '../integration/exampleServer.js';
import type { HttpServerProcess } from '../../examples/httpServerProcess.js';
import { McpClient } from '../../src/client/client.js';
import { StreamableHttpTransport } from '../../src/transport/http/streamableHttp.js';
import { WebhookReceiver, webhookNodeHandler } from '../../src/node.js';
import { selfSigned } from '../fakes/selfSigned.js';

const tls = selfSigned();
let folder: string;
let server: HttpServerProcess;
let https: Server;
let hookUrl: string;
const receiver = new WebhookReceiver();
const saved: Record<string, string | undefined> = {};

beforeAll(async () => {
  if (tls === undefined) return;
  folder = mkdtempSync(join(tmpdir(), 'mcp-live-webhook-'));
  writeFileSync(join(folder, 'ca.pem'), tls.cert);
  for (const [name, value] of Object.entries({
    EXAMPLE_EVENT_TICK_MS: '150',
    EXAMPLE_EVENTS_STATS: join(folder, 'stats.json'),
    NODE_EXTRA_CA_CERTS: join(folder, 'ca.pem'),
  })) {
    saved[name] = process.env[name];
    process.env[name] = value;
  }
  server = await startExampleHttpServer();
  https = createServer({ key: tls.key, cert: tls.cert }, webhookNodeHandler(receiver));
  await new Promise<void>((resolve) => https.listen(0, '127.0.0.1', resolve));
  hookUrl = `https://127.0.0.1:${(https.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  await server?.stop();
  await new Promise((resolve) => (https === undefined ? resolve(undefined) : https.close(resolve)));
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
});

describe.skipIf(tls === undefined)('webhook delivery from the example server', () => {
  it('verifies, hands on and counts each tick once; close() unsubscribes', async () => {
    const client = new McpClient({
      transport: new StreamableHttpTransport(server.url),
      clientInfo: { name: 'hook', version: '0' },
    });
    await client.connect();
    const subscription = await client.events.subscribe('demo.tick', {}, { webhook: { url: hookUrl, receiver } });
    expect(subscription.mode).toBe('webhook');
    const ticks: number[] = [];
    await new Promise<void>((resolve) =>
      subscription.on((event) => {
        if (event.type === 'occurrence') ticks.push(event.occurrence.data['n'] as number);
        if (ticks.length === 3) resolve();
      }),
    );
    await subscription.close();
    expect(ticks).toEqual([ticks[0], ticks[0]! + 1, ticks[0]! + 2]);
    const counts = JSON.parse(readFileSync(join(folder, 'stats.json'), 'utf8')) as Record<string, number>;
    for (const n of ticks) expect(Object.entries(counts).find(([id]) => id.endsWith(`-${n}`))?.[1]).toBe(1);
    expect(subscription.cursor).toMatch(/:\d+$/);
    await client.close();
  }, 20_000);
});
