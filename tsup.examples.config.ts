import { defineConfig } from 'tsup';

// The example server and the demo: programs, not part of the package. Built on their own so the
// test run (which needs the example server) does not wait for the package's declarations.
export default defineConfig({
  entry: { server: 'examples/server.ts', demo: 'examples/demo.ts' },
  format: ['esm'],
  target: 'node20',
  outDir: 'build/examples',
  clean: true,
  external: ['@modelcontextprotocol/server', 'zod', 'ws', 'eventsource-parser', 'lru-cache', 'p-retry', '@noble/hashes'],
});
