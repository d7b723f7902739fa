#!/usr/bin/env node
// Runs one workload with one client against the floor server, long enough to profile:
//
//   node --cpu-prof --cpu-prof-dir=bench/results/profiles.tmp bench/profile.mjs <workload> [client]
//   node bench/cpuprofile-top.mjs bench/results/profiles.tmp/<file>.cpuprofile
//
// Workloads: call (W1), inflight (W2), listall (W3), hit (W4), read (W4u), connect (W7-like),
// http-call (W5: call over Streamable HTTP on 127.0.0.1), http-inflight (W5i).
import { openClient } from './clients.mjs';

const [workload = 'hit', kind = 'mcp-live'] = process.argv.slice(2);
const uri = (n) => `bench://r/${n}`;
const t0 = performance.now();
if (workload === 'connect') {
  for (let i = 0; i < 20; i++) {
    const c = await openClient(kind, 'floor');
    await c.listTools();
    await c.close();
  }
} else {
  const c = await openClient(kind, 'floor', { http: workload.startsWith('http-') });
  switch (workload) {
    case 'http-call':
      for (let i = 0; i < 5_000; i++) await c.call();
      break;
    case 'http-inflight': {
      let left = 10_000;
      await Promise.all(
        Array.from({ length: 32 }, async () => {
          while (left-- > 0) await c.call();
        }),
      );
      break;
    }
    case 'call':
      for (let i = 0; i < 20_000; i++) await c.call();
      break;
    case 'inflight': {
      let left = 100_000;
      await Promise.all(
        Array.from({ length: 32 }, async () => {
          while (left-- > 0) await c.call();
        }),
      );
      break;
    }
    case 'listall':
      for (let i = 0; i < 40; i++) await c.listAllWire();
      break;
    case 'hit':
      for (let n = 1; n <= 100; n++) await c.read(uri(n));
      for (let i = 0; i < 2_000_000; i++) await c.read(uri((i % 100) + 1));
      break;
    case 'read':
      for (let i = 0; i < 20_000; i++) await c.readUncached(uri((i % 10_000) + 1));
      break;
    default:
      throw new Error(`unknown workload ${workload}`);
  }
  await c.close();
}
const cpu = process.cpuUsage();
console.error(
  `${workload} ${kind}: ${(performance.now() - t0).toFixed(0)} ms wall, ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms cpu (process total)`,
);
