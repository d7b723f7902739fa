#!/usr/bin/env node
// Builds dist/ (npm run build) unless it is newer than every file under src/ and the build
// config, so `npm run bench:quick` does not spend its minute on a build it does not need.
// `--always` builds regardless.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const newest = (path) => {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let max = 0;
  for (const name of readdirSync(path)) max = Math.max(max, newest(join(path, name)));
  return max;
};
const built = join(root, 'dist', 'index.js');
const stale =
  process.argv.includes('--always') ||
  !existsSync(built) ||
  !existsSync(join(root, 'dist', 'node.js')) ||
  statSync(built).mtimeMs < Math.max(newest(join(root, 'src')), newest(join(root, 'tsup.config.ts')), newest(join(root, 'package-lock.json')));
if (stale) {
  console.error('bench: building dist/ (npm run build)');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(npm, ['run', 'build', '--silent'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) process.exit(r.status ?? 1);
} else {
  console.error('bench: dist/ is up to date with src/');
}
