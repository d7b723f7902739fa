/**
 * Loads, before each test file, the modules mcp-live loads on first use (`onDemand` in
 * src/errors/moduleLoad.ts). A dynamic `import()` resolves on real I/O, outside fake time: a
 * test that freezes the clock and advances it step by step would otherwise see a step wait for
 * a module instead of the timers it is about. With the modules already in the test runner's
 * cache, the first use inside a test still goes through `onDemand` (its state is the code's own)
 * but resolves without I/O. The tests of loading itself (test/errors/moduleLoad.test.ts, the
 * bundle bounds, the browser and packed-tarball runs) do not depend on this.
 */
await Promise.all([
  import('../../src/era/fallback.js'),
  import('../../src/observability/observer.js'),
  import('../../src/inputRequired/driver.js'),
  import('../../src/inputRequired/inputHandlers.js'),
  import('lru-cache'),
]);
