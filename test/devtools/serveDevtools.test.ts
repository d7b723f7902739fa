/**
 * serveDevtools over real sockets on 127.0.0.1, for a real McpHost on the example server over
 * stdio: loopback only, the token on every route, the event stream (a snapshot, then batches of
 * changes),
 * read-only unless `actions`, a Host header of another name refused, and `close()` ending the
 * streams and the server.
 */
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { serveDevtools, type ServedDevtools } from '../../src/devtools/serveDevtools.js';
import { DevtoolsRecorder } from '../../src/devtools/recorder.js';
import { InvalidArgumentError } from '../../src/errors/errors.js';
import { McpHost } from '../../src/host/host.js';
import { nodeTransport } from '../../src/host/servers/nodeTransport.js';
import { EXAMPLE_SERVER } from '../integration/exampleServer.js';

const opened: Array<{ close(): Promise<void> }> = [];

function exampleHost(): McpHost {
  const host = new McpHost({
    clientInfo: { name: 'mcp-live-devtools-serve', version: '0.0.0' },
    createTransport: nodeTransport,
    servers: { example: { type: 'stdio', command: process.execPath, args: [EXAMPLE_SERVER] } },
  });
  opened.push(host);
  return host;
}

async function serve(host: McpHost, options: Parameters<typeof serveDevtools>[1] = {}): Promise<ServedDevtools> {
  const served = await serveDevtools(host, options);
  opened.unshift(served);
  return served;
}

interface SseEvent {
  event: string;
  data: unknown;
}

/** Reads the Server-Sent Events of `response`: `next(count)` resolves with the next `count` (fewer once it ends). */
function sseReader(response: Response): {
  next(count: number): Promise<SseEvent[]>;
  reader: ReadableStreamDefaultReader<Uint8Array>;
} {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const queued: SseEvent[] = [];
  let buffer = '';
  return {
    reader,
    async next(count) {
      while (queued.length < count) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          queued.push({
            event: /^event: (.*)$/m.exec(block)![1]!,
            data: JSON.parse(/^data: (.*)$/m.exec(block)![1]!) as unknown,
          });
        }
      }
      return queued.splice(0, count);
    },
  };
}

/** A GET with a Host header of our choosing (fetch does not let one set it). */
function getWithHost(url: string, hostHeader: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host: hostHeader } }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.once('error', reject);
    req.end();
  });
}

afterEach(async () => {
  for (const item of opened.splice(0)) await item.close();
});

