#!/usr/bin/env node
// mcp-live benchmark: mcp-live vs the official @modelcontextprotocol/client v2 vs a hand-written
// floor client, each against the official server and against the precomputed-bytes floor server.
//
//   npm run bench          full run (~5-10 min): bench/results/latest.json + docs/performance.md
//   npm run bench:quick    quick run (< 1 min): bench/results/quick.tmp (gitignored), table on stdout
//
// Options: --quick, --only W1,W3,... (a subset; results go to bench/results/partial.tmp),
// --no-docs (do not touch docs/performance.md).
//
// In-process workloads (W1-W4) run every client in this one process, taking turns: each
// repetition runs every client once, in a rotated order, with a full GC before each sample.
// Each sample records wall time and this process's own CPU time (process.cpuUsage: user +
// system), per operation. Servers are child processes, so their CPU is not in those numbers.
// W6 (heap) and W7 (cold start) use a fresh child process per sample; W8 bundles with esbuild.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { CLIENTS, HTTP_EXTRA_CLIENTS, SERVERS, openClient } from './clients.mjs';
import { machine, median, rotate, round, spread, timed } from './lib.mjs';
import { evaluateTargets, renderMarkdown, updateDocs } from './report.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const here = fileURLToPath(new URL('.', import.meta.url));
const argv = process.argv.slice(2);
const QUICK = argv.includes('--quick');
const ONLY = (() => {
  const at = argv.indexOf('--only');
  return at === -1 ? undefined : new Set(argv[at + 1].split(','));
})();
const wants = (id, group) => ONLY === undefined || ONLY.has(id) || (group !== undefined && ONLY.has(group));

/** Sizes: operations per sample and samples (repetitions) per client. */
const CONFIG = QUICK
  ? {
      mode: 'quick',
      reps: 3,
      warmupFraction: 0.5,
      sequentialCalls: { official: 150, floor: 400 },
      inflightCalls: { official: 800, floor: 1500 },
      httpSequentialCalls: { official: 25, floor: 50 },
      httpInflightCalls: { official: 64, floor: 128 },
      inflight: 32,
      listings: { official: 1, floor: 1 },
      cachedListings: 4,
      cacheHits: 15_000,
      hotUris: 100,
      uncachedReads: { official: 150, floor: 400 },
      heapReps: 1,
      heapReads: 10_000,
      heapBound: 1_000,
      heapBoundedCheck: false,
      heapFreshCopy: false,
      coldReps: 1,
      coldWarmup: false,
      budgetMs: 110_000,
    }
  : {
      mode: 'full',
      reps: 15,
      warmupFraction: 0.5,
      sequentialCalls: { official: 600, floor: 1200 },
      inflightCalls: { official: 2500, floor: 6000 },
      httpSequentialCalls: { official: 300, floor: 600 },
      httpInflightCalls: { official: 800, floor: 1500 },
      inflight: 32,
      listings: { official: 1, floor: 2 },
      cachedListings: 12,
      cacheHits: 60_000,
      hotUris: 100,
      uncachedReads: { official: 600, floor: 1200 },
      heapReps: 3,
      heapReads: 10_000,
      heapBound: 1_000,
      heapBoundedCheck: true,
      heapFreshCopy: true,
      coldReps: 7,
      coldWarmup: true,
      budgetMs: 20 * 60_000,
    };

// The run stops by itself: a hard budget, whatever happens.
const watchdog = setTimeout(() => {
  console.error(`bench: over the ${CONFIG.budgetMs / 1000}s budget; stopping`);
  process.exit(2);
}, CONFIG.budgetMs);
watchdog.unref();

