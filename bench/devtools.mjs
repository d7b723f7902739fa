#!/usr/bin/env node
// Devtools bench (issue 48). Not part of `npm test`; nothing asserts on time.
//
//   node --expose-gc bench/devtools.mjs [--quick]   bench/results/devtools.json and a table on stdout
//
// W1 and W2 of bench/run.mjs through an `McpHost` (mcp-live/host/node, from dist/) over one stdio
// floor server (bench/floor-server.mjs: precomputed bytes, so the host's own work shows), in
// three modes, each on a host and server process of its own, taking turns (rotated order, a
// minor GC before each sample):
//   detached   no devtools;
//   attached   a DevtoolsRecorder attached, no one listening (the "closed" cost: the ring);
//   viewed     serveDevtools with one page's event stream open and read (over 127.0.0.1, in this
//              process: the stream's reading is counted too, as a page's socket would be).
// Per operation: wall time and this process's CPU (user + system), median over the samples.
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { McpHost } from '../dist/hostNode.js';
import { DevtoolsRecorder, serveDevtools } from '../dist/devtools.js';
import { machine, median, rotate, round, timed } from './lib.mjs';

const quick = process.argv.includes('--quick');
const REPS = quick ? 3 : 7;
const SEQUENTIAL = quick ? 500 : 2000;
const IN_FLIGHT_OPS = quick ? 1000 : 4000;
const IN_FLIGHT = 32;
const floor = fileURLToPath(new URL('./floor-server.mjs', import.meta.url));
const clientInfo = { name: 'bench-devtools', version: '1.0.0' };
const ECHO = { text: 'hello' };

async function openHost(mode) {
  const host = new McpHost({
    clientInfo,
    servers: { floor: { type: 'stdio', command: process.execPath, args: [floor] } },
  });
  await host.connect();
  let stop = async () => {};
  if (mode === 'attached') {
    const recorder = new DevtoolsRecorder();
    const detach = recorder.attach(host);
    stop = async () => detach();
  } else if (mode === 'viewed') {
    const devtools = await serveDevtools(host);
    const url = devtools.url.replace('/?', '/events?');
    const response = await fetch(url);
    const reader = response.body.getReader();
    let bytes = 0;
    const reading = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        bytes += value.length;
      }
    })();
    stop = async () => {
      await devtools.close();
      await reading.catch(() => {});
      if (bytes === 0) throw new Error('the page stream carried nothing');
    };
  }
  return { host, stop };
}

const sequential = (host) => async () => {
  for (let i = 0; i < SEQUENTIAL; i++) await host.callTool('floor__echo', ECHO);
};
const inFlight = (host) => async () => {
  let left = IN_FLIGHT_OPS;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (left-- > 0) await host.callTool('floor__echo', ECHO);
    }),
  );
};

const MODES = ['detached', 'attached', 'viewed'];
const opened = {};
for (const mode of MODES) opened[mode] = await openHost(mode);
const samples = { W1: {}, W2: {} };
for (const mode of MODES) {
  samples.W1[mode] = [];
  samples.W2[mode] = [];
  // Warm-up: the JIT and the ring, outside the samples.
  await sequential(opened[mode].host)();
}
for (let rep = 0; rep < REPS; rep++)
  for (const mode of rotate(MODES, rep)) {
    samples.W1[mode].push(await timed(SEQUENTIAL, sequential(opened[mode].host)));
    samples.W2[mode].push(await timed(IN_FLIGHT_OPS, inFlight(opened[mode].host)));
  }
for (const mode of MODES) {
  await opened[mode].stop();
  await opened[mode].host.close();
}

const results = {
  machine: machine(),
  loadavg: loadavg().map((l) => round(l, 1)),
  reps: REPS,
  at: new Date().toISOString(),
};
for (const workload of ['W1', 'W2']) {
  results[workload] = {};
  for (const mode of MODES) {
    const list = samples[workload][mode];
    results[workload][mode] = {
      cpuUsPerCall: round(median(list.map((s) => s.cpuUs)), 1),
      wallUsPerCall: round(median(list.map((s) => s.wallUs)), 1),
    };
  }
  const base = results[workload].detached.cpuUsPerCall;
  for (const mode of MODES)
    results[workload][mode].cpuVsDetached = round(results[workload][mode].cpuUsPerCall / base, 3);
}
if (!quick) writeFileSync(new URL('./results/devtools.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
console.log(`| workload | mode | CPU µs/call | wall µs/call | CPU vs detached |`);
console.log(`|---|---|---|---|---|`);
for (const workload of ['W1', 'W2'])
  for (const mode of MODES) {
    const r = results[workload][mode];
    console.log(`| ${workload} | ${mode} | ${r.cpuUsPerCall} | ${r.wallUsPerCall} | ${r.cpuVsDetached} |`);
  }
console.log(`load average ${results.loadavg.join(' ')}`);
