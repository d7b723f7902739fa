/**
 * Every TypeScript sample in README.md and docs/*.md compiles. Each ```ts (or ```typescript)
 * block becomes one module in a scratch folder, where `mcp-live`, `mcp-live/node`, `mcp-live/host`,
 * `mcp-live/host/node`, `mcp-live/redis` and `mcp-live/apps-bridge` resolve to src/index.ts, src/node.ts, src/host.ts, src/hostNode.ts,
 * src/redis.ts and src/appsBridge.ts, and all of them are type-checked in one strict program with
 * the repository's compiler options. A failure names the doc file and line.
 *
 * Rules for the docs:
 * - A block is a whole module: its own imports, no names borrowed from an earlier block.
 *   Top-level `await` is fine (the modules are ESM).
 * - Every fence names its language. Only `ts`/`typescript` blocks are checked; shell, JSON and
 *   wire examples use `sh`, `json` or `text`.
 * - `ts ignore-sample` opts a block out; use it only for code that cannot compile by design,
 *   and say why next to it.
 * - `ts run` also runs the block (imports pointed at src/), after the type check: for samples
 *   that finish in a second or two against the example server. Its `console.log` is silenced.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it, vi } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface Sample {
  /** Repository-relative path of the doc. */
  doc: string;
  /** 1-based line of the first code line (the one after the opening fence). */
  line: number;
  lang: string;
  skip: boolean;
  run: boolean;
  code: string;
}

export interface Fence {
  doc: string;
  line: number;
  info: string;
}

