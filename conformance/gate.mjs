#!/usr/bin/env node
// Our gate over the saved conformance results (docs/conformance.md).
//
//   node conformance/gate.mjs [--results <dir>] [revision...]     (default: both revisions)
//
// For each revision it reads the scored client scenarios from the pinned suite's frozen
// requirements file (plus the extension scenarios we score, SCORED_EXTENSIONS and
// SCORED_ALONE), and the
// checks.json of each scenario under <dir>/<revision>/. A scored
// scenario passes when it has at least one SUCCESS check, no FAILURE and no WARNING. That is
// stricter than the suite's own exit code, which ignores WARNINGs and counts a scenario with no
// checks at all as passing.
//
// The gate fails (exit 1) when a scored scenario does not pass and is not listed for that
// revision in conformance/baseline.yml; when a listed scenario now passes (a stale entry:
// delete it); and when an entry names a scenario the revision does not score. Not-scored
// scenarios are reported, never gated.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const REVISIONS = ['2026-07-28', '2025-11-25'];
const SUITE = join(here, 'node_modules', '@modelcontextprotocol', 'conformance');

function loadYaml(file) {
  // The suite's own YAML parser, from the harness folder (it is a dependency of the suite).
  const { parse } = createRequire(join(here, 'package.json'))('yaml');
  return parse(readFileSync(file, 'utf8'));
}

/**
 * Extension scenarios we score, so gated like the suite's own scored set. These are all the
 * client-side extension scenarios in the pinned suite (`conformance list`, 0.2.0-alpha.12), and
 * mcp-live implements every one:
 *
 * - the authorization extensions (docs/auth.md). The requirements files list them as not
 *   scored, so `--requirements` runs them at both revisions: {@link SCORED_EXTENSIONS};
 * - the Skills extension (SEP-2640, docs/skills.md): `sep-2640-client-no-prefetch` (listing a
 *   skill fetches none of its files) and `sep-2640-client-verify-digest`, `-size` and
 *   `-frontmatter` (a `SKILL.md` that fails its entry is refused before any other file of the
 *   skill is read). No requirements file lists them, so `--requirements` never runs them, and
 *   the runner runs each one on its own: {@link SCORED_ALONE}.
 *
 * The suite's other extension scenarios are server-side (`tasks-*`, `sep-2640-skills-*`), and a
 * client run has nothing to score there.
 */
export const SCORED_EXTENSIONS = [
  'auth/client-credentials-basic',
  'auth/client-credentials-jwt',
  'auth/dpop',
  'auth/dpop-nonce',
  'auth/enterprise-managed-authorization',
  'auth/wif-jwt-bearer',
];

/**
 * Extension scenarios outside every requirements file, with the revisions where we score them.
 * The runner runs each one on its own (`--scenario <s> --spec-version <revision> --force`) after
 * that revision's `--requirements` run. The Skills mock is one server for every revision: it
 * answers `server/discover` with 2026-07-28 only, so a client in `era: 'auto'` speaks the
 * 2026-07-28 wire to it whatever `--spec-version` says, and a 2025-11-25 run would repeat the
 * 2026-07-28 one. They are scored at 2026-07-28.
 */
export const SCORED_ALONE = {
  'sep-2640-client-no-prefetch': ['2026-07-28'],
  'sep-2640-client-verify-digest': ['2026-07-28'],
  'sep-2640-client-verify-size': ['2026-07-28'],
  'sep-2640-client-verify-frontmatter': ['2026-07-28'],
};

/** The {@link SCORED_ALONE} scenarios scored at `revision`. */
export function scoredAlone(revision) {
  return Object.entries(SCORED_ALONE)
    .filter(([, revisions]) => revisions.includes(revision))
    .map(([scenario]) => scenario);
}

/** Whether the suite runs `scenario` on its own only when forced (an extension scenario). */
export function needsForce(scenario) {
  return SCORED_EXTENSIONS.includes(scenario) || Object.hasOwn(SCORED_ALONE, scenario);
}

/**
 * The scored and not-scored client scenarios of a revision: the suite's frozen set, with
 * {@link SCORED_EXTENSIONS} moved from its not-scored list to the scored one, and the
 * {@link SCORED_ALONE} scenarios of the revision added.
 */
export function requirements(revision) {
  const file = join(SUITE, 'requirements', `${revision}.yaml`);
  if (!existsSync(file))
    throw new Error(`no requirements file ${file}; install the harness: npm ci --prefix conformance`);
  const doc = loadYaml(file);
  const scored = Array.isArray(doc.client) ? doc.client.map(String) : [];
  const notScored = [];
  for (const entry of Array.isArray(doc.not_scored) ? doc.not_scored : []) {
    if (entry.leg !== 'client') continue;
    const scenario = String(entry.scenario);
    if (SCORED_EXTENSIONS.includes(scenario)) scored.push(scenario);
    else notScored.push({ scenario, reason: String(entry.reason) });
  }
  for (const scenario of scoredAlone(revision)) if (!scored.includes(scenario)) scored.push(scenario);
  return { scored, notScored };
}

