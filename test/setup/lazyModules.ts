/**
 * Loads, before each test file, what mcp-live loads on first use (`onDemand` in
 * src/errors/moduleLoad.ts). A dynamic `import()` resolves on real I/O, outside fake time: a
 * test that freezes the clock and advances it step by step would otherwise see a step wait for
 * a module instead of the timers it is about, and a test that makes a cache and reads from it
 * in the same tick would see the moment before its policy arrived. Loaded here, the modules
 * behave as in a process where an earlier client already loaded them. The first moments
 * themselves are tested where they matter, on fresh module instances (`vi.resetModules()`):
 * test/cache/lazyPolicy.test.ts, test/cache/cacheStore.test.ts, test/client/onDemand.test.ts,
 * test/transport/http/retryOnDemand.test.ts, test/transport/http/credentialOnDemand.test.ts,
 * test/reconnect/loopOnDemand.test.ts.
 */
import { loadLru } from '../../src/cache/cacheStore.js';
import { loadPolicy } from '../../src/cache/responseCache.js';
import { loadReconnectLoop } from '../../src/client/connection.js';
import { loadCredentialId } from '../../src/transport/http/authorization.js';
import { loadRetry } from '../../src/transport/http/exchange.js';

await Promise.all([
  loadLru(),
  loadPolicy(),
  loadRetry(),
  loadReconnectLoop(),
  loadCredentialId(),
  import('../../src/era/fallback.js'),
  import('../../src/observability/observer.js'),
  import('../../src/inputRequired/driver.js'),
  import('../../src/inputRequired/inputHandlers.js'),
  import('../../src/completion/debouncedCompleter.js'),
]);
