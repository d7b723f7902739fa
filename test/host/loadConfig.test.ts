/**
 * loadHostConfig (mcp-live/node): files as desktop hosts write them, VS Code's comments
 * included, and the errors of a file that cannot be read or parsed.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadHostConfig } from '../../src/host/servers/loadConfig.js';
import { HostConfigError } from '../../src/host/catalog/errors.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-live-config-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function file(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

describe('loadHostConfig', () => {
  it("reads Claude Desktop's file, expanding from process.env by default", async () => {
    process.env['MCP_LIVE_TEST_ROOT'] = '/data';
    try {
      const path = await file(
        'claude_desktop_config.json',
        JSON.stringify({
          mcpServers: {
            filesystem: {
              command: 'npx',
              args: ['-y', '@modelcontextprotocol/server-filesystem', '${MCP_LIVE_TEST_ROOT}'],
            },
          },
        }),
      );
      const config = await loadHostConfig(path);
      expect(config.servers['filesystem']).toEqual({
        type: 'stdio',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-filesystem', '/data'],
      });
    } finally {
      delete process.env['MCP_LIVE_TEST_ROOT'];
    }
  });

  it("reads VS Code's mcp.json with comments and trailing commas, from the env given", async () => {
    const path = await file(
      'mcp.json',
      `{
  // My servers
  "servers": {
    "github": { "type": "http", "url": "https://api.example/mcp", "headers": { "Authorization": "Bearer \${env:GH}" }, },
    /* off for now */
    "memory": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"], "disabled": true },
  },
}`,
    );
    const config = await loadHostConfig(path, { env: { GH: 'gh-token' } });
    expect(config.format).toBe('servers');
    expect(config.servers['github']).toEqual({
      type: 'http',
      url: 'https://api.example/mcp',
      headers: { Authorization: 'Bearer gh-token' },
    });
    expect(config.disabled).toEqual(['memory']);
  });

  it('names the path, line and column of a syntax error', async () => {
    const path = await file('broken.json', '{\n  "mcpServers": {\n    "a": { "command": "x" ]\n  }\n}');
    const error = await loadHostConfig(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HostConfigError);
    expect((error as HostConfigError).data).toMatchObject({ server: undefined, field: '(file)' });
    expect((error as HostConfigError).message).toContain(`${path}:3:`);
  });

  it('says why a file cannot be read, with the Node error as cause', async () => {
    const path = join(dir, 'missing.json');
    const error = (await loadHostConfig(path).catch((e: unknown) => e)) as HostConfigError;
    expect(error).toBeInstanceOf(HostConfigError);
    expect(error.message).toContain(`cannot read ${path} (ENOENT)`);
    expect((error.cause as { code?: string }).code).toBe('ENOENT');
  });

  it('is strict when asked', async () => {
    const path = await file(
      'bad-entry.json',
      JSON.stringify({ mcpServers: { a: { command: 1 }, b: { command: 'x' } } }),
    );
    expect((await loadHostConfig(path)).errors).toHaveLength(1);
    await expect(loadHostConfig(path, { strict: true })).rejects.toMatchObject({
      data: { server: 'a', field: 'command' },
    });
  });
});