const log = (...parts) => console.error(...parts);
const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)}s`;

/**
 * In-process workloads. `ops(server)` is the operation count of one sample; `run(client, ops)`
 * performs them; `extraClients` (optional) adds pseudo-clients that reuse a connection;
 * `serverless` workloads never reach the server and run once, against the floor server.
 */
const uri = (n) => `bench://r/${n}`;
const sequentialCalls = async (c, ops) => {
  for (let i = 0; i < ops; i++) await c.call();
};
const callsInFlight = async (c, ops) => {
  let left = ops;
  await Promise.all(
    Array.from({ length: CONFIG.inflight }, async () => {
      while (left-- > 0) await c.call();
    }),
  );
};
const WORKLOADS = [
  {
    id: 'W1',
    title: 'stdio sequential tools/call',
    unit: 'call',
    ops: (server) => CONFIG.sequentialCalls[server],
    run: sequentialCalls,
  },
  {
    id: 'W2',
    title: `stdio tools/call, ${CONFIG.inflight} in flight`,
    unit: 'call',
    ops: (server) => CONFIG.inflightCalls[server],
    run: callsInFlight,
  },
  {
    id: 'W3',
    title: 'listAll 10,000 resources (100 pages), over the wire',
    unit: 'listing',
    ops: (server) => CONFIG.listings[server],
    run: async (c, ops) => {
      for (let i = 0; i < ops; i++) if ((await c.listAllWire()) !== 10_000) throw new Error('short list');
    },
  },
  {
    id: 'W3c',
    title: 'listAll 10,000 resources, from the cache',
    unit: 'listing',
    ops: () => CONFIG.cachedListings,
    prepare: async (c) => {
      await c.listAllCached();
    },
    run: async (c, ops) => {
      for (let i = 0; i < ops; i++) if ((await c.listAllCached()) !== 10_000) throw new Error('short list');
    },
  },
  {
    id: 'W4',
    title: 'resources/read served from the cache (hits)',
    unit: 'hit',
    ops: () => CONFIG.cacheHits,
    serverless: true,
    extraClients: { 'floor (fresh copy)': { base: 'floor', read: (c, u) => c.readCopy(u) } },
    prepare: async (c, read) => {
      for (let n = 1; n <= CONFIG.hotUris; n++) await read(c, uri(n));
    },
    run: async (c, ops, read) => {
      const hot = CONFIG.hotUris;
      for (let i = 0; i < ops; i++) await read(c, uri((i % hot) + 1));
    },
  },
  {
    id: 'W4u',
    title: 'resources/read uncached (cache bypassed), sequential',
    unit: 'read',
    ops: (server) => CONFIG.uncachedReads[server],
    run: async (c, ops) => {
      for (let i = 0; i < ops; i++) await c.readUncached(uri((i % 10_000) + 1));
    },
  },
  // W5: W1 and W2 over Streamable HTTP on 127.0.0.1, against `server.mjs --http` (the official
  // server's createMcpHandler, JSON responses) and `floor-server.mjs --http` (node:http answering
  // precomputed bytes). `--only W5` runs both.
  {
    id: 'W5',
    group: 'W5',
    http: true,
    title: 'Streamable HTTP sequential tools/call',
    unit: 'call',
    ops: (server) => CONFIG.httpSequentialCalls[server],
    run: sequentialCalls,
  },
  {
    id: 'W5i',
    group: 'W5',
    http: true,
    title: `Streamable HTTP tools/call, ${CONFIG.inflight} in flight`,
    unit: 'call',
    ops: (server) => CONFIG.httpInflightCalls[server],
    run: callsInFlight,
  },
];

async function runInProcess(results) {
  const selected = WORKLOADS.filter((w) => wants(w.id, w.group));
  // stdio first, then HTTP (each client with its own server process, over its own transport).
  for (const http of [false, true]) {
    const group = selected.filter((w) => (w.http === true) === http);
    if (group.length > 0) await runGroup(results, group, http);
  }
}

