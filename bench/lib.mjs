// Small helpers shared by the bench scripts: statistics, timing, the machine description, a
// redis-server of their own.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';

export function median(values) {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Lowest and highest sample: the spread shown next to each median. */
export function spread(values) {
  const finite = values.filter((v) => Number.isFinite(v));
  return finite.length === 0 ? [NaN, NaN] : [Math.min(...finite), Math.max(...finite)];
}

/**
 * Before each sample: a minor GC, so that no client's sample pays for the young garbage another
 * left. Not a full GC: on Node 20 a mark-compact also drops the maps no live object holds (the
 * shapes of a client's per-request objects, between its samples), and with them the optimised
 * code that embeds them, so each sample began by re-optimising its client's hot path: a cost
 * that grows with the client's code, not with its work per operation.
 */
export const collectGarbage = () => {
  if (typeof globalThis.gc === 'function') globalThis.gc({ type: 'minor' });
};

/**
 * Runs `body` (which performs `ops` operations) once and returns, per operation, the wall time
 * and this process's own CPU time (user + system from process.cpuUsage), both in microseconds.
 */
export async function timed(ops, body) {
  collectGarbage();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await body();
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { wallUs: (wallMs * 1000) / ops, cpuUs: (cpu.user + cpu.system) / ops };
}

/** `[a, b, c]` rotated left by `n`: the order clients take turns in, one rotation per repetition. */
export const rotate = (list, n) => list.map((_, i) => list[(i + n) % list.length]);

export function machine() {
  let cpu = cpus()[0]?.model ?? 'unknown';
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('model name'));
    if (line !== undefined) cpu = line.split(':')[1].trim();
  } catch {
    // not Linux: os.cpus() it is
  }
  return {
    cpu,
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    date: new Date().toISOString(),
    loadavgAtStart: loadavg().map((v) => Math.round(v * 100) / 100),
  };
}

export const round = (value, digits = 2) => (Number.isFinite(value) ? Number(value.toFixed(digits)) : null);

/** A free TCP port on 127.0.0.1. */
export async function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** A redis-server on a free port of 127.0.0.1, no persistence, its files in a temp dir; `stop()` kills it. */
export async function startRedis() {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-live-bench-redis-'));
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('Ready to accept connections')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited ${code}`)));
  });
  child.stdout.resume();
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () => {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
