/**
 * MCP Apps against the published example servers (ext-apps 2.x, over stdio): basic-vanillajs
 * and basic-preact (one model-visible tool linking a UI each) and system-monitor (one
 * model-visible, one app-only tool). The extension declared by the host, the split of tools,
 * the model converters, reading and fingerprinting each `ui://` resource through the cache, and
 * the errors of a read that breaks the rules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpHost } from '../../src/host/host.js';
import { nodeTransport } from '../../src/host/servers/nodeTransport.js';
import { toAnthropicTools, toOpenAiChatTools } from '../../src/host/models/modelTools.js';
import { toAnthropicToolResult } from '../../src/host/models/modelToolResults.js';
import { splitAppTools, toolUi } from '../../src/apps/toolUi.js';
import { appContentSecurityPolicy, appFrameDocument } from '../../src/apps/framePolicy.js';
import { AppResourceError } from '../../src/apps/errors.js';
import { HostRoutingError } from '../../src/host/catalog/errors.js';
import { UI_EXTENSION } from '../../src/apps/constants.js';
import { BASIC_PREACT_SERVER, BASIC_VANILLAJS_SERVER, SYSTEM_MONITOR_SERVER } from '../fakes/publishedServers.js';

const HTML_PROFILE = 'text/html;profile=mcp-app';

describe('MCP Apps with the ext-apps example servers', () => {
  let host: McpHost;

  beforeAll(async () => {
    host = new McpHost({
      clientInfo: { name: 'mcp-live-apps-test', version: '0.0.0' },
      apps: true,
      servers: {
        vanilla: { type: 'stdio', command: process.execPath, args: [BASIC_VANILLAJS_SERVER, '--stdio'] },
        preact: { type: 'stdio', command: process.execPath, args: [BASIC_PREACT_SERVER, '--stdio'] },
        monitor: { type: 'stdio', command: process.execPath, args: [SYSTEM_MONITOR_SERVER, '--stdio'] },
      },
      createTransport: nodeTransport,
    });
    const statuses = await host.connect();
    expect(statuses.map((s) => [s.name, s.state])).toEqual([
      ['vanilla', 'open'],
      ['preact', 'open'],
      ['monitor', 'open'],
    ]);
  }, 60_000);

  afterAll(async () => {
    await host?.close();
  });

  it('declares the extension to every server and detects it per server from the tools', () => {
    for (const server of ['vanilla', 'preact', 'monitor']) {
      const client = host.client(server)!;
      expect(client.era).toBe('legacy');
      // The servers do not list the extension in their capabilities: the tools' UI links tell.
      expect(client.serverCapabilities?.extensions?.[UI_EXTENSION]).toBeUndefined();
      expect(host.offersApps(server)).toBe(true);
    }
    expect(host.offersApps('nobody')).toBe(false);
  });

  it('splits the tools: app-only ones never reach a converter, model tools carry their UI', () => {
    const { modelTools, appOnlyTools } = splitAppTools(host.tools());
    expect(modelTools.map((t) => [t.exposedName, t.resourceUri])).toEqual([
      ['vanilla__get-time', 'ui://get-time/mcp-app.html'],
      ['preact__get-time', 'ui://get-time/mcp-app.html'],
      ['monitor__get-system-info', 'ui://system-monitor/mcp-app.html'],
    ]);
    expect(appOnlyTools.map((t) => [t.server, t.tool.name])).toEqual([['monitor', 'poll-system-stats']]);
    expect(toolUi(appOnlyTools[0]!.tool)).toEqual({ resourceUri: undefined, visibility: ['app'] });
    // Whole host lists go to the converters as they are: the app-only tool is left out.
    expect(toAnthropicTools(host.tools()).map((t) => t.name)).toEqual([
      'vanilla__get-time',
      'preact__get-time',
      'monitor__get-system-info',
    ]);
    expect(toOpenAiChatTools(host.tools()).map((t) => t.function.name)).not.toContain('monitor__poll-system-stats');
  });

  it('a model cannot call the app-only tool by its exposed name; an app route by { server, name } can', async () => {
    await expect(host.callTool('monitor__poll-system-stats', {})).rejects.toMatchObject({
      name: 'HostRoutingError',
      code: -33051,
      data: { reason: 'unknown-tool', name: 'monitor__poll-system-stats' },
    });
    await expect(host.callTool('monitor__poll-system-stats', {})).rejects.toBeInstanceOf(HostRoutingError);
    const stats = await host.callTool({ server: 'monitor', name: 'poll-system-stats' }, {});
    expect(stats.isError).not.toBe(true);
    expect(stats.structuredContent).toMatchObject({ memory: expect.any(Object) });
  });

  it('reads each ui:// resource through the cache, checked, with a stable fingerprint', async () => {
    const vanilla = await host.readAppResource('ui://get-time/mcp-app.html', { server: 'vanilla' });
    expect(vanilla.mimeType).toBe(HTML_PROFILE);
    expect(vanilla.html).toMatch(/^<!DOCTYPE html>/i);
    expect(vanilla.html).toContain('get-time-btn');
    expect(vanilla.bytes).toBe(Buffer.byteLength(vanilla.html, 'utf8'));
    expect(vanilla.bytes).toBeGreaterThan(100_000);
    expect(vanilla.csp).toBeUndefined();
    expect(vanilla.permissions).toBeUndefined();
    expect(vanilla.fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);

    const again = await host.readAppResource('ui://get-time/mcp-app.html', { server: 'vanilla' });
    expect(again.fingerprint).toBe(vanilla.fingerprint);

    // Same URI on two servers: the host asks which.
    await expect(host.readAppResource('ui://get-time/mcp-app.html')).rejects.toMatchObject({
      code: -33051,
      data: { reason: 'ambiguous-resource', servers: ['vanilla', 'preact'] },
    });
    const preact = await host.readAppResource('ui://get-time/mcp-app.html', { server: 'preact' });
    expect(preact.fingerprint).not.toBe(vanilla.fingerprint);
    expect(preact.html).not.toBe(vanilla.html);

    // One server lists it: routed without { server }.
    const monitor = await host.readAppResource('ui://system-monitor/mcp-app.html');
    expect(monitor.uri).toBe('ui://system-monitor/mcp-app.html');
    expect(monitor.mimeType).toBe(HTML_PROFILE);
    expect(monitor.fingerprint).not.toBe(vanilla.fingerprint);

    // No CSP declared: the spec's restrictive default, in a meta tag right after the doctype.
    const document = appFrameDocument(monitor);
    expect(appContentSecurityPolicy(monitor.csp)).toContain("connect-src 'none'");
    expect(document).toMatch(
      /^<!DOCTYPE html><meta http-equiv="Content-Security-Policy" content="default-src 'none'; /i,
    );
  });

  it('the size cap and the ui:// scheme are enforced with typed errors', async () => {
    const small = host.readAppResource('ui://get-time/mcp-app.html', { server: 'vanilla', maxBytes: 10_000 });
    await expect(small).rejects.toBeInstanceOf(AppResourceError);
    await expect(small).rejects.toMatchObject({
      code: -33070,
      data: { uri: 'ui://get-time/mcp-app.html', reason: 'too-large', limit: 10_000, value: expect.any(Number) },
    });
    await expect(host.readAppResource('https://example.com/app.html')).rejects.toMatchObject({
      code: -33070,
      data: { reason: 'not-ui-uri' },
    });
  });

  it('a model-visible UI tool result reaches the model with its text', async () => {
    const result = await host.callTool('vanilla__get-time', {});
    const tool = host.tools().find((t) => t.exposedName === 'vanilla__get-time')!;
    const block = toAnthropicToolResult(result, 'toolu_1', { tool });
    // The server sends text content, so nothing is added.
    expect(block.content).toEqual([{ type: 'text', text: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) }]);
    const bare = toAnthropicToolResult({ content: [], structuredContent: { time: 'x' } }, 'toolu_2', { tool });
    expect(bare.content[0]).toEqual({
      type: 'text',
      text: 'Get Time: this result comes with an interactive view (ui://get-time/mcp-app.html) that is not shown here; its data follows.',
    });
  });
});