async function runGroup(results, selected, http) {
  for (const server of SERVERS) {
    // Over HTTP, mcp-live also runs on its fetch path ('mcp-live (fetch)'), next to its node:http default.
    const kinds = http ? [...CLIENTS, ...HTTP_EXTRA_CLIENTS] : CLIENTS;
    log(`-- server: ${server}${http ? ' (Streamable HTTP, 127.0.0.1)' : ''}; connecting ${kinds.join(', ')}`);
    const conns = {};
    try {
      for (const kind of kinds) conns[kind] = await openClient(kind, server, { http });
      for (const w of selected) {
        if (w.serverless && server !== 'floor') continue; // hits never reach the server: measured once
        const names = [...kinds, ...Object.keys(w.extraClients ?? {})];
        const pick = (name) => {
          const extra = w.extraClients?.[name];
          return extra === undefined
            ? { c: conns[name], read: (c, u) => c.read(u) }
            : { c: conns[extra.base], read: extra.read };
        };
        const ops = w.ops(server);
        const warm = Math.max(1, Math.round(ops * CONFIG.warmupFraction));
        for (const name of names) {
          const { c, read } = pick(name);
          await w.prepare?.(c, read);
          await w.run(c, warm, read);
        }
        const samples = Object.fromEntries(names.map((n) => [n, { cpuUs: [], wallUs: [] }]));
        for (let rep = 0; rep < CONFIG.reps; rep++) {
          for (const name of rotate(names, rep)) {
            const { c, read } = pick(name);
            const s = await timed(ops, () => w.run(c, ops, read));
            samples[name].cpuUs.push(s.cpuUs);
            samples[name].wallUs.push(s.wallUs);
          }
        }
        const entry = (results.workloads[w.id] ??= { title: w.title, unit: w.unit, servers: {} });
        entry.servers[w.serverless ? 'none' : server] = {
          opsPerSample: ops,
          reps: CONFIG.reps,
          clients: summarize(samples),
          paired: pairedRatios(samples),
        };
        log(`   ${w.id} ${w.title} [${server}] (${elapsed()}): ${line(samples)}`);
      }
    } finally {
      for (const kind of kinds) await conns[kind]?.close();
    }
  }
}

function summarize(samples) {
  const out = {};
  for (const [name, s] of Object.entries(samples)) {
    out[name] = {
      cpuUsPerOp: round(median(s.cpuUs), 3),
      wallUsPerOp: round(median(s.wallUs), 3),
      opsPerSec: round(1e6 / median(s.wallUs), 1),
      cpuUsRange: spread(s.cpuUs).map((v) => round(v, 3)),
      wallUsRange: spread(s.wallUs).map((v) => round(v, 3)),
      samples: { cpuUs: s.cpuUs.map((v) => round(v, 3)), wallUs: s.wallUs.map((v) => round(v, 3)) },
    };
  }
  return out;
}

/**
 * Ratios taken within each repetition (client ÷ floor, client ÷ official, same round), then the
 * median over repetitions. On a shared machine the load drifts between rounds; a round lasts a
 * few seconds, so its clients see about the same load and the paired ratio stays steadier than a
 * ratio of medians.
 */
function pairedRatios(samples) {
  const out = {};
  for (const field of ['cpuUs', 'wallUs']) {
    for (const base of ['floor', 'official']) {
      const b = samples[base]?.[field];
      if (b === undefined) continue;
      for (const [name, s] of Object.entries(samples)) {
        if (name === base) continue;
        const ratios = s[field].map((v, i) => v / b[i]);
        (out[name] ??= {})[`${field}Vs${base === 'floor' ? 'Floor' : 'Official'}`] = round(median(ratios), 3);
      }
    }
  }
  return out;
}

const line = (samples) =>
  Object.entries(samples)
    .map(([n, s]) => `${n} cpu ${median(s.cpuUs).toFixed(2)}us wall ${median(s.wallUs).toFixed(2)}us`)
    .join(' | ');

