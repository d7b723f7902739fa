/**
 * The client credentials grant (OAuth 2.1 §4.2; MCP extension oauth-client-credentials) over a
 * real StreamableHttpTransport, against the fake authorization server and MCP endpoint: the
 * token request with client_secret_basic and private_key_jwt (RFC 7523 §2.2), scopes and
 * resource as in the normal flow, a token per resource renewed before expiry and shared by
 * concurrent requests, step-up without a browser, and the checks of the options.
 */
import { describe, expect, it } from 'vitest';
import { OAuthError } from '../../src/auth/errors.js';
import type { NonInteractiveProviderOptions } from '../../src/auth/oauthOptions.js';
import { createOAuthProvider, type OAuthProvider } from '../../src/auth/oauthProvider.js';
import { InvalidArgumentError } from '../../src/errors/errors.js';
import { request } from '../fakes/httpHarness.js';
import { authTestBed, call, nextId } from './authTestBed.js';
import {
  type FakeAuthorizationServerOptions,
  type FakeProtectedMcpServer,
  type FakeProtectedMcpServerOptions,
} from '../fakes/authServer.js';
import { decodeJwt, verifyJwt } from '../fakes/jwt.js';

const CLIENT = 'svc-client';
const SECRET = 'svc-secret-value';

const { startPair, transportFor } = authTestBed();

async function pair(asOptions: FakeAuthorizationServerOptions, rsOptions: Partial<FakeProtectedMcpServerOptions> = {}) {
  const started = await startPair(
    {
      grantTypes: ['client_credentials'],
      tokenEndpointAuthMethods: ['client_secret_basic', 'private_key_jwt'],
      registration: false,
      clientCredentials: (_clientId, params) => ({
        scopes: (params.get('scope') ?? '').split(' ').filter((s) => s !== ''),
      }),
      ...asOptions,
    },
    rsOptions,
  );
  return started;
}

function provider(rs: FakeProtectedMcpServer, options: Partial<NonInteractiveProviderOptions> = {}): OAuthProvider {
  return createOAuthProvider({
    serverUrl: rs.url,
    grant: { type: 'client_credentials' },
    preRegistered: { clientId: CLIENT, clientSecret: SECRET },
    ...options,
  });
}

async function ecKeyPair(): Promise<{ privateKey: CryptoKey; publicJwk: JsonWebKey }> {
  const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
  return { privateKey: pair.privateKey, publicJwk: await crypto.subtle.exportKey('jwk', pair.publicKey) };
}

