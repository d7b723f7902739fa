/**
 * The `McpHost` of `mcp-live/node`: a Claude Desktop configuration of stdio servers connects
 * with no transport option, while the root entry's host still refuses stdio (it stays
 * runtime-neutral). Real child processes: the example server, a script node cannot find, a
 * command that does not exist.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { McpHost as RuntimeNeutralHost } from '../../src/host/host.js';
import { McpHost } from '../../src/hostNode.js';
import { HostConfigError } from '../../src/host/catalog/errors.js';
import { ConnectionClosedError } from '../../src/errors/errors.js';
import { EXAMPLE_SERVER } from './exampleServer.js';

const clientInfo = { name: 'mcp-live-node-host', version: '0.0.0' };
const hosts: RuntimeNeutralHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

describe('McpHost from mcp-live/node', () => {
  it('connects the stdio servers of a Claude Desktop config with no createTransport; the root host refuses them', async () => {
    const config = {
      mcpServers: {
        example: { command: process.execPath, args: [EXAMPLE_SERVER] },
        missingScript: { command: process.execPath, args: ['/nonexistent/mcp-live-server.js'] },
        noSuchCommand: { command: 'mcp-live-no-such-command' },
      },
    };
    const host = McpHost.fromConfig(config, { clientInfo });
    hosts.push(host);
    expect(host).toBeInstanceOf(McpHost);
    expect(host).toBeInstanceOf(RuntimeNeutralHost);
    const statuses = await host.connect();
    expect(statuses.map((s) => [s.name, s.state])).toEqual([
      ['example', 'open'],
      ['missingScript', 'failed'],
      ['noSuchCommand', 'failed'],
    ]);
    expect(host.tools().some((t) => t.exposedName === 'example__add')).toBe(true);

    // A script node cannot find: the cause's first line is in the message, and it is retried
    // (the file may yet appear): retryAt says when.
    const missing = host.server('missingScript');
    expect(missing?.lastError).toBeInstanceOf(ConnectionClosedError);
    expect(missing?.lastError?.message).toContain("Error: Cannot find module '/nonexistent/mcp-live-server.js'");
    expect(missing?.retryAt).toEqual(expect.any(Number));
    expect(missing!.retryAt! - Date.now()).toBeLessThan(60_000);

    // A command that does not exist is permanent: failed at once, no retry, its client closed.
    const none = host.server('noSuchCommand');
    expect(none?.lastError?.message).toContain('ENOENT');
    expect(none?.retryAt).toBeUndefined();
    expect(host.client('noSuchCommand')?.state).toBe('closed');

    const root = RuntimeNeutralHost.fromConfig({ mcpServers: { example: config.mcpServers.example } }, { clientInfo });
    hosts.push(root);
    const [status] = await root.connect();
    expect(status?.state).toBe('failed');
    expect(status?.lastError).toBeInstanceOf(HostConfigError);
    expect(status?.lastError?.message).toContain('import McpHost from "mcp-live/node"');
  }, 30_000);

  it('an explicit createTransport still wins', async () => {
    const made: string[] = [];
    const host = new McpHost({
      clientInfo,
      servers: { example: { type: 'stdio', command: process.execPath, args: [EXAMPLE_SERVER] } },
      createTransport: (location) => {
        made.push(location.type);
        throw new Error('refused by the test');
      },
    });
    hosts.push(host);
    const [status] = await host.connect();
    expect(made).toEqual(['stdio']);
    expect(status?.state).toBe('failed');
    expect(status?.lastError?.message).toBe('refused by the test');
  });
});
