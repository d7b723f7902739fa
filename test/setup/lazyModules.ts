/**
 * Loads, before each test file, what an McpClient loads on first use (`onDemand` in
 * src/errors/moduleLoad.ts). A dynamic `import()` resolves on real I/O, outside fake time: a
 * test that freezes the clock and advances it step by step would otherwise see a step wait for
 * a module instead of the timers it is about, a test that makes a cache and reads from it in
 * the same tick would see the moment before its policy arrived, and a test that counts
 * milliseconds of real time would count the test runner compiling a module. Loaded here, the
 * modules behave as in a process where an earlier client already loaded them. The first moments
 * themselves are tested on fresh module instances (`vi.resetModules()`): the `onDemand.test.ts`
 * files, test/transport/http/retryOnDemand.test.ts and
 * test/transport/http/credentialOnDemand.test.ts. The host's, the Skills extension's and OAuth's own
 * modules are left to their tests.
 */

await Promise.all([
  import('../../src/era/fallback.lazy.js'),
  import('../../src/observability/observer.lazy.js'),
  import('../../src/inputRequired/inputRounds.lazy.js'),
  import('../../src/subscriptions/openSubscription.lazy.js'),
  import('../../src/tasks/taskMachinery.lazy.js'),
  import('../../src/transport/http/legacy/legacyWire.lazy.js'),
  import('../../src/transport/http/legacy/sseConnection.lazy.js'),
]);
