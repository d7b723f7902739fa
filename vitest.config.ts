import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The modules mcp-live loads on first use, loaded ahead (see the file).
    setupFiles: ['test/setup/lazyModules.ts'],
    // Two cores: keep the pool small so integration tests that spawn servers stay stable.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
