/**
 * Secrets and keys of the grants without a browser and of DPoP never reach a log, an error, an
 * event or a cache key. A real McpClient runs each flow against the fake servers with the
 * debug log on (the client's own entries and debugFetch on both the transport and the OAuth
 * provider), onError recorded and a response cache whose keys are recorded; then every
 * secret the run involved (client secret, private key, client assertions, DPoP proofs, access
 * and refresh tokens, the workload JWT, the ID token, the ID-JAG) is looked for in all of it,
 * and in the errors of failed runs with everything they refer to.
 */
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryCacheStore } from '../../src/cache/cacheStore.js';
import type { CacheEntry } from '../../src/cache/types.js';
import type { OAuthProviderOptions } from '../../src/auth/oauthOptions.js';
import { createOAuthProvider, type OAuthProvider } from '../../src/auth/oauthProvider.js';
import { McpClient } from '../../src/client/client.js';
import type { DebugEntry } from '../../src/observability/debug.js';
import { debugFetch } from '../../src/observability/debugFetch.js';
import { StreamableHttpTransport } from '../../src/transport/http/streamableHttp.js';
import { FakeAuthorizationServer, startAuthPair, type FakeProtectedMcpServer } from '../fakes/authServer.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const CLIENT_SECRET = 'cs-5ecret-value-0001';
const WORKLOAD_JWT = 'eyJ.workload-jwt-5ecret.sig';
const ID_TOKEN = 'eyJ.id-token-5ecret.sig';

/** A cache store that remembers every key it was given. */
class RecordingStore extends MemoryCacheStore {
  readonly seen: string[] = [];
  override set(key: string, entry: CacheEntry): boolean {
    this.seen.push(key);
    return super.set(key, entry);
  }
  override get(key: string): CacheEntry | undefined {
    this.seen.push(key);
    return super.get(key);
  }
}

interface Observed {
  entries: DebugEntry[];
  errors: Error[];
  store: RecordingStore;
}

/** Connects, lists tools twice (cached the second time) and calls one; records what is observable. */
async function run(
  rs: FakeProtectedMcpServer,
  options: OAuthProviderOptions,
): Promise<Observed & { failure?: unknown }> {
  const entries: DebugEntry[] = [];
  const errors: Error[] = [];
  const store = new RecordingStore();
  const sink = (entry: DebugEntry) => entries.push(entry);
  const oauth: OAuthProvider = createOAuthProvider({ ...options, fetch: debugFetch(sink) });
  const client = new McpClient({
    transport: new StreamableHttpTransport(rs.url, { authProvider: oauth, fetch: debugFetch(sink), retry: false }),
    clientInfo: { name: 'secrets-test', version: '0.0.0' },
    debug: sink,
    onError: (error) => errors.push(error),
    cache: { store, sharedStore: false },
  });
  closers.push(() => client.close());
  try {
    await client.connect();
    await client.listTools();
    await client.listTools();
    await client.callTool('read_file', {});
    return { entries, errors, store };
  } catch (failure) {
    return { entries, errors, store, failure };
  }
}

/** Every secret a token request or MCP request of this run carried, plus the ones given. */
function secretsOf(as: FakeAuthorizationServer, rs: FakeProtectedMcpServer, given: string[]): string[] {
  const secrets = new Set(given);
  for (const token of as.tokens.keys()) secrets.add(token);
  for (const r of as.tokenRequests) {
    for (const name of ['client_assertion', 'assertion', 'subject_token', 'refresh_token', 'code_verifier']) {
      const value = r.params.get(name);
      if (value !== null) secrets.add(value);
    }
    if (r.dpop !== undefined) secrets.add(r.dpop);
  }
  for (const r of rs.mcpRequests) {
    const proof = r.headers['dpop'];
    if (typeof proof === 'string') secrets.add(proof);
  }
  return [...secrets].filter((s) => s.length >= 8);
}

/** Everything observable, as text: the debug entries, the errors (deeply, hidden fields too), the cache keys. */
function observable(observed: Observed & { failure?: unknown }): string {
  return [
    JSON.stringify(observed.entries),
    ...observed.entries.map((e) => e.message),
    ...[...observed.errors, ...(observed.failure === undefined ? [] : [observed.failure])].map((e) =>
      inspect(e, { depth: Infinity, showHidden: true }),
    ),
    JSON.stringify(observed.failure ?? null),
    ...observed.store.seen,
  ].join('\n');
}

function expectNoSecret(text: string, secrets: string[]): void {
  for (const secret of secrets) {
    expect(text.includes(secret), `a secret (${secret.slice(0, 6)}…) leaked`).toBe(false);
    // Only the part after a dot of a JWT would be as bad.
    for (const part of secret.split('.').filter((p) => p.length >= 16)) expect(text.includes(part)).toBe(false);
  }
}

async function privateKeyJwtClient() {
  const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
  const jwk = await crypto.subtle.exportKey('jwk', pair.privateKey);
  return { privateKey: pair.privateKey, publicJwk: await crypto.subtle.exportKey('jwk', pair.publicKey), d: jwk.d! };
}