/** Runs `node [flags] script args` and returns the JSON lines it printed. */
function runChild(flags, script, args) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let firstLineAt;
    let out = '';
    const child = spawn(process.execPath, [...flags, join(here, script), ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      if (firstLineAt === undefined && chunk.includes('\n')) firstLineAt = performance.now();
      out += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`${script} ${args.join(' ')} exited with ${code}`));
      const lines = out
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l));
      resolve({ lines, firstLineMs: firstLineAt === undefined ? NaN : firstLineAt - t0 });
    });
  });
}

async function runHeap(results) {
  if (!wants('W6')) return;
  log(`-- W6 heap (${elapsed()}): ${CONFIG.heapReads} distinct reads, fresh process per sample`);
  const reads = String(CONFIG.heapReads);
  const variants = [
    ...CLIENTS.map((client) => ({ name: client, args: [client, '--reads', reads] })),
    ...(CONFIG.heapFreshCopy
      ? [{ name: 'floor (fresh copy)', args: ['floor', '--reads', reads, '--floor-cache', 'copy'] }]
      : []),
  ];
  // Per-uri leftovers outside the cache: with the cache bounded to B entries, read N distinct
  // uris, then (another process) only B: (heap(N) - heap(B)) / (N - B) is what each uri beyond
  // the bound leaves behind. The floor client (a Map trimmed to B) shows the engine's own share.
  const bound = String(CONFIG.heapBound);
  const bounded = CONFIG.heapBoundedCheck
    ? CLIENTS.flatMap((client) => [
        { name: client, reads: CONFIG.heapReads, args: [client, '--bound', bound, '--reads', reads] },
        { name: client, reads: CONFIG.heapBound, args: [client, '--bound', bound, '--reads', bound] },
      ])
    : [];
  const samples = {};
  const boundedDelta = {};
  for (let rep = 0; rep < CONFIG.heapReps; rep++) {
    for (const v of rotate(variants, rep)) {
      const { lines } = await runChild(['--expose-gc'], 'heap-worker.mjs', v.args);
      (samples[v.name] ??= []).push(lines[0].bytesPerRead);
    }
    for (const v of rotate(bounded, rep)) {
      const { lines } = await runChild(['--expose-gc'], 'heap-worker.mjs', v.args);
      ((boundedDelta[v.name] ??= {})[v.reads] ??= []).push(lines[0].heapDeltaBytes);
    }
  }
  const per = (s) =>
    Object.fromEntries(
      Object.entries(s).map(([n, v]) => [n, { bytesPerRead: round(median(v), 1), samples: v.map((x) => round(x, 1)) }]),
    );
  results.heap = {
    title: `heap per cached ~1 KiB read (heapUsed delta / ${CONFIG.heapReads})`,
    reads: CONFIG.heapReads,
    clients: per(samples),
  };
  if (CONFIG.heapBoundedCheck) {
    results.heap.bounded = {
      title: `cache bounded to ${CONFIG.heapBound} entries: heap left per uri read beyond the bound, (heap(${CONFIG.heapReads} uris) - heap(${CONFIG.heapBound} uris)) / ${CONFIG.heapReads - CONFIG.heapBound}`,
      bound: CONFIG.heapBound,
      clients: Object.fromEntries(
        Object.entries(boundedDelta).map(([n, d]) => [
          n,
          {
            bytesPerExtraUri: round(
              (median(d[CONFIG.heapReads]) - median(d[CONFIG.heapBound])) / (CONFIG.heapReads - CONFIG.heapBound),
              1,
            ),
            heapDeltaBytes: { [CONFIG.heapReads]: d[CONFIG.heapReads], [CONFIG.heapBound]: d[CONFIG.heapBound] },
          },
        ]),
      ),
    };
  }
  for (const [n, v] of Object.entries(results.heap.clients)) log(`   ${n}: ${v.bytesPerRead} B/read`);
  for (const [n, v] of Object.entries(results.heap.bounded?.clients ?? {}))
    log(`   ${n} (bound ${CONFIG.heapBound}): ${v.bytesPerExtraUri} B left per uri beyond the bound`);
}

