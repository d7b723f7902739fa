/**
 * What `npm publish` ships, checked on the built dist/ and on one `npm pack` tarball that every
 * test here shares:
 *
 * - publint --strict (its programmatic API, on the tarball): no message at any level;
 * - attw (the @arethetypeswrong/cli on the tarball): no problem, and each entry point's types
 *   resolve to the declaration file that matches its JavaScript under node10, node16 (from CJS
 *   and from ESM) and bundler resolution (which, having no `node` condition, finds the per-file
 *   tree dist/modules/);
 * - the tarball holds exactly the entries, their shared chunks, the per-file tree (every module
 *   of it reached from an entry), README.md, LICENSE and package.json, within a size bound;
 * - the built root entry, bundled and per-file, reaches no Node built-in and no Node-only
 *   package (test/package/rootEntry.test.ts checks the same on src/), while `mcp-live/node`
 *   provides the stdio and `ws` transports;
 * - the ESM and CJS entries load in a plain Node process through the package's `exports`, and
 *   the per-file tree's entries load and export the same names with one copy of shared code;
 * - the packed package.json has no lifecycle script that names a file outside the tarball (it
 *   has no `scripts` at all: bench/pack-manifest.mjs), so `npm install --strict-allow-scripts`
 *   of the tarball succeeds with no `allowScripts` entry (offline, from npm's cache, with a
 *   lock made from this project's: ./consumerLock.ts).
 *
 * dist/ is (re)built first when it is missing or older than src/ (bench/ensure-build.mjs; under
 * `npm test` the pretest script has already done it, so that is a no-op). After that nothing is
 * read from dist/: the tests read the tarball, unpacked the way an install would place it
 * (node_modules/mcp-live in a scratch folder under this project's node_modules/.cache, so its
 * own dependencies resolve from this project's node_modules). That is what users get, and a
 * rebuild of dist/ while the tests run cannot change it.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { dirname, join, posix, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { publint } from 'publint';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consumerLock, type PackageLock, type PackedManifest } from './consumerLock.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const run = promisify(execFile);
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
/** A `dist/` build takes about 25 s on two idle cores; leave room for a busy machine. */
const BUILD_TIMEOUT_MS = 300_000;

/**
 * Upper bounds for the tarball, in bytes, with headroom over the 0.1.0 build (about 327 kB
 * packed, 1.27 MB unpacked) and what came after: the Redis store (435 kB, 1.67 MB), then
 * resource templates, completion and links (473 kB, 1.80 MB: each module ships as ESM, CJS and
 * two declaration files), then the Tasks extension (512 kB, 1.95 MB), then McpHost with its
 * model converters and `--config` (576 kB, 2.19 MB), then the OAuth grants without a browser,
 * DPoP and issue 14's fault fixes (633 kB, 2.40 MB), then reconnecting (issue 18), the Redis
 * task store and the CLI's task commands (662 kB, 2.53 MB), then MCP Apps with the
 * apps-bridge entry, Skills with yaml, and the schema normalisers (797 kB), then the context budget and the
 * conventions' metrics (830 kB, 3.11 MB). The source maps alone would add
 * 1.8 MB unpacked.
 */
const MAX_PACKED_BYTES = 1_700_000; // measured 1,603.0 kB with mcp-live/devtools (issue 48); 1,554.6 kB with the telemetry entry and the fleet's records (issues 43, 47); 1,517.6 kB with the Triggers & Events code (issue 46); 1,447.5 kB with the AI SDK and LangChain entries (issue 45) and user scopes with the host state store (issue 47); 1,351.0 kB after issues 41–44 (1,261.2 kB before; 989.6 kB without dist/modules/)
const MAX_UNPACKED_BYTES = 6_400_000; // measured 5.99 MB with mcp-live/devtools (issue 48); 5.83 MB with the telemetry entry and the fleet's records (issues 43, 47); 5.71 MB with the Triggers & Events code (issue 46); 5.43 MB with issues 45 and 47; 5.21 MB after issues 41–44 (4.83 MB before; 3.71 MB without dist/modules/)

const ENTRIES = [
  'index',
  'node',
  'host',
  'hostNode',
  'redis',
  'appsBridge',
  'aiSdk',
  'langchain',
  'telemetry',
  'devtools',
  'devtoolsPanel',
];
/** The bundled build's entries (Node, Deno, Bun; CJS) and their declarations. */
const ENTRY_FILES = ENTRIES.flatMap((entry) => ['.js', '.cjs', '.d.ts', '.d.cts'].map((ext) => `dist/${entry}${ext}`));
/** The per-file tree's entries (bundlers: the `import` condition without `node`). */
const MODULE_ENTRY_FILES = ENTRIES.map((entry) => `dist/modules/${entry}.js`);
const FIXED_FILES = [
  ...ENTRY_FILES,
  ...MODULE_ENTRY_FILES,
  'dist/cli.js',
  'LICENSE',
  'README.md',
  'package.json',
].sort();
/**
 * Shared chunks: esbuild's code chunks (ESM and CJS), the modules the client loads on first use
 * (`import()`, named after the module), and rollup-plugin-dts's declaration chunks; and the
 * per-file tree's modules, one per source file, in src/'s folders.
 */
