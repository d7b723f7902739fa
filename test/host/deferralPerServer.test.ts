/**
 * Deferral per server (issue 42) against real processes: a 320-tool stdio server
 * (test/fakes/children/generated-tools.mjs) beside the published everything and filesystem
 * servers. A server's `'always'`/`'never'` decides for its own tools; `'auto'` counts only the
 * tools no setting decided.
 */
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpHost } from '../../src/host/host.js';
import { type McpHostOptions } from '../../src/host/servers/hostOptions.js';
import { nodeTransport } from '../../src/host/servers/nodeTransport.js';
import type { HostServerEntry } from '../../src/host/servers/config.js';
import type { ContextBudgetOptions } from '../../src/host/contextBudget/options.js';
import { EVERYTHING_SERVER, FILESYSTEM_SERVER } from '../fakes/publishedServers.js';

const GENERATED = fileURLToPath(new URL('../fakes/children/generated-tools.mjs', import.meta.url));
const base: Pick<McpHostOptions, 'clientInfo' | 'createTransport'> = {
  clientInfo: { name: 'deferral-test', version: '1.0.0' },
  createTransport: nodeTransport,
};
const hosts: McpHost[] = [];
let root: string;

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'mcp-live-deferral-')));
});
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});
afterAll(async () => {
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});

async function threeServers(big: Partial<HostServerEntry>, contextBudget: ContextBudgetOptions = {}): Promise<McpHost> {
  const host = new McpHost({
    ...base,
    contextBudget,
    servers: {
      everything: { type: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] },
      filesystem: { type: 'stdio', command: process.execPath, args: [FILESYSTEM_SERVER, root] },
      big: { type: 'stdio', command: process.execPath, args: [GENERATED, 'crm', '320'], ...big } as HostServerEntry,
    },
  });
  hosts.push(host);
  await host.connect();
  expect(host.servers.map((s) => [s.name, s.state])).toEqual([
    ['everything', 'open'],
    ['filesystem', 'open'],
    ['big', 'open'],
  ]);
  return host;
}

const serversOf = (tools: readonly { server: string }[]): string[] => [...new Set(tools.map((t) => t.server))];

describe('deferral per server, against real processes', () => {
  it("defer: 'always' on the 320-tool server defers just its tools; the rest stay loaded", async () => {
    const host = await threeServers({ defer: 'always' });
    const set = host.toolSession().tools();
    const big = host.tools().filter((t) => t.server === 'big');
    expect(big).toHaveLength(320);
    expect(set.deferred).toHaveLength(320);
    expect(serversOf(set.deferred)).toEqual(['big']);
    expect(serversOf(set.loaded)).toEqual(['everything', 'filesystem']);
    expect(set.loaded.length).toBe(host.tools().length - 320);
  }, 60_000);

  it("'auto' with one big server: its definitions pass the threshold, so every undecided tool is deferred", async () => {
    const host = await threeServers({});
    const set = host.toolSession().tools();
    expect(set.loaded).toEqual([]);
    expect(set.deferred.length).toBe(host.tools().length);
    expect(serversOf(set.deferred)).toEqual(['everything', 'filesystem', 'big']);
  }, 60_000);

  it("'never' on a small server keeps its tools loaded, and 'auto' still defers the big one's", async () => {
    const kept = new McpHost({
      ...base,
      servers: {
        filesystem: { type: 'stdio', command: process.execPath, args: [FILESYSTEM_SERVER, root], defer: 'never' },
        big: { type: 'stdio', command: process.execPath, args: [GENERATED, 'crm', '320'] },
      },
    });
    hosts.push(kept);
    await kept.connect();
    const set = kept.toolSession().tools();
    expect(serversOf(set.loaded)).toEqual(['filesystem']);
    expect(set.deferred).toHaveLength(320);
    expect(serversOf(set.deferred)).toEqual(['big']);
  }, 60_000);

  it("the host's 'always' with 'never' on one server loads just that server", async () => {
    const host = await threeServers({ defer: 'never' }, { defer: 'always' });
    const set = host.toolSession().tools();
    expect(set.loaded).toHaveLength(320);
    expect(serversOf(set.loaded)).toEqual(['big']);
    expect(serversOf(set.deferred)).toEqual(['everything', 'filesystem']);
  }, 60_000);
});
