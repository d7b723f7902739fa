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
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const INPUTS = ['src', 'tsup.config.ts', 'tsconfig.json', 'package-lock.json'];
const OUTPUTS = ['index', 'node', 'redis']
  .flatMap((entry) => ['.js', '.cjs', '.d.ts', '.d.cts'].map((ext) => `${entry}${ext}`))
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
  if (r.status !== 0) process.exit(r.status ?? 1);
} else {
  console.error('ensure-build: dist/ is up to date with src/');
}
