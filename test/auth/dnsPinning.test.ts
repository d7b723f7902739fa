/**
 * DNS pinning of the `mcp-live/node` OAuth provider: each request resolves its host name once,
 * every address is checked, and the connection goes to an address checked. The documents are
 * served on 127.0.0.1; names are answered by an injected resolver, and every connection is
 * opened by an injected connector that records its target and refuses (without opening a
 * socket) any address outside 127.0.0.0/8: nothing leaves the loopback range even when the
 * code under test is wrong.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect as netConnect, type AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import {
  guardedFetch,
  resolveAddressPolicy,
  type AddressLookup,
  type ResolvedAddress,
} from '../../src/auth/addressPolicy.js';
import { isOAuthError } from '../../src/auth/errors.js';
import { pinnedOAuthProvider } from '../../src/auth/nodeOAuthProvider.js';
import { pinnedSend, type ConnectTarget, type Connector } from '../../src/auth/pinnedSend.js';
import { createHeadlessRedirectHandler } from '../../src/auth/redirectHandler.js';
import { selfSigned } from '../fakes/selfSigned.js';
import { authTestBed, call } from './authTestBed.js';

/** What the injected resolver and connector saw. */
interface Net {
  readonly lookups: string[];
  /** Every connection opened, as `address:port`. */
  readonly connected: string[];
  /** Targets outside 127.0.0.0/8 the code tried to connect to: refused, no socket opened. */
  readonly escaped: string[];
}

const newNet = (): Net => ({ lookups: [], connected: [], escaped: [] });

const LOOPBACK = /^127(\.\d{1,3}){3}$/;

/** A connector that opens connections to 127.0.0.0/8 only: TCP, or TLS trusting `ca`. */
function loopbackConnector(net: Net, ca?: string): Connector {
  return (target: ConnectTarget) => {
    const where = `${target.address}:${target.port}`;
    if (!LOOPBACK.test(target.address)) {
      net.escaped.push(where);
      return Promise.reject(new Error(`test connector: refused to connect to ${where}`));
    }
    return new Promise<Duplex>((resolve, reject) => {
      const socket = target.secure
        ? tlsConnect({
            host: target.address,
            port: target.port,
            ...(ca !== undefined && { ca }),
            ...(target.servername !== undefined && { servername: target.servername }),
          })
        : netConnect({ host: target.address, port: target.port });
      socket.once(target.secure ? 'secureConnect' : 'connect', () => {
        net.connected.push(where);
        resolve(socket);
      });
      socket.once('error', reject);
    });
  };
}

const NAMES: Record<string, readonly string[]> = {
  'mcp.test': ['127.0.0.1'],
  'local.test': ['127.0.0.1'],
  'metadata.test': ['169.254.169.254'],
  'private.test': ['10.0.0.5'],
  'link.test': ['169.254.10.1'],
  'ula.test': ['fd00::5'],
  'cgnat.test': ['100.64.0.9'],
  'mapped.test': ['::ffff:10.0.0.5'],
  // One public (documentation) address and one private: refused for the private one.
  'mixed.test': ['192.0.2.10', '10.0.0.5'],
};

/** A resolver over {@link NAMES}; `answers` overrides a name with one answer per call, in turn. */
function resolver(net: Net, answers: Record<string, string[][]> = {}): AddressLookup {
  return (hostname) => {
    net.lookups.push(hostname);
    const turn = answers[hostname]?.shift();
    const addresses = turn ?? NAMES[hostname];
    if (addresses === undefined)
      return Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
    return Promise.resolve(
      addresses.map((address): ResolvedAddress => ({ address, family: address.includes(':') ? 6 : 4 })),
    );
  };
}

