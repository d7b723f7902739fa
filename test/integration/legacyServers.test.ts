/**
 * Interop with published 2025-11-25 servers from npm, started here: the client detects their
 * era (`server/discover`, then `initialize`) and speaks the legacy wire to them. See the table
 * in docs/legacy.md.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { McpClient } from '../../src/client/client.js';
import type { ClientOptions } from '../../src/client/options.js';
import type { Transport } from '../../src/transport/transport.js';
import type { StreamableHttpTransport } from '../../src/transport/http/streamableHttp.js';
import { HTTP_PATHS } from '../fakes/httpPaths.js';
import type { InputHandlers } from '../../src/inputRequired/handlers.js';
import {
  EVERYTHING_SERVER,
  FILESYSTEM_SERVER,
  nodeStdio,
  spawnLoopbackServer,
  type LoopbackServer,
} from '../fakes/publishedServers.js';

const clientInfo = { name: 'mcp-live-interop', version: '0.0.0' };

function client(transport: Transport, options: Partial<ClientOptions> = {}): McpClient {
  return new McpClient({ transport, clientInfo, ...options });
}

const text = (result: { content: unknown[] }): string => (result.content[0] as { text: string }).text;
/** Every text block of a result, joined. */
const allText = (result: { content: unknown[] }): string =>
  result.content.map((block) => (block as { text?: string }).text ?? '').join('\n');

/** Form handler for the everything server's elicitation: the one required field, the rest left to the schema defaults. */
const handlers: InputHandlers = {
  elicitation: { form: () => ({ action: 'accept', content: { name: 'Ada Lovelace' } }) },
  roots: { list: () => ({ roots: [{ uri: 'file:///tmp/interop', name: 'interop' }] }) },
};

describe('@modelcontextprotocol/server-everything over stdio', () => {
  let everything: McpClient;
  beforeAll(async () => {
    everything = client(nodeStdio(EVERYTHING_SERVER, ['stdio']), { handlers });
    await everything.connect();
  });
  afterAll(() => everything.close());

  it('is detected as legacy and initialized at 2025-11-25', () => {
    expect(everything.era).toBe('legacy');
    expect(everything.protocolVersion).toBe('2025-11-25');
    expect(everything.serverInfo?.name).toBe('mcp-servers/everything');
    expect(everything.serverCapabilities).toMatchObject({
      tools: { listChanged: true },
      resources: { subscribe: true },
    });
  });

  it('lists tools, calls one, lists and gets prompts, reads a resource', async () => {
    const { items } = await everything.listAllTools();
    expect(items.map((t) => t.name)).toEqual(
      expect.arrayContaining(['echo', 'get-sum', 'trigger-elicitation-request', 'get-roots-list']),
    );
    expect(text(await everything.callTool('echo', { message: 'hi' }))).toBe('Echo: hi');
    expect(text(await everything.callTool('get-sum', { a: 2, b: 40 }))).toContain('42');
    const prompts = await everything.listAllPrompts();
    expect(prompts.items.length).toBeGreaterThan(0);
    const resources = await everything.listAllResources();
    const first = resources.items[0];
    expect(first).toBeDefined();
    const read = await everything.readResource(first!.uri);
    expect(read.contents.length).toBeGreaterThan(0);
  });

  it('answers its elicitation/create with the handler (schema defaults filled) and its roots/list', async () => {
    const elicited = allText(await everything.callTool('trigger-elicitation-request', {}));
    expect(elicited).toContain('Ada Lovelace');
    expect(elicited).toContain('It was a dark and stormy night.');
    expect(text(await everything.callTool('get-roots-list', {}))).toContain('file:///tmp/interop');
  });

  it('subscribes to a resource with resources/subscribe, and unsubscribes on close', async () => {
    const { items } = await everything.listAllResources();
    const sub = await everything.subscribe({ resourceSubscriptions: [items[0]!.uri], toolsListChanged: true });
    expect(sub.honoured).toEqual({ toolsListChanged: true, resourceSubscriptions: [items[0]!.uri] });
    await sub.close();
    expect((await sub.closed).reason).toBe('closed');
  });
});

describe.each(HTTP_PATHS)(
  '@modelcontextprotocol/server-everything over Streamable HTTP (127.0.0.1), $path path',
  ({ Transport: StreamableHttpTransport }) => {
    let server: LoopbackServer;
    let everything: McpClient;
    let transport: StreamableHttpTransport;
    const errors: Error[] = [];
    beforeAll(async () => {
      server = await spawnLoopbackServer(EVERYTHING_SERVER, ['streamableHttp']);
      transport = new StreamableHttpTransport(server.url);
      everything = client(transport, { handlers, onError: (e) => errors.push(e) });
      await everything.connect();
    });
    afterAll(async () => {
      await everything?.close();
      await server?.stop();
    });

    it('falls back from its 400 to initialize, and works over its session', async () => {
      expect(everything.era).toBe('legacy');
      expect(everything.protocolVersion).toBe('2025-11-25');
      expect(transport.capabilities.cancelsByAbortingSend).toBe(false);
      expect(text(await everything.callTool('echo', { message: 'over http' }))).toBe('Echo: over http');
      expect((await everything.listAllTools()).items.length).toBeGreaterThan(5);
    });

    it('answers a server request sent on the POST stream (elicitation) with a POST of its own', async () => {
      expect(allText(await everything.callTool('trigger-elicitation-request', {}))).toContain('Ada Lovelace');
    });

    it('reports nothing unexpected', () => {
      expect(errors).toEqual([]);
    });
  },
);

describe('@modelcontextprotocol/server-filesystem over stdio, on a temp folder', () => {
  let folder: string;
  let other: string;
  beforeAll(async () => {
    folder = await realpath(await mkdtemp(join(tmpdir(), 'mcp-live-fs-')));
    other = await realpath(await mkdtemp(join(tmpdir(), 'mcp-live-fs-roots-')));
    await writeFile(join(folder, 'hello.txt'), 'hello from a legacy server\n');
    await writeFile(join(other, 'root.txt'), 'inside a root\n');
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
    await rm(other, { recursive: true, force: true });
  });

  it('reads and writes files in the folder it was given', async () => {
    const fs = client(nodeStdio(FILESYSTEM_SERVER, [folder]));
    try {
      await fs.connect();
      expect(fs.era).toBe('legacy');
      expect(text(await fs.callTool('list_allowed_directories', {}))).toContain(folder);
      expect(text(await fs.callTool('read_text_file', { path: join(folder, 'hello.txt') }))).toBe(
        'hello from a legacy server\n',
      );
      await fs.callTool('write_file', { path: join(folder, 'new.txt'), content: 'written' });
      expect(text(await fs.callTool('list_directory', { path: folder }))).toContain('new.txt');
    } finally {
      await fs.close();
    }
  });

  it('takes its allowed folders from the client roots (roots/list answered by the roots handler)', async () => {
    const list = vi.fn(() => ({ roots: [{ uri: pathToFileURL(other).href, name: 'other' }] }));
    const fs = client(nodeStdio(FILESYSTEM_SERVER, [folder]), { handlers: { roots: { list } } });
    try {
      await fs.connect();
      await vi.waitFor(async () => expect(text(await fs.callTool('list_allowed_directories', {}))).toContain(other));
      expect(list).toHaveBeenCalled();
      expect(text(await fs.callTool('read_text_file', { path: join(other, 'root.txt') }))).toBe('inside a root\n');
    } finally {
      await fs.close();
    }
  });
});
