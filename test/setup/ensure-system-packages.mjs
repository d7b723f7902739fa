#!/usr/bin/env node
// Installs the Debian packages some tests drive for real (redis-server for the fleet cache,
// chromium for the browser test) when they are missing and this machine can install them
// (root, apt-get). Where it cannot, it says so loudly; the tests that need a package then skip
// with the same reason (test/setup/systemBinaries.ts), except under
// MCP_LIVE_REQUIRE_SYSTEM_PACKAGES=1 (set by .ci/run), where they fail instead.
// MCP_LIVE_SKIP_SYSTEM_PACKAGES=1 installs nothing (those tests skip, as on a machine without root).
import { spawnSync } from 'node:child_process';
import { SYSTEM_PACKAGES, findBinary } from './systemPackages.mjs';

const missing = SYSTEM_PACKAGES.filter((entry) => findBinary(entry.binary) === undefined);
if (missing.length === 0) process.exit(0);

const names = missing.map((entry) => entry.debianPackage);
const loud = (text) => process.stderr.write(`\n!!! ${text}\n\n`);
if (process.env.MCP_LIVE_SKIP_SYSTEM_PACKAGES === '1') {
  loud(
    `MCP_LIVE_SKIP_SYSTEM_PACKAGES=1: not installing ${names.join(', ')}; the tests that need them will be SKIPPED.`,
  );
  process.exit(0);
}
const canInstall =
  process.platform === 'linux' &&
  typeof process.getuid === 'function' &&
  process.getuid() === 0 &&
  spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;

if (!canInstall) {
  loud(
    `missing Debian packages: ${names.join(', ')}. This machine cannot install them (needs root and apt-get); ` +
      `the tests that need them will be SKIPPED. Install them with: apt-get install ${names.join(' ')}`,
  );
  process.exit(0);
}

process.stderr.write(`installing Debian packages the tests need: ${names.join(', ')}\n`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
const run = (args) => spawnSync('apt-get', args, { stdio: 'inherit', env }).status === 0;
const installed =
  run(['install', '-y', '--no-install-recommends', ...names]) ||
  (run(['update']) && run(['install', '-y', '--no-install-recommends', ...names]));
const still = missing.filter((entry) => findBinary(entry.binary) === undefined).map((entry) => entry.debianPackage);
if (!installed || still.length > 0) {
  loud(`apt-get could not install ${still.join(', ') || names.join(', ')}; the tests that need them will be SKIPPED.`);
}