const CHUNK_FILE = [
  /^dist\/chunk-[A-Z0-9]+\.c?js$/,
  // A part loaded on first use keeps its `.lazy` in the chunk's name (docs/design.md, "Features on demand").
  /^dist\/[a-z][A-Za-z0-9]*(\.lazy)?-[A-Z0-9]{8}\.c?js$/,
  /^dist\/[A-Za-z0-9]+(\.lazy)?-[A-Za-z0-9_-]{8}\.d\.c?ts$/,
  /^dist\/modules\/([a-z][A-Za-z0-9]*\/)*[a-z][A-Za-z0-9]*(\.lazy)?\.js$/,
];

/** `npm pack --json`: one element per package. */
interface PackResult {
  filename: string;
  size: number;
  unpackedSize: number;
  files: { path: string; size: number }[];
}

/** The parts of `attw --format json` this file reads (@arethetypeswrong/core's CheckResult). */
interface AttwReport {
  analysis: {
    types: { kind: string } | false;
    problems: unknown[];
    entrypoints: Record<
      string,
      {
        resolutions: Record<
          string,
          { resolution?: { fileName: string }; implementationResolution?: { fileName: string } }
        >;
      }
    >;
  };
}

/** A directory that plays a consumer project: the tarball, and node_modules/mcp-live unpacked from it. */
let scratch: string;
/** The unpacked package. */
let PKG: string;
let pack: PackResult;
let tarball: ArrayBuffer;

beforeAll(async () => {
  await run(process.execPath, [join(ROOT, 'bench/ensure-build.mjs')], { cwd: ROOT });
  const cache = join(ROOT, 'node_modules', '.cache');
  await mkdir(cache, { recursive: true });
  scratch = await mkdtemp(join(cache, 'mcp-live-pack-'));
  // With its scripts, as a user packs it: prepack finds dist/ built (just above) and writes the
  // packed package.json; postpack puts the repository's back.
  const { stdout } = await run(NPM, ['pack', '--json', '--pack-destination', scratch], {
    cwd: ROOT,
    shell: process.platform === 'win32',
  });
  pack = (JSON.parse(stdout) as PackResult[])[0]!;
  tarball = Uint8Array.from(await readFile(join(scratch, pack.filename))).buffer;
  PKG = join(scratch, 'node_modules', 'mcp-live');
  await mkdir(PKG, { recursive: true });
  // npm tarballs hold one folder, package/.
  await run('tar', ['-xzf', pack.filename, '-C', relative(scratch, PKG), '--strip-components=1'], { cwd: scratch });
}, BUILD_TIMEOUT_MS);

afterAll(async () => {
  if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
});