describe('serveDevtools', () => {
  it('refuses any address but 127.0.0.1, a bad port and a source that is no host', async () => {
    const host = exampleHost();
    for (const address of ['0.0.0.0', 'localhost', '::1', '192.168.1.2'])
      await expect(serveDevtools(host, { host: address })).rejects.toMatchObject({
        name: 'InvalidArgumentError',
        code: -32602,
        data: { name: 'host', value: address },
      });
    await expect(serveDevtools(host, { port: 70_000 })).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(serveDevtools({} as McpHost)).rejects.toMatchObject({ code: -32602, data: { name: 'source' } });
  });

  it('an aborted start rejects with CancelledError and leaves nothing listening or attached', async () => {
    const recorder = new DevtoolsRecorder();
    recorder.attach(exampleHost());
    await expect(serveDevtools(recorder, { signal: AbortSignal.abort('no') })).rejects.toMatchObject({
      name: 'CancelledError',
      code: -32800,
    });
    const controller = new AbortController();
    const starting = serveDevtools(exampleHost(), { signal: controller.signal });
    controller.abort('changed my mind');
    await expect(starting).rejects.toMatchObject({ name: 'CancelledError', code: -32800 });
    expect(recorder.host).toBeDefined();
  });

  it('serves the page and the stream with the token only; streams a snapshot, then changes', async () => {
    const host = exampleHost();
    await host.connect();
    const devtools = await serve(host);
    expect(devtools.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{32}$/);
    const { origin } = new URL(devtools.url);
    const token = new URL(devtools.url).searchParams.get('token')!;
    expect((await fetch(`${origin}/`)).status).toBe(401);
    expect((await fetch(`${origin}/events`)).status).toBe(401);
    expect((await fetch(`${origin}/?token=${token.slice(0, -1)}`)).status).toBe(401);
    expect((await fetch(`${origin}/nothing?token=${token}`)).status).toBe(404);
    // Read-only by default.
    expect((await fetch(`${origin}/actions?token=${token}`, { method: 'POST', body: '{}' })).status).toBe(404);
    const page = await fetch(devtools.url);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('cache-control')).toBe('no-store');
    const nonce = /script-src 'nonce-([^']+)'/.exec(page.headers.get('content-security-policy')!)![1]!;
    expect(await page.text()).toContain(`<script nonce="${nonce}">`);

    const stream = await fetch(`${origin}/events?token=${token}`);
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    const events = sseReader(stream);
    expect((await events.next(1))[0]).toMatchObject({
      event: 'snapshot',
      data: { maxRequests: 500, actions: false, snapshot: { servers: [{ name: 'example', state: 'open' }] } },
    });
    await host.callTool('example__echo', { message: 'streamed' });
    // Batched: the request's start and end within 100 ms coalesce into its last value.
    let ended: unknown;
    while (ended === undefined) {
      const [batch] = await events.next(1);
      expect(batch!.event).toBe('changes');
      ended = (batch!.data as Array<{ type: string; request?: { outcome: string } }>).find(
        (change) => change.type === 'request' && change.request!.outcome === 'ok',
      );
    }
    expect(ended).toMatchObject({
      request: { method: 'tools/call', target: 'echo', outcome: 'ok', server: 'example' },
    });
    // close() ends the stream and the server.
    await devtools.close();
    expect(await events.reader.read()).toEqual({ done: true, value: undefined });
    await expect(fetch(devtools.url)).rejects.toThrow();
  }, 30_000);

  it('refuses a Host header of another name (DNS rebinding)', async () => {
    const devtools = await serve(exampleHost());
    expect(await getWithHost(devtools.url, 'attacker.example')).toBe(403);
    expect(await getWithHost(devtools.url, `127.0.0.1:${devtools.port}`)).toBe(200);
  });

  it('with actions: invalidates a server cache; an unknown action or server is refused', async () => {
    const host = exampleHost();
    await host.connect();
    const recorder = new DevtoolsRecorder({ maxRequests: 10 });
    recorder.attach(host);
    const devtools = await serveDevtools(recorder, { actions: true });
    opened.unshift(devtools);
    const actions = devtools.url.replace('/?', '/actions?');
    const post = (body: unknown) =>
      fetch(actions, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const before = host.client('example')!.cache!.stats().invalidations;
    const done = await post({ action: 'invalidate-cache', server: 'example' });
    expect(done.status).toBe(200);
    expect(await done.json()).toEqual({ invalidated: expect.any(Number) });
    expect(host.client('example')!.cache!.stats().invalidations).toBe(before + 1);
    expect((await post({ action: 'drop-table', server: 'example' })).status).toBe(400);
    expect((await post({ action: 'invalidate-cache', server: 'nobody' })).status).toBe(404);
    expect((await fetch(actions, { method: 'POST', body: 'x'.repeat(5000) })).status).toBe(413);
    expect((await fetch(actions, { method: 'POST', body: 'not json' })).status).toBe(400);
    // A recorder given stays attached after close().
    await devtools.close();
    expect(recorder.host).toBe(host);
  }, 30_000);

  it("serves the host's tool search to the page, read-only, with the token only; a bad query is a 400", async () => {
    const host = exampleHost();
    await host.connect();
    const devtools = await serve(host); // no actions: the search is still served
    const { origin } = new URL(devtools.url);
    const token = new URL(devtools.url).searchParams.get('token')!;
    expect((await fetch(`${origin}/search?q=echo`)).status).toBe(401);
    const found = await fetch(`${origin}/search?token=${token}&q=${encodeURIComponent('echo a message')}`);
    expect(found.status).toBe(200);
    const body = (await found.json()) as { query: string; matches: { exposedName: string; score: number }[] };
    expect(body.query).toBe('echo a message');
    expect(body.matches[0]).toMatchObject({ exposedName: 'example__echo', server: 'example', name: 'echo' });
    // The same ranking as the host's own search, score for score.
    const direct = host.searchTools('echo a message');
    expect(body.matches.map((m) => [m.exposedName, m.score])).toEqual(
      direct.matches.map((m) => [m.tool.exposedName, Math.round(m.score * 1000) / 1000]),
    );
    const nothing = (await (await fetch(`${origin}/search?token=${token}&q=`)).json()) as { matches: unknown[] };
    expect(nothing.matches).toEqual([]);
    const tooLong = await fetch(`${origin}/search?token=${token}&q=${'x'.repeat(1001)}`);
    expect(tooLong.status).toBe(400);
    expect(((await tooLong.json()) as { error: { code: number } }).error.code).toBe(-32602);
  });
});
