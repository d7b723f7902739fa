#!/usr/bin/env node
// Summarizes a .cpuprofile (node --cpu-prof): self time per function, and total (inclusive)
// time per function, top N of each.
//
//   node bench/cpuprofile-top.mjs <file.cpuprofile> [N=25] [filter]
import { readFileSync } from 'node:fs';

const [file, n = '25', filter] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const self = new Map();
const deltas = profile.timeDeltas;
for (let i = 0; i < profile.samples.length; i++)
  self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (deltas[i] ?? 0));
const label = (node) => {
  const f = node.callFrame;
  const where =
    f.url === '' ? '' : ` ${f.url.replace(/^.*\/(dist|node_modules|bench|results)\//, '$1/')}:${f.lineNumber + 1}`;
  return `${f.functionName || '(anonymous)'}${where}`;
};
const total = [...self.values()].reduce((a, b) => a + b, 0);
const selfBy = new Map();
const inclBy = new Map();
for (const [id, us] of self) {
  const node = byId.get(id);
  selfBy.set(label(node), (selfBy.get(label(node)) ?? 0) + us);
  const seen = new Set();
  for (let at = id; at !== undefined; at = parent.get(at)) {
    const l = label(byId.get(at));
    if (seen.has(l)) continue;
    seen.add(l);
    inclBy.set(l, (inclBy.get(l) ?? 0) + us);
  }
}
const show = (title, map) => {
  console.log(`\n${title} (of ${(total / 1000).toFixed(0)} ms sampled)`);
  const rows = [...map]
    .filter(([l]) => filter === undefined || l.includes(filter))
    .sort((a, b) => b[1] - a[1])
    .slice(0, Number(n));
  for (const [l, us] of rows)
    console.log(`${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${l}`);
};
show('self time', selfBy);
show('inclusive time', inclBy);
