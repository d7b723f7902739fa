/**
 * The packed tarball on Deno and Bun (the npm packages `deno` and `bun`, devDependencies that
 * ship the runtimes' binaries): test/runtimes/smoke.mjs over stdio and over Streamable HTTP
 * against the example server, with the package installed from the tarball the way a consumer
 * gets it. Node runs the same script, as the reference.
 */
import { execFile } from 'node:child_process';
import { copyFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpServerProcess } from '../../examples/httpServerProcess.js';
import { EXAMPLE_SERVER, startExampleHttpServer } from '../integration/exampleServer.js';
import { BUILD_TIMEOUT_MS, packTarball, type PackedPackage } from '../package/packedTarball.js';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const bin = (name: string): string => join(dirname(require.resolve(`${name}/package.json`)), '..', '.bin', name);

/** How each runtime runs a script that reads npm packages from node_modules. */
const RUNTIMES = {
  node: (script: string) => [process.execPath, [script]] as const,
  deno: (script: string) => [bin('deno'), ['run', '--allow-all', '--quiet', script]] as const,
  bun: (script: string) => [bin('bun'), ['run', script]] as const,
};

let pkg: PackedPackage;
let http: HttpServerProcess | undefined;
let script: string;
beforeAll(async () => {
  [pkg, http] = await Promise.all([packTarball(), startExampleHttpServer()]);
  script = join(pkg.scratch, 'smoke.mjs');
  await copyFile(fileURLToPath(new URL('./smoke.mjs', import.meta.url)), script);
}, BUILD_TIMEOUT_MS);
afterAll(async () => {
  await http?.stop();
  await pkg?.remove();
});

const EXPECTED = {
  era: 'modern',
  tools: true,
  add: true,
  readme: '# mcp-live example server',
  sum: { sum: 42 },
  // The bundled build (the `node` export condition), not dist/modules/, the per-file tree for bundlers.
  builds: ['dist/index.js', 'dist/node.js'],
};

describe.each(Object.keys(RUNTIMES) as (keyof typeof RUNTIMES)[])('the packed package on %s', (runtime) => {
  async function smoke(...args: string[]): Promise<unknown> {
    const [file, runtimeArgs] = RUNTIMES[runtime](script);
    const { stdout } = await run(file, [...runtimeArgs, ...args], {
      cwd: pkg.scratch,
      timeout: 60_000,
      env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' },
    });
    return JSON.parse(stdout.trim().split('\n').at(-1)!);
  }

  it('stdio: a server child process', async () => {
    expect(await smoke('stdio', process.execPath, EXAMPLE_SERVER)).toEqual(EXPECTED);
  }, 90_000);

  it('Streamable HTTP on fetch', async () => {
    expect(await smoke('http', http!.url)).toEqual(EXPECTED);
  }, 90_000);
});