async function runCold(results) {
  if (!wants('W7')) return;
  log(`-- W7 cold start (${elapsed()}): new process, spawn server, connect, first tools/list`);
  const dir = join(tmpdir(), `mcp-live-bench-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const out = {};
  const pairedByServer = {};
  try {
    for (const server of SERVERS) {
      const samples = Object.fromEntries(CLIENTS.map((c) => [c, { wallMs: [], cpuMs: [], spawns: [] }]));
      // One untimed start per client first: disk cache and code cache warm for everyone.
      if (CONFIG.coldWarmup)
        for (const client of CLIENTS) await runChild([], 'cold-worker.mjs', [client, server, join(dir, 'warm.log')]);
      for (let rep = 0; rep < CONFIG.coldReps; rep++) {
        for (const client of rotate(CLIENTS, rep)) {
          const spawnLog = join(dir, `${client}-${server}-${rep}.log`);
          const { lines, firstLineMs } = await runChild([], 'cold-worker.mjs', [client, server, spawnLog]);
          samples[client].wallMs.push(firstLineMs);
          samples[client].cpuMs.push(lines[0].cpuUs / 1000);
          samples[client].spawns.push(
            existsSync(spawnLog) ? readFileSync(spawnLog, 'utf8').trim().split('\n').filter(Boolean).length : 0,
          );
        }
      }
      const pairedCold = {};
      for (const name of CLIENTS) {
        if (name === 'floor') continue;
        pairedCold[name] = {
          wallVsFloor: round(median(samples[name].wallMs.map((v, i) => v / samples.floor.wallMs[i])), 3),
          cpuVsFloor: round(median(samples[name].cpuMs.map((v, i) => v / samples.floor.cpuMs[i])), 3),
        };
      }
      pairedByServer[server] = pairedCold;
      out[server] = Object.fromEntries(
        Object.entries(samples).map(([c, s]) => [
          c,
          {
            wallMs: round(median(s.wallMs), 1),
            cpuMs: round(median(s.cpuMs), 1),
            serverSpawns: Math.max(...s.spawns),
            wallMsRange: spread(s.wallMs).map((v) => round(v, 1)),
            cpuMsRange: spread(s.cpuMs).map((v) => round(v, 1)),
            samples: {
              wallMs: s.wallMs.map((v) => round(v, 1)),
              cpuMs: s.cpuMs.map((v) => round(v, 1)),
              spawns: s.spawns,
            },
          },
        ]),
      );
      log(
        `   [${server}] ${Object.entries(out[server])
          .map(([c, v]) => `${c} ${v.wallMs}ms wall ${v.cpuMs}ms cpu ${v.serverSpawns} spawn(s)`)
          .join(' | ')}`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  results.coldStart = {
    title: 'cold start: new node process, spawn server, connect, first tools/list',
    reps: CONFIG.coldReps,
    servers: out,
    paired: pairedByServer,
  };
}

/** A dist file as esbuild (run in the repo root) imports it: from the snapshot when there is one. */
const distImport = (file) =>
  process.env.BENCH_DIST === undefined
    ? `./dist/${file}`
    : `./${relative(root, join(process.env.BENCH_DIST, file)).split('\\').join('/')}`;

/**
 * What a page loads for `code` (run from the repo root): esbuild with `--splitting`, the entry
 * file and the chunks it imports statically, minified and gzip -9 per file; `lazyGzipBytes`
 * are the chunks only a dynamic `import()` loads (as test/package/bundleSize.test.ts counts).
 */
async function bundleSize(code) {
  const { build } = await import('esbuild');
  const result = await build({
    stdin: { contents: code, resolveDir: root, loader: 'js', sourcefile: 'entry.js' },
    absWorkingDir: root,
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    splitting: true,
    outdir: join(root, 'bench', 'results', 'bundle.tmp'),
    metafile: true,
    write: false,
    logLevel: 'error',
  });
  const outputs = result.metafile.outputs;
  const eager = new Set();
  // Every dynamic import() target is an entry point of the metafile too: the bundle's own entry is the stdin one.
  const pending = [Object.keys(outputs).find((path) => /(^|\/)entry\.js$/.test(outputs[path].entryPoint ?? ''))];
  while (pending.length > 0) {
    const path = pending.pop();
    if (eager.has(path)) continue;
    eager.add(path);
    for (const imported of outputs[path].imports) if (imported.kind === 'import-statement') pending.push(imported.path);
  }
  const size = { minifiedBytes: 0, gzipBytes: 0, lazyGzipBytes: 0 };
  for (const file of result.outputFiles) {
    const gzip = gzipSync(file.contents, { level: 9 }).length;
    if (eager.has(relative(root, file.path).split('\\').join('/'))) {
      size.minifiedBytes += file.contents.length;
      size.gzipBytes += gzip;
    } else size.lazyGzipBytes += gzip;
  }
  return size;
}

async function runBundle(results) {
  if (!wants('W8')) return;
  log('-- W8 bundle size (esbuild --bundle --minify --format=esm --platform=browser --splitting)');
  const esbuild = join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'esbuild.cmd' : 'esbuild');
  // Does the built root entry export an HTTP transport yet? (It is being written as this runs.)
  const rootText = readFileSync(join(process.env.BENCH_DIST ?? join(root, 'dist'), 'index.js'), 'utf8');
  const exportBlock = rootText.slice(rootText.lastIndexOf('export {'));
  const hasHttp = /\bStreamableHttpTransport\b/.test(exportBlock);
  // What a bundler gets: the per-file tree (dist/modules/, the package's `import` condition
  // without `node`), not the bundled build Node loads.
  const entries = [
    {
      id: 'mcp-live root entry (dist/modules/index.js, everything)',
      client: 'mcp-live',
      code: `export * from ${JSON.stringify(distImport('modules/index.js'))};`,
    },
    {
      id: 'mcp-live McpClient only',
      client: 'mcp-live',
      code: `export { McpClient } from ${JSON.stringify(distImport('modules/index.js'))};`,
    },
    ...(hasHttp
      ? [
          {
            id: 'mcp-live browser HTTP client (McpClient + StreamableHttpTransport)',
            client: 'mcp-live',
            http: true,
            code: `export { McpClient, StreamableHttpTransport } from ${JSON.stringify(distImport('modules/index.js'))};`,
          },
        ]
      : []),
    {
      id: 'official root entry (everything)',
      client: 'official',
      code: "export * from '@modelcontextprotocol/client';",
    },
    {
      id: 'official browser HTTP client (Client + StreamableHTTPClientTransport)',
      client: 'official',
      code: "export { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';",
    },
  ];
  const out = [];
  for (const e of entries) out.push({ ...e, ...(await bundleSize(e.code)) });
  const version = spawnSync(esbuild, ['--version'], { encoding: 'utf8' }).stdout.trim();
  results.bundle = {
    title: 'browser bundle size (minified; gzip -9), 1 KB = 1,000 bytes',
    esbuild: version,
    entries: out,
    hasHttpTransport: hasHttp,
    caveat:
      'the dist/ build of this checkout; test/package/bundleSize.test.ts measures the packed tarball the same way and holds the bounds (BUNDLE_BOUNDS).',
  };
  for (const e of out)
    log(`   ${e.id}: ${e.minifiedBytes} B min, ${e.gzipBytes} B gzip, ${e.lazyGzipBytes} B gzip lazy`);
}

const results = {
  schema: 1,
  machine: machine(),
  mode: CONFIG.mode,
  config: CONFIG,
  clients: {
    'mcp-live': 'mcp-live (this repo, dist/ build), default options; cache store sized for 20,000 entries',
    official:
      '@modelcontextprotocol/client 2.4.0: versionNegotiation { mode: { pin: "2026-07-28" } }, response cache on (InMemoryResponseCacheStore, maxEntries 20,000), listMaxPages 0',
    floor: 'hand-written JSON-RPC over child stdio, no validation, mandatory _meta keys sent (bench/floor-client.mjs)',
    'floor (fresh copy)': 'the floor client whose cache keeps JSON text and parses a fresh copy per hit',
  },
  servers: {
    official: 'bench/server.mjs on @modelcontextprotocol/server 2.4.0 (serveStdio)',
    floor: 'bench/floor-server.mjs: precomputed response bytes, id spliced in',
  },
  http: {
    clients: {
      'mcp-live': 'McpClient over StreamableHttpTransport (fetch), default options',
      official: 'Client over StreamableHTTPClientTransport, versionNegotiation { mode: { pin: "2026-07-28" } }',
      floor:
        'bench/floor-http-client.mjs: node:http POST with a keep-alive Agent, protocol headers and _meta keys, JSON responses only, no validation',
    },
    servers: {
      official: 'bench/server.mjs --http: createMcpHandler (responseMode "json") behind node:http on 127.0.0.1',
      floor:
        'bench/floor-server.mjs --http: node:http on 127.0.0.1, precomputed bytes with the id spliced in, Content-Type application/json',
    },
  },
  workloads: {},
};

const versions = () => {
  const read = (p) => JSON.parse(readFileSync(join(root, p), 'utf8')).version;
  return {
    'mcp-live': read('package.json'),
    '@modelcontextprotocol/client': read('node_modules/@modelcontextprotocol/client/package.json'),
    '@modelcontextprotocol/server': read('node_modules/@modelcontextprotocol/server/package.json'),
  };
};

if (!existsSync(join(root, 'dist', 'index.js'))) {
  console.error('bench: dist/ is missing; run `npm run build` first');
  process.exit(1);
}
// Snapshot dist/ (gitignored: bench/results/*.tmp), so a rebuild of this checkout during the run
// (tsup cleans dist/ first) cannot break the child processes. Imports resolve from the same
// node_modules as dist/ itself.
const snapshot = join(here, 'results', 'dist.tmp');
rmSync(snapshot, { recursive: true, force: true });
cpSync(join(root, 'dist'), snapshot, {
  recursive: true,
  filter: (src) => !src.endsWith('.map') && !src.endsWith('.d.ts') && !src.endsWith('.d.cts'),
});
process.env.BENCH_DIST = snapshot;
if (typeof globalThis.gc !== 'function') log('bench: note: run with --expose-gc for a GC before each sample');
results.versions = versions();
log(`bench (${CONFIG.mode}): ${results.machine.cpu}, ${results.machine.cores} cores, node ${results.machine.node}`);

await runInProcess(results);
await runHeap(results);
await runCold(results);
await runBundle(results);
results.targets = evaluateTargets(results);
results.machine.loadavgAtEnd = loadavg().map((v) => round(v, 2));
results.elapsedSeconds = round((performance.now() - started) / 1000, 1);

const outFile = ONLY !== undefined ? 'partial.tmp' : QUICK ? 'quick.tmp' : 'latest.json';
mkdirSync(join(here, 'results'), { recursive: true });
writeFileSync(join(here, 'results', outFile), `${JSON.stringify(results, null, 2)}\n`);
const markdown = renderMarkdown(results);
process.stdout.write(`${markdown}\n`);
if (!QUICK && ONLY === undefined && !argv.includes('--no-docs'))
  updateDocs(join(root, 'docs', 'performance.md'), markdown);
rmSync(snapshot, { recursive: true, force: true });
log(`bench: done in ${results.elapsedSeconds}s; wrote bench/results/${outFile}`);
clearTimeout(watchdog);
