/**
 * The core client against the real example server (official @modelcontextprotocol/server v2)
 * over a real stdio pipe.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpClient } from '../../src/client/client.js';
import { viewContents } from '../../src/wire/resourceContents.js';
import {
  CancelledError,
  ConnectionClosedError,
  ResourceNotFoundError,
  RpcError,
  TimeoutError,
} from '../../src/errors/errors.js';
import type { StdioTransport } from '../../src/transport/stdio/stdio.js';
import { exampleClient } from './exampleServer.js';

describe('example server over stdio', () => {
  let client: McpClient;
  let transport: StdioTransport;

  beforeAll(async () => {
    ({ client, transport } = exampleClient());
    await client.connect();
  });
  afterAll(async () => {
    await client.close();
  });

  it('discovers the server: version, capabilities, identity, instructions', () => {
    expect(client.protocolVersion).toBe('2026-07-28');
    expect(client.serverDiscovery?.supportedVersions).toContain('2026-07-28');
    expect(client.serverCapabilities).toMatchObject({
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { subscribe: true },
    });
    expect(client.serverInfo).toMatchObject({ name: 'mcp-live-example', version: '0.1.0' });
    expect(client.instructions).toContain('mcp-live example server');
    expect(client.serverIdentity).toContain('server.js');
  });

  it('walks every resources/list page by cursor: 254 resources in pages of 50', async () => {
    const uris: string[] = [];
    const sizes: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listResources(cursor === undefined ? {} : { cursor });
      sizes.push(page.resources.length);
      uris.push(...page.resources.map((r) => r.uri));
      expect(page.ttlMs).toBe(60000);
      expect(page.cacheScope).toBe('public');
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    expect(sizes).toEqual([50, 50, 50, 50, 50, 4]);
    expect(new Set(uris).size).toBe(254);
    expect(uris).toContain('demo://items/250');
  });

  it('lists prompts, templates and tools as the spec shapes them', async () => {
    const prompts = await client.listPrompts();
    expect(prompts.prompts.map((p) => p.name)).toEqual(
      expect.arrayContaining(['greet', 'summarize_item', 'code_review']),
    );
    const templates = await client.listResourceTemplates();
    expect(templates.resourceTemplates.map((t) => t.uriTemplate)).toContain('demo://greeting/{name}');
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['echo', 'add', 'slow', 'get_item_link', 'update_note']),
    );
    expect(tools.ttlMs).toBe(300000);
  });

  it('reads text and blob resources', async () => {
    const readme = await client.readResource('demo://readme');
    const [text] = readme.contents.map(viewContents);
    expect(text).toMatchObject({ kind: 'text', uri: 'demo://readme', mimeType: 'text/markdown' });
    const logo = await client.readResource('demo://logo.png');
    const [blob] = logo.contents.map(viewContents);
    if (blob?.kind !== 'blob') throw new Error(`expected a blob, got ${JSON.stringify(blob)}`);
    expect(blob.mimeType).toBe('image/png');
    expect([...blob.bytes().slice(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  });

  it('maps an unknown uri to ResourceNotFoundError with the server code and data.uri', async () => {
    const error = await client.readResource('demo://nope').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResourceNotFoundError);
    expect(error).toMatchObject({ code: -32602, uri: 'demo://nope', data: { uri: 'demo://nope' } });
  });

  it('gets a prompt and completes an argument', async () => {
    const prompt = await client.getPrompt('greet', { name: 'Ada', style: 'pirate' });
    expect(prompt.messages[0]).toMatchObject({
      role: 'user',
      content: { type: 'text', text: 'Write a pirate greeting for Ada.' },
    });
    const completion = await client.complete({ type: 'ref/prompt', name: 'greet' }, { name: 'name', value: 'a' });
    expect(completion.completion.values).toEqual(['alice']);
  });

  it('calls tools: structured content, resource_link, and a server-side error', async () => {
    const sum = await client.callTool('add', { a: 2, b: 40 });
    expect(sum.structuredContent).toEqual({ sum: 42 });
    const link = await client.callTool('get_item_link', { n: 7 });
    expect(link.content[1]).toMatchObject({ type: 'resource_link', uri: 'demo://items/7' });
    const error = await client.callTool('no_such_tool').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect((error as RpcError).code).toBe(-32602);
  });

  it('delivers progress and resolves a slow tool', async () => {
    const seen: number[] = [];
    const result = await client.callTool(
      'slow',
      { steps: 3, durationMs: 150 },
      { onProgress: (p) => seen.push(p.progress) },
    );
    expect(seen).toEqual([1, 2, 3]);
    expect(result.content[0]).toMatchObject({ type: 'text', text: 'completed 3/3 steps' });
  });

  it('cancels on abort and on timeout, and the connection keeps working', async () => {
    const controller = new AbortController();
    const aborted = client.callTool('slow', { steps: 10, durationMs: 5000 }, { signal: controller.signal });
    setTimeout(() => controller.abort('enough'), 50);
    await expect(aborted).rejects.toBeInstanceOf(CancelledError);
    await expect(
      client.callTool('slow', { steps: 10, durationMs: 5000 }, { timeoutMs: 100, resetTimeoutOnProgress: false }),
    ).rejects.toBeInstanceOf(TimeoutError);
    await expect(client.callTool('echo', { message: 'still here' })).resolves.toMatchObject({
      content: [{ type: 'text', text: 'still here' }],
    });
  });

  it('B20: when the server process dies, pending calls reject with the exit signal and later calls fail at once', async () => {
    // Without reconnecting; with it (the default), see test/integration/reconnect.test.ts.
    const { client: doomed, transport: doomedTransport } = exampleClient({ reconnect: false });
    await doomed.connect();
    const pending = doomed.callTool('slow', { steps: 10, durationMs: 5000 });
    await new Promise((r) => setTimeout(r, 50));
    process.kill(doomedTransport.pid!, 'SIGKILL');
    const error = (await pending.catch((e: unknown) => e)) as ConnectionClosedError;
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect(error.data).toMatchObject({ signal: 'SIGKILL' });
    await expect(doomed.listTools()).rejects.toBeInstanceOf(ConnectionClosedError);
    expect(doomed.state).toBe('closed');
    await doomed.close();
  });

  it('close() ends the server process', async () => {
    const { client: other, transport: otherTransport } = exampleClient();
    await other.connect();
    const pid = otherTransport.pid!;
    await other.close();
    expect(() => process.kill(pid, 0)).toThrow();
    expect(transport.pid).toBeDefined();
  });
});
