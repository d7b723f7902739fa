/**
 * McpHost against real servers: the example server (2026-07-28) over stdio and over Streamable
 * HTTP, @modelcontextprotocol/server-everything and server-filesystem (2025-11-25) over stdio,
 * and a server that dies at start. Mixed eras in one catalog, a collision of tool names, a
 * list_changed that updates the union, routing, and a close that leaves no process behind.
 */
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpHost } from '../../src/host/host.js';
import { type HostEvent } from '../../src/host/servers/hostOptions.js';
import type { HostServerEntry } from '../../src/host/servers/config.js';
import { createExampleServerFactory, createExampleState } from '../../examples/serverFactory.js';
import { startWebSocketBridge, type WebSocketBridge } from '../fakes/webSocketBridge.js';
import { loadHostConfig } from '../../src/host/servers/loadConfig.js';
import { nodeTransport } from '../../src/host/servers/nodeTransport.js';
import { ConnectionClosedError } from '../../src/errors/errors.js';
import { StdioTransport } from '../../src/transport/stdio/stdio.js';
import type { Transport } from '../../src/transport/transport.js';
import type { HttpServerProcess } from '../../examples/httpServerProcess.js';
import { toAnthropicToolResult } from '../../src/host/models/modelToolResults.js';
import { EXAMPLE_SERVER, startExampleHttpServer } from './exampleServer.js';
import { EVERYTHING_SERVER, FILESYSTEM_SERVER } from '../fakes/publishedServers.js';

const FATAL = fileURLToPath(new URL('../fakes/children/fatal.mjs', import.meta.url));

