/**
 * The package as users get it, for the tests in test/package/ that run or compile against it:
 * dist/ (re)built when stale (bench/ensure-build.mjs), `npm pack --ignore-scripts`, and the
 * tarball unpacked to node_modules/mcp-live in a scratch folder under this project's
 * node_modules/.cache (so its own dependencies resolve from this project's node_modules).
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const run = promisify(execFile);
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
/** A `dist/` build takes about 25 s on two idle cores; leave room for a busy machine. */
export const BUILD_TIMEOUT_MS = 300_000;

export interface PackedPackage {
  /** The scratch folder: a consumer project. */
  scratch: string;
  /** Absolute path of the .tgz. */
  tarball: string;
  /** The unpacked package: `<scratch>/node_modules/mcp-live`. */
  dir: string;
  /** Removes the scratch folder. */
  remove(): Promise<void>;
}

export async function packTarball(): Promise<PackedPackage> {
  await run(process.execPath, [join(ROOT, 'bench/ensure-build.mjs')], { cwd: ROOT });
  const cache = join(ROOT, 'node_modules', '.cache');
  await mkdir(cache, { recursive: true });
  const scratch = await mkdtemp(join(cache, 'mcp-live-pack-'));
  // --ignore-scripts: the tarball of what is built now (prepare would only rebuild a stale dist/).
  const { stdout } = await run(NPM, ['pack', '--json', '--ignore-scripts', '--pack-destination', scratch], {
    cwd: ROOT,
    shell: process.platform === 'win32',
  });
  const { filename } = (JSON.parse(stdout) as { filename: string }[])[0]!;
  // Its own package.json: without one, `mcp-live` would resolve from here to this project
  // itself (a package may import itself by name), not to the unpacked tarball.
  await writeFile(join(scratch, 'package.json'), '{ "name": "consumer", "private": true, "type": "module" }\n');
  const dir = join(scratch, 'node_modules', 'mcp-live');
  await mkdir(dir, { recursive: true });
  await run('tar', ['-xzf', filename, '-C', relative(scratch, dir), '--strip-components=1'], { cwd: scratch });
  return {
    scratch,
    tarball: join(scratch, filename),
    dir,
    remove: () => rm(scratch, { recursive: true, force: true }),
  };
}
