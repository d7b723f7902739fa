/**
 * The API report (api/*.api.md, written by API Extractor from dist/*.d.ts) matches the public
 * surface: a change to the public API is a visible diff in review. When this fails, look at the
 * diff it names, then run `npm run api:report` and commit api/ (docs/README.md, "API report").
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { BUILD_TIMEOUT_MS, ROOT } from './packedTarball.js';

const run = promisify(execFile);

it(
  'api/*.api.md is what API Extractor reports for the built entry points',
  async () => {
    await run(process.execPath, [join(ROOT, 'bench/ensure-build.mjs')], { cwd: ROOT });
    const result = await run(process.execPath, [join(ROOT, 'bench/api-report.mjs'), '--check'], { cwd: ROOT }).catch(
      (error: { code?: number; stderr?: string }) => error,
    );
    expect('code' in result ? result.stderr : '').toBe('');
  },
  BUILD_TIMEOUT_MS,
);
