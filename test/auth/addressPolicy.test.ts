/**
 * The address policy of OAuth discovery: the classifier over every kind and spelling, and the
 * provider against a protected resource metadata document served on 127.0.0.1 that names each
 * kind of address. The MCP server is reached as `mcp.example.test`, which the injected resolver
 * and fetch map to 127.0.0.1, so the policy is on. Every request goes through an injected fetch
 * that refuses and records any target outside 127.0.0.0/8: nothing leaves the loopback range
 * even when the code under test is wrong.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { addressKind } from '../../src/auth/addressKinds.js';
import { resolveAddressPolicy, type AddressLookup } from '../../src/auth/addressPolicy.js';
import { isOAuthError } from '../../src/auth/errors.js';
import { createOAuthProvider } from '../../src/auth/oauthProvider.js';
import { StreamableHttpTransport } from '../../src/transport/http/streamableHttp.js';
import { startRecording } from '../fakes/httpHarness.js';
import { authTestBed, call, codeFlowProvider } from './authTestBed.js';

describe('addressKind', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.3.4', 'loopback'],
    ['[::1]', 'loopback'],
    ['::1', 'loopback'],
    ['localhost', 'loopback'],
    ['app.localhost', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.10.1', 'link-local'],
    ['[fe80::1]', 'link-local'],
    ['[febf::1]', 'link-local'],
    ['[fc00::1]', 'unique-local'],
    ['[fd12:3456::1]', 'unique-local'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.255', 'cgnat'],
    ['0.0.0.0', 'unspecified'],
    ['[::]', 'unspecified'],
    ['169.254.169.254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['[fd00:ec2::254]', 'metadata'],
    ['metadata.google.internal', 'metadata'],
    ['METADATA.GOOGLE.INTERNAL.', 'metadata'],
    // IPv4-mapped, IPv4-compatible and NAT64 IPv6 forms carry the IPv4 address's kind.
    ['[::ffff:127.0.0.1]', 'loopback'],
    ['[::ffff:7f00:1]', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['[::ffff:169.254.169.254]', 'metadata'],
    ['[::127.0.0.1]', 'loopback'],
    ['[64:ff9b::a9fe:a9fe]', 'metadata'],
    // Odd IPv4 spellings, normalised by the URL parser.
    ['2130706433', 'loopback'],
    ['0x7f000001', 'loopback'],
    ['0x7f.1', 'loopback'],
    ['0177.0.0.1', 'loopback'],
    ['127.1', 'loopback'],
    ['0xa9.0xfe.0xa9.0xfe', 'metadata'],
    ['012.0.0.1', 'private'],
  ])('%s is %s', (host, kind) => {
    expect(addressKind(host)).toBe(kind);
  });

  it.each([
    '8.8.8.8',
    '172.32.0.1',
    '172.15.255.255',
    '100.128.0.1',
    '192.169.0.1',
    '[2001:db8::1]',
    '[::ffff:8.8.8.8]',
    '[fec0::1]',
    'example.com',
    'metadata.example.com',
    'localhost.example.com',
  ])('%s is not refused', (host) => {
    expect(addressKind(host)).toBeUndefined();
  });
});

/** What the injected fetch and resolver saw. */
interface Net {
  /** Every URL fetched. */
  readonly fetched: string[];
  /** Targets outside 127.0.0.0/8 the code tried to reach: refused, never sent. */
  readonly escaped: string[];
  readonly lookups: string[];
}

const FAKE_NAMES = new Set(['mcp.example.test', 'as.example.test']);

/** A fetch that sends only to 127.0.0.1 (fake names rewritten to it) and refuses anything else. */
function loopbackOnlyFetch(net: Net, port: number) {
  return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : input);
    net.fetched.push(url.href);
    if (FAKE_NAMES.has(url.hostname)) {
      url.hostname = '127.0.0.1';
      url.port = String(port);
    } else if (!/^127(\.\d{1,3}){3}$/.test(url.hostname)) {
      net.escaped.push(url.href);
      throw new TypeError(`test fetch: refused to connect to ${url.host}`);
    }
    return globalThis.fetch(url, init);
  };
}

const lookupFor =
  (net: Net): AddressLookup =>
  (hostname) => {
    net.lookups.push(hostname);
    if (FAKE_NAMES.has(hostname)) return Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
    return Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
  };

