#!/usr/bin/env node
// Fleet store benchmark (issue 20): the cost of RedisCacheStore against a direct GET of the same
// key with the same ioredis connection (the floor), its local tier against the memory store,
// and single-flight on a burst of cold instances. Starts its own redis-server (free port on
// 127.0.0.1, no persistence, a temp dir) and stops it. Not part of `npm test`; nothing asserts
// on time.
//
//   npm run bench:redis            5 rounds; bench/results/redis.json and a table on stdout
//   npm run bench:redis -- --quick 2 rounds of fewer operations
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { ResponseCache } from '../dist/index.js';
import { RedisCacheStore } from '../dist/redis.js';
import { machine, median, round, spread, startRedis, timed } from './lib.mjs';

const quick = process.argv.includes('--quick');
const ROUNDS = quick ? 2 : 5;
const REMOTE_OPS = quick ? 2_000 : 10_000;
const LOCAL_OPS = quick ? 50_000 : 300_000;
const V = '2026-07-28';
const SERVER = 'https://bench.example/mcp';
const RESULT = {
  contents: [{ uri: 'bench://doc', mimeType: 'text/plain', text: 'lorem ipsum '.repeat(85) }], // ~1 KiB
  ttlMs: 3_600_000,
  cacheScope: 'public',
};

const load = async () => ({ result: structuredClone(RESULT), storable: true });

