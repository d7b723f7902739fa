import { defineConfig } from 'tsup';

// The example servers and the demo: programs, not part of the package. Built on their own so the
// test run (which needs the example server) does not wait for the package's declarations.
// cli.js is the `mcp-live` command bundled whole, for test/cli's real-process test (the
// package's dist/cli.js is built by tsup.config.ts on top of dist/index.js).
export default defineConfig({
  entry: {
    server: 'examples/server.ts',
    'skills-server': 'examples/skillsServer.ts',
    demo: 'examples/demo.ts',
    cli: 'src/cli/bin.ts',
  },
  format: ['esm'],
  target: 'node20',
  outDir: 'build/examples',
  clean: true,
  external: [
    '@modelcontextprotocol/server',
    'zod',
    'ws',
    'eventsource-parser',
    'lru-cache',
    'p-retry',
    '@noble/hashes',
  ],
});