describe('McpHost with real servers of both eras', () => {
  let dir: string;
  let http: HttpServerProcess;
  let host: McpHost;
  const events: HostEvent[] = [];
  const transports: Transport[] = [];

  beforeAll(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'mcp-live-host-')));
    await writeFile(join(dir, 'notes.txt'), 'hello from the filesystem server\n');
    http = await startExampleHttpServer();
    const configPath = join(dir, '.mcp.json');
    await writeFile(
      configPath,
      JSON.stringify({
        mcpServers: {
          example: { command: process.execPath, args: [EXAMPLE_SERVER] },
          exampleHttp: { type: 'http', url: '${EXAMPLE_URL}' },
          everything: { command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] },
          filesystem: { command: process.execPath, args: [FILESYSTEM_SERVER, '${ROOT}'] },
          broken: { command: process.execPath, args: [FATAL] },
        },
      }),
    );
    const config = await loadHostConfig(configPath, { env: { EXAMPLE_URL: http.url, ROOT: dir } });
    host = McpHost.fromConfig(config, {
      clientInfo: { name: 'mcp-live-host-interop', version: '0.0.0' },
      prefixMode: 'onCollision',
      createTransport: (location, context) => {
        const transport = nodeTransport(location, context);
        transports.push(transport);
        return transport;
      },
    });
    host.on((event) => events.push(event));
    await host.connect();
  }, 60_000);

  afterAll(async () => {
    await host?.close();
    await http?.stop();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('connects all five in parallel: both eras open, the broken one failed with its stderr tail', () => {
    expect(host.servers.map((s) => [s.name, s.state, s.era, s.protocolVersion])).toEqual([
      ['example', 'open', 'modern', '2026-07-28'],
      ['exampleHttp', 'open', 'modern', '2026-07-28'],
      ['everything', 'open', 'legacy', '2025-11-25'],
      ['filesystem', 'open', 'legacy', '2025-11-25'],
      ['broken', 'failed', undefined, undefined],
    ]);
    expect(host.server('everything')?.serverInfo?.name).toBe('mcp-servers/everything');
    const error = host.server('broken')?.lastError;
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect((error as ConnectionClosedError).data).toMatchObject({ exitCode: 1, stderrTail: 'fatal: boom\n' });
  });

  it('one catalog over both eras; names that collide are prefixed, the others stay bare', () => {
    const names = host.tools().map((t) => t.exposedName);
    // echo is on three servers, add on both example servers: prefixed. The rest is unique.
    expect(names).toEqual(expect.arrayContaining(['example__echo', 'exampleHttp__echo', 'everything__echo']));
    expect(names).toEqual(expect.arrayContaining(['example__add', 'exampleHttp__add']));
    expect(names).toEqual(expect.arrayContaining(['get-sum', 'read_text_file', 'list_directory']));
    expect(names).not.toContain('echo');
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[A-Za-z_][A-Za-z0-9_-]{0,63}$/);
    expect(host.catalog.toolCollisions).toEqual([]);
    expect(host.tools().some((t) => t.server === 'broken')).toBe(false);
  });

  it('routes calls to each era by exposed name', async () => {
    expect((await host.callTool('everything__echo', { message: 'legacy' })).content).toEqual([
      { type: 'text', text: 'Echo: legacy' },
    ]);
    expect((await host.callTool('exampleHttp__add', { a: 2, b: 40 })).structuredContent).toEqual({ sum: 42 });
    const read = await host.callTool('read_text_file', { path: join(dir, 'notes.txt') });
    expect(toAnthropicToolResult(read, 'toolu_1').content).toEqual([
      { type: 'text', text: 'hello from the filesystem server\n' },
    ]);
  });

  it('reads a resource from the server that lists it, and asks which one when two do', async () => {
    const readme = 'demo://readme';
    expect(host.catalog.resourcesByUri.get(readme)?.map((r) => r.server)).toEqual(['example', 'exampleHttp']);
    await expect(host.readResource(readme)).rejects.toMatchObject({
      data: { reason: 'ambiguous-resource', servers: ['example', 'exampleHttp'] },
    });
    const text = (await host.readResource(readme, { server: 'exampleHttp' })).contents[0];
    expect(text && 'text' in text ? text.text : '').toContain('# mcp-live example server');
    const own = host.resources().find((r) => r.server === 'everything')!;
    expect((await host.readResource(own.resource.uri)).contents.length).toBeGreaterThan(0);
    // Listed by no one; only server-everything has a template that produces it.
    const dynamic = 'demo://resource/dynamic/text/7';
    expect(host.catalog.resourcesByUri.has(dynamic)).toBe(false);
    expect((await host.readResource(dynamic)).contents[0]).toMatchObject({ uri: dynamic });
  });

  it('a list_changed on one server updates the union with one catalog event', async () => {
    const before = host.prompts().length;
    const seen = events.length;
    const changed = new Promise<HostEvent>((resolve) => {
      const off = host.on((event) => {
        if (event.type !== 'catalog') return;
        off();
        resolve(event);
      });
    });
    await host.callTool('example__add_prompt', { name: 'standup', text: 'Summarize {topic} for the standup.' });
    expect(await changed).toEqual({ type: 'catalog', kinds: ['prompts'] });
    expect(host.prompts()).toHaveLength(before + 1);
    // Over stdio this instance is the connection's; the HTTP server keeps its own prompts.
    expect(
      host
        .prompts()
        .filter((p) => p.prompt.name === 'standup')
        .map((p) => p.exposedName),
    ).toEqual(['standup']);
    expect(events.slice(seen).filter((e) => e.type === 'catalog')).toHaveLength(1);
  });

  it('close() ends every server process and every connection', async () => {
    const children = transports.filter((t): t is StdioTransport => t instanceof StdioTransport);
    expect(children).toHaveLength(4);
    const pids = children.map((t) => t.pid).filter((pid): pid is number => pid !== undefined);
    expect(pids).toHaveLength(4);
    await host.close();
    expect(host.servers.map((s) => s.state)).toEqual(['closed', 'closed', 'closed', 'closed', 'closed']);
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
    expect(host.tools()).toEqual([]);
  });
});

