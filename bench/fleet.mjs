#!/usr/bin/env node
// Issue 47: a host for many users. Not part of `npm test`; nothing asserts on time. Needs dist/
// (`npm run build`) and, for part 2, `redis-server` on PATH.
//
// Part 1, one process: an McpHost over 5 HTTP servers (2 per-user, 3 shared; bench/fleet-servers.mjs,
// in a process of its own) with USERS user scopes (host.forUser): heap per user, sockets the
// servers see held, and per call (a random user, a random server) the host's CPU and the p50/p99
// latency, against a single-user host (one McpHost with the same servers, one user's token).
// Part 2, three worker processes (bench/fleet-worker.mjs) on one redis-server: users move
// between workers; p50/p99 of a user's first call on a worker (a cold scope: forUser, the user's
// own connections, the call) against a warm call (the user back on a worker it was on).
//
//   node --expose-gc bench/fleet.mjs [--users 1000] [--calls 5000] [--quick]   → bench/results/fleet.json
// (without --expose-gc the heap and RSS figures carry the GC's noise: `gcExposed: false` says so)
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { McpHost } from '../dist/host.js';
import { machine, round, startRedis } from './lib.mjs';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const argument = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at < 0 ? fallback : Number(process.argv[at + 1]);
};
const quick = process.argv.includes('--quick');
const USERS = argument('users', quick ? 100 : 1000);
const CALLS = argument('calls', quick ? 500 : 5000);
const MOVES = quick ? 60 : 300;
// Each mover visits the three workers in turn, twice: its first call on each is cold, the next warm.
const MOVERS = Math.max(1, Math.floor(MOVES / 6));

/** Full collections until the heap stops shrinking (a no-op without --expose-gc). */
function collectGarbage() {
  if (typeof globalThis.gc !== 'function') return;
  for (let pass = 0, last = Infinity; pass < 5; pass++) {
    globalThis.gc();
    const used = process.memoryUsage().heapUsed;
    if (used >= last * 0.99) break;
    last = used;
  }
}