/** A server on 127.0.0.1 that serves `document` as the protected resource metadata and 401s `/mcp`. */
async function startResource(document: () => unknown, resourceMetadata?: string): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/.well-known/oauth-protected-resource') === true) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(document()));
      return;
    }
    req.resume();
    res.writeHead(401, {
      'www-authenticate': resourceMetadata === undefined ? 'Bearer' : `Bearer resource_metadata="${resourceMetadata}"`,
    });
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function providerFor(authorizationServer: string, resourceMetadata?: string) {
  let port = 0;
  const server = await startResource(
    () => ({ resource: `http://mcp.example.test:${port}/mcp`, authorization_servers: [authorizationServer] }),
    resourceMetadata,
  );
  servers.push(server);
  port = (server.address() as AddressInfo).port;
  const net: Net = { fetched: [], escaped: [], lookups: [] };
  const fetch = loopbackOnlyFetch(net, port);
  const provider = createOAuthProvider({
    serverUrl: `http://mcp.example.test:${port}/mcp`,
    clientMetadata: { client_name: 'address policy test' },
    redirectUrl: 'http://localhost:3000/callback',
    fetch,
    addressPolicy: { lookup: lookupFor(net) },
  });
  return { provider, net, port, fetch };
}

describe('the discovery address policy', () => {
  const bed = authTestBed();

  it.each([
    ['https://127.0.0.1:1/', 'loopback'],
    ['https://[::1]:1/', 'loopback'],
    ['https://10.0.0.7/', 'private'],
    ['https://192.168.0.1/', 'private'],
    ['https://172.20.0.1/', 'private'],
    ['https://169.254.1.1/', 'link-local'],
    ['https://[fe80::1]/', 'link-local'],
    ['https://[fd00::1]/', 'unique-local'],
    ['https://100.64.0.1/', 'cgnat'],
    ['https://0.0.0.0/', 'unspecified'],
    ['https://169.254.169.254/', 'metadata'],
    ['https://[fd00:ec2::254]/', 'metadata'],
    ['https://metadata.google.internal/', 'metadata'],
    ['https://[::ffff:a9fe:a9fe]/', 'metadata'],
    ['https://2130706433/', 'loopback'],
    ['https://0x7f.1/', 'loopback'],
    // A name the resolver maps to 127.0.0.1.
    ['https://as.example.test/', 'loopback'],
  ])('refuses authorization_servers %s (%s) before connecting', async (issuer, reason) => {
    const { provider, net, port } = await providerFor(issuer);
    const error: unknown = await provider.authorize().catch((e: unknown) => e);
    expect(isOAuthError(error)).toBe(true);
    expect((error as { data: unknown }).data).toMatchObject({ failure: 'address-refused', reason });
    expect((error as { data: { url: string } }).data.url).toBe(
      `${new URL(issuer).origin}/.well-known/oauth-authorization-server`,
    );
    // Only the metadata of the MCP server itself was fetched; nothing else was reached.
    expect(net.fetched).toEqual([`http://mcp.example.test:${port}/.well-known/oauth-protected-resource/mcp`]);
    expect(net.escaped).toEqual([]);
  });

  it('refuses a resource_metadata URL of the 401 that points at the metadata address', async () => {
    const { provider, net, port, fetch } = await providerFor(
      'https://as.example.test/',
      'https://169.254.169.254/latest/meta-data',
    );
    const transport = new StreamableHttpTransport(`http://mcp.example.test:${port}/mcp`, {
      authProvider: provider,
      retry: false,
      fetch,
    });
    bed.closeLater(() => transport.close());
    await startRecording(transport);
    const error: unknown = await call(transport).catch((e: unknown) => e);
    expect(isOAuthError(error)).toBe(true);
    expect((error as { data: unknown }).data).toMatchObject({
      failure: 'address-refused',
      reason: 'metadata',
      url: 'https://169.254.169.254/latest/meta-data',
    });
    expect(net.fetched).toEqual([`http://mcp.example.test:${port}/mcp`]);
    expect(net.escaped).toEqual([]);
  });

  it('checks each redirect of a metadata GET', async () => {
    const server = createServer((req, res) => {
      req.resume();
      if (req.url === '/.well-known/oauth-protected-resource/mcp') {
        res.writeHead(302, { location: 'http://[::ffff:10.0.0.1]/prm' });
      } else res.writeHead(404);
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    const port = (server.address() as AddressInfo).port;
    const net: Net = { fetched: [], escaped: [], lookups: [] };
    const provider = createOAuthProvider({
      serverUrl: `http://mcp.example.test:${port}/mcp`,
      clientMetadata: { client_name: 'address policy test' },
      redirectUrl: 'http://localhost:3000/callback',
      fetch: loopbackOnlyFetch(net, port),
      addressPolicy: { lookup: lookupFor(net) },
    });
    const error: unknown = await provider.authorize().catch((e: unknown) => e);
    expect((error as { data: unknown }).data).toMatchObject({
      failure: 'address-refused',
      reason: 'private',
      url: 'http://[::ffff:a00:1]/prm',
    });
    expect(net.fetched).toEqual([`http://mcp.example.test:${port}/.well-known/oauth-protected-resource/mcp`]);
    expect(net.escaped).toEqual([]);
  });

  it('lets the app allow a kind', async () => {
    const allowed = await providerFor('https://10.0.0.7/');
    const net = allowed.net;
    const provider = createOAuthProvider({
      serverUrl: `http://mcp.example.test:${allowed.port}/mcp`,
      clientMetadata: { client_name: 'address policy test' },
      redirectUrl: 'http://localhost:3000/callback',
      fetch: allowed.fetch,
      addressPolicy: { lookup: lookupFor(net), allow: ['private'] },
    });
    const error: unknown = await provider.authorize().catch((e: unknown) => e);
    // Allowed by the policy: the test fetch is what refuses it.
    expect((error as { data: unknown }).data).toMatchObject({ failure: 'network-error' });
    expect(net.escaped).toEqual(['https://10.0.0.7/.well-known/oauth-authorization-server']);
  });

  it("runs the app's own check with the resolved addresses", async () => {
    const { net, port, fetch } = await providerFor('https://as.example.test/');
    const seen: unknown[] = [];
    const provider = createOAuthProvider({
      serverUrl: `http://mcp.example.test:${port}/mcp`,
      clientMetadata: { client_name: 'address policy test' },
      redirectUrl: 'http://localhost:3000/callback',
      fetch,
      addressPolicy: {
        lookup: lookupFor(net),
        check: (target) => {
          seen.push(target);
          return target.hostname === 'as.example.test' ? 'not-on-the-list' : undefined;
        },
      },
    });
    const error: unknown = await provider.authorize().catch((e: unknown) => e);
    expect((error as { data: unknown }).data).toMatchObject({
      failure: 'address-refused',
      reason: 'not-on-the-list',
      actual: '127.0.0.1',
    });
    expect(seen).toContainEqual({
      url: 'https://as.example.test/.well-known/oauth-authorization-server',
      hostname: 'as.example.test',
      addresses: ['127.0.0.1'],
    });
    expect(net.escaped).toEqual([]);
  });
});

describe('local development', () => {
  const bed = authTestBed();

  it('an MCP server on 127.0.0.1 with its authorization server on 127.0.0.1 still authorizes', async () => {
    const { as, rs } = await bed.startPair();
    expect(new URL(rs.url).hostname).toBe('127.0.0.1');
    expect(new URL(as.issuer).hostname).toBe('127.0.0.1');
    const transport = await bed.transportFor(rs, codeFlowProvider(rs));
    await call(transport);
    expect(as.tokenRequests.length).toBeGreaterThan(0);
  });
});

describe('the default resolver', () => {
  it('is node:dns lookup on Node, found without an import a bundler would follow', async () => {
    const policy = resolveAddressPolicy(new URL('https://mcp.example.test/mcp'), [], undefined);
    expect(policy?.lookup).toBeTypeOf('function');
    // localhost is answered from the hosts file: no packet leaves the machine.
    const addresses = await policy!.lookup!('localhost');
    expect(addresses.some((a) => addressKind(a.address) === 'loopback')).toBe(true);
    expect(policy?.allowed.size).toBe(0);
    expect(resolveAddressPolicy(new URL('http://127.0.0.1:1/mcp'), [], undefined)?.allowed).toEqual(
      new Set(['loopback']),
    );
    expect(resolveAddressPolicy(new URL('http://127.0.0.1:1/mcp'), [], false)).toBeUndefined();
  });
});
