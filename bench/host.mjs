#!/usr/bin/env node
// Host benchmarks (issue 30). Not part of `npm test`; nothing asserts on time.
//
//   node --expose-gc bench/host.mjs [--quick]   bench/results/host.json and a table on stdout
//
// W9: a config of 20 stdio servers (bench/server.mjs, the official SDK) to a ready merged
//     catalog with `McpHost` (mcp-live/host/node, from dist/), against 20 `McpClient`s connected by
//     hand with Promise.all and each listing its tools; wall time and this process's CPU
//     (user + system), median over the rounds. Servers are child processes: their CPU is not in it.
// W10: 5,000 tools over 20 servers (bench/host-w10.mjs, bundled from src/ with esbuild: the
//     index is internal): index build, one catalog update (rebuild from the previous catalog,
//     index update, and change to searchable; goal ≤ 5 ms), one search p50/p99 (goal p99 ≤ 1 ms;
//     also p99 of its CPU time, for a loaded machine), one conversion per provider, heap per
//     indexed tool.
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { McpClient } from '../dist/index.js';
import { StdioTransport } from '../dist/node.js';
import { McpHost } from '../dist/hostNode.js';
import { machine, median, round } from './lib.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const quick = process.argv.includes('--quick');
const w10Only = process.argv.includes('--only-w10');
const ROUNDS = quick ? 2 : 5;
const SERVERS = 20;
const clientInfo = { name: 'bench-host', version: '1.0.0' };
const server = { command: process.execPath, args: [join(here, 'server.mjs')] };

async function measure(body) {
  const cpu = process.cpuUsage();
  const start = performance.now();
  await body();
  const wall = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / 1000 };
}

async function byHand() {
  const clients = Array.from(
    { length: SERVERS },
    () => new McpClient({ transport: new StdioTransport(server), clientInfo, reconnect: false }),
  );
  const sample = await measure(() =>
    Promise.all(
      clients.map(async (client) => {
        await client.connect();
        await client.listAllTools();
      }),
    ),
  );
  await Promise.all(clients.map((c) => c.close()));
  return sample;
}

async function withHost() {
  const servers = Object.fromEntries(
    Array.from({ length: SERVERS }, (_, i) => [`s${i}`, { type: 'stdio', ...server }]),
  );
  const host = new McpHost({ clientInfo, servers });
  const sample = await measure(async () => {
    await host.connect();
    if (host.tools().length !== SERVERS) throw new Error(`catalog has ${host.tools().length} tools`);
  });
  await host.close();
  return sample;
}

const results = {
  machine: machine(),
  loadavg: loadavg().map((l) => round(l, 1)),
  rounds: ROUNDS,
  at: new Date().toISOString(),
};
const hand = [];
const hosted = [];
for (let r = 0; r < (w10Only ? 0 : ROUNDS); r++) {
  // Alternate which goes first.
  if (r % 2 === 0) {
    hand.push(await byHand());
    hosted.push(await withHost());
  } else {
    hosted.push(await withHost());
    hand.push(await byHand());
  }
}
const stat = (xs, key) => round(median(xs.map((x) => x[key])), 1);
if (!w10Only)
  results.W9 = {
    handWallMs: stat(hand, 'wall'),
    handCpuMs: stat(hand, 'cpu'),
    hostWallMs: stat(hosted, 'wall'),
    hostCpuMs: stat(hosted, 'cpu'),
  };
if (!w10Only) results.W9.wallRatio = round(results.W9.hostWallMs / results.W9.handWallMs, 2);
if (!w10Only) results.W9.cpuRatio = round(results.W9.hostCpuMs / results.W9.handCpuMs, 2);

const dir = mkdtempSync(join(tmpdir(), 'mcp-live-w10-'));
try {
  const outfile = join(dir, 'w10.mjs');
  await build({
    entryPoints: [join(here, 'host-w10.mjs')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile,
    logLevel: 'error',
  });
  const { run } = await import(pathToFileURL(outfile).href);
  results.W10 = Object.fromEntries(Object.entries(run(quick ? 3 : 10)).map(([k, v]) => [k, round(v, 3)]));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (!w10Only) writeFileSync(join(here, 'results', 'host.json'), `${JSON.stringify(results, null, 2)}\n`);
console.log(JSON.stringify(results, null, 2));