/** baseline.yml: `{ <revision>: { <scenario>: <reason> } }`. */
export function loadBaseline(file = join(here, 'baseline.yml')) {
  const doc = existsSync(file) ? (loadYaml(file) ?? {}) : {};
  const baseline = {};
  for (const [revision, entries] of Object.entries(doc)) {
    baseline[revision] = {};
    for (const [scenario, reason] of Object.entries(entries ?? {})) {
      if (typeof reason !== 'string' || reason.trim() === '')
        throw new Error(`baseline.yml: ${revision} / ${scenario} needs a reason`);
      baseline[revision][scenario] = reason.trim();
    }
  }
  return baseline;
}

/** `<scenario>-<timestamp>` directories holding checks.json, keyed by scenario (latest wins). */
export function readResults(dir) {
  const results = new Map();
  const walk = (d) => {
    if (!existsSync(d)) return;
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const path = join(d, entry.name);
      if (!existsSync(join(path, 'checks.json'))) {
        walk(path);
        continue;
      }
      const match = /^(.*)-(\d{4}-\d\d-\d\dT[\d-]+Z)$/.exec(relative(dir, path));
      if (match === null) continue;
      const [, scenario, stamp] = match;
      const previous = results.get(scenario);
      if (previous !== undefined && previous.stamp > stamp) continue;
      let checks;
      try {
        checks = JSON.parse(readFileSync(join(path, 'checks.json'), 'utf8'));
      } catch (error) {
        checks = [{ id: 'checks-json-unreadable', status: 'FAILURE', errorMessage: String(error) }];
      }
      const stderrFile = join(path, 'stderr.txt');
      results.set(scenario, {
        stamp,
        path,
        checks: Array.isArray(checks) ? checks : [],
        stderr: existsSync(stderrFile) ? readFileSync(stderrFile, 'utf8') : '',
      });
    }
  };
  walk(dir);
  return results;
}

function count(checks) {
  const counts = { SUCCESS: 0, FAILURE: 0, WARNING: 0, SKIPPED: 0, INFO: 0 };
  for (const check of checks) if (check.status in counts) counts[check.status]++;
  return counts;
}

/**
 * Scenarios where refusing is the right outcome (the suite's `allowClientError`, apart from
 * http-invalid-tool-headers, which the driver must still complete): the driver may exit 1.
 */
const REFUSAL_SCENARIOS = new Set([
  'auth/scope-retry-limit',
  'auth/resource-mismatch',
  'auth/iss-supported-missing',
  'auth/iss-wrong-issuer',
  'auth/iss-unexpected',
  'auth/iss-normalized',
  'auth/metadata-issuer-mismatch',
]);

/** The line the driver (test/conformance/client.ts) prints last when every step succeeded. */
const COMPLETED = /^\[driver [^\]]*\] done$/m;

/**
 * Judges one scenario: `pass`, or the reason it does not. Passing needs at least one SUCCESS
 * check, no FAILURE, no WARNING, and a driver that completed its steps (except where refusing
 * is right): a client that died half-way can leave only passing checks behind.
 */
export function judge(scenario, result) {
  if (result === undefined)
    return { pass: false, counts: count([]), why: 'no result saved (the run did not reach it)' };
  const counts = count(result.checks);
  const bad = result.checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
  if (bad.length > 0)
    return {
      pass: false,
      counts,
      why: bad.map((c) => `${c.status} ${c.id}${c.errorMessage ? `: ${oneLine(c.errorMessage)}` : ''}`).join('\n'),
    };
  if (counts.SUCCESS === 0) return { pass: false, counts, why: 'no SUCCESS check (nothing was exercised)' };
  if (!REFUSAL_SCENARIOS.has(scenario) && !COMPLETED.test(result.stderr))
    return { pass: false, counts, why: 'the driver did not complete its steps (see its stderr)' };
  return { pass: true, counts, why: '' };
}