describe('secrets stay out of logs, errors, events and cache keys', () => {
  it('client credentials with private_key_jwt and DPoP (nonces on both servers)', async () => {
    const key = await privateKeyJwtClient();
    const { as, rs, close } = await startAuthPair(
      {
        grantTypes: ['client_credentials'],
        tokenEndpointAuthMethods: ['private_key_jwt'],
        preRegistered: { clientId: 'svc', method: 'private_key_jwt', publicJwk: key.publicJwk },
        clientCredentials: () => ({ scopes: [] }),
        dpop: { requireNonce: true },
      },
      { dpop: { requireNonce: true }, listTtlMs: 60_000 },
    );
    closers.push(close);
    const observed = await run(rs, {
      serverUrl: rs.url,
      grant: { type: 'client_credentials' },
      preRegistered: { clientId: 'svc', privateKey: key.privateKey },
      dpop: true,
    });
    expect(observed.failure).toBeUndefined();
    expect(rs.dpopProofs.length).toBeGreaterThanOrEqual(3);
    expect(observed.entries.some((e) => e.type === 'http' && e.message.includes('/token'))).toBe(true);
    expect(observed.entries.some((e) => JSON.stringify(e).includes('"dpop":"[redacted]"'))).toBe(true);
    expect(observed.store.seen.length).toBeGreaterThan(0);
    expectNoSecret(observable(observed), secretsOf(as, rs, [key.d]));
  });

  it('client credentials with a secret (Basic), refused: the error holds no secret', async () => {
    const { as, rs, close } = await startAuthPair({
      grantTypes: ['client_credentials'],
      tokenEndpointAuthMethods: ['client_secret_basic'],
      preRegistered: { clientId: 'svc', clientSecret: 'not-this-one', method: 'client_secret_basic' },
      clientCredentials: () => ({ scopes: [] }),
    });
    closers.push(close);
    const observed = await run(rs, {
      serverUrl: rs.url,
      grant: { type: 'client_credentials' },
      preRegistered: { clientId: 'svc', clientSecret: CLIENT_SECRET },
    });
    expect(observed.failure).toBeDefined();
    const basic = Buffer.from(`svc:${CLIENT_SECRET}`).toString('base64');
    expectNoSecret(observable(observed), secretsOf(as, rs, [CLIENT_SECRET, basic]));
  });

  it('workload identity: the platform JWT, accepted and refused', async () => {
    for (const accept of [true, false]) {
      const { as, rs, close } = await startAuthPair(
        {
          grantTypes: [JWT_BEARER],
          jwtBearer: (assertion) =>
            accept && assertion === WORKLOAD_JWT ? { scopes: [] } : { error: 'invalid_grant' },
        },
        { listTtlMs: 60_000 },
      );
      closers.push(close);
      const observed = await run(rs, {
        serverUrl: rs.url,
        grant: { type: 'jwt-bearer', assertion: () => WORKLOAD_JWT },
      });
      expect(observed.failure === undefined).toBe(accept);
      expectNoSecret(observable(observed), secretsOf(as, rs, [WORKLOAD_JWT]));
    }
  });

  it('enterprise-managed authorization: the ID token, the IdP secret and the ID-JAG', async () => {
    const idp = await FakeAuthorizationServer.start({
      grantTypes: ['urn:ietf:params:oauth:grant-type:token-exchange'],
      codeChallengeMethods: null,
      tokenExchange: (params) =>
        params.get('subject_token') === ID_TOKEN
          ? { token: 'eyJ.id-jag-5ecret-value.sig', issuedTokenType: 'urn:ietf:params:oauth:token-type:id-jag' }
          : { error: 'invalid_grant' },
    });
    closers.push(() => idp.close());
    const { as, rs, close } = await startAuthPair(
      {
        grantTypes: [JWT_BEARER],
        tokenEndpointAuthMethods: ['client_secret_basic'],
        preRegistered: { clientId: 'host', clientSecret: CLIENT_SECRET, method: 'client_secret_basic' },
        jwtBearer: (assertion) => (assertion.includes('id-jag') ? { scopes: [] } : { error: 'invalid_grant' }),
      },
      { listTtlMs: 60_000 },
    );
    closers.push(close);
    const observed = await run(rs, {
      serverUrl: rs.url,
      grant: {
        type: 'id-jag',
        idp: { issuer: idp.issuer, clientId: 'host-at-idp', clientSecret: 'idp-5ecret-value' },
        subjectToken: () => ID_TOKEN,
      },
      preRegistered: { clientId: 'host', clientSecret: CLIENT_SECRET },
    });
    expect(observed.failure).toBeUndefined();
    const exchange = idp.tokenRequests.map((r) => r.params.get('subject_token')!);
    expectNoSecret(
      observable(observed),
      secretsOf(as, rs, [ID_TOKEN, 'idp-5ecret-value', CLIENT_SECRET, 'eyJ.id-jag-5ecret-value.sig', ...exchange]),
    );
  });
});
