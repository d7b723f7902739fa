/**
 * Headless OAuth (client credentials) against a token endpoint that misbehaves, through the
 * public API over real loopback HTTP: down, hanging, answering garbage. Each connect() settles
 * within a bound with a typed error (a timeout is a timeout, never an era verdict), no other era
 * is tried, no token or secret appears in any error message or debug line, and nothing is left
 * running.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpClient, createOAuthProvider, type DebugEntry } from '../../src/index.js';
import { StreamableHttpTransport } from '../../src/node.js';
import { startAuthPair } from '../fakes/authServer.js';
import { expectNoLeakedHandles, expectRejects, faultProbe, settleWithin } from './harness.js';

const CLIENT = 'svc-client';
const SECRET = 'svc-secret-value-0123456789';

describe('headless OAuth, a token endpoint that misbehaves', () => {
  const probe = faultProbe();
  const cleanups: Array<() => Promise<unknown>> = [];
  // A provider loads its OAuth code on first use. Loaded here, so that the bounds below time the
  // token endpoint, not the test runner's first transform of that code.
  beforeAll(async () => {
    await import('../../src/auth/oauthSession.lazy.js');
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function setUp() {
    const pair = await startAuthPair({
      grantTypes: ['client_credentials'],
      tokenEndpointAuthMethods: ['client_secret_basic'],
      registration: false,
      preRegistered: { clientId: CLIENT, clientSecret: SECRET, method: 'client_secret_basic' },
      clientCredentials: () => ({ scopes: [] }),
    });
    cleanups.push(pair.close);
    const oauth = createOAuthProvider({
      serverUrl: pair.rs.url,
      grant: { type: 'client_credentials' },
      preRegistered: { clientId: CLIENT, clientSecret: SECRET },
    });
    const lines: string[] = [];
    const sent: string[] = [];
    const client = new McpClient({
      transport: new StreamableHttpTransport(pair.rs.url, { authProvider: oauth }),
      clientInfo: { name: 'faults', version: '0.0.0' },
      debug: (entry: DebugEntry) => {
        lines.push(JSON.stringify(entry));
        const message = entry.data?.['message'] as { method?: string } | undefined;
        if (entry.type === 'wire' && entry.data?.['direction'] === 'send' && message?.method !== undefined)
          sent.push(message.method);
      },
    });
    cleanups.push(() => client.close());
    return { ...pair, client, lines, sent };
  }

  it('a token endpoint that never answers: connect({ timeoutMs }) is TimeoutError, not EraDetectionError; no initialize', async () => {
    const s = await setUp();
    s.as.tokenGate = new Promise(() => {});
    const error = await expectRejects(s.client.connect({ timeoutMs: 1500 }), 5000, {
      name: 'TimeoutError',
      code: -32001,
    });
    expect(error.name).not.toBe('EraDetectionError');
    expect(s.sent).toEqual(['server/discover']);
    expect(s.as.tokenRequests).toHaveLength(1);
    expect(s.rs.mcpRequests.map((r) => r.json?.method)).toEqual(['server/discover']);
    expectNoSecret(s, error);
    await closeAll(s);
  });

  it('a slow token endpoint within the bound: connected, one token request, the token in no debug line', async () => {
    const s = await setUp();
    s.as.tokenGate = new Promise((resolve) => setTimeout(resolve, 300));
    const settled = await settleWithin(s.client.connect({ timeoutMs: 3000 }), 3500, 'connect()');
    expect(settled.status).toBe('fulfilled');
    expect(s.as.tokenRequests).toHaveLength(1);
    const tokens = [...s.as.tokens.keys()];
    expect(tokens).toHaveLength(1);
    expect(s.lines.length).toBeGreaterThan(0);
    for (const line of s.lines) for (const token of tokens) expect(line).not.toContain(token);
    expectNoSecret(s, undefined);
    await closeAll(s);
  });

  it('a token endpoint answering garbage: OAuthError (-33017) token-request-failed, no initialize, no secret shown', async () => {
    for (const body of ['<html>oops</html>', { access_token: 42, token_type: 'Bearer' }, { token_type: 'Bearer' }]) {
      const s = await setUp();
      s.as.tokenFailure = { status: 200, body };
      const error = await expectRejects(s.client.connect({ timeoutMs: 3000 }), 3500, {
        name: 'OAuthError',
        code: -33017,
      });
      expect(error.data.failure, JSON.stringify(body)).toBe('token-request-failed');
      expect(s.sent).toEqual(['server/discover']);
      expectNoSecret(s, error);
      await closeAll(s);
    }
  });

  it('a token endpoint answering 500: OAuthError (-33017), no initialize', async () => {
    const s = await setUp();
    s.as.tokenFailure = { status: 500, body: { error: 'server_error' } };
    const error = await expectRejects(s.client.connect({ timeoutMs: 3000 }), 3500, {
      name: 'OAuthError',
      code: -33017,
    });
    expect(s.sent).toEqual(['server/discover']);
    expectNoSecret(s, error);
    await closeAll(s);
  });

  it('the authorization server down (connection refused): OAuthError (-33017), bounded, no initialize', async () => {
    const s = await setUp();
    await s.as.close();
    const error = await expectRejects(s.client.connect({ timeoutMs: 3000 }), 3500, {
      name: 'OAuthError',
      code: -33017,
    });
    expect(s.sent).toEqual(['server/discover']);
    expectNoSecret(s, error);
    await closeAll(s);
  });

  /** Neither the client secret nor its Basic encoding in any debug line or in the error (its message, data, cause). */
  function expectNoSecret(s: { lines: string[] }, error: unknown): void {
    const basic = Buffer.from(`${CLIENT}:${SECRET}`).toString('base64');
    const texts = [...s.lines, ...(error === undefined ? [] : errorTexts(error))];
    for (const text of texts) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(basic);
    }
  }

  function errorTexts(error: unknown): string[] {
    const out: string[] = [];
    for (let e: unknown = error, depth = 0; e !== undefined && e !== null && depth < 5; depth++) {
      const message = e instanceof Error ? e.message : safeJson(e);
      out.push(message, (e as Error).stack ?? '', safeJson((e as { data?: unknown }).data));
      e = (e as { cause?: unknown }).cause;
    }
    return out;
  }

  async function closeAll(s: { client: McpClient }): Promise<void> {
    await settleWithin(s.client.close(), 2000, 'close()');
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await expectNoLeakedHandles(probe.baseline);
  }
});

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}