function oneLine(text, max = 300) {
  const flat = String(text).replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function cell({ pass, counts }) {
  const tally = `${counts.SUCCESS} ok${counts.FAILURE ? `, ${counts.FAILURE} fail` : ''}${counts.WARNING ? `, ${counts.WARNING} warn` : ''}${counts.SKIPPED ? `, ${counts.SKIPPED} skipped` : ''}`;
  return `${pass ? 'pass' : 'FAIL'} (${tally})`;
}

/**
 * Gates one revision. Returns `{ ok, rows, problems }`; rows are
 * `{ scenario, scored, verdict, judged, reason }` for the summary table.
 */
export function gateRevision(revision, resultsDir, baseline) {
  const { scored, notScored } = requirements(revision);
  const results = readResults(join(resultsDir, revision));
  const expected = baseline[revision] ?? {};
  const rows = [];
  const problems = [];
  for (const scenario of scored) {
    const judged = judge(scenario, results.get(scenario));
    const reason = expected[scenario];
    let verdict;
    if (judged.pass && reason === undefined) verdict = 'pass';
    else if (judged.pass) {
      verdict = 'STALE';
      problems.push(`${revision} ${scenario}: passes now but baseline.yml lists it ("${reason}"); delete the entry`);
    } else if (reason !== undefined) verdict = 'expected failure';
    else {
      verdict = 'FAIL';
      const tail = results.get(scenario)?.stderr.trim().split('\n').slice(-6).join('\n      ') ?? '';
      problems.push(
        `${revision} ${scenario}: ${judged.why.split('\n').join('\n      ')}${tail ? `\n    client stderr (tail):\n      ${tail}` : ''}`,
      );
    }
    rows.push({ scenario, scored: true, verdict, judged, reason });
  }
  for (const scenario of Object.keys(expected)) {
    if (!scored.includes(scenario))
      problems.push(`${revision} ${scenario}: listed in baseline.yml but not a scored client scenario at ${revision}`);
  }
  for (const { scenario, reason: why } of notScored) {
    const judged = judge(scenario, results.get(scenario));
    rows.push({
      scenario,
      scored: false,
      verdict: judged.pass ? 'pass' : 'fail',
      judged,
      reason: `not scored: ${why}`,
    });
  }
  return { ok: problems.length === 0, rows, problems };
}

/** Gates every revision given, prints the tables, writes <resultsDir>/summary.md. */
export function gate(revisions = REVISIONS, resultsDir = join(here, 'results'), retried = {}) {
  const baseline = loadBaseline();
  for (const revision of Object.keys(baseline)) {
    if (!REVISIONS.includes(revision)) throw new Error(`baseline.yml: unknown revision ${revision}`);
  }
  let ok = true;
  const summary = [
    '# Conformance results',
    '',
    `Gate: every scored client scenario needs at least one SUCCESS, no FAILURE and no WARNING, unless conformance/baseline.yml lists it.`,
    '',
  ];
  for (const revision of revisions) {
    const { ok: revisionOk, rows, problems } = gateRevision(revision, resultsDir, baseline);
    ok &&= revisionOk;
    const again = new Set(retried[revision] ?? []);
    for (const row of rows) if (again.has(row.scenario) && row.verdict === 'pass') row.verdict = 'pass (retry)';
    const scoredRows = rows.filter((r) => r.scored);
    const passed = scoredRows.filter((r) => r.judged.pass).length;
    const expectedCount = scoredRows.filter((r) => r.verdict === 'expected failure').length;
    const heading = `${revision}: ${passed}/${scoredRows.length} scored client scenarios pass, ${expectedCount} expected failures (baseline), gate ${revisionOk ? 'PASSED' : 'FAILED'}`;
    console.log(`\n=== conformance gate ${heading}`);
    summary.push(
      `## ${revision}`,
      '',
      heading,
      '',
      '| scenario | scored | result | verdict | baseline reason |',
      '| --- | --- | --- | --- | --- |',
    );
    for (const row of rows) {
      const note = row.scored ? (row.reason ?? '') : row.reason;
      console.log(
        `  ${row.verdict.padEnd(16)} ${row.scenario.padEnd(40)} ${cell(row.judged)}${row.scored && row.reason ? `  [${row.reason}]` : ''}${row.scored ? '' : '  (not scored)'}`,
      );
      summary.push(
        `| ${row.scenario} | ${row.scored ? 'yes' : 'no'} | ${cell(row.judged)} | ${row.verdict} | ${note} |`,
      );
    }
    summary.push('');
    const flaky = rows.filter((r) => r.verdict === 'pass (retry)').map((r) => r.scenario);
    if (flaky.length > 0)
      console.log(
        `\n  Passed only when run again on their own (flaky in the parallel run; see ${revision}.log): ${flaky.join(', ')}`,
      );
    if (problems.length > 0) {
      console.log(`\n  Problems at ${revision}:`);
      for (const problem of problems) console.log(`  - ${problem}`);
    }
  }
  writeFileSync(join(resultsDir, 'summary.md'), `${summary.join('\n')}\n`);
  console.log(
    `\nconformance gate: ${ok ? 'PASSED' : 'FAILED'} (table: ${relative(process.cwd(), join(resultsDir, 'summary.md'))})`,
  );
  return ok;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  let resultsDir = join(here, 'results');
  const revisions = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--results') resultsDir = args[++i];
    else if (REVISIONS.includes(args[i])) revisions.push(args[i]);
    else {
      console.error(`usage: node conformance/gate.mjs [--results <dir>] [${REVISIONS.join('|')}...]`);
      process.exit(2);
    }
  }
  process.exitCode = gate(revisions.length > 0 ? revisions : REVISIONS, resultsDir) ? 0 : 1;
}
