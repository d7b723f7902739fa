/**
 * `connect()` against servers it cannot use: a request that never reached the server (refused
 * connection, TLS failure, refused credential, authorization needed) is no reason to try
 * another era; it reaches the caller unchanged, within a bound, with nothing else sent.
 */
import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { createServer as createNetServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  McpClient,
  StreamableHttpTransport as FetchHttpTransport,
  createOAuthProvider,
  type DebugEntry,
} from '../../src/index.js';
import { StdioTransport, StreamableHttpTransport } from '../../src/node.js';
import { startAuthPair } from '../fakes/authServer.js';
import { HttpFake } from '../fakes/httpFake.js';
import {
  expectGroupGone,
  expectNoLeakedHandles,
  expectRejects,
  faultProbe,
  groupAlive,
  settleWithin,
} from './harness.js';

const FIXTURES = new URL('./fixtures/', import.meta.url);
const TRANSPORTS = [
  { name: 'node:http', Transport: StreamableHttpTransport },
  { name: 'fetch', Transport: FetchHttpTransport },
] as const;

/** A client that records the JSON-RPC methods it sends. */
function recordingClient(
  transport: InstanceType<typeof StreamableHttpTransport> | InstanceType<typeof FetchHttpTransport>,
): { client: McpClient; sent: string[] } {
  const sent: string[] = [];
  const client = new McpClient({
    transport,
    clientInfo: { name: 'faults', version: '0.0.0' },
    debug: (entry: DebugEntry) => {
      const message = entry.data?.['message'] as { method?: string } | undefined;
      if (entry.type === 'wire' && entry.data?.['direction'] === 'send' && message?.method !== undefined)
        sent.push(message.method);
    },
  });
  return { client, sent };
}

/** A port on 127.0.0.1 that was just free: nothing listens there. */
async function closedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function selfSignedServer(): Promise<{
  url: string;
  requests: number;
  connections: number;
  close(): Promise<void>;
}> {
  const state = { requests: 0, connections: 0 };
  const server: HttpsServer = createHttpsServer(
    {
      key: readFileSync(new URL('self-signed.key', FIXTURES)),
      cert: readFileSync(new URL('self-signed.crt', FIXTURES)),
    },
    (_req, res) => {
      state.requests++;
      res.writeHead(500).end();
    },
  );
  server.on('connection', () => state.connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}/mcp`,
    get requests() {
      return state.requests;
    },
    get connections() {
      return state.connections;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('connect() never falls back to another era on a request that was not delivered', () => {
  const probe = faultProbe();
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  async function cleanUp(): Promise<void> {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await expectNoLeakedHandles(probe.baseline);
  }

  it('an OAuth provider that needs the user: AuthorizationRequiredError (-33019) unchanged, no initialize', async () => {
    const { as, rs, close } = await startAuthPair({}, { challengeScope: 'mcp:basic' });
    cleanups.push(close);
    const oauth = createOAuthProvider({
      serverUrl: rs.url,
      clientMetadata: { client_name: 'faults' },
      redirectUrl: 'http://127.0.0.1:8765/callback',
    });
    const { client, sent } = recordingClient(new StreamableHttpTransport(rs.url, { authProvider: oauth }));
    cleanups.push(() => client.close());
    const error = await expectRejects(client.connect(), 5000, { name: 'AuthorizationRequiredError', code: -33019 });
    expect(error.data.authorizationUrl).toContain(as.issuer);
    expect(sent).toEqual(['server/discover']);
    expect(rs.mcpRequests.map((r) => r.json?.method)).toEqual(['server/discover']);
    await cleanUp();
  });

  for (const { name, Transport } of TRANSPORTS) {
    it(`${name}: a 401 without a provider is HttpAuthError (-33011), not EraDetectionError; no initialize`, async () => {
      const server = await HttpFake.start((_request, res) => {
        res.writeHead(401, { 'www-authenticate': 'Bearer realm="mcp"' }).end();
      });
      cleanups.push(() => server.close());
      const { client, sent } = recordingClient(
        new Transport(server.url, { headers: { Authorization: 'Bearer nope' } }),
      );
      cleanups.push(() => client.close());
      await expectRejects(client.connect(), 3000, { name: 'HttpAuthError', code: -33011 });
      expect(sent).toEqual(['server/discover']);
      expect(server.requests).toHaveLength(1);
      await cleanUp();
    });

    it(`${name}: a refused connection is ConnectionClosedError refused, with no initialize`, async () => {
      const port = await closedPort();
      const { client, sent } = recordingClient(
        new Transport(`http://127.0.0.1:${port}/mcp`, { retry: { minDelayMs: 10, maxDelayMs: 20 } }),
      );
      cleanups.push(() => client.close());
      const error = await expectRejects(client.connect(), 2000, {
        name: 'ConnectionClosedError',
        code: -32000,
        data: { connectFailure: 'refused', errorCode: 'ECONNREFUSED' },
      });
      expect(error.message).toContain('connection refused');
      expect(sent).toEqual(['server/discover']);
      await cleanUp();
    });

    it(`${name}: a self-signed certificate is ConnectionClosedError tls at once: no retry, no initialize`, async () => {
      const server = await selfSignedServer();
      cleanups.push(() => server.close());
      const { client, sent } = recordingClient(new Transport(server.url));
      cleanups.push(() => client.close());
      const error = await expectRejects(client.connect(), 3000, {
        name: 'ConnectionClosedError',
        code: -32000,
        data: { connectFailure: 'tls', errorCode: 'DEPTH_ZERO_SELF_SIGNED_CERT' },
      });
      expect(error.message).toContain('TLS handshake failed');
      expect(sent).toEqual(['server/discover']);
      expect(server.requests).toBe(0);
      expect(server.connections).toBe(1); // a certificate does not change: not retried
      await cleanUp();
    });

    it(`${name}: TLS spoken to a plain-HTTP port is ConnectionClosedError tls`, async () => {
      const server = await HttpFake.start((_request, res) => res.writeHead(500).end());
      cleanups.push(() => server.close());
      const { client, sent } = recordingClient(new Transport(server.url.replace('http:', 'https:')));
      cleanups.push(() => client.close());
      await expectRejects(client.connect(), 3000, {
        name: 'ConnectionClosedError',
        code: -32000,
        data: { connectFailure: 'tls' },
      });
      expect(sent).toEqual(['server/discover']);
      expect(server.requests).toHaveLength(0);
      await cleanUp();
    });
  }
});

