#!/usr/bin/env node
// Allocation per operation, by function: the V8 sampling heap profiler with collected objects
// included (so garbage counts), over one workload with one client against the floor server.
//
//   node bench/alloc.mjs <call|inflight|read|hit> [mcp-live|floor] [top=25]
//
// Prints bytes per operation in all and the functions that allocate most (self, per operation).
// Allocation moves little with machine load, unlike CPU time: use it while others work.
import { Session } from 'node:inspector/promises';
import { openClient } from './clients.mjs';

const [workload = 'call', kind = 'mcp-live', top = '25'] = process.argv.slice(2);
const uri = (n) => `bench://r/${n}`;
const c = await openClient(kind, 'floor');
const run = async (n) => {
  if (workload === 'call') for (let i = 0; i < n; i++) await c.call();
  else if (workload === 'inflight') {
    let left = n;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (left-- > 0) await c.call();
      }),
    );
  } else if (workload === 'read') for (let i = 0; i < n; i++) await c.readUncached(uri((i % 10_000) + 1));
  else if (workload === 'hit') for (let i = 0; i < n; i++) await c.read(uri((i % 100) + 1));
  else throw new Error(`unknown workload ${workload}`);
};
await run(workload === 'hit' ? 50_000 : 5_000); // warm up (and fill the cache for hits)
const session = new Session();
session.connect();
await session.post('HeapProfiler.startSampling', {
  samplingInterval: 256,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
});
const N = workload === 'hit' ? 200_000 : 20_000;
await run(N);
const { profile } = await session.post('HeapProfiler.stopSampling');
session.disconnect();
await c.close();
const self = new Map();
let total = 0;
const walk = (node, stack) => {
  const f = node.callFrame;
  const name = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(dist|bench|node_modules)\//, '$1/')}:${f.lineNumber + 1}`;
  const bytes = node.selfSize;
  total += bytes;
  if (bytes > 0) self.set(name, (self.get(name) ?? 0) + bytes);
  for (const child of node.children) walk(child, stack);
};
walk(profile.head, []);
console.log(`${workload} ${kind}: ${(total / N).toFixed(0)} B per operation (sampled, ${N} operations)`);
for (const [name, bytes] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(top)))
  console.log(`${String(Math.round(bytes / N)).padStart(7)} B  ${name}`);