async function main() {
  const redis = await startRedis();
  const results = { machine: machine(), rounds: ROUNDS, remoteOps: REMOTE_OPS, localOps: LOCAL_OPS, rows: {} };
  const samples = {};
  const add = (name, value) => (samples[name] ??= []).push(value);
  /** Wall time per op, and this process's CPU per op (less sensitive to other load on the machine). */
  const addTimed = (name, { wallUs, cpuUs }) => {
    add(name, wallUs);
    add(`${name} (client CPU)`, cpuUs);
  };
  try {
    const store = new RedisCacheStore({ connection: redis.url, prefix: 'bench:' });
    const tiered = new RedisCacheStore({ connection: redis.url, prefix: 'bench:', localTier: true });
    await Promise.all([store.ready(), tiered.ready()]);
    const floor = new Redis(redis.url);
    const cache = new ResponseCache({ serverIdentity: SERVER, store });
    const tieredCache = new ResponseCache({ serverIdentity: SERVER, store: tiered });
    const memory = new ResponseCache({ serverIdentity: SERVER });
    const hitRequest = { method: 'resources/read', uri: 'bench://doc', protocolVersion: V };
    await cache.fetch(hitRequest, load);
    await tieredCache.fetch(hitRequest, load);
    await memory.fetch(hitRequest, load);
    const [redisKey] = await floor.keys('bench:*doc*'); // the bench's own throwaway Redis
    const keyText = await floor.get(redisKey);
    let missCounter = 0;

    for (let round_ = 0; round_ < ROUNDS; round_++) {
      // Floor: the same key, the same kind of connection, a plain GET and nothing else.
      addTimed(
        'floor GET',
        await timed(REMOTE_OPS, async () => {
          for (let i = 0; i < REMOTE_OPS; i++) await floor.get(redisKey);
        }),
      );
      addTimed(
        'remote hit',
        await timed(REMOTE_OPS, async () => {
          for (let i = 0; i < REMOTE_OPS; i++) await cache.fetch(hitRequest, load);
        }),
      );
      // A miss that finds nothing and keeps nothing (ttl 0): GET (nil) + the policy + a trivial load.
      addTimed(
        'remote miss',
        await timed(REMOTE_OPS, async () => {
          for (let i = 0; i < REMOTE_OPS; i++)
            await cache.fetch(
              { method: 'resources/read', uri: `bench://miss/${missCounter++}`, protocolVersion: V },
              async () => ({
                result: { contents: [], ttlMs: 0 },
                storable: true,
              }),
            );
        }),
      );
      // A miss that stores: GET (nil), load, then the fenced write script (EVALSHA).
      addTimed(
        'remote miss + store',
        await timed(REMOTE_OPS, async () => {
          for (let i = 0; i < REMOTE_OPS; i++)
            await cache.fetch(
              { method: 'resources/read', uri: `bench://store/${missCounter++}`, protocolVersion: V },
              load,
            );
        }),
      );
      addTimed(
        'floor SET PX',
        await timed(REMOTE_OPS, async () => {
          for (let i = 0; i < REMOTE_OPS; i++) await floor.set(`bench:floor:${i}`, keyText, 'PX', 60_000);
        }),
      );
      addTimed(
        'local tier hit',
        await timed(LOCAL_OPS, async () => {
          for (let i = 0; i < LOCAL_OPS; i++) await tieredCache.fetch(hitRequest, load);
        }),
      );
      addTimed(
        'memory store hit (fetch)',
        await timed(LOCAL_OPS, async () => {
          for (let i = 0; i < LOCAL_OPS; i++) await memory.fetch(hitRequest, load);
        }),
      );
      addTimed(
        'memory store hit (peekFresh)',
        await timed(LOCAL_OPS, async () => {
          for (let i = 0; i < LOCAL_OPS; i++) memory.peekFresh('resources/read', 'bench://doc', V);
        }),
      );
      for (const singleFlight of [false, true]) {
        const { loads, wallMs } = await burst(redis.url, singleFlight, round_);
        add(`burst of 8 cold instances, single-flight ${singleFlight ? 'on' : 'off'}: requests`, loads);
        add(`burst of 8 cold instances, single-flight ${singleFlight ? 'on' : 'off'}: ms`, wallMs);
      }
    }
    floor.disconnect();
    cache.dispose();
    tieredCache.dispose();
    await Promise.all([store.close(), tiered.close()]);
  } finally {
    redis.stop();
  }
  for (const [name, values] of Object.entries(samples)) {
    const [low, high] = spread(values);
    results.rows[name] = { median: round(median(values), 3), low: round(low, 3), high: round(high, 3) };
  }
  const r = results.rows;
  results.ratios = {
    'remote hit / floor GET': round(r['remote hit'].median / r['floor GET'].median),
    'remote miss / floor GET': round(r['remote miss'].median / r['floor GET'].median),
    'remote miss + store / (floor GET + floor SET PX)': round(
      r['remote miss + store'].median / (r['floor GET'].median + r['floor SET PX'].median),
    ),
    'local tier hit / memory store hit (fetch)': round(
      r['local tier hit'].median / r['memory store hit (fetch)'].median,
    ),
    'remote hit / local tier hit': round(r['remote hit'].median / r['local tier hit'].median),
  };
  // The same on this process's CPU per operation: less sensitive to other load on the machine.
  const cpu = (name) => r[`${name} (client CPU)`].median;
  results.cpuRatios = {
    'remote hit / floor GET': round(cpu('remote hit') / cpu('floor GET')),
    'remote miss / floor GET': round(cpu('remote miss') / cpu('floor GET')),
    'remote miss + store / (floor GET + floor SET PX)': round(
      cpu('remote miss + store') / (cpu('floor GET') + cpu('floor SET PX')),
    ),
    'local tier hit / memory store hit (fetch)': round(cpu('local tier hit') / cpu('memory store hit (fetch)')),
  };
  results.machine.loadavgAtEnd = loadavg().map((v) => Math.round(v * 100) / 100);
  const out = fileURLToPath(new URL(quick ? './results/redis-quick.tmp' : './results/redis.json', import.meta.url));
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`| measurement | median | low | high |\n|---|---|---|---|`);
  for (const [name, row] of Object.entries(results.rows)) {
    const unit = name.endsWith('requests') ? '' : name.endsWith(': ms') ? ' ms' : ' us';
    console.log(`| ${name} | ${row.median}${unit} | ${row.low}${unit} | ${row.high}${unit} |`);
  }
  console.log(`\n| ratio | value |\n|---|---|`);
  for (const [name, value] of Object.entries(results.ratios)) console.log(`| ${name} | ${value}x |`);
  console.log(`\n| ratio, client CPU | value |\n|---|---|`);
  for (const [name, value] of Object.entries(results.cpuRatios)) console.log(`| ${name} | ${value}x |`);
  console.log(
    `\nload average: start ${results.machine.loadavgAtStart.join(' ')}, end ${results.machine.loadavgAtEnd.join(' ')}`,
  );
}

/** Eight instances (own store, own connections) ask for the same cold public list at once; the server takes 20 ms. */
async function burst(url, singleFlight, round_) {
  const stores = Array.from(
    { length: 8 },
    () => new RedisCacheStore({ connection: url, prefix: `burst${round_}${singleFlight}:`, singleFlight }),
  );
  await Promise.all(stores.map((s) => s.ready()));
  const caches = stores.map((store) => new ResponseCache({ serverIdentity: SERVER, store }));
  // Each instance has read its server's generations (its first lookup), as a running one has.
  await Promise.all(
    caches.map((c) =>
      c.fetch({ method: 'resources/read', uri: 'bench://warm', protocolVersion: V }, async () => ({
        result: { contents: [] },
        storable: true,
      })),
    ),
  );
  let loads = 0;
  const slowLoad = async () => {
    loads++;
    await new Promise((resolve) => setTimeout(resolve, 20));
    return { result: { tools: [], ttlMs: 60_000, cacheScope: 'public' }, storable: true };
  };
  const t0 = performance.now();
  await Promise.all(caches.map((c) => c.fetch({ method: 'tools/list', protocolVersion: V }, slowLoad)));
  const wallMs = performance.now() - t0;
  for (const c of caches) c.dispose();
  await Promise.all(stores.map((s) => s.close()));
  return { loads, wallMs };
}

await main();
