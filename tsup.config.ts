import { defineConfig } from 'tsup';

const entry = { index: 'src/index.ts', node: 'src/node.ts' };

export default defineConfig([
  // The package: ESM first, with declarations.
  { entry, format: ['esm'], dts: true, sourcemap: true, clean: true, target: 'node20', outDir: 'dist' },
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
]);
