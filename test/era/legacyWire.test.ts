/**
 * What the client sends and keeps on the legacy wire (spec 2025-11-25: basic/lifecycle,
 * basic/index `_meta`): the handshake, requests without the modern `_meta` keys, the
 * getters in legacy mode, results without cache hints.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { McpClient } from '../../src/client/client.js';
import { TimeoutError, VersionNegotiationError } from '../../src/errors/errors.js';
import { connectedLegacyPair, LEGACY_INITIALIZE, legacyPair } from '../fakes/legacyScripted.js';
import type { ScriptedServer } from '../fakes/scriptedServer.js';

let client: McpClient | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

async function pair(
  options: Parameters<typeof connectedLegacyPair>[0] = {},
  initialize?: Record<string, unknown>,
): Promise<ScriptedServer> {
  const connected = await connectedLegacyPair(options, initialize);
  client = connected.client;
  connected.server.on('tools/list', () => ({ result: { tools: [] } }));
  return connected.server;
}

describe('the legacy handshake', () => {
  it('probe, initialize with the client capabilities and info, then notifications/initialized', async () => {
    const server = await pair({ handlers: { roots: { list: () => ({ roots: [] }) } } });
    expect(server.received.map((m) => m['method'])).toEqual([
      'server/discover',
      'initialize',
      'notifications/initialized',
    ]);
    expect(server.requests('initialize')[0]?.['params']).toEqual({
      protocolVersion: '2025-11-25',
      capabilities: { roots: {} },
      clientInfo: { name: 'test-host', version: '1.0.0' },
    });
  });

  it('era "legacy" sends initialize at once', async () => {
    const server = await pair({ era: 'legacy' });
    expect(server.received.map((m) => m['method'])).toEqual(['initialize', 'notifications/initialized']);
  });

  it('accepts an older version the server picks; refuses one it does not speak, and closes', async () => {
    await pair({}, { ...LEGACY_INITIALIZE, protocolVersion: '2025-03-26' });
    expect(client!.protocolVersion).toBe('2025-03-26');
    await client!.close();
    const { client: other, server } = legacyPair();
    client = other;
    server.on('initialize', () => ({ result: { ...LEGACY_INITIALIZE, protocolVersion: '2024-11-05' } }));
    await server.start();
    const error = await other.connect().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VersionNegotiationError);
    expect(other.state).toBe('closed');
  });

  it('the getters read the InitializeResult; serverDiscovery is built from it; discover() sends nothing', async () => {
    const server = await pair();
    expect(client!.era).toBe('legacy');
    expect(client!.protocolVersion).toBe('2025-11-25');
    expect(client!.serverInfo).toEqual({ name: 'legacy-scripted', version: '1.0.0' });
    expect(client!.serverCapabilities).toEqual(LEGACY_INITIALIZE.capabilities);
    expect(client!.instructions).toBe('a scripted legacy server');
    expect(client!.initializeResult).toEqual({ protocolVersion: '2025-11-25', ...LEGACY_INITIALIZE });
    expect(client!.serverDiscovery).toMatchObject({
      supportedVersions: ['2025-11-25'],
      capabilities: LEGACY_INITIALIZE.capabilities,
    });
    const before = server.received.length;
    expect(await client!.discover()).toBe(client!.serverDiscovery);
    expect(server.received.length).toBe(before);
  });
});

describe('legacy requests', () => {
  it('_meta carries the caller keys and the progress token, never the modern keys or the log level', async () => {
    const server = await pair();
    await client!.listTools({}, { meta: { 'example.com/trace': 't-1' }, logLevel: 'debug', cacheMode: 'no-store' });
    const [list] = server.requests('tools/list');
    expect(list?.['params']).toEqual({ _meta: { 'example.com/trace': 't-1', progressToken: list?.['id'] } });
  });

  it('a request with nothing for _meta and no progress wanted has no _meta', async () => {
    const server = await pair({ resetTimeoutOnProgress: false });
    await client!.listTools({}, { cacheMode: 'no-store' });
    expect(server.requests('tools/list')[0]?.['params']).toEqual({});
  });

  it('results carry no cache hints: nothing is served from the cache unless legacyTtlMs says so', async () => {
    const server = await pair();
    await client!.listTools();
    await client!.listTools();
    expect(server.requests('tools/list')).toHaveLength(2);
    await client!.close();
    const ttl = await pair({ legacyTtlMs: 30_000 });
    const first = await client!.listTools();
    expect(first.ttlMs).toBe(30_000);
    await client!.listTools();
    expect(ttl.requests('tools/list')).toHaveLength(1);
  });

  it('-32002 from resources/read is the same ResourceNotFoundError', async () => {
    const server = await pair();
    server.on('resources/read', () => ({
      error: { code: -32002, message: 'Resource not found', data: { uri: 'file:///x' } },
    }));
    await expect(client!.readResource('file:///x')).rejects.toMatchObject({
      name: 'ResourceNotFoundError',
      code: -32002,
      uri: 'file:///x',
    });
  });

  it('a result without resultType is complete', async () => {
    const server = await pair();
    server.on('tools/call', () => ({ result: { content: [{ type: 'text', text: 'done' }] } }));
    expect((await client!.callTool('x', {})).content).toEqual([{ type: 'text', text: 'done' }]);
  });
});

describe('timeouts around the handshake', () => {
  it('a probe answered after the probe timeout: the late answer is dropped quietly, the fallback goes on', async () => {
    const errors: Error[] = [];
    const { client: late, server } = legacyPair({ probeTimeoutMs: 20, onError: (e) => errors.push(e) });
    client = late;
    let answerProbe!: () => void;
    const answered = new Promise<void>((resolve) => (answerProbe = resolve));
    server.on('server/discover', async () => {
      await answered;
      return { error: { code: -32601, message: 'Method not found' } };
    });
    await server.start();
    await late.connect();
    expect(late.era).toBe('legacy');
    answerProbe();
    await late.request('ping');
    expect(errors).toEqual([]);
    expect(server.received.some((m) => m['method'] === 'notifications/cancelled')).toBe(false);
  });

  it('B36: an initialize that times out is never cancelled on the wire', async () => {
    const { client: silent, server } = legacyPair({ era: 'legacy', timeoutMs: 30 });
    client = silent;
    server.on('initialize', () => undefined);
    await server.start();
    const error = await silent.connect().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(server.received.map((m) => m['method'])).toEqual(['initialize']);
  });
});
