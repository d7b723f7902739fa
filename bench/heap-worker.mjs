// W6, one client per process (run with --expose-gc): heap retained by caching 10,000 distinct
// ~1 KiB resources/read results. Prints one JSON line.
//
//   node --expose-gc bench/heap-worker.mjs <client> [--bound <entries>] [--floor-cache shared|copy]
//
// The client talks to the floor server (the server does not matter: the heap measured is the
// client's). heapUsed is read after two full GCs before and after the reads; the results are
// not kept by this script, only by the client's cache.
import { openClient } from './clients.mjs';

const [kind] = process.argv.slice(2);
const option = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : process.argv[at + 1];
};
const bound = Number(option('--bound', '20000'));
const floorCache = option('--floor-cache', 'shared');
const READS = Number(option('--reads', '10000'));
const WIDTH = 16;

if (typeof globalThis.gc !== 'function') throw new Error('run with --expose-gc');
const settle = async () => {
  for (let i = 0; i < 3; i++) {
    globalThis.gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
};

const client = await openClient(kind, 'floor', { cacheEntries: bound, floorCache });
// Warm every path once (a miss, a hit, an uncached read) with uris outside the measured set.
for (let i = 0; i < 50; i++) await client.read(`bench://warm/${i}`);
for (let i = 0; i < 50; i++) await client.read(`bench://warm/${i}`);
await client.readUncached('bench://warm/x');
await settle();
const before = process.memoryUsage().heapUsed;

let next = 0;
await Promise.all(
  Array.from({ length: WIDTH }, async () => {
    while (next < READS) {
      const n = ++next;
      await client.read(`bench://r/${n}`);
    }
  }),
);
await settle();
const after = process.memoryUsage().heapUsed;
const delta = after - before;
process.stdout.write(
  `${JSON.stringify({ client: kind, bound, floorCache, reads: READS, heapDeltaBytes: delta, bytesPerRead: delta / READS })}\n`,
);
await client.close();
process.exit(0);
