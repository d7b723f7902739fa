import { chmod } from 'node:fs/promises';
import { defineConfig, type Options } from 'tsup';

const entry = { index: 'src/index.ts', node: 'src/node.ts' };

/**
 * The CLI reaches the SDK only through `../index.js` and `../node.js`; in dist/cli.js those
 * become imports of the package's own dist/index.js and dist/node.js, so the SDK is not
 * bundled a second time.
 */
const sdkEntriesExternal: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'mcp-live-sdk-entries-external',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/(index|node)\.js$/ }, (args) => {
      if (!/[\\/]src[\\/]cli[\\/]/.test(args.importer)) return undefined;
      return { path: args.path.replace('../', './'), external: true };
    });
  },
};

export default defineConfig([
  // The package: ESM first, with declarations.
  { entry, format: ['esm'], dts: true, sourcemap: true, target: 'node20', outDir: 'dist' },
  // CJS beside it for require() users. Dependencies that ship only ESM are bundled in, so
  // require() works on every Node 20 (require(esm) needs 20.19+).
  {
    entry,
    format: ['cjs'],
    dts: true,
    sourcemap: true,
    target: 'node20',
    outDir: 'dist',
    outExtension: () => ({ js: '.cjs' }),
    noExternal: ['@noble/hashes', 'p-retry', 'oauth4webapi'],
  },
  // The `mcp-live` command (package.json `bin`): ESM, on top of the ESM entries above.
  {
    entry: { cli: 'src/cli/bin.ts' },
    format: ['esm'],
    sourcemap: true,
    target: 'node20',
    outDir: 'dist',
    banner: { js: '#!/usr/bin/env node' },
    esbuildPlugins: [sdkEntriesExternal],
    onSuccess: async () => {
      await chmod('dist/cli.js', 0o755).catch(() => {});
    },
  },
]);
