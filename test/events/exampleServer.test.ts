/**
 * The example server's `demo.tick` event type against the real process (build/examples/server.js),
 * over Streamable HTTP and stdio: a consumer that stops mid-stream and another that resumes from
 * the same file cursor store lose no tick and get none twice, counted on the server
 * (`EXAMPLE_EVENTS_STATS`), in push and in poll; over stdio, push delivers and a restarted server
 * (a new process: the old cursor is of another epoch) reaches the app as `truncated`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleClient, startExampleHttpServer } from '../integration/exampleServer.js';
import type { HttpServerProcess } from '../../examples/httpServerProcess.js';
import { McpClient } from '../../src/client/client.js';
import { StreamableHttpTransport } from '../../src/transport/http/streamableHttp.js';
import { FileCursorStore } from '../../src/node.js';
import type { DeliveryMode, EventMessage, EventSubscription } from '../../src/index.js';

const TICK = 'demo.tick';
const TICK_MS = 200;
let folder: string;
let server: HttpServerProcess;
const saved: Record<string, string | undefined> = {};

function setEnv(name: string, value: string): void {
  saved[name] = process.env[name];
  process.env[name] = value;
}

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'mcp-live-events-'));
  setEnv('EXAMPLE_EVENT_TICK_MS', String(TICK_MS));
  setEnv('EXAMPLE_EVENT_HEARTBEAT_MS', '500');
  setEnv('EXAMPLE_EVENTS_STATS', join(folder, 'stats.json'));
  server = await startExampleHttpServer();
});
afterAll(async () => {
  await server?.stop();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  rmSync(folder, { recursive: true, force: true });
});

function httpClient(): McpClient {
  return new McpClient({
    transport: new StreamableHttpTransport(server.url),
    clientInfo: { name: 'events-test', version: '0.0.0' },
  });
}

/** Collects the subscription's messages until `count` occurrences came; then closes it at once. */
function collect(subscription: EventSubscription, count: number): Promise<EventMessage[]> {
  const messages: EventMessage[] = [];
  return new Promise((resolve) => {
    subscription.on((event) => {
      if (event.type !== 'occurrence' && event.type !== 'truncated') return;
      messages.push(event);
      if (messages.filter((m) => m.type === 'occurrence').length === count)
        void subscription.close().then(() => resolve(messages));
    });
  });
}

const ticksOf = (messages: EventMessage[]): number[] =>
  messages.flatMap((m) => (m.type === 'occurrence' ? [m.occurrence.data['n'] as number] : []));

function serverCounts(): Record<string, number> {
  return JSON.parse(readFileSync(join(folder, 'stats.json'), 'utf8')) as Record<string, number>;
}

describe.each<DeliveryMode>(['push', 'poll'])('the example server over HTTP, %s', (mode) => {
  it('resumes a stopped consumer from its stored cursor: no tick lost, none sent twice', async () => {
    const store = new FileCursorStore({ path: join(folder, `${mode}-cursors.json`) });
    const first = httpClient();
    await first.connect();
    expect(first.events.supported).toBe(true);
    const { events } = await first.events.list();
    expect(events.map((e) => [e.name, e.delivery])).toEqual([[TICK, ['poll', 'push', 'webhook']]]);
    const a = await first.events.subscribe(TICK, {}, { delivery: mode, cursorStore: store, poll: { floorMs: 100 } });
    const before = ticksOf(await collect(a, 3));
    await first.close();
    await new Promise((resolve) => setTimeout(resolve, 3 * TICK_MS)); // ticks go on meanwhile

    const second = httpClient();
    await second.connect();
    const b = await second.events.subscribe(TICK, {}, { delivery: mode, cursorStore: store, poll: { floorMs: 100 } });
    const after = ticksOf(await collect(b, 5));
    await second.close();

    const all = [...before, ...after];
    expect(all).toEqual(Array.from({ length: all.length }, (_, i) => all[0]! + i)); // contiguous, no repeat
    const counts = serverCounts();
    const sent = Object.entries(counts).filter(([id]) => all.some((n) => id.endsWith(`-${n}`)));
    expect(sent).toHaveLength(all.length);
    expect(sent.every(([, times]) => times === 1)).toBe(true);
  }, 20_000);
});

describe('the example server over stdio', () => {
  it('pushes ticks, and a restarted server (another epoch) reaches the app as truncated', async () => {
    const store = new FileCursorStore({ path: join(folder, 'stdio-cursors.json') });
    // A stdio child inherits only the safe default variables: the tick interval goes as the
    // transport's `env` (without it the server ticks every 5 s and the test ran 15 of its 20 s).
    const env = { EXAMPLE_EVENT_TICK_MS: String(TICK_MS), EXAMPLE_EVENT_HEARTBEAT_MS: '500' };
    const { client } = exampleClient({}, env);
    await client.connect();
    const a = await client.events.subscribe(TICK, {}, { cursorStore: store });
    expect(a.mode).toBe('push');
    const first = ticksOf(await collect(a, 2));
    expect(first[1]).toBe(first[0]! + 1);
    await client.close();

    const restarted = exampleClient({}, env);
    await restarted.client.connect();
    const b = await restarted.client.events.subscribe(
      TICK,
      {},
      { cursorStore: store, delivery: 'poll', poll: { floorMs: 100 } },
    );
    const messages = await collect(b, 1);
    expect(messages[0]).toMatchObject({ type: 'truncated', via: 'poll' });
    expect(b.truncated).toBe(true);
    await restarted.client.close();
  }, 20_000);
});