describe('package.json and the tarball, linted', () => {
  it('publint --strict reports nothing', async () => {
    const { messages } = await publint({ pack: { tarball }, strict: true, level: 'suggestion' });
    expect(messages).toEqual([]);
  });

  it('attw finds no problem, and every entry point types its own JavaScript in every resolution mode', async () => {
    const cli = join(ROOT, 'node_modules/@arethetypeswrong/cli/dist/index.js');
    // attw exits 1 when it finds problems; the report is on stdout either way. cwd: the project,
    // so an .attw.json there applies here as it does to `npm run lint:package`.
    const { stdout } = await run(process.execPath, [cli, join(scratch, pack.filename), '--format', 'json'], {
      cwd: ROOT,
      maxBuffer: 64 * 1024 * 1024,
    }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    const { analysis } = JSON.parse(stdout) as AttwReport;
    expect(analysis.types).toEqual({ kind: 'included' });
    expect(analysis.problems).toEqual([]);

    const at = (path: string | undefined) => path?.replace('/node_modules/mcp-live/', '');
    const table = Object.fromEntries(
      Object.entries(analysis.entrypoints).map(([name, entry]) => [
        name,
        Object.fromEntries(
          Object.entries(entry.resolutions).map(([mode, r]) => [
            mode,
            [at(r.resolution?.fileName), at(r.implementationResolution?.fileName)],
          ]),
        ),
      ]),
    );
    const json = ['package.json', 'package.json'];
    // node16 resolves with the `node` condition (the bundled build); bundler resolution without it
    // (the per-file tree, typed by the same declarations).
    expect(table).toEqual({
      '.': {
        node10: ['dist/index.d.cts', 'dist/index.cjs'],
        'node16-cjs': ['dist/index.d.cts', 'dist/index.cjs'],
        'node16-esm': ['dist/index.d.ts', 'dist/index.js'],
        bundler: ['dist/index.d.ts', 'dist/modules/index.js'],
      },
      './node': {
        // node10 knows no `exports`: package.json `typesVersions` gives TypeScript the types. No
        // runtime resolves that way (`mcp-live/node` is for Node, and Node >= 20 reads `exports`),
        // so attw finds no JavaScript and reports the declaration file as the implementation.
        node10: ['dist/node.d.cts', 'dist/node.d.cts'],
        'node16-cjs': ['dist/node.d.cts', 'dist/node.cjs'],
        'node16-esm': ['dist/node.d.ts', 'dist/node.js'],
        bundler: ['dist/node.d.ts', 'dist/modules/node.js'],
      },
      './host': {
        // Like ./node: typesVersions for node10, which no runtime of this entry uses.
        node10: ['dist/host.d.cts', 'dist/host.d.cts'],
        'node16-cjs': ['dist/host.d.cts', 'dist/host.cjs'],
        'node16-esm': ['dist/host.d.ts', 'dist/host.js'],
        bundler: ['dist/host.d.ts', 'dist/modules/host.js'],
      },
      './host/node': {
        // Like ./node: typesVersions for node10, which no runtime of this entry uses.
        node10: ['dist/hostNode.d.cts', 'dist/hostNode.d.cts'],
        'node16-cjs': ['dist/hostNode.d.cts', 'dist/hostNode.cjs'],
        'node16-esm': ['dist/hostNode.d.ts', 'dist/hostNode.js'],
        bundler: ['dist/hostNode.d.ts', 'dist/modules/hostNode.js'],
      },
      './redis': {
        // Like ./node: typesVersions for node10, which no runtime of this entry uses.
        node10: ['dist/redis.d.cts', 'dist/redis.d.cts'],
        'node16-cjs': ['dist/redis.d.cts', 'dist/redis.cjs'],
        'node16-esm': ['dist/redis.d.ts', 'dist/redis.js'],
        bundler: ['dist/redis.d.ts', 'dist/modules/redis.js'],
      },
      './apps-bridge': {
        // Like ./node: typesVersions for node10, which no runtime of this entry uses.
        node10: ['dist/appsBridge.d.cts', 'dist/appsBridge.d.cts'],
        'node16-cjs': ['dist/appsBridge.d.cts', 'dist/appsBridge.cjs'],
        'node16-esm': ['dist/appsBridge.d.ts', 'dist/appsBridge.js'],
        bundler: ['dist/appsBridge.d.ts', 'dist/modules/appsBridge.js'],
      },
      './ai-sdk': {
        // Like ./node: typesVersions for node10, which no runtime of this entry uses.
        node10: ['dist/aiSdk.d.cts', 'dist/aiSdk.d.cts'],
        'node16-cjs': ['dist/aiSdk.d.cts', 'dist/aiSdk.cjs'],
        'node16-esm': ['dist/aiSdk.d.ts', 'dist/aiSdk.js'],
        bundler: ['dist/aiSdk.d.ts', 'dist/modules/aiSdk.js'],
      },
      './langchain': {
        // Like ./node: typesVersions for node10, which no runtime of this entry uses.
        node10: ['dist/langchain.d.cts', 'dist/langchain.d.cts'],
        'node16-cjs': ['dist/langchain.d.cts', 'dist/langchain.cjs'],
        'node16-esm': ['dist/langchain.d.ts', 'dist/langchain.js'],
        bundler: ['dist/langchain.d.ts', 'dist/modules/langchain.js'],
      },
      './telemetry': {
        // Like ./node: typesVersions for node10, which no runtime of this entry uses.
        node10: ['dist/telemetry.d.cts', 'dist/telemetry.d.cts'],
        'node16-cjs': ['dist/telemetry.d.cts', 'dist/telemetry.cjs'],
        'node16-esm': ['dist/telemetry.d.ts', 'dist/telemetry.js'],
        bundler: ['dist/telemetry.d.ts', 'dist/modules/telemetry.js'],
      },
      './devtools': {
        // Like ./node: typesVersions for node10, which no runtime of this entry uses.
        node10: ['dist/devtools.d.cts', 'dist/devtools.d.cts'],
        'node16-cjs': ['dist/devtools.d.cts', 'dist/devtools.cjs'],
        'node16-esm': ['dist/devtools.d.ts', 'dist/devtools.js'],
        bundler: ['dist/devtools.d.ts', 'dist/modules/devtools.js'],
      },
      './devtools/panel': {
        node10: ['dist/devtoolsPanel.d.cts', 'dist/devtoolsPanel.d.cts'],
        'node16-cjs': ['dist/devtoolsPanel.d.cts', 'dist/devtoolsPanel.cjs'],
        'node16-esm': ['dist/devtoolsPanel.d.ts', 'dist/devtoolsPanel.js'],
        bundler: ['dist/devtoolsPanel.d.ts', 'dist/modules/devtoolsPanel.js'],
      },
      './package.json': { node10: json, 'node16-cjs': json, 'node16-esm': json, bundler: json },
    });
  }, 60_000);
});

describe('tarball contents', () => {
  it('holds exactly the entries, their chunks, the per-file tree, README.md, LICENSE and package.json', () => {
    const files = pack.files.map((file) => file.path).sort();
    expect(
      files.filter((path) => /\.map$|^(src|test|bench|examples|build|conformance|docs|node_modules)\//.test(path)),
    ).toEqual([]);
    expect(files.filter((path) => FIXED_FILES.includes(path))).toEqual(FIXED_FILES);
    const chunks = files.filter((path) => !FIXED_FILES.includes(path));
    expect(chunks.filter((path) => !CHUNK_FILE.some((pattern) => pattern.test(path)))).toEqual([]);
    // Every chunk is reached from an entry (none is left over from an older build): declaration
    // chunks by an entry's declarations, code chunks and the per-file tree's modules through the
    // entry's imports and `import()`s.
    const imported = new Set(
      [...ENTRY_FILES, ...MODULE_ENTRY_FILES].flatMap((entry) =>
        /\.d\.c?ts$/.test(entry)
          ? importsOf(join(PKG, entry))
              .filter((spec) => spec.startsWith('.'))
              .map((spec) => declarationOrSelf(posix.join('dist', spec), entry))
          : [...importGraph(join(PKG, entry)).keys()].map((file) => relative(PKG, file).split('\\').join('/')),
      ),
    );
    expect(chunks.filter((chunk) => !imported.has(chunk))).toEqual([]);
  });

  it(`stays under ${MAX_PACKED_BYTES} bytes packed and ${MAX_UNPACKED_BYTES} unpacked`, () => {
    expect(pack.size).toBeGreaterThan(0);
    expect(pack.size).toBeLessThanOrEqual(MAX_PACKED_BYTES);
    expect(pack.unpackedSize).toBeLessThanOrEqual(MAX_UNPACKED_BYTES);
  });
});

describe('npm publish --dry-run', () => {
  it('would publish mcp-live at the manifest version with exactly the files npm pack packs', async () => {
    // --ignore-scripts: prepublishOnly would rebuild dist/ (built above); nothing leaves the machine.
    const { stdout } = await run(NPM, ['publish', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: ROOT,
      shell: process.platform === 'win32',
      maxBuffer: 16 * 1024 * 1024,
    });
    const published = (JSON.parse(stdout) as Record<string, PackResult & { name: string; version: string }>)[
      'mcp-live'
    ]!;
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect([published.name, published.version]).toEqual(['mcp-live', manifest.version]);
    expect(published.files.map((file) => file.path).sort()).toEqual(pack.files.map((file) => file.path).sort());
    expect(published.files.map((file) => file.path)).toEqual(expect.arrayContaining(FIXED_FILES));
  }, 120_000);
});

describe('the packed package.json', () => {
  /** npm's lifecycle events (docs/cli/using-npm/scripts.md), with their pre/post forms. */
  const LIFECYCLE = new Set(
    ['install', 'prepare', 'pack', 'publish', 'publishOnly', 'prepublish', 'dependencies']
      .flatMap((event) => [event, `pre${event}`, `post${event}`])
      .concat('prepublishOnly'),
  );
  const packed = () =>
    JSON.parse(readFileSync(join(PKG, 'package.json'), 'utf8')) as PackedManifest & {
      scripts?: Record<string, string>;
    };

  it('has no lifecycle script that names a file outside the tarball', () => {
    const inTarball = new Set(pack.files.map((file) => file.path));
    const outside = Object.entries(packed().scripts ?? {})
      .filter(([event]) => LIFECYCLE.has(event))
      .flatMap(([event, script]) =>
        (script.match(/[\w.@-]*[\w@-]\/[\w./@-]+|[\w.@-]+\.[cm]?js\b/g) ?? [])
          .filter((path) => !inTarball.has(posix.normalize(path)))
          .map((path) => `${event}: ${path}`),
      );
    expect(outside).toEqual([]);
    // None at all: npm 11 lists a tarball dependency's `prepare` among the install scripts that
    // allowScripts must cover, though it never runs it there.
    expect(packed().scripts).toBeUndefined();
  });

  it('installs with npm install --strict-allow-scripts and no allowScripts entry', async (ctx) => {
    const consumer = join(scratch, 'strict-consumer');
    await mkdir(consumer);
    // Offline, from the tarballs this project's install put in npm's cache: a lock made from the
    // project's own (./consumerLock.ts) spares npm the registry's version lists, which `npm ci`
    // never fetches, so an install without one finds them missing (ENOTCACHED) even right after it.
    const spec = `file:../${pack.filename}`;
    const integrity = `sha512-${createHash('sha512').update(new Uint8Array(tarball)).digest('base64')}`;
    const lock = consumerLock(
      JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as PackageLock,
      packed(),
      spec,
      integrity,
    );
    await writeFile(
      join(consumer, 'package.json'),
      `${JSON.stringify({ name: 'consumer', private: true, dependencies: { 'mcp-live': spec } })}\n`,
    );
    await writeFile(join(consumer, 'package-lock.json'), `${JSON.stringify(lock)}\n`);
    const args = ['install', '--offline', '--strict-allow-scripts', '--no-audit', '--no-fund'];
    const result = await run(NPM, args, {
      cwd: consumer,
      shell: process.platform === 'win32',
    }).catch((error: { code?: number; stdout?: string; stderr?: string }) => error);
    if ('code' in result && result.code !== 0) {
      // Only when npm's cache lacks a tarball (a cache cleaned since the install): name it.
      const missing = /request to (\S+) failed: cache mode is 'only-if-cached'/.exec(result.stderr ?? '')?.[1];
      if (missing !== undefined) ctx.skip(`not in npm's cache (offline): ${missing}`);
      expect(result.stderr).toBe('');
    }
    expect(JSON.parse(readFileSync(join(consumer, 'node_modules/mcp-live/package.json'), 'utf8'))).toMatchObject({
      name: 'mcp-live',
    });
    // Every runtime dependency installed, at the version this project's lock holds.
    for (const dependency of Object.keys(packed().dependencies ?? {})) {
      const installed = JSON.parse(
        readFileSync(join(consumer, 'node_modules', dependency, 'package.json'), 'utf8'),
      ) as { version: string };
      expect(installed.version, dependency).toBe(lock.packages[`node_modules/${dependency}`]?.version);
    }
  }, 120_000);
});

describe('built entries', () => {
  const dependencies = () =>
    Object.keys(
      (JSON.parse(readFileSync(join(PKG, 'package.json'), 'utf8')) as { dependencies: Record<string, string> })
        .dependencies,
    );
  const packageOf = (spec: string) =>
    spec
      .split('/')
      .slice(0, spec.startsWith('@') ? 2 : 1)
      .join('/');

  for (const entry of [
    'dist/index.js',
    'dist/index.cjs',
    'dist/modules/index.js',
    'dist/host.js',
    'dist/host.cjs',
    'dist/modules/host.js',
  ]) {
    it(`${entry} reaches no Node built-in and no Node-only package`, () => {
      const graph = importGraph(join(PKG, entry));
      const bare = [...graph.values()].flat();
      expect(bare.length).toBeGreaterThan(0);
      expect(bare.filter(isNodeBuiltin)).toEqual([]);
      // Only runtime dependencies, and not `ws` nor `jsonc-parser` (behind mcp-live/node: the
      // WebSocket on ws, and config files read from disk).
      expect(
        [...new Set(bare.map(packageOf))].filter(
          (name) => name === 'ws' || name === 'jsonc-parser' || !dependencies().includes(name),
        ),
      ).toEqual([]);
      // Every file it reaches is in the tarball.
      const packed = new Set(pack.files.map((file) => file.path));
      expect(
        [...graph.keys()].map((file) => relative(PKG, file).split('\\').join('/')).filter((file) => !packed.has(file)),
      ).toEqual([]);
    });
  }

  it('the CJS build keeps every dependency external, as the ESM build does (no copy without its licence)', () => {
    const reached = (entries: string[]) =>
      [...new Set(entries.flatMap((entry) => [...importGraph(join(PKG, entry)).values()].flat().map(packageOf)))]
        .filter((name) => !isNodeBuiltin(name))
        .sort();
    const esm = reached([
      'dist/index.js',
      'dist/node.js',
      'dist/host.js',
      'dist/hostNode.js',
      'dist/redis.js',
      'dist/appsBridge.js',
      'dist/aiSdk.js',
      'dist/langchain.js',
      'dist/telemetry.js',
      'dist/devtools.js',
      'dist/devtoolsPanel.js',
    ]);
    const cjs = reached([
      'dist/index.cjs',
      'dist/node.cjs',
      'dist/host.cjs',
      'dist/hostNode.cjs',
      'dist/redis.cjs',
      'dist/appsBridge.cjs',
      'dist/aiSdk.cjs',
      'dist/langchain.cjs',
      'dist/telemetry.cjs',
      'dist/devtools.cjs',
      'dist/devtoolsPanel.cjs',
    ]);
    // The three ESM-only dependencies tsup used to bundle into the CJS files are require()d now.
    expect(cjs).toEqual(expect.arrayContaining(['@noble/hashes', 'oauth4webapi', 'p-retry']));
    expect(cjs).toEqual(esm);
    expect(reached(MODULE_ENTRY_FILES)).toEqual(esm);
    // No bundled copy left behind: a constant only oauth4webapi's own code holds is in no built file.
    const bundled = pack.files
      .map((file) => file.path)
      .filter((path) => /\.c?js$/.test(path))
      .filter((path) => readFileSync(join(PKG, path), 'utf8').includes('OAUTH_JWT_USERINFO_EXPECTED'));
    expect(bundled).toEqual([]);
  });

  it('dist/modules/ holds `sideEffects: false` true: no module runs a statement of its own at import', () => {
    // A bundler drops each module of the tree that a program does not use (package.json
    // `sideEffects: false`). That is sound while a module's top level only imports, exports and
    // declares (an initializer computes the variable's own value): no expression statement (a
    // call, an assignment to a global), no class static block.
    expect((JSON.parse(readFileSync(join(PKG, 'package.json'), 'utf8')) as { sideEffects: unknown }).sideEffects).toBe(
      false,
    );
    const modules = pack.files.map((file) => file.path).filter((path) => path.startsWith('dist/modules/'));
    expect(modules.length).toBeGreaterThan(100);
    const statements = modules.flatMap((path) => {
      const source = ts.createSourceFile(path, readFileSync(join(PKG, path), 'utf8'), ts.ScriptTarget.ES2022, true);
      return source.statements
        .filter(
          (statement) =>
            !(
              ts.isImportDeclaration(statement) ||
              ts.isExportDeclaration(statement) ||
              ts.isFunctionDeclaration(statement) ||
              ts.isVariableStatement(statement) ||
              (ts.isClassDeclaration(statement) && !statement.members.some(ts.isClassStaticBlockDeclaration))
            ),
        )
        .map((statement) => `${path}: ${statement.getText(source).slice(0, 80)}`);
    });
    expect(statements).toEqual([]);
  });

  it('the CJS entry loads with a plain require() from an app that installed the tarball', async () => {
    const { stdout, stderr } = await run(
      process.execPath,
      [
        '-e',
        "const m = require('mcp-live'); const h = require('mcp-live/host'); console.log(typeof m.McpClient, typeof h.McpHost)",
      ],
      { cwd: scratch },
    );
    expect(stdout.trim()).toBe('function function');
    expect(stderr).toBe('');
  });

  it('mcp-live/host/node loads jsonc-parser only when loadHostConfig first reads a file (issue 29)', async () => {
    // Node resolves jsonc-parser to CommonJS from ESM and CJS alike, so require.cache shows when it loads.
    const script = (load: string) => `
      const { createRequire } = await import('node:module');
      const { writeFileSync } = await import('node:fs');
      const cache = createRequire(process.cwd() + '/x.js').cache;
      const loaded = () => Object.keys(cache).some((file) => /[\\/]jsonc-parser[\\/]/.test(file));
      const node = ${load};
      const before = loaded();
      writeFileSync('lazy.mcp.json', '{ "servers": {}, }');
      await node.loadHostConfig('lazy.mcp.json');
      console.log(JSON.stringify({ before, after: loaded() }));`;
    const esm = await run(
      process.execPath,
      ['--input-type=module', '-e', script("await import('mcp-live/host/node')")],
      {
        cwd: scratch,
      },
    );
    expect(JSON.parse(esm.stdout)).toEqual({ before: false, after: true });
    const cjs = await run(
      process.execPath,
      ['--input-type=commonjs', '-e', `(async () => {${script("require('mcp-live/host/node')")}})()`],
      {
        cwd: scratch,
      },
    );
    expect(JSON.parse(cjs.stdout)).toEqual({ before: false, after: true });
  });

  for (const entry of ['dist/node.js', 'dist/node.cjs', 'dist/modules/node.js']) {
    it(`${entry} is where child processes and ws are reached`, () => {
      const bare = [...importGraph(join(PKG, entry)).values()].flat();
      expect(bare).toContain('node:child_process');
      expect(bare).toContain('ws');
    });
  }

  it('mcp-live/ai-sdk and mcp-live/langchain are where their frameworks are reached, optional peers, loaded ESM and CJS', async () => {
    const frameworks = (entry: string) =>
      [...importGraph(join(PKG, entry)).values()]
        .flat()
        .filter((spec) => spec === 'ai' || spec.startsWith('@langchain/'));
    for (const entry of ['dist/aiSdk.js', 'dist/aiSdk.cjs', 'dist/modules/aiSdk.js'])
      expect(new Set(frameworks(entry))).toEqual(new Set(['ai']));
    for (const entry of ['dist/langchain.js', 'dist/langchain.cjs', 'dist/modules/langchain.js'])
      expect(new Set(frameworks(entry))).toEqual(
        new Set(['@langchain/core/messages', '@langchain/core/prompts', '@langchain/core/tools']),
      );
    for (const entry of ['index', 'node', 'host', 'hostNode', 'redis', 'appsBridge'])
      expect(frameworks(`dist/${entry}.js`), entry).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(PKG, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      peerDependenciesMeta: Record<string, { optional?: boolean }>;
    };
    for (const peer of ['ai', '@langchain/core']) {
      expect(Object.keys(manifest.dependencies)).not.toContain(peer);
      expect(manifest.peerDependenciesMeta[peer]).toEqual({ optional: true });
    }
    // From the consumer directory (the frameworks resolve from this project's node_modules above it).
    const describe = `(root, ai, lc) => JSON.stringify({ ai: Object.keys(ai).sort(), lc: Object.keys(lc).sort(), shared: ai.ToolResultError === lc.ToolResultError && new ai.ToolResultError({ tool: 'x', result: { content: [] } }) instanceof root.McpError })`;
    const esm = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `console.log((${describe})(await import('mcp-live'), await import('mcp-live/ai-sdk'), await import('mcp-live/langchain')));`,
      ],
      { cwd: scratch },
    );
    const cjs = await run(
      process.execPath,
      [
        '--input-type=commonjs',
        '-e',
        `console.log((${describe})(require('mcp-live'), require('mcp-live/ai-sdk'), require('mcp-live/langchain')));`,
      ],
      { cwd: scratch },
    );
    const loaded = JSON.parse(esm.stdout) as { ai: string[]; lc: string[]; shared: boolean };
    expect(JSON.parse(cjs.stdout)).toEqual(loaded);
    expect(loaded.ai).toEqual(expect.arrayContaining(['aiSdkTools', 'aiSdkApproval', 'toAiSdkMessages']));
    expect(loaded.lc).toEqual(expect.arrayContaining(['langchainTools', 'langGraphApproval', 'mcpPromptTemplate']));
    expect(loaded.shared).toBe(true);
  });

  it('mcp-live/redis is where ioredis is reached, and nothing else reaches it', () => {
    for (const entry of ['dist/redis.js', 'dist/redis.cjs', 'dist/modules/redis.js'])
      expect([...importGraph(join(PKG, entry)).values()].flat()).toContain('ioredis');
    for (const entry of [
      'dist/index.js',
      'dist/index.cjs',
      'dist/node.js',
      'dist/node.cjs',
      'dist/modules/index.js',
      'dist/modules/node.js',
      'dist/cli.js',
    ])
      expect([...importGraph(join(PKG, entry)).values()].flat().filter((spec) => spec.startsWith('ioredis'))).toEqual(
        [],
      );
    // An optional peer: installing mcp-live never installs a Redis client.
    const manifest = JSON.parse(readFileSync(join(PKG, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      peerDependenciesMeta: Record<string, { optional?: boolean }>;
    };
    expect(Object.keys(manifest.dependencies)).not.toContain('ioredis');
    expect(manifest.peerDependenciesMeta['ioredis']).toEqual({ optional: true });
  });

  it('load in Node through the package exports, ESM and CJS alike, and the per-file tree exports the same', async () => {
    // Run in the consumer directory: `mcp-live` resolves to node_modules/mcp-live, through its `exports`.
    const describeExports = `(root, node, redis, bridge, host, hostNode) => JSON.stringify({
      root: Object.keys(root).sort(),
      host: Object.keys(host).sort(),
      hostNode: Object.fromEntries(Object.entries(hostNode).map(([k, v]) => [k, typeof v])),
      hostSharesErrors: new host.HostRoutingError('x', { reason: 'unknown-tool', name: 'x' }) instanceof root.McpError,
      bridge: Object.fromEntries(Object.entries(bridge).map(([k, v]) => [k, typeof v])),
      bridgeSharesSession: bridge.AppSession === root.AppSession,
      node: Object.fromEntries(Object.entries(node).map(([k, v]) => [k, typeof v])),
      redis: Object.fromEntries(Object.entries(redis).map(([k, v]) => [k, typeof v])),
      redisErrorShared: new redis.CacheStoreError('x', { operation: 'GET', reason: 'timeout' }) instanceof root.McpError,
      sharedCode: node.WebSocketTransport.prototype instanceof root.WebSocketTransport,
    })`;
    const esm = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const r = await import('mcp-live'); const n = await import('mcp-live/node'); const x = await import('mcp-live/redis'); const b = await import('mcp-live/apps-bridge'); const h = await import('mcp-live/host'); const hn = await import('mcp-live/host/node'); console.log((${describeExports})(r, n, x, b, h, hn));`,
      ],
      { cwd: scratch },
    );
    // With Node's defaults: require(esm), unflagged on the versions `engines` names, loads the
    // ESM-only dependencies the CJS build leaves external (and warns about nothing, since the
    // require() comes from node_modules).
    const cjs = await run(
      process.execPath,
      [
        '--input-type=commonjs',
        '-e',
        `console.log((${describeExports})(require('mcp-live'), require('mcp-live/node'), require('mcp-live/redis'), require('mcp-live/apps-bridge'), require('mcp-live/host'), require('mcp-live/host/node')));`,
      ],
      { cwd: scratch },
    );

    // The per-file tree, as a bundler resolves it (no `node` condition), run as it is: every
    // module present, and one copy of the code the entries share.
    const modules = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const at = (entry) => import('./node_modules/mcp-live/dist/modules/' + entry + '.js'); const r = await at('index'); const n = await at('node'); const x = await at('redis'); const b = await at('appsBridge'); const h = await at('host'); const hn = await at('hostNode'); console.log((${describeExports})(r, n, x, b, h, hn));`,
      ],
      { cwd: scratch },
    );

    const loaded = JSON.parse(esm.stdout) as {
      root: string[];
      host: string[];
      hostNode: Record<string, string>;
      hostSharesErrors: boolean;
      node: Record<string, string>;
      redis: Record<string, string>;
      redisErrorShared: boolean;
      sharedCode: boolean;
      bridge: Record<string, string>;
      bridgeSharesSession: boolean;
    };
    expect(JSON.parse(cjs.stdout)).toEqual(loaded);
    expect(JSON.parse(modules.stdout)).toEqual(loaded);
    expect(loaded.root).toEqual(
      expect.arrayContaining([
        'McpClient',
        'StreamableHttpTransport',
        'WebSocketTransport',
        'InMemoryTransport',
        'McpError',
        'ErrorCode',
        'expandUriTemplate',
        'matchUriTemplate',
        'UriTemplateError',
        'selectByAnnotations',
      ]),
    );
    // The host is its own entry (issue 43): runtime-neutral in mcp-live/host, with the Node
    // transports as its default in mcp-live/host/node; the root entry is the client.
    expect(loaded.host).toEqual(
      expect.arrayContaining([
        'McpHost',
        'parseHostConfig',
        'fetchTransport',
        'toOpenAiChatTools',
        'toOpenAiResponsesTools',
        'toAnthropicTools',
        'toGeminiFunctionDeclarations',
        'toAnthropicToolResult',
        'HostRoutingError',
        'HostView',
        'SKILL_TOOLS',
        'MemoryHostStateStore',
        'storedApproval',
        'answerApproval',
        'HostStateError',
      ]),
    );
    expect(
      loaded.root.filter((name) =>
        [
          'StdioTransport',
          'FileCredentialStore',
          'planSpawn',
          'nodeTransport',
          'loadHostConfig',
          'McpHost',
          'toAnthropicTools',
          'HostRoutingError',
        ].includes(name),
      ),
    ).toEqual([]);
    expect(loaded.hostNode).toEqual({ McpHost: 'function', nodeTransport: 'function', loadHostConfig: 'function' });
    expect(loaded.hostSharesErrors).toBe(true);
    expect(loaded.node).toMatchObject({
      StdioTransport: 'function',
      STDERR_TAIL_BYTES: 'number',
      planSpawn: 'function',
      WebSocketTransport: 'function',
      FileCredentialStore: 'function',
    });
    // One copy of the code both entries use: mcp-live/node's WebSocketTransport extends the very
    // class mcp-live exports (so errors from either entry pass `instanceof` with the other's).
    expect(loaded.sharedCode).toBe(true);
    expect(loaded.redis).toEqual({
      RedisCacheStore: 'function',
      CacheStoreError: 'function',
      DEFAULT_REDIS_TIMEOUT_MS: 'number',
      DEFAULT_PREFIX: 'string',
      RedisTaskStore: 'function',
      DEFAULT_TASK_STORE_TIMEOUT_MS: 'number',
      TaskStoreError: 'function',
      RedisHostStateStore: 'function',
      DEFAULT_HOST_STATE_TIMEOUT_MS: 'number',
      RedisCursorStore: 'function',
      RedisLease: 'function',
      RedisWebhookRelay: 'function',
    });
    expect(
      loaded.root.filter((name) =>
        ['RedisCacheStore', 'CacheStoreError', 'RedisTaskStore', 'TaskStoreError'].includes(name),
      ),
    ).toEqual([]);
    expect(loaded.redisErrorShared).toBe(true);
    // MCP Apps: the runtime-neutral parts in the root entry, the frame bridge (DOM) on its own.
    expect(loaded.root).toEqual(
      expect.arrayContaining(['AppSession', 'splitAppTools', 'appFrameDocument', 'AppResourceError']),
    );
    expect(loaded.host).toEqual(expect.arrayContaining(['hostAppLink', 'clientAppLink']));
    expect(loaded.root.filter((name) => ['createAppBridge', 'windowFramePort'].includes(name))).toEqual([]);
    expect(loaded.bridge).toMatchObject({
      createAppBridge: 'function',
      windowFramePort: 'function',
      messagePortFramePort: 'function',
      AppSession: 'function',
    });
    expect(loaded.bridgeSharesSession).toBe(true);
    expect(esm.stderr + cjs.stderr + modules.stderr).toBe('');
  });
});

