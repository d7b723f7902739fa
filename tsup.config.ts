import { defineConfig } from 'tsup';

export default defineConfig([
  // The package: ESM first, CJS beside it for require() users, declarations for both.
  {
    entry: { index: 'src/index.ts', node: 'src/node.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
    outDir: 'dist',
    outExtension: ({ format }) => ({ js: format === 'cjs' ? '.cjs' : '.js' }),
  },
  // The example server and the demo: programs, not part of the package.
  {
    entry: { server: 'examples/server.ts', demo: 'examples/demo.ts' },
    format: ['esm'],
    target: 'node20',
    outDir: 'build/examples',
    clean: true,
    external: ['@modelcontextprotocol/server', 'zod', 'ws', 'eventsource-parser', 'lru-cache', 'p-retry'],
  },
]);
