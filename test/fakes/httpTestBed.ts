/**
 * What the Streamable HTTP test files set up alike: scripted servers and transports that a test
 * opens are closed after it. Call {@link httpTestBed} at the top of a `describe` block (or of
 * the file): it registers the `afterEach`. Hooks the file registers after that call run before
 * it (vitest runs after-hooks in reverse), so `vi.useRealTimers()` there comes first.
 */
import { afterEach } from 'vitest';
import type { StreamableHttpTransport } from '../../src/transport/http/streamableHttp.js';
import type { StreamableHttpTransportOptions } from '../../src/transport/http/streamableHttpOptions.js';
import { HttpFake, type HttpHandler } from './httpFake.js';

/** A Streamable HTTP transport class: the fetch path's or `mcp-live/node`'s. */
type HttpTransportClass = new (url: string, options?: StreamableHttpTransportOptions) => StreamableHttpTransport;

/** See {@link httpTestBed}. */
export interface HttpTestBed<C extends HttpTransportClass> {
  /** Starts a scripted server (as `HttpFake.start`), closed after the test once the rest is. */
  readonly serve: (handler?: HttpHandler, path?: string) => Promise<HttpFake>;
  /** A transport to `url`, without retries unless `options` asks for them, closed after the test. */
  readonly transportFor: (url: string, options?: ConstructorParameters<C>[1]) => InstanceType<C>;
  /** Runs `close` after the test: the newest first, one at a time, before the servers close. */
  readonly closeLater: (close: () => unknown) => void;
}

/** The clean-up of one test file or `describe` block, over transports of class `Transport`. */
export function httpTestBed<C extends HttpTransportClass>(Transport: C): HttpTestBed<C> {
  const closers: Array<() => unknown> = [];
  const fakes: HttpFake[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    await Promise.all(fakes.splice(0).map((fake) => fake.close()));
  });
  return {
    serve: async (handler, path) => {
      const fake = await HttpFake.start(handler, path);
      fakes.push(fake);
      return fake;
    },
    transportFor: (url, options = {}) => {
      const transport = new Transport(url, { retry: false, ...options }) as InstanceType<C>;
      closers.push(() => transport.close());
      return transport;
    },
    closeLater: (close) => {
      closers.push(close);
    },
  };
}