describe('client credentials grant', () => {
  it('401 → metadata → client_credentials with client_secret_basic, resource and scope → retry; no browser, no registration', async () => {
    const { as, rs } = await pair(
      { preRegistered: { clientId: CLIENT, clientSecret: SECRET, method: 'client_secret_basic' } },
      { scopesSupported: ['mcp:read'] },
    );
    const oauth = provider(rs);
    await call(await transportFor(rs, oauth));
    expect(as.tokenRequests).toHaveLength(1);
    const { params, authorization } = as.tokenRequests[0]!;
    expect(Object.fromEntries(params)).toEqual({
      grant_type: 'client_credentials',
      resource: rs.url,
      scope: 'mcp:read',
    });
    expect(authorization).toBe(`Basic ${Buffer.from(`${CLIENT}:${SECRET}`).toString('base64')}`);
    expect(as.authorizations).toEqual([]);
    expect(as.registrations).toEqual([]);
    expect(rs.authorizations.at(-1)).toMatch(/^Bearer at-/);
    const tokens = await oauth.getTokens();
    expect(tokens).toMatchObject({ issuer: as.issuer, resource: rs.url, clientId: CLIENT, scope: 'mcp:read' });
    expect(tokens?.refreshToken).toBeUndefined();
    expect(tokens?.tokenType).toBeUndefined();
  });

  it('private_key_jwt: a fresh assertion signed by the host key per token request (iss = sub = client, aud = issuer)', async () => {
    const key = await ecKeyPair();
    const { as, rs } = await pair(
      {
        preRegistered: { clientId: CLIENT, method: 'private_key_jwt', publicJwk: key.publicJwk },
        expiresIn: 1,
      },
      {},
    );
    let now = 1_000_000;
    const oauth = provider(rs, {
      preRegistered: { clientId: CLIENT, privateKey: { key: key.privateKey, kid: 'k1' } },
      clock: { now: () => now },
    });
    const transport = await transportFor(rs, oauth);
    await call(transport);
    now += 5_000; // the 1 s token is past its skew: renewed before the next request
    await call(transport);
    expect(as.tokenRequests).toHaveLength(2);
    const assertions = as.tokenRequests.map((r) => r.params.get('client_assertion')!);
    for (const [i, r] of as.tokenRequests.entries()) {
      expect(r.authorization).toBeUndefined();
      expect(r.params.get('client_secret')).toBeNull();
      expect(r.params.get('client_id')).toBe(CLIENT);
      expect(r.params.get('client_assertion_type')).toBe('urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
      expect(verifyJwt(assertions[i]!, key.publicJwk)).toBe(true);
      const jwt = decodeJwt(assertions[i]!)!;
      expect(jwt.header).toMatchObject({ alg: 'ES256', kid: 'k1' });
      expect(jwt.payload).toMatchObject({ iss: CLIENT, sub: CLIENT, aud: as.issuer });
      expect(jwt.payload['exp'] - jwt.payload['iat']).toBeLessThanOrEqual(60);
    }
    expect(decodeJwt(assertions[0]!)!.payload['jti']).not.toBe(decodeJwt(assertions[1]!)!.payload['jti']);
    // No 401 before the second call: the renewal came first.
    expect(rs.authorizations.filter((a) => a === undefined)).toHaveLength(1);
  });

  it('renews the token before it expires, once for any number of concurrent requests', async () => {
    const { as, rs } = await pair(
      { preRegistered: { clientId: CLIENT, clientSecret: SECRET, method: 'client_secret_basic' }, expiresIn: 60 },
      {},
    );
    let now = 1_000_000;
    const oauth = provider(rs, { clock: { now: () => now } });
    const transport = await transportFor(rs, oauth);
    await call(transport);
    const first = (await oauth.getTokens())!.accessToken;
    now += 20_000; // 40 s left: outside the 30 s skew, no renewal
    await Promise.all([call(transport), call(transport)]);
    expect(as.tokenRequests).toHaveLength(1);
    now += 15_000; // 25 s left: renewed first
    await Promise.all(Array.from({ length: 5 }, () => call(transport)));
    expect(as.tokenRequests).toHaveLength(2);
    const second = (await oauth.getTokens())!.accessToken;
    expect(second).not.toBe(first);
    expect(rs.authorizations.slice(-5)).toEqual(Array(5).fill(`Bearer ${second}`));
  });

  it('a token living no longer than the 30 s margin is used for half its life, not minted before every request', async () => {
    const { as, rs } = await pair({
      preRegistered: { clientId: CLIENT, clientSecret: SECRET, method: 'client_secret_basic' },
      expiresIn: 20,
    });
    let now = 1_000_000;
    const oauth = provider(rs, { clock: { now: () => now } });
    const transport = await transportFor(rs, oauth);
    for (let i = 0; i < 4; i++) await call(transport);
    expect(as.tokenRequests).toHaveLength(1);
    now += 9_000; // 11 s left: still within the first half of its 20 s
    await call(transport);
    expect(as.tokenRequests).toHaveLength(1);
    now += 2_000; // 9 s left: renewed, once for all concurrent requests
    await Promise.all(Array.from({ length: 4 }, () => call(transport)));
    expect(as.tokenRequests).toHaveLength(2);
    for (let i = 0; i < 3; i++) await call(transport);
    expect(as.tokenRequests).toHaveLength(2);
  });

  it('concurrent first requests share one token request', async () => {
    const { as, rs } = await pair({
      preRegistered: { clientId: CLIENT, clientSecret: SECRET, method: 'client_secret_basic' },
    });
    const transport = await transportFor(rs, provider(rs));
    await Promise.all(Array.from({ length: 6 }, () => call(transport)));
    expect(as.tokenRequests).toHaveLength(1);
  });

  it('steps up on 403 insufficient_scope with a new client_credentials request for the union of scopes', async () => {
    const { as, rs } = await pair(
      { preRegistered: { clientId: CLIENT, clientSecret: SECRET, method: 'client_secret_basic' } },
      {
        scopesSupported: ['files:read'],
        requiredScopes: (method) => (method === 'tools/call' ? ['files:read', 'files:write'] : []),
      },
    );
    const transport = await transportFor(rs, provider(rs));
    await transport.send(request(nextId(), 'tools/list'));
    await call(transport);
    expect(as.tokenRequests.map((r) => r.params.get('scope'))).toEqual(['files:read', 'files:read files:write']);
    expect(as.authorizations).toEqual([]);
  });

  it('authorize() obtains the token up front: the first request carries it', async () => {
    const { as, rs } = await pair({
      preRegistered: { clientId: CLIENT, clientSecret: SECRET, method: 'client_secret_basic' },
    });
    const oauth = provider(rs);
    await oauth.authorize();
    expect(as.tokenRequests).toHaveLength(1);
    await call(await transportFor(rs, oauth));
    expect(rs.authorizations).toEqual([`Bearer ${(await oauth.getTokens())!.accessToken}`]);
  });

  it('an authorization server that lists grant_types_supported without client_credentials is not asked', async () => {
    const { as, rs } = await pair({
      preRegistered: { clientId: CLIENT, clientSecret: SECRET, method: 'client_secret_basic' },
      grantTypes: ['authorization_code'],
    });
    const error = await call(await transportFor(rs, provider(rs))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthError);
    expect((error as OAuthError).data).toMatchObject({
      failure: 'grant-unsupported',
      issuer: as.issuer,
      expected: 'client_credentials',
    });
    expect(as.tokenRequests).toEqual([]);
  });

  it('a refused client fails with the server error, and the secret is nowhere in it', async () => {
    const { as, rs } = await pair({
      preRegistered: { clientId: CLIENT, clientSecret: 'another-secret', method: 'client_secret_basic' },
    });
    const error = await call(await transportFor(rs, provider(rs))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthError);
    expect((error as OAuthError).data).toMatchObject({ failure: 'token-request-failed', error: 'invalid_client' });
    expect(as.tokenRequests).toHaveLength(1);
    expect(JSON.stringify(error)).not.toContain(SECRET);
    expect(String((error as Error).stack)).not.toContain(SECRET);
  });

  it('checks the options: a client, and a private key that can sign', async () => {
    const { rs } = await pair({});
    const { publicKey } = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
      'sign',
      'verify',
    ]);
    expect(() => createOAuthProvider({ serverUrl: rs.url, grant: { type: 'client_credentials' } })).toThrow(
      InvalidArgumentError,
    );
    expect(() => provider(rs, { preRegistered: { clientId: CLIENT, privateKey: publicKey } })).toThrow(
      /private CryptoKey with the sign usage/,
    );
    expect(() =>
      provider(rs, { preRegistered: { clientId: CLIENT, tokenEndpointAuthMethod: 'private_key_jwt' } }),
    ).toThrow(/private_key_jwt needs a privateKey/);
    expect(() =>
      createOAuthProvider({
        serverUrl: rs.url,
        grant: { type: 'password' } as never,
        preRegistered: { clientId: 'x' },
      }),
    ).toThrow(/grant.type/);
    // The browser grant, chosen by leaving `grant` out, needs its redirect URL (JavaScript callers).
    expect(() => createOAuthProvider({ serverUrl: rs.url, clientMetadata: { client_name: 'x' } } as never)).toThrow(
      /needs a redirect URL/,
    );
  });
});