describe('connect() within its own bounds, against a silent server', () => {
  const probe = faultProbe();
  const SERVER = new URL('./children/faulty-server.mjs', import.meta.url).pathname;
  const clients: McpClient[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });

  function silentClient(
    options: { probeTimeoutMs?: number } = {},
    mode = 'silent',
  ): { client: McpClient; transport: StdioTransport } {
    const transport = new StdioTransport({ command: process.execPath, args: [SERVER, mode], closeTimeoutMs: 200 });
    const client = new McpClient({ transport, clientInfo: { name: 'faults', version: '0.0.0' }, ...options });
    clients.push(client);
    return { client, transport };
  }

  async function closedAndClean(client: McpClient, transport: StdioTransport): Promise<void> {
    await settleWithin(client.close(), 2000, 'close()');
    if (transport.pid !== undefined) await expectGroupGone(transport.pid);
    await expectNoLeakedHandles(probe.baseline);
  }

  it('timeoutMs bounds the whole negotiation, initialize included: TimeoutError at timeoutMs, not per era', async () => {
    const { client, transport } = silentClient({ probeTimeoutMs: 150 });
    const started = performance.now();
    const error = await expectRejects(client.connect({ timeoutMs: 400 }), 1500, {
      name: 'TimeoutError',
      code: -32001,
    });
    expect(error.data).toEqual({ method: 'connect', timeoutMs: 400, kind: 'total' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(380);
    await closedAndClean(client, transport);
  });

  it('maxTotalTimeoutMs bounds the whole negotiation: TimeoutError kind total', async () => {
    const { client, transport } = silentClient({ probeTimeoutMs: 5000 }, 'silent-stubborn');
    const started = performance.now();
    const error = await expectRejects(client.connect({ maxTotalTimeoutMs: 400 }), 2500, {
      name: 'TimeoutError',
      code: -32001,
    });
    expect(error.data).toEqual({ method: 'connect', timeoutMs: 400, kind: 'total' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(380);
    await closedAndClean(client, transport);
  });

  it('an already-aborted signal rejects at once with CancelledError; nothing is started', async () => {
    const { client, transport } = silentClient();
    const controller = new AbortController();
    controller.abort('no');
    const settled = await settleWithin(client.connect({ signal: controller.signal }), 1000);
    expect(settled.status).toBe('rejected');
    expect((settled as { error: { code: number } }).error).toMatchObject({ name: 'CancelledError', code: -32800 });
    expect(transport.pid).toBeUndefined();
    await closedAndClean(client, transport);
  });

  it('an abort during the negotiation rejects at once with CancelledError, however slowly the server closes', async () => {
    const { client, transport } = silentClient({ probeTimeoutMs: 5000 }, 'silent-stubborn');
    const controller = new AbortController();
    setTimeout(() => controller.abort('user left'), 150);
    const settled = await settleWithin(client.connect({ signal: controller.signal }), 2000);
    expect((settled as { error: unknown }).error).toMatchObject({ name: 'CancelledError', code: -32800 });
    // It did not wait for the server, which takes SIGKILL to end, to be gone.
    expect(groupAlive(transport.pid!)).toBe(true);
    await closedAndClean(client, transport);
  });
});