interface Seen {
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A server on 127.0.0.1 that answers each request with `answer`, recording what it saw. */
async function serve(
  answer: (url: string, port: number) => { status: number; headers?: Record<string, string>; body?: unknown },
): Promise<{ port: number; seen: Seen[] }> {
  const seen: Seen[] = [];
  let port = 0;
  const server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    req.resume();
    const { status, headers = {}, body } = answer(req.url ?? '', port);
    res.writeHead(status, body === undefined ? headers : { 'content-type': 'application/json', ...headers });
    res.end(body === undefined ? undefined : JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  port = (server.address() as AddressInfo).port;
  return { port, seen };
}

/** A provider for `http://mcp.test:<port>/mcp` (a name: no kind is allowed), served by `answer` on 127.0.0.1. */
async function pinnedProvider(answer: Parameters<typeof serve>[0]) {
  const { port, seen } = await serve(answer);
  const net = newNet();
  const provider = pinnedOAuthProvider(
    {
      serverUrl: `http://mcp.test:${port}/mcp`,
      clientMetadata: { client_name: 'dns pinning test' },
      redirectUrl: 'http://localhost:3000/callback',
      addressPolicy: { lookup: resolver(net) },
    },
    loopbackConnector(net),
  );
  return { provider, net, port, seen };
}

/** {@link pinnedProvider} whose protected resource metadata names `authorizationServer`. */
const providerNaming = (authorizationServer: string) =>
  pinnedProvider((url, p) =>
    url.startsWith('/.well-known/oauth-protected-resource')
      ? { status: 200, body: { resource: `http://mcp.test:${p}/mcp`, authorization_servers: [authorizationServer] } }
      : { status: 404 },
  );

describe('the mcp-live/node provider refuses before connecting', () => {
  it.each([
    ['https://metadata.test/', 'metadata', '169.254.169.254'],
    ['https://private.test/', 'private', '10.0.0.5'],
    ['https://local.test/', 'loopback', '127.0.0.1'],
    ['https://link.test/', 'link-local', '169.254.10.1'],
    ['https://ula.test/', 'unique-local', 'fd00::5'],
    ['https://cgnat.test/', 'cgnat', '100.64.0.9'],
    ['https://mapped.test/', 'private', '::ffff:10.0.0.5'],
    ['https://mixed.test/', 'private', '10.0.0.5'],
    ['https://169.254.169.254/', 'metadata', '169.254.169.254'],
    ['https://[fe80::1]/', 'link-local', 'fe80::1'],
    ['https://metadata.google.internal/', 'metadata', undefined],
  ])('authorization_servers %s (%s)', async (issuer, reason, actual) => {
    const { provider, net, port, seen } = await providerNaming(issuer);
    const error: unknown = await provider.authorize().catch((e: unknown) => e);
    expect(isOAuthError(error)).toBe(true);
    expect((error as { data: unknown }).data).toEqual({
      failure: 'address-refused',
      url: `${new URL(issuer).origin}/.well-known/oauth-authorization-server`,
      reason,
      ...(actual !== undefined && { actual }),
    });
    // One connection: the MCP server's own metadata, to the address its name resolved to.
    expect(net.connected).toEqual([`127.0.0.1:${port}`]);
    expect(seen.map((s) => [s.url, s.headers.host])).toEqual([
      ['/.well-known/oauth-protected-resource/mcp', `mcp.test:${port}`],
    ]);
    expect(net.escaped).toEqual([]);
  });

  it('a redirect of a metadata GET to a refused address', async () => {
    const { provider, net, port, seen } = await pinnedProvider((url, p) =>
      url === '/.well-known/oauth-protected-resource/mcp'
        ? { status: 302, headers: { location: `http://private.test:${p}/prm` } }
        : { status: 404 },
    );
    const error: unknown = await provider.authorize().catch((e: unknown) => e);
    expect((error as { data: unknown }).data).toEqual({
      failure: 'address-refused',
      url: `http://private.test:${port}/prm`,
      reason: 'private',
      actual: '10.0.0.5',
    });
    expect(net.lookups).toEqual(['mcp.test', 'private.test']);
    expect(net.connected).toEqual([`127.0.0.1:${port}`]);
    expect(seen).toHaveLength(1);
    expect(net.escaped).toEqual([]);
  });
});

describe('pinnedSend behind the address policy', () => {
  /** The guarded, pinned fetch of an MCP server on 127.0.0.1 (loopback allowed: local development). */
  function pinnedFetch(net: Net, answers: Record<string, string[][]> = {}) {
    const lookup = resolver(net, answers);
    const policy = resolveAddressPolicy(new URL('http://127.0.0.1:1/mcp'), ['127.0.0.1'], { lookup })!;
    return guardedFetch(pinnedSend(lookup, loopbackConnector(net)), policy);
  }

  it('resolves once and connects to the address checked, even when the name then resolves elsewhere', async () => {
    const { port, seen } = await serve(() => ({ status: 200, body: { ok: true } }));
    const net = newNet();
    // DNS rebinding: the first answer passes the check, the next ones point at the metadata service.
    const fetch = pinnedFetch(net, { 'rebind.test': [['127.0.0.1'], ['169.254.169.254'], ['169.254.169.254']] });
    const response = await fetch(`http://rebind.test:${port}/doc?x=1`, {
      method: 'GET',
      headers: { accept: 'application/json' },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(net.lookups).toEqual(['rebind.test']);
    expect(net.connected).toEqual([`127.0.0.1:${port}`]);
    expect(seen.map((s) => [s.url, s.headers.host, s.headers.accept])).toEqual([
      ['/doc?x=1', `rebind.test:${port}`, 'application/json'],
    ]);
    // The next request resolves again, and that answer is checked (and refused) before connecting.
    const error: unknown = await fetch(`http://rebind.test:${port}/doc`, { method: 'GET' }).catch((e: unknown) => e);
    expect((error as { data: unknown }).data).toMatchObject({ failure: 'address-refused', actual: '169.254.169.254' });
    expect(net.connected).toHaveLength(1);
    expect(net.escaped).toEqual([]);
  });

  it('follows an allowed redirect by hand, resolving and checking each hop', async () => {
    const { port, seen } = await serve((url, p) =>
      url === '/a'
        ? { status: 307, headers: { location: `http://local.test:${p}/b` } }
        : { status: 200, body: { at: url } },
    );
    const net = newNet();
    const response = await pinnedFetch(net)(`http://127.0.0.1:${port}/a`, { method: 'GET' });
    expect(await response.json()).toEqual({ at: '/b' });
    expect(net.lookups).toEqual(['local.test']);
    expect(net.connected).toEqual([`127.0.0.1:${port}`, `127.0.0.1:${port}`]);
    expect(seen.map((s) => s.headers.host)).toEqual([`127.0.0.1:${port}`, `local.test:${port}`]);
  });

  it('sends the body of a POST and hands a manual redirect back as is', async () => {
    const bodies: string[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        bodies.push(`${req.headers['content-type']} ${req.headers['content-length']} ${body}`);
        res.writeHead(302, { location: 'http://private.test/x' });
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    const port = (server.address() as AddressInfo).port;
    const net = newNet();
    const response = await pinnedFetch(net)(`http://127.0.0.1:${port}/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'authorization_code', code: 'é' }),
      redirect: 'manual',
    });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('http://private.test/x');
    expect(bodies).toEqual([
      'application/x-www-form-urlencoded;charset=UTF-8 41 grant_type=authorization_code&code=%C3%A9',
    ]);
    expect(net.lookups).toEqual([]);
  });

  it('tries the next address checked when a connection fails', async () => {
    const { port } = await serve(() => ({ status: 204 }));
    const net = newNet();
    // Nothing listens on 127.0.0.3 (the server is bound to 127.0.0.1): refused, then the next.
    const fetch = pinnedFetch(net, { 'two.test': [['127.0.0.3', '127.0.0.1']] });
    const response = await fetch(`http://two.test:${port}/`, { method: 'GET' });
    expect(response.status).toBe(204);
    expect(net.connected).toEqual([`127.0.0.1:${port}`]);
  });

  it('rejects with the signal reason when aborted', async () => {
    const { port } = await serve(() => ({ status: 200, body: {} }));
    const net = newNet();
    const controller = new AbortController();
    const reason = new Error('stop');
    controller.abort(reason);
    const error: unknown = await pinnedFetch(net)(`http://127.0.0.1:${port}/`, {
      method: 'GET',
      signal: controller.signal,
    }).catch((e: unknown) => e);
    expect(error).toBe(reason);
  });
});

const tls = selfSigned('DNS:as.test');

describe.skipIf(tls === undefined)('pinnedSend over TLS', () => {
  it('connects to the address checked, with the name as server name and certificate identity', async () => {
    const servernames: unknown[] = [];
    const server = createHttpsServer({ key: tls!.key, cert: tls!.cert }, (req, res) => {
      servernames.push([(req.socket as TLSSocket).servername, req.headers.host]);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"issuer":"https://as.test"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    const port = (server.address() as AddressInfo).port;
    const net = newNet();
    const lookup = resolver(net, { 'as.test': [['127.0.0.1']], 'other.test': [['127.0.0.1']] });
    const policy = resolveAddressPolicy(new URL('http://127.0.0.1:1/mcp'), [], { lookup })!;
    const fetch = guardedFetch(pinnedSend(lookup, loopbackConnector(net, tls!.cert)), policy);
    const response = await fetch(`https://as.test:${port}/.well-known/oauth-authorization-server`, { method: 'GET' });
    expect(await response.json()).toEqual({ issuer: 'https://as.test' });
    expect(servernames).toEqual([['as.test', `as.test:${port}`]]);
    // The same address under a name the certificate does not hold: refused by the TLS check.
    const error: unknown = await fetch(`https://other.test:${port}/`, { method: 'GET' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(String((error as { cause?: unknown }).cause)).toMatch(/other\.test/);
    expect(net.escaped).toEqual([]);
  });
});

describe('a whole authorization on the pinned path', () => {
  const bed = authTestBed();

  it('registers, runs the code flow and calls the MCP server, every connection to a checked loopback address', async () => {
    const { as, rs } = await bed.startPair();
    const net = newNet();
    const provider = pinnedOAuthProvider(
      {
        serverUrl: rs.url,
        clientMetadata: { client_name: 'dns pinning test' },
        redirectUrl: 'http://localhost:3000/callback',
        redirectHandler: createHeadlessRedirectHandler(),
        addressPolicy: { lookup: resolver(net) },
      },
      loopbackConnector(net),
    );
    const transport = await bed.transportFor(rs, provider);
    await call(transport);
    expect(as.registrations).toHaveLength(1);
    expect(as.tokenRequests.length).toBeGreaterThan(0);
    // Metadata (resource and authorization server), registration, token: all pinned.
    expect(net.connected.length).toBeGreaterThanOrEqual(4);
    expect(net.connected.every((where) => where.startsWith('127.0.0.1:'))).toBe(true);
    expect(net.escaped).toEqual([]);
  });
});
