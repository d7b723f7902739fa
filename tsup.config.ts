import { chmod } from 'node:fs/promises';
import { build } from 'esbuild';
import { defineConfig, type Options } from 'tsup';

const entry = {
  index: 'src/index.ts',
  node: 'src/node.ts',
  host: 'src/host.ts',
  hostNode: 'src/hostNode.ts',
  redis: 'src/redis.ts',
  appsBridge: 'src/appsBridge.ts',
  aiSdk: 'src/aiSdk.ts',
  langchain: 'src/langchain.ts',
  telemetry: 'src/telemetry.ts',
  devtools: 'src/devtools.ts',
  devtoolsPanel: 'src/devtoolsPanel.ts',
};

/**
 * Options every output shares. `removeNodeProtocol: false` keeps `node:` on built-in imports
 * (tsup 8 strips it by default), so the built files name Node built-ins as the source does, in
 * the form Deno and Bun document for their Node compatibility.
 */
const common = { sourcemap: true, target: 'node20', outDir: 'dist', removeNodeProtocol: false } satisfies Options;

/**
 * The CLI reaches the SDK only through `../index.js`, `../node.js`, `../host.js`, `../hostNode.js` and `../devtools.js`; in dist/cli.js those
 * become imports of the package's own dist/ entries, so the SDK is not
 * bundled a second time.
 */
const sdkEntriesExternal: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'mcp-live-sdk-entries-external',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/(index|node|host|hostNode|devtools)\.js$/ }, (args) => {
      if (!/[\\/]src[\\/]cli[\\/]/.test(args.importer)) return undefined;
      return { path: args.path.replace('../', './'), external: true };
    });
  },
};

/**
 * The source files the entries reach, `import()` targets included, as paths from the project
 * root (`src/...`): exactly the modules of dist/modules/, so it holds no file nothing imports
 * (the CLI's, and the declaration-only ones every importer reaches through `import type`).
 */
async function reachedSources(): Promise<string[]> {
  const { metafile } = await build({
    entryPoints: Object.values(entry),
    bundle: true,
    packages: 'external',
    platform: 'neutral',
    format: 'esm',
    splitting: true,
    outdir: 'dist/modules',
    write: false,
    metafile: true,
    logLevel: 'error',
  });
  return Object.keys(metafile.inputs)
    .filter((path) => path.startsWith('src/'))
    .sort();
}

export default defineConfig(async () => [
  // The package for Node, Deno and Bun (the `node` export condition): ESM first, with
  // declarations. Bundled, so a process loads a few files rather than one per source file.
  { ...common, entry, format: ['esm'], dts: true },
  // The package for bundlers (the `import` condition without `node`): one ESM module per source
  // file, as src/ lays them out, so a consumer's bundler sees the files src/ keeps apart and
  // leaves a module loaded with `import()` out of the initial load (docs/design.md, "Features on
  // demand"). Bundled, every export of an entry is live and pulls what it reaches into a chunk
  // the entry imports, lazily loaded modules included. Not minified (the consumer's bundler
  // minifies); no declarations (the bundled build's serve both, as the exports map says).
  {
    ...common,
    entry: await reachedSources(),
    outDir: 'dist/modules',
    format: ['esm'],
    bundle: false,
    splitting: false,
    // One line per module (about 300) says nothing the bundled builds' lines do not; errors still show.
    silent: true,
  },
  // CJS beside it for require() users. Every dependency stays external, as in the ESM build, so
  // a security fix of one reaches CJS users with `npm update`, not with an mcp-live release. The
  // ESM-only ones (oauth4webapi, @noble/hashes, p-retry) load through require(esm), unflagged on
  // the Node versions `engines` names (^20.19 and >= 22.12). `splitting` (experimental for
  // CJS in tsup) puts the code both entries use in a shared chunk, as the ESM build does: without
  // it index.cjs and node.cjs each carry their own copy of the error classes and the transport
  // base classes, and `instanceof` fails across `mcp-live` and `mcp-live/node`.
  {
    ...common,
    entry,
    format: ['cjs'],
    dts: true,
    splitting: true,
    outExtension: () => ({ js: '.cjs' }),
  },
  // The `mcp-live` command (package.json `bin`): ESM, on top of the ESM entries above.
  {
    ...common,
    entry: { cli: 'src/cli/bin.ts' },
    format: ['esm'],
    banner: { js: '#!/usr/bin/env node' },
    esbuildPlugins: [sdkEntriesExternal],
    onSuccess: async () => {
      await chmod('dist/cli.js', 0o755).catch(() => {});
    },
  },
]);