describe('McpHost: a server killed mid-session keeps its tools listed, marked unavailable', () => {
  const FAST = { jitter: false, minDelayMs: 50, maxDelayMs: 200 } as const;

  /** A host on one server; records the tool count at every catalog event. */
  function hostOf(entry: HostServerEntry): { host: McpHost; sizes: number[]; states: string[] } {
    const host = new McpHost({
      clientInfo: { name: 'mcp-live-host-kill', version: '0.0.0' },
      createTransport: nodeTransport,
      client: { reconnect: FAST },
      servers: { example: entry },
    });
    const sizes: number[] = [];
    const states: string[] = [];
    host.on((event) => {
      if (event.type === 'catalog') sizes.push(host.tools().length);
      if (event.type === 'state') states.push(event.state);
    });
    return { host, sizes, states };
  }

  function until(host: McpHost, state: string): Promise<void> {
    return new Promise((resolve) => {
      const off = host.on((event) => {
        if (event.type !== 'state' || event.state !== state) return;
        off();
        resolve();
      });
    });
  }

  it('stdio: SIGKILL; a call in the gap waits for the new process and succeeds', async () => {
    const transports: StdioTransport[] = [];
    const host = new McpHost({
      clientInfo: { name: 'mcp-live-host-kill', version: '0.0.0' },
      client: { reconnect: FAST },
      createTransport: (location, context) => {
        const transport = nodeTransport(location, context) as StdioTransport;
        transports.push(transport);
        return transport;
      },
      servers: { example: { type: 'stdio', command: process.execPath, args: [EXAMPLE_SERVER] } },
    });
    const sizes: number[] = [];
    const states: string[] = [];
    host.on((event) => {
      if (event.type === 'catalog') sizes.push(host.tools().length);
      if (event.type === 'state') states.push(event.state);
    });
    try {
      await host.connect();
      expect(host.tools().length).toBe(10);
      const down = until(host, 'reconnecting');
      process.kill(transports[0]!.pid!, 'SIGKILL');
      await down;
      expect(host.tools().length).toBe(10);
      expect(new Set(host.tools().map((t) => t.availability))).toEqual(new Set(['unavailable']));
      const result = await host.callTool('example__echo', { message: 'back' }, { timeoutMs: 20_000 });
      expect(result.content).toEqual([{ type: 'text', text: 'back' }]);
      expect(states.slice(-2)).toEqual(['reconnecting', 'open']);
      expect(host.tools().every((t) => t.availability === 'available')).toBe(true);
      expect(sizes.every((size) => size === 10)).toBe(true);
    } finally {
      await host.close();
    }
  }, 30_000);

  it('WebSocket: the server goes away; a call in the gap fails server-unavailable at its deadline, one after it comes back succeeds', async () => {
    const factory = createExampleServerFactory(createExampleState());
    let bridge: WebSocketBridge = await startWebSocketBridge(factory);
    const { host, sizes } = hostOf({ type: 'ws', url: bridge.url });
    try {
      await host.connect();
      const count = host.tools().length;
      expect(count).toBeGreaterThan(0);
      const down = until(host, 'reconnecting');
      await bridge.goAway(1001);
      await down;
      expect(host.tools().length).toBe(count);
      expect(host.tools().every((t) => t.availability === 'unavailable')).toBe(true);
      await expect(host.callTool('example__echo', { message: 'gap' }, { timeoutMs: 300 })).rejects.toMatchObject({
        data: { reason: 'server-unavailable', server: 'example', state: 'reconnecting' },
      });
      const pending = host.callTool('example__echo', { message: 'back' }, { timeoutMs: 20_000 });
      bridge = await startWebSocketBridge(factory, { port: bridge.port });
      expect((await pending).content).toEqual([{ type: 'text', text: 'back' }]);
      expect(host.tools().every((t) => t.availability === 'available')).toBe(true);
      expect(sizes.every((size) => size === count)).toBe(true);
    } finally {
      await host.close();
      await bridge.close();
    }
  }, 30_000);

  it('HTTP: the server process is killed; its tools stay listed, a call in the gap fails server-unavailable at its deadline, one that outlasts the gap succeeds', async () => {
    let http = await startExampleHttpServer();
    const port = Number(new URL(http.url).port);
    const { host, sizes } = hostOf({ type: 'http', url: http.url });
    try {
      await host.connect();
      const count = host.tools().length;
      expect(count).toBeGreaterThan(0);
      http.child.kill('SIGKILL');
      await http.stop();
      // Nothing reaches a server that is down: the call is tried again until its deadline (past
      // the transport's own retries of a refused connection, 2 × 500 ms).
      const gap = await host
        .callTool('example__echo', { message: 'gap' }, { timeoutMs: 2500 })
        .catch((e: unknown) => e);
      expect(gap).toMatchObject({ data: { reason: 'server-unavailable', server: 'example' } });
      expect((gap as Error).cause).toMatchObject({ data: { connectFailure: 'refused' } });
      expect(host.tools().length).toBe(count);
      const pending = host.callTool('example__echo', { message: 'back' }, { timeoutMs: 20_000 });
      http = await startExampleHttpServer({ port });
      expect((await pending).content).toEqual([{ type: 'text', text: 'back' }]);
      expect(sizes.every((size) => size === count)).toBe(true);
    } finally {
      await host.close();
      await http.stop();
    }
  }, 30_000);
});