/** Module specifiers a built file imports: static imports and re-exports, `import()`, `require()`. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found = ts.preProcessFile(text, true, true).importedFiles.map((ref) => ref.fileName);
  // TypeScript's pre-scan loses its place in some minified-style code and misses later
  // `import("./x")`s (the lazy host skills chunk): relative dynamic imports are also read directly.
  for (const match of text.matchAll(/\b(?:import|require)\("(\.[^"]+)"\)/g)) found.push(match[1]!);
  return [...new Set(found)];
}

/** Every file reachable from `entry` through relative imports, with the bare specifiers each imports. */
function importGraph(entry: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (graph.has(file)) continue;
    const specs = importsOf(file);
    pending.push(...specs.filter((spec) => spec.startsWith('.')).map((spec) => resolve(dirname(file), spec)));
    graph.set(
      file,
      specs.filter((spec) => !spec.startsWith('.')),
    );
  }
  return graph;
}

function isNodeBuiltin(spec: string): boolean {
  return spec.startsWith('node:') || builtinModules.includes(spec);
}

/** A declaration file's import `./x.js` / `./x.cjs` names `x.d.ts` / `x.d.cts`. */
function declarationOrSelf(path: string, importer: string): string {
  if (!/\.d\.c?ts$/.test(importer)) return path;
  return path.replace(/\.js$/, '.d.ts').replace(/\.cjs$/, '.d.cts');
}
