/**
 * The import rules of `npm run lint` (`.dependency-cruiser.cjs`) catch what they promise: the
 * project's own config is run by dependency-cruiser on small source trees written for each case,
 * so a rule that stops matching (a renamed folder, a floor list edited by mistake) fails here,
 * not in review. docs/design.md, "Layout".
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const CLI = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
/** dependency-cruiser starts in seconds on a loaded machine. */
const TIMEOUT_MS = 60_000;

let scratch: string | undefined;
afterEach(() => {
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
});

/** Runs the project's rules over `files` (path → source) and returns the rule names that failed. */
async function violations(files: Record<string, string>): Promise<string[]> {
  scratch = mkdtempSync(join(tmpdir(), 'mcp-live-floors-'));
  copyFileSync(join(ROOT, '.dependency-cruiser.cjs'), join(scratch, '.dependency-cruiser.cjs'));
  writeFileSync(
    join(scratch, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', strict: true } }),
  );
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(scratch, path)), { recursive: true });
    writeFileSync(join(scratch, path), source);
  }
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [CLI, 'src', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'],
    { cwd: scratch },
  ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  const report = JSON.parse(stdout) as {
    summary: { violations: { rule: { name: string }; from: string; to: string }[] };
  };
  return report.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`);
}

describe('floors inside host/ (issue 43)', () => {
  it(
    'a host folder importing a higher host folder fails lint (catalog/ → servers/)',
    async () => {
      expect(
        await violations({
          'src/host/catalog/catalog.ts':
            "import type { Slot } from '../servers/slot.js';\nexport type Catalog = Slot[];\n",
          'src/host/servers/slot.ts': 'export interface Slot { name: string }\n',
        }),
      ).toEqual(['host floors: catalog: src/host/catalog/catalog.ts -> src/host/servers/slot.ts']);
    },
    TIMEOUT_MS,
  );

  it(
    'a type-only back-arrow counts too, and so does one between folders of one floor (skills/ ↔ userInput/)',
    async () => {
      expect(
        await violations({
          'src/host/skills/a.ts': "import type { B } from '../userInput/b.js';\nexport type A = B;\n",
          'src/host/userInput/b.ts': 'export type B = string;\n',
          'src/host/policy/gate.ts': "import type { Options } from '../hostOptions.js';\nexport type Gate = Options;\n",
          'src/host/hostOptions.ts': 'export interface Options { approve?: boolean }\n',
        }),
      ).toEqual([
        'host floors: policy: src/host/policy/gate.ts -> src/host/hostOptions.ts',
        'host floors: skills: src/host/skills/a.ts -> src/host/userInput/b.ts',
      ]);
    },
    TIMEOUT_MS,
  );

  it(
    'imports down the host floors pass, and a new host folder without a floor fails',
    async () => {
      expect(
        await violations({
          'src/host/host.ts': "import { slot } from './servers/slot.js';\nexport const host = slot;\n",
          'src/host/servers/slot.ts':
            "import { catalog } from '../catalog/catalog.js';\nexport const slot = catalog;\n",
          'src/host/catalog/catalog.ts': 'export const catalog = 1;\n',
        }),
      ).toEqual([]);
      expect(
        await violations({
          'src/host/extras/x.ts': "import { catalog } from '../catalog/catalog.js';\nexport const x = catalog;\n",
          'src/host/catalog/catalog.ts': 'export const catalog = 1;\n',
        }),
      ).toEqual(['host floors: unknown folder: src/host/extras/x.ts -> src/host/catalog/catalog.ts']);
    },
    TIMEOUT_MS,
  );

  it(
    'the src/ floors still hold: client/ importing host/ fails',
    async () => {
      expect(
        await violations({
          'src/client/client.ts': "import { host } from '../host/host.js';\nexport const client = host;\n",
          'src/host/host.ts': 'export const host = 1;\n',
        }),
      ).toEqual(['floors: client: src/client/client.ts -> src/host/host.ts']);
    },
    TIMEOUT_MS,
  );
});
