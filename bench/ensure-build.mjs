#!/usr/bin/env node
// Builds dist/ (npm run build) unless every file the package needs is there and newer than every
// build input (src/, the build config, tsconfig.json, package-lock.json). `npm run bench`,
// `npm test` (pretest) and test/package/ call it, so none of them spends a minute on a build it
// does not need, and none of them runs against a dist/ older than src/. `--always` builds
// regardless.
//
// A failed build leaves some outputs missing (npm run build empties dist/ first and writes the
// declarations last), so "all outputs present and newer than the inputs" means "the last build
// finished after the last edit".
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const INPUTS = ['src', 'tsup.config.ts', 'tsconfig.json', 'package-lock.json'];
const ENTRIES = [
  'index',
  'node',
  'host',
  'hostNode',
  'redis',
  'appsBridge',
  'aiSdk',
  'langchain',
  'telemetry',
  'devtools',
  'devtoolsPanel',
];
// Per entry: the bundled ESM and CJS with their declarations, and the per-file ESM tree's module
// (dist/modules/).
const OUTPUTS = ENTRIES.flatMap((entry) => ['.js', '.cjs', '.d.ts', '.d.cts'].map((ext) => `${entry}${ext}`))
  .concat(ENTRIES.map((entry) => `modules/${entry}.js`))
  .concat('cli.js');

const newest = (path) => {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let max = 0;
  for (const name of readdirSync(path)) max = Math.max(max, newest(join(path, name)));
  return max;
};
const oldestOutput = () => {
  let min = Infinity;
  for (const name of OUTPUTS) {
    const path = join(root, 'dist', name);
    if (!existsSync(path)) return 0;
    min = Math.min(min, statSync(path).mtimeMs);
  }
  return min;
};

// One build at a time: test files that need dist/ call this concurrently, and a build empties
// dist/ first. A lock directory (mkdir is atomic) makes the others wait, then find it fresh. A
// lock older than LOCK_STALE_MS is left from a killed build and is taken over.
const LOCK = join(root, 'node_modules', '.cache', 'ensure-build.lock');
const LOCK_STALE_MS = 10 * 60_000;
const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
mkdirSync(dirname(LOCK), { recursive: true });
for (;;) {
  try {
    mkdirSync(LOCK);
    break;
  } catch (error) {
    if (error.code !== 'EEXIST') throw error;
    const age = Date.now() - (existsSync(LOCK) ? statSync(LOCK).mtimeMs : Date.now());
    if (age > LOCK_STALE_MS) rmSync(LOCK, { recursive: true, force: true });
    else sleep(250);
  }
}

let status = 0;
try {
  const stale =
    process.argv.includes('--always') || oldestOutput() < Math.max(...INPUTS.map((name) => newest(join(root, name))));
  if (stale) {
    console.error('ensure-build: dist/ is missing or older than src/; building it (npm run build)');
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const r = spawnSync(npm, ['run', 'build', '--silent'], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
      shell: process.platform === 'win32',
    });
    status = r.status ?? 1;
  } else {
    console.error('ensure-build: dist/ is up to date with src/');
  }
} finally {
  rmSync(LOCK, { recursive: true, force: true });
}
if (status !== 0) process.exit(status);