/** Fenced blocks of a Markdown file (``` and ~~~ fences, CommonMark closing rules). */
export function fencedBlocks(doc: string, text: string): { samples: Sample[]; fences: Fence[] } {
  const lines = text.split('\n');
  const samples: Sample[] = [];
  const fences: Fence[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^ {0,3}(`{3,}|~{3,})\s*(.*)$/.exec(lines[i] ?? '');
    if (open === null) continue;
    const marker = open[1] ?? '```';
    const info = (open[2] ?? '').trim();
    fences.push({ doc, line: i + 1, info });
    const body: string[] = [];
    let j = i + 1;
    const close = new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}\\s*$`);
    while (j < lines.length && !close.test(lines[j] ?? '')) body.push(lines[j++] ?? '');
    const [lang = '', ...attrs] = info.split(/\s+/);
    if (lang === 'ts' || lang === 'typescript') {
      samples.push({
        doc,
        line: i + 2,
        lang,
        skip: attrs.includes('ignore-sample'),
        run: attrs.includes('run'),
        code: body.join('\n'),
      });
    }
    i = j;
  }
  return { samples, fences };
}

function docFiles(): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs];
}

const all = docFiles().map((doc) => fencedBlocks(doc, readFileSync(join(root, doc), 'utf8')));
const samples = all.flatMap((b) => b.samples);
const fences = all.flatMap((b) => b.fences);

let scratch: string | undefined;
afterAll(() => {
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
});

describe('code samples in README.md and docs/', () => {
  it('finds the samples', () => {
    expect(samples.length).toBeGreaterThan(10);
    expect(samples.map((s) => s.doc)).toEqual(
      expect.arrayContaining(['README.md', 'docs/getting-started.md', 'docs/errors.md']),
    );
  });

  it('names a language on every fence', () => {
    const bare = fences.filter((f) => f.info === '').map((f) => `${f.doc}:${f.line}`);
    expect(bare, 'label these fences (ts, sh, json, text...)').toEqual([]);
  });

  it('type-checks every ts block as a strict ES module', () => {
    // Inside the repository so that packages the samples import (zod, the official SDK...)
    // resolve from node_modules like they would for a reader; build/ is ignored by git.
    mkdirSync(join(root, 'build'), { recursive: true });
    scratch = mkdtempSync(join(root, 'build', 'doc-samples-'));
    writeFileSync(join(scratch, 'package.json'), JSON.stringify({ type: 'module' }));
    const byFile = new Map<string, Sample>();
    for (const sample of samples.filter((s) => !s.skip)) {
      const name = `${sample.doc.replace(/[^A-Za-z0-9]+/g, '_')}_L${sample.line}.ts`;
      const file = join(scratch, name);
      // `export {}` keeps a block without imports a module (no clashes between blocks).
      writeFileSync(file, `${sample.code}\nexport {};\n`);
      byFile.set(file, sample);
    }

    const config = ts.readConfigFile(join(root, 'tsconfig.json'), (p) => ts.sys.readFile(p));
    const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
    const options: ts.CompilerOptions = {
      ...parsed.options,
      noEmit: true,
      declaration: false,
      sourceMap: false,
      noUnusedLocals: false,
      baseUrl: root,
      paths: {
        'mcp-live': ['src/index.ts'],
        'mcp-live/node': ['src/node.ts'],
        'mcp-live/host': ['src/host.ts'],
        'mcp-live/host/node': ['src/hostNode.ts'],
        'mcp-live/redis': ['src/redis.ts'],
        'mcp-live/apps-bridge': ['src/appsBridge.ts'],
        'mcp-live/ai-sdk': ['src/aiSdk.ts'],
        'mcp-live/langchain': ['src/langchain.ts'],
        'mcp-live/telemetry': ['src/telemetry.ts'],
        'mcp-live/devtools': ['src/devtools.ts'],
        'mcp-live/devtools/panel': ['src/devtoolsPanel.ts'],
      },
    };
    const program = ts.createProgram([...byFile.keys()], options);
    // Only the samples' own diagnostics: src/ is `npm run typecheck`'s business.
    const problems = [...byFile.keys()].flatMap((file) => {
      const source = program.getSourceFile(file);
      const sample = byFile.get(file);
      if (source === undefined || sample === undefined) return [`${file}: not in the program`];
      return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map((d) => {
        const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
        const { line, character } = source.getLineAndCharacterOfPosition(d.start ?? 0);
        return `${sample.doc}:${sample.line + line}:${character + 1}: TS${d.code} ${text}`;
      });
    });
    expect(problems, problems.join('\n')).toEqual([]);
  }, 120_000);

  const runnable = samples.filter((s) => s.run && !s.skip);
  it.each(runnable.map((s) => [`${s.doc}:${s.line}`, s] as const))(
    'runs %s',
    async (_, sample) => {
      const dir = mkdtempSync(join(root, 'build', 'doc-run-'));
      try {
        const code = sample.code
          .replace(/from 'mcp-live'/g, `from ${JSON.stringify(join(root, 'src', 'index.ts'))}`)
          .replace(/from 'mcp-live\/node'/g, `from ${JSON.stringify(join(root, 'src', 'node.ts'))}`)
          .replace(/from 'mcp-live\/host'/g, `from ${JSON.stringify(join(root, 'src', 'host.ts'))}`)
          .replace(/from 'mcp-live\/host\/node'/g, `from ${JSON.stringify(join(root, 'src', 'hostNode.ts'))}`)
          .replace(/from 'mcp-live\/redis'/g, `from ${JSON.stringify(join(root, 'src', 'redis.ts'))}`)
          .replace(/from 'mcp-live\/apps-bridge'/g, `from ${JSON.stringify(join(root, 'src', 'appsBridge.ts'))}`)
          .replace(/from 'mcp-live\/ai-sdk'/g, `from ${JSON.stringify(join(root, 'src', 'aiSdk.ts'))}`)
          .replace(/from 'mcp-live\/langchain'/g, `from ${JSON.stringify(join(root, 'src', 'langchain.ts'))}`)
          .replace(/from 'mcp-live\/telemetry'/g, `from ${JSON.stringify(join(root, 'src', 'telemetry.ts'))}`)
          .replace(/from 'mcp-live\/devtools'/g, `from ${JSON.stringify(join(root, 'src', 'devtools.ts'))}`)
          .replace(
            /from 'mcp-live\/devtools\/panel'/g,
            `from ${JSON.stringify(join(root, 'src', 'devtoolsPanel.ts'))}`,
          );
        const file = join(dir, 'sample.ts');
        writeFileSync(file, `${code}\nexport {};\n`);
        const log = vi.spyOn(console, 'log').mockImplementation(() => {});
        try {
          await import(pathToFileURL(file).href);
        } finally {
          log.mockRestore();
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    20_000,
  );
});
