import { defineConfig } from 'tsup';

// The conformance driver (test/conformance/client.ts): a program the official conformance suite
// runs once per scenario. Built on its own, only by `npm run conformance`, so `npm test` does not
// wait for it. mcp-live's sources are bundled in; its dependencies (external by default in tsup)
// load from node_modules.
export default defineConfig({
  entry: { client: 'test/conformance/client.ts' },
  format: ['esm'],
  target: 'node20',
  outDir: 'build/conformance',
  clean: true,
  sourcemap: true,
});