function percentile(sorted, p) {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function lineReader(child) {
  const lines = createInterface({ input: child.stdout });
  const queue = [];
  const waiting = [];
  lines.on('line', (line) => {
    const message = JSON.parse(line);
    const next = waiting.shift();
    if (next) next(message);
    else queue.push(message);
  });
  return () => (queue.length > 0 ? Promise.resolve(queue.shift()) : new Promise((resolve) => waiting.push(resolve)));
}

async function startServers() {
  const child = spawn(process.execPath, [join(HERE, 'fleet-servers.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const next = lineReader(child);
  const { urls, kinds } = await next();
  return {
    urls,
    kinds,
    sockets: async () => {
      child.kill('SIGUSR2');
      return (await next()).sockets;
    },
    stop: () => child.kill('SIGKILL'),
  };
}

function entries(servers) {
  return Object.fromEntries(
    servers.urls.map((url, i) => [
      `s${i}`,
      { type: 'http', url, perUser: servers.kinds[i] === 'perUser', client: { reconnect: false } },
    ]),
  );
}

function credentials(servers, user) {
  return Object.fromEntries(
    servers.kinds.flatMap((kind, i) =>
      kind === 'perUser' ? [[`s${i}`, { headers: { Authorization: `Bearer tok-${user}` } }]] : [],
    ),
  );
}

/** CPU (µs) and wall latencies (ms) of `CALLS` calls, each `pick()`ed, after CALLS / 5 unmeasured ones (JIT, sockets). */
async function calls(pick) {
  for (let n = 0; n < Math.ceil(CALLS / 5); n++) {
    const [target, tool] = pick(n + CALLS);
    await target.callTool(tool, { n });
  }
  const latencies = [];
  const cpu = process.cpuUsage();
  for (let n = 0; n < CALLS; n++) {
    const [target, tool] = pick(n);
    const started = performance.now();
    await target.callTool(tool, { n });
    latencies.push(performance.now() - started);
  }
  const used = process.cpuUsage(cpu);
  latencies.sort((a, b) => a - b);
  return {
    cpuUsPerCall: round((used.user + used.system) / CALLS, 1),
    p50Ms: round(percentile(latencies, 50), 3),
    p99Ms: round(percentile(latencies, 99), 3),
  };
}

async function partOne() {
  const servers = await startServers();
  const tools = servers.urls.map((_, i) => `s${i}__echo`);
  try {
    // The single-user host: the per-user servers with one user's token, as one McpHost.
    const single = new McpHost({
      clientInfo: { name: 'fleet-bench', version: '0.0.0' },
      servers: Object.fromEntries(
        Object.entries(entries(servers)).map(([name, entry]) => [
          name,
          entry.perUser ? { ...entry, perUser: false, headers: { Authorization: 'Bearer tok-solo' } } : entry,
        ]),
      ),
    });
    await single.connect();
    const baseline = await calls((n) => [single, tools[n % tools.length]]);

    const singleSockets = await servers.sockets();
    await single.close();

    // The many-user host, at half the users and then all of them: how memory and sockets grow.
    const sizes = [];
    let scoped;
    for (const users of [Math.floor(USERS / 2), USERS]) {
      const host = new McpHost({ clientInfo: { name: 'fleet-bench', version: '0.0.0' }, servers: entries(servers) });
      await host.connect();
      collectGarbage();
      const before = process.memoryUsage();
      const scopes = [];
      for (let u = 0; u < users; u++)
        scopes.push(host.forUser(`user-${u}`, { credentials: credentials(servers, `user-${u}`) }));
      await Promise.all(scopes.map((scope) => scope.connect()));
      // One call per user, so every user's own connections are open and its scope is warm.
      for (let u = 0; u < users; u++) await scopes[u].callTool(tools[u % tools.length], { n: u });
      collectGarbage();
      const after = process.memoryUsage();
      const sockets = await servers.sockets();
      sizes.push({
        users,
        heapPerUserKiB: round((after.heapUsed - before.heapUsed) / users / 1024, 1),
        rssPerUserKiB: round((after.rss - before.rss) / users / 1024, 1),
        socketsHeld: sockets,
        socketsPerUserOnPerUserServers: round(
          sockets.filter((_, i) => servers.kinds[i] === 'perUser').reduce((a, b) => a + b, 0) / users,
          2,
        ),
      });
      if (users === USERS) scoped = await calls((n) => [scopes[(n * 7919) % USERS], tools[n % tools.length]]);
      await host.close();
    }
    return {
      users: USERS,
      calls: CALLS,
      gcExposed: typeof globalThis.gc === 'function',
      servers: servers.kinds,
      sizes,
      singleUser: { ...baseline, socketsHeld: singleSockets },
      scoped,
    };
  } finally {
    servers.stop();
  }
}

async function partTwo() {
  const servers = await startServers();
  const redis = await startRedis();
  const workers = [];
  try {
    for (let w = 0; w < 3; w++) {
      const child = spawn(
        process.execPath,
        [
          join(HERE, 'fleet-worker.mjs'),
          JSON.stringify({ urls: servers.urls, kinds: servers.kinds, redisUrl: redis.url }),
        ],
        { stdio: ['pipe', 'pipe', 'inherit'] },
      );
      const next = lineReader(child);
      await next(); // ready
      let id = 0;
      workers.push({
        child,
        call: (user, tool) => {
          child.stdin.write(`${JSON.stringify({ id: ++id, user, tool })}\n`);
          return next();
        },
      });
    }
    const tools = servers.urls.map((_, i) => `s${i}__echo`);
    const cold = [];
    const warm = [];
    const where = new Map();
    for (let m = 0; m < MOVES; m++) {
      const user = `mover-${m % MOVERS}`;
      const worker = (where.get(user) ?? -1) + 1;
      where.set(user, worker % 3);
      const answer = await workers[worker % 3].call(user, tools[m % tools.length]);
      (answer.cold ? cold : warm).push(answer.ms);
    }
    cold.sort((a, b) => a - b);
    warm.sort((a, b) => a - b);
    return {
      workers: 3,
      moves: MOVES,
      movers: MOVERS,
      coldCall: { count: cold.length, p50Ms: round(percentile(cold, 50), 2), p99Ms: round(percentile(cold, 99), 2) },
      warmCall: { count: warm.length, p50Ms: round(percentile(warm, 50), 2), p99Ms: round(percentile(warm, 99), 2) },
    };
  } finally {
    for (const worker of workers) worker.child.kill('SIGKILL');
    redis.stop();
    servers.stop();
  }
}

const results = { machine: machine(), oneProcess: await partOne(), threeWorkers: await partTwo() };
writeFileSync(join(HERE, 'results', 'fleet.json'), `${JSON.stringify(results, null, 2)}\n`);
console.log(JSON.stringify(results, null, 2));
process.exit(0);
