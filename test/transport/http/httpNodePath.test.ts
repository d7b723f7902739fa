/**
 * What only the `node:http` path of the Streamable HTTP transport (`mcp-live/node`) does:
 * keep-alive reuse, no `fetch` at all, aborting a body mid-stream, HTTPS through the agent, and
 * `close()` freeing its own agent but never a given one. The protocol behaviour both paths share
 * is tested in the other http*.test.ts files, which run on both.
 */
import { once } from 'node:events';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent, createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { McpClient } from '../../../src/client/client.js';
import { CancelledError } from '../../../src/errors/errors.js';
import { StreamableHttpTransport } from '../../../src/node.js';
import { isStreamBrokenError } from '../../../src/transport/transportErrors.js';
import { answerDiscover, HttpFake, sendJson, sseEvent, startSse } from '../../fakes/httpFake.js';
import { request, startRecording } from '../../fakes/httpHarness.js';
import { httpTestBed } from '../../fakes/httpTestBed.js';
import { selfSigned } from '../../fakes/selfSigned.js';

const { serve, transportFor, closeLater } = httpTestBed(StreamableHttpTransport);
// Registered after the test bed, so it runs first.
afterEach(() => {
  vi.restoreAllMocks();
});
let fake: HttpFake | undefined;

/** Answers every request with an empty result; records the client port of each request. */
async function echoServer(ports: number[]): Promise<HttpFake> {
  return serve((req, res, raw) => {
    ports.push(raw.socket.remotePort ?? -1);
    sendJson(res, 200, { jsonrpc: '2.0', id: req.json.id, result: {} });
  });
}

describe('Streamable HTTP on node:http', () => {
  it('sends every request on one kept-alive connection, and never calls fetch', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const ports: number[] = [];
    fake = await echoServer(ports);
    const transport = transportFor(fake.url);
    await startRecording(transport);
    for (let id = 1; id <= 5; id++) await transport.send(request(id, 'tools/list'));
    expect(ports).toHaveLength(5);
    expect(new Set(ports).size).toBe(1);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('takes the fetch path when given fetch', async () => {
    fake = await echoServer([]);
    const calls: string[] = [];
    const transport = transportFor(fake.url, {
      fetch: (url, init) => {
        calls.push(`${init.method} ${url}`);
        return globalThis.fetch(url, init);
      },
    });
    await startRecording(transport);
    await transport.send(request(1, 'tools/list'));
    expect(calls).toEqual([`POST ${fake.url}`]);
  });

  it('aborting a call mid-body closes its response stream at once: CancelledError, and the server sees the close', async () => {
    let serverSawClose!: () => void;
    const closed = new Promise<void>((resolve) => (serverSawClose = resolve));
    fake = await serve((req, res) => {
      if (answerDiscover(req, res)) return;
      res.on('close', () => serverSawClose());
      // Progress, then nothing: the response never comes.
      startSse(res, [
        sseEvent({
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: req.json.params._meta.progressToken, progress: 1 },
        }),
      ]);
    });
    const client = new McpClient({
      transport: transportFor(fake.url),
      clientInfo: { name: 'node-path', version: '0' },
    });
    closeLater(() => client.close());
    await client.connect();
    const controller = new AbortController();
    const progress: number[] = [];
    const call = client
      .callTool('slow', {}, { signal: controller.signal, onProgress: (p) => progress.push(p.progress) })
      .catch((error: unknown) => error);
    await vi.waitFor(() => expect(progress).toEqual([1]));
    controller.abort('user gave up');
    const error = await call;
    expect(error).toBeInstanceOf(CancelledError);
    expect((error as CancelledError).cause).toBe('user gave up');
    await closed;
  });

  it('a body cut off by the server mid-stream is StreamBrokenError (mid-stream), as on fetch', async () => {
    fake = await serve((req, res) => {
      startSse(res, [': priming\n\n']);
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const transport = transportFor(fake.url);
    await startRecording(transport);
    const error = await transport.send(request(7, 'tools/call', { name: 'x' })).catch((e: unknown) => e);
    expect(isStreamBrokenError(error)).toBe(true);
    expect((error as { data: unknown }).data).toMatchObject({
      method: 'tools/call',
      requestId: 7,
      phase: 'mid-stream',
      outcome: 'unknown',
    });
  });

  it('close() destroys its own agent (the server sees the connection end) but leaves a given agent alone', async () => {
    const sockets: Socket[] = [];
    fake = await serve((req, res, raw) => {
      sockets.push(raw.socket);
      sendJson(res, 200, { jsonrpc: '2.0', id: req.json.id, result: {} });
    });
    const own = new StreamableHttpTransport(fake.url, { retry: false });
    await startRecording(own);
    await own.send(request(1, 'tools/list'));
    const agent = new HttpAgent({ keepAlive: true });
    closeLater(() => agent.destroy());
    const given = new StreamableHttpTransport(fake.url, { retry: false, agent });
    await startRecording(given);
    await given.send(request(2, 'tools/list'));
    expect(sockets).toHaveLength(2);
    expect(sockets[0]).not.toBe(sockets[1]);

    const ownSocketClosed = once(sockets[0]!, 'close');
    await own.close();
    await given.close();
    await ownSocketClosed; // never settles (test timeout) if close() left the connection open
    expect(sockets[1]!.destroyed).toBe(false);
    expect(Object.values(agent.freeSockets).flat()).toHaveLength(1);
  });
});

const tls = selfSigned();

describe.skipIf(tls === undefined)('Streamable HTTP on node:https', () => {
  it('an https: endpoint goes through node:https with the given agent (its CA trusted); without it, the certificate is refused', async () => {
    const server = createHttpsServer({ key: tls!.key, cert: tls!.cert }, (req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => sendJson(res, 200, { jsonrpc: '2.0', id: JSON.parse(body).id, result: { secure: true } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closeLater(() => new Promise<void>((resolve) => server.close(() => resolve())));
    closeLater(() => server.closeAllConnections());
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;

    const agent = new HttpsAgent({ keepAlive: true, ca: tls!.cert });
    closeLater(() => agent.destroy());
    const trusted = transportFor(url, { agent });
    const recorded = await startRecording(trusted);
    await trusted.send(request(1, 'tools/list'));
    expect(recorded.messages.map((m) => m.message)).toEqual([{ jsonrpc: '2.0', id: 1, result: { secure: true } }]);

    const untrusted = transportFor(url);
    await startRecording(untrusted);
    const error = await untrusted.send(request(2, 'tools/list')).catch((e: unknown) => e);
    // The handshake failed: nothing reached the server, so it is not "outcome unknown".
    expect(error).toMatchObject({
      code: -32000,
      data: { connectFailure: 'tls', errorCode: 'DEPTH_ZERO_SELF_SIGNED_CERT' },
    });
    expect(String((error as Error).message)).toContain('SELF_SIGNED');
  });
});
