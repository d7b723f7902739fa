#!/usr/bin/env node
// The package.json that `npm pack` and `npm publish` put in the tarball: this one without its
// `scripts`. Run as `prepack` (`strip`, after the build) and `postpack` (`restore`).
//
// Why: npm 11 counts a non-registry dependency's `prepare` (a tarball's too) among the install
// scripts that `allowScripts` must cover, so a tarball whose manifest keeps
// `"prepare": "node bench/ensure-build.mjs"` fails `npm install --strict-allow-scripts` with
// ESTRICTALLOWSCRIPTS and warns on every other install, though npm never runs it there (it runs a
// dependency's `prepare` only for git and linked-folder installs) and bench/ is not in the
// tarball. None of the scripts means anything to a consumer: each is for working on this
// repository. A git install packs the clone without prepack (pacote), so it keeps `prepare`,
// which builds dist/ there.
//
// `strip` keeps the original beside the lock of ensure-build.mjs (node_modules/.cache) and
// `restore` puts it back. Both write through a rename, so a concurrent reader (another
// `npm pack --ignore-scripts`) never sees half a file. If a pack dies between the two,
// `node bench/pack-manifest.mjs restore` puts package.json back.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const manifest = join(root, 'package.json');
const backup = join(root, 'node_modules', '.cache', 'pack-manifest', 'package.json');

const writeAtomically = (path, text) => {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, path);
};

const action = process.argv[2];
if (action === 'strip') {
  const text = readFileSync(manifest, 'utf8');
  const { scripts, ...packed } = JSON.parse(text);
  if (scripts !== undefined) {
    mkdirSync(dirname(backup), { recursive: true });
    writeAtomically(backup, text);
    writeAtomically(manifest, `${JSON.stringify(packed, null, 2)}\n`);
  }
} else if (action === 'restore') {
  if (existsSync(backup)) {
    writeAtomically(manifest, readFileSync(backup, 'utf8'));
    rmSync(backup);
  }
} else {
  console.error('usage: node bench/pack-manifest.mjs strip|restore');
  process.exit(2);
}
