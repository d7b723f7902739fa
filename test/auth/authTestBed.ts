/**
 * What the OAuth test files set up alike: the fake authorization server and MCP endpoint, and
 * transports over a provider, all closed after each test; one `tools/call` per {@link call}; an
 * authorization code provider that completes the redirect headlessly. Call {@link authTestBed}
 * at the top of the file: it registers the `afterEach`.
 */
import { afterEach } from 'vitest';
import type { AuthorizationCodeProviderOptions } from '../../src/auth/oauthOptions.js';
import { createOAuthProvider, type OAuthProvider } from '../../src/auth/oauthProvider.js';
import { createHeadlessRedirectHandler } from '../../src/auth/redirectHandler.js';
import { StreamableHttpTransport } from '../../src/transport/http/streamableHttp.js';
import { startAuthPair, type FakeProtectedMcpServer } from '../fakes/authServer.js';
import { request, startRecording, type Recorded } from '../fakes/httpHarness.js';

/** See {@link authTestBed}. */
export interface AuthTestBed {
  /** Starts the fake authorization server and MCP endpoint (as `startAuthPair`), closed after the test. */
  readonly startPair: typeof startAuthPair;
  /** A transport to `rs` over `authProvider`, without retries, started with recording handlers; closed after the test. */
  readonly recordedTransport: (
    rs: FakeProtectedMcpServer,
    authProvider: OAuthProvider,
  ) => Promise<{ transport: StreamableHttpTransport; recorded: Recorded }>;
  /** {@link recordedTransport}'s transport. */
  readonly transportFor: (rs: FakeProtectedMcpServer, authProvider: OAuthProvider) => Promise<StreamableHttpTransport>;
  /** Runs each of `close` after the test, alongside the rest. */
  readonly closeLater: (...close: Array<() => Promise<void>>) => void;
}

/** The clean-up of one OAuth test file. */
export function authTestBed(): AuthTestBed {
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((close) => close()));
  });
  const recordedTransport = async (rs: FakeProtectedMcpServer, authProvider: OAuthProvider) => {
    const transport = new StreamableHttpTransport(rs.url, { authProvider, retry: false });
    closers.push(() => transport.close());
    const recorded = await startRecording(transport);
    return { transport, recorded };
  };
  return {
    startPair: async (asOptions, rsOptions) => {
      const started = await startAuthPair(asOptions, rsOptions);
      closers.push(started.close);
      return started;
    },
    recordedTransport,
    transportFor: async (rs, authProvider) => (await recordedTransport(rs, authProvider)).transport,
    closeLater: (...close) => {
      closers.push(...close);
    },
  };
}

let lastId = 0;

/** A fresh JSON-RPC id, unique within the test file. */
export function nextId(): number {
  return ++lastId;
}

/** Sends one `tools/call` of `read_file` on `transport`. */
export function call(transport: StreamableHttpTransport): Promise<void> {
  return transport.send(request(nextId(), 'tools/call', { name: 'read_file', arguments: {} }));
}

/** An authorization code provider for `rs` whose redirect completes headlessly; `options` win. */
export function codeFlowProvider(
  rs: FakeProtectedMcpServer,
  options: Partial<AuthorizationCodeProviderOptions> = {},
): OAuthProvider {
  return createOAuthProvider({
    serverUrl: rs.url,
    clientMetadata: { client_name: 'mcp-live tests' },
    redirectUrl: 'http://localhost:3000/callback',
    redirectHandler: createHeadlessRedirectHandler(),
    ...options,
  });
}
