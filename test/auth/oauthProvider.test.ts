/**
 * The OAuth provider over a real StreamableHttpTransport, against the fake authorization server
 * and the fake MCP endpoint behind bearer auth (test/fakes/authServer.ts): the authorization
 * code flow with PKCE, state, resource and iss, discovery variants, client identity (CIMD,
 * pre-registered, DCR), token endpoint authentication, authorization server migration, and the
 * provider's guards.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MemoryCredentialStore } from '../../src/auth/credentialStore.js';
import { AuthorizationRequiredError, OAuthError } from '../../src/auth/errors.js';
import type { AuthorizationCodeProviderOptions } from '../../src/auth/oauthOptions.js';
import { createOAuthProvider, type OAuthProvider } from '../../src/auth/oauthProvider.js';
import { createHeadlessRedirectHandler } from '../../src/auth/redirectHandler.js';
import type { RedirectHandler } from '../../src/auth/types.js';
import { InvalidArgumentError } from '../../src/errors/errors.js';
import { StreamableHttpTransport } from '../../src/transport/http/streamableHttp.js';
import { request, startRecording } from '../fakes/httpHarness.js';
import { authTestBed, codeFlowProvider } from './authTestBed.js';
import {
  FakeAuthorizationServer,
  FakeProtectedMcpServer,
  type FakeAuthorizationServerOptions,
  type FakeProtectedMcpServerOptions,
} from '../fakes/authServer.js';

const REDIRECT = 'http://localhost:3000/callback';
const CIMD_URL = 'https://conformance-test.local/client-metadata.json';

const { startPair, closeLater } = authTestBed();

async function pair(
  asOptions: FakeAuthorizationServerOptions = {},
  rsOptions: Partial<FakeProtectedMcpServerOptions> = {},
) {
  const started = await startPair(asOptions, rsOptions);
  return started;
}

function provider(rs: FakeProtectedMcpServer, options: Partial<AuthorizationCodeProviderOptions> = {}): OAuthProvider {
  return codeFlowProvider(rs, options);
}

/** Sends one tools/call through a transport with `authProvider`; resolves with the result or rejects. */
async function call(rs: FakeProtectedMcpServer, authProvider: OAuthProvider, name = 'read_file'): Promise<any> {
  const transport = new StreamableHttpTransport(rs.url, { authProvider, retry: false });
  const recorded = await startRecording(transport);
  try {
    await transport.send(request(1, 'tools/call', { name, arguments: {} }));
    return recorded.messages.at(-1)?.message.result;
  } finally {
    await transport.close();
  }
}

function challengeOf(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

describe('authorization code flow', () => {
  it('401 → metadata → registration → authorization with PKCE S256, state, resource → token → retry', async () => {
    const { as, rs } = await pair();
    const store = new MemoryCredentialStore();
    const oauth = provider(rs, { store });
    const result = await call(rs, oauth);
    expect(result.content[0].text).toBe('called read_file');

    expect(rs.prmRequests).toEqual(['/.well-known/oauth-protected-resource/mcp']);
    expect(as.metadataRequests).toEqual(['/.well-known/oauth-authorization-server']);
    expect(as.registrations).toHaveLength(1);
    expect(as.registrations[0]).toMatchObject({
      client_name: 'mcp-live tests',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
    });

    expect(as.authorizations).toHaveLength(1);
    const authorize = as.authorizations[0]!;
    expect(authorize.get('response_type')).toBe('code');
    expect(authorize.get('client_id')).toBe('client-1');
    expect(authorize.get('redirect_uri')).toBe(REDIRECT);
    expect(authorize.get('code_challenge_method')).toBe('S256');
    expect(authorize.get('resource')).toBe(rs.url);
    expect(authorize.get('state')!.length).toBeGreaterThanOrEqual(32);
    expect(authorize.has('scope')).toBe(false);

    expect(as.tokenRequests).toHaveLength(1);
    const token = as.tokenRequests[0]!.params;
    expect(token.get('grant_type')).toBe('authorization_code');
    expect(token.get('resource')).toBe(rs.url);
    expect(token.get('redirect_uri')).toBe(REDIRECT);
    expect(challengeOf(token.get('code_verifier')!)).toBe(authorize.get('code_challenge'));
    expect(token.get('client_id')).toBe('client-1');

    const stored = store.getTokens(rs.url)!;
    expect(stored).toMatchObject({ issuer: as.issuer, resource: rs.url, clientId: 'client-1' });
    expect(stored.refreshToken).toMatch(/^rt-/);
    expect(rs.authorizations).toEqual([undefined, `Bearer ${stored.accessToken}`]);
    expect(store.getClient(as.issuer)).toMatchObject({
      clientId: 'client-1',
      tokenEndpointAuthMethod: 'none',
      redirectUris: [REDIRECT],
    });
  });

  it('a second request carries the token at once: no discovery, no new flow', async () => {
    const { as, rs } = await pair();
    const oauth = provider(rs);
    await call(rs, oauth);
    await call(rs, oauth);
    expect(as.authorizations).toHaveLength(1);
    expect(rs.prmRequests).toHaveLength(1);
    expect(rs.authorizations).toHaveLength(3);
    expect(rs.authorizations[2]).toBe(rs.authorizations[1]);
  });

  it('authorize() logs in up front: the first request already carries the token', async () => {
    const { as, rs } = await pair({}, { scopesSupported: ['mcp:basic'] });
    const oauth = provider(rs);
    await oauth.authorize();
    expect(as.authorizations[0]!.get('scope')).toBe('mcp:basic');
    await call(rs, oauth);
    expect(rs.authorizations).toHaveLength(1);
    expect(rs.authorizations[0]).toMatch(/^Bearer at-/);
  });

  it.each([
    ['the challenge scope first', { challengeScope: 'mcp:basic', scopesSupported: ['mcp:profile'] }, {}, 'mcp:basic'],
    [
      'all of scopes_supported without a challenge scope',
      { scopesSupported: ['mcp:basic', 'mcp:read', 'mcp:write'] },
      {},
      'mcp:basic mcp:read mcp:write',
    ],
    ['no scope parameter when neither names one', {}, {}, null],
    [
      'offline_access when the authorization server lists it',
      { scopesSupported: ['mcp:basic'] },
      { scopesSupported: ['mcp:basic', 'offline_access'] },
      'mcp:basic offline_access',
    ],
    [
      'no offline_access when it does not',
      { scopesSupported: ['mcp:basic', 'mcp:read'] },
      { scopesSupported: ['mcp:basic', 'mcp:read'] },
      'mcp:basic mcp:read',
    ],
  ] as const)('scope selection: %s', async (_label, rsOptions, asOptions, expected) => {
    const { as, rs } = await pair(asOptions, rsOptions);
    await call(rs, provider(rs));
    expect(as.authorizations[0]!.get('scope')).toBe(expected);
  });
});

describe('discovery variants', () => {
  it('metadata-default: the path-based metadata named in the header; the root one is never asked', async () => {
    const { as, rs } = await pair();
    await call(rs, provider(rs));
    expect(rs.prmRequests).toEqual(['/.well-known/oauth-protected-resource/mcp']);
    expect(as.metadataRequests).toEqual(['/.well-known/oauth-authorization-server']);
  });

  it('var1: metadata not in the header is probed at the path-based URL; OpenID Connect discovery', async () => {
    const { as, rs } = await pair({ metadataAt: 'oidc' }, { advertisePrm: false });
    await call(rs, provider(rs));
    expect(rs.prmRequests).toEqual(['/.well-known/oauth-protected-resource/mcp']);
    expect(as.metadataRequests).toEqual([
      '/.well-known/oauth-authorization-server',
      '/.well-known/openid-configuration',
    ]);
    expect(as.tokenRequests).toHaveLength(1);
  });

  it('var2: root metadata after the path-based 404; issuer with a path; resource is the bare origin, byte for byte', async () => {
    const { as, rs } = await pair({ issuerPath: '/tenant1' }, { prm: 'root', advertisePrm: false });
    await call(rs, provider(rs));
    expect(rs.prmRequests).toEqual([
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-protected-resource',
    ]);
    expect(as.metadataRequests).toEqual(['/.well-known/oauth-authorization-server/tenant1']);
    expect(as.authorizations[0]!.get('resource')).toBe(rs.origin);
    expect(as.tokenRequests[0]!.params.get('resource')).toBe(rs.origin);
    expect(rs.origin.endsWith('/')).toBe(false);
  });

  it('var3: custom metadata path from the header; issuer path appended for OpenID Connect', async () => {
    const { as, rs } = await pair(
      { issuerPath: '/tenant1', metadataAt: 'oidc-append' },
      { prm: '/custom/metadata/location.json' },
    );
    await call(rs, provider(rs));
    expect(rs.prmRequests).toEqual(['/custom/metadata/location.json']);
    expect(as.metadataRequests).toEqual([
      '/.well-known/oauth-authorization-server/tenant1',
      '/.well-known/openid-configuration/tenant1',
      '/tenant1/.well-known/openid-configuration',
    ]);
    expect(as.authorizations[0]!.get('resource')).toBe(rs.url);
  });

  it('resource mismatch: the metadata is read, then nothing is registered, authorized or requested', async () => {
    const { as, rs } = await pair({}, { prmResource: 'https://evil.example.com/mcp' });
    const error = await call(rs, provider(rs)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthError);
    expect((error as OAuthError).data).toMatchObject({
      failure: 'resource-mismatch',
      actual: 'https://evil.example.com/mcp',
      expected: rs.url,
    });
    expect(rs.prmRequests).toEqual(['/.well-known/oauth-protected-resource/mcp']);
    expect(as.metadataRequests).toEqual([]);
    expect(as.registrations).toEqual([]);
    expect(as.authorizations).toEqual([]);
    expect(as.tokenRequests).toEqual([]);
  });

  it('metadata issuer mismatch: the metadata is fetched and none of its endpoints is used', async () => {
    const { as, rs } = await pair({ metadataIssuer: 'https://attacker.example.com' });
    const error = (await call(rs, provider(rs)).catch((e: unknown) => e)) as OAuthError;
    expect(error.data.failure).toBe('issuer-mismatch');
    expect(as.metadataRequests).toHaveLength(1);
    expect(as.registrations).toEqual([]);
    expect(as.authorizations).toEqual([]);
    expect(as.tokenRequests).toEqual([]);
  });
});

describe('client identity', () => {
  it('CIMD: the metadata document URL is the client_id; no registration', async () => {
    const { as, rs } = await pair({ cimd: true });
    await call(rs, provider(rs, { clientIdMetadataUrl: CIMD_URL }));
    expect(as.registrations).toEqual([]);
    expect(as.authorizations[0]!.get('client_id')).toBe(CIMD_URL);
    expect(as.tokenRequests[0]!.params.get('client_id')).toBe(CIMD_URL);
    expect(as.tokenRequests[0]!.params.has('client_secret')).toBe(false);
    expect(as.tokenRequests[0]!.authorization).toBeUndefined();
  });

  it('CIMD configured but not supported by the server: Dynamic Client Registration', async () => {
    const { as, rs } = await pair();
    await call(rs, provider(rs, { clientIdMetadataUrl: CIMD_URL }));
    expect(as.registrations).toHaveLength(1);
    expect(as.authorizations[0]!.get('client_id')).toBe('client-1');
  });

  it('pre-registered: used first, with the exact credentials in a Basic header', async () => {
    const pre = { clientId: 'pre-registered-client', clientSecret: 'pre-registered-secret' };
    const { as, rs } = await pair({
      registration: false,
      cimd: true,
      tokenEndpointAuthMethods: ['client_secret_basic'],
      preRegistered: { ...pre, method: 'client_secret_basic' },
    });
    await call(rs, provider(rs, { preRegistered: pre, clientIdMetadataUrl: CIMD_URL }));
    expect(as.authorizations[0]!.get('client_id')).toBe('pre-registered-client');
    const basic = as.tokenRequests[0]!.authorization!;
    expect(Buffer.from(basic.slice('Basic '.length), 'base64').toString('utf8')).toBe(
      'pre-registered-client:pre-registered-secret',
    );
    expect(as.tokenRequests[0]!.params.has('client_secret')).toBe(false);
  });

  it('pre-registered credentials pinned to another issuer are never shown to this one', async () => {
    const { as, rs } = await pair({ registration: false });
    const error = (await call(
      rs,
      provider(rs, { preRegistered: { clientId: 'other-client', clientSecret: 's', issuer: 'https://other.example' } }),
    ).catch((e: unknown) => e)) as OAuthError;
    expect(error).toBeInstanceOf(OAuthError);
    expect(error.data.failure).toBe('no-client-identity');
    expect(as.authorizations).toEqual([]);
    expect(as.tokenRequests).toEqual([]);
  });

  it('a dynamic registration is stored by issuer and reused by another provider sharing the store', async () => {
    const { as, rs } = await pair();
    const store = new MemoryCredentialStore();
    await call(rs, provider(rs, { store }));
    store.deleteTokens(rs.url);
    await call(rs, provider(rs, { store }));
    expect(as.registrations).toHaveLength(1);
    expect(as.authorizations.map((a) => a.get('client_id'))).toEqual(['client-1', 'client-1']);
  });

  it('application_type web for a remote https redirect URL', async () => {
    const { as, rs } = await pair();
    let redirectUrl: string | undefined;
    const handler: RedirectHandler = async (req) => {
      redirectUrl = req.redirectUrl;
      return undefined;
    };
    await call(
      rs,
      provider(rs, { redirectUrl: 'https://app.example.com/oauth/callback', redirectHandler: handler }),
    ).catch(() => undefined);
    expect(as.registrations[0]).toMatchObject({
      application_type: 'web',
      redirect_uris: ['https://app.example.com/oauth/callback'],
    });
    expect(redirectUrl).toBe('https://app.example.com/oauth/callback');
  });

  it.each([
    [
      'client_secret_basic',
      (r: { authorization: string | undefined; params: URLSearchParams }) =>
        r.authorization?.startsWith('Basic ') === true && !r.params.has('client_secret'),
    ],
    [
      'client_secret_post',
      (r: { authorization: string | undefined; params: URLSearchParams }) =>
        r.authorization === undefined &&
        r.params.get('client_secret') === 'secret-1' &&
        r.params.get('client_id') === 'client-1',
    ],
    [
      'none',
      (r: { authorization: string | undefined; params: URLSearchParams }) =>
        r.authorization === undefined && !r.params.has('client_secret') && r.params.get('client_id') === 'client-1',
    ],
  ] as const)('token endpoint authentication %s', async (method, shape) => {
    const { as, rs } = await pair({ tokenEndpointAuthMethods: [method], registrationMethod: method });
    await call(rs, provider(rs));
    expect(as.registrations[0].token_endpoint_auth_method).toBe(method);
    expect(as.tokenRequests).toHaveLength(1);
    expect(shape(as.tokenRequests[0]!)).toBe(true);
    expect(as.tokenRequests[0]!.params.get('resource')).toBe(rs.url);
    expect(rs.authorizations.at(-1)).toMatch(/^Bearer at-/);
  });
});

describe('authorization response checks (RFC 9207, state)', () => {
  it('iss advertised and correct: proceeds', async () => {
    const { as, rs } = await pair({ issParameterSupported: true, issInRedirect: 'correct' });
    await call(rs, provider(rs));
    expect(as.tokenRequests).toHaveLength(1);
  });

  it('iss not advertised and absent: proceeds', async () => {
    const { as, rs } = await pair({ issParameterSupported: null, issInRedirect: 'none' });
    await call(rs, provider(rs));
    expect(as.tokenRequests).toHaveLength(1);
  });

  it.each([
    ['advertised but missing', { issParameterSupported: true, issInRedirect: 'none' }, 'iss-missing'],
    ['advertised, wrong issuer', { issParameterSupported: true, issInRedirect: 'wrong' }, 'iss-mismatch'],
    ['not advertised, wrong issuer present', { issParameterSupported: null, issInRedirect: 'wrong' }, 'iss-mismatch'],
    [
      'issuer plus a trailing slash (no normalization)',
      { issParameterSupported: true, issInRedirect: 'normalized' },
      'iss-mismatch',
    ],
  ] as const)(
    '%s: the authorization endpoint is reached, the code is never redeemed',
    async (_label, asOptions, failure) => {
      const { as, rs } = await pair(asOptions);
      const error = (await call(rs, provider(rs)).catch((e: unknown) => e)) as OAuthError;
      expect(error).toBeInstanceOf(OAuthError);
      expect(error.data.failure).toBe(failure);
      expect(as.authorizations).toHaveLength(1);
      expect(as.tokenRequests).toEqual([]);
    },
  );

  it('a callback with another state is refused before the code is redeemed', async () => {
    const { as, rs } = await pair();
    const headless = createHeadlessRedirectHandler();
    const tampered: RedirectHandler = async (req) => {
      const url = new URL((await headless(req))!);
      url.searchParams.set('state', 'forged');
      return url;
    };
    const error = (await call(rs, provider(rs, { redirectHandler: tampered })).catch((e: unknown) => e)) as OAuthError;
    expect(error.data.failure).toBe('state-mismatch');
    expect(as.tokenRequests).toEqual([]);
  });

  it('a callback that is not the redirect URL is refused', async () => {
    const { as, rs } = await pair();
    const headless = createHeadlessRedirectHandler();
    const elsewhere: RedirectHandler = async (req) => (await headless(req))!.toString().replace('/callback', '/other');
    const error = (await call(rs, provider(rs, { redirectHandler: elsewhere })).catch((e: unknown) => e)) as OAuthError;
    expect(error.data.failure).toBe('invalid-callback');
    expect(as.tokenRequests).toEqual([]);
  });

  it('an error response with the right iss is reported as denied, with the server code', async () => {
    const { as, rs } = await pair();
    const denied: RedirectHandler = async (req) =>
      `${REDIRECT}?error=access_denied&error_description=no&state=${req.state}&iss=${encodeURIComponent(req.issuer)}`;
    const error = (await call(rs, provider(rs, { redirectHandler: denied })).catch((e: unknown) => e)) as OAuthError;
    expect(error.data).toMatchObject({
      failure: 'authorization-denied',
      error: 'access_denied',
      errorDescription: 'no',
    });
    expect(as.tokenRequests).toEqual([]);
  });

  it('an error response with a wrong iss is not acted on: no error code is reported', async () => {
    const { rs } = await pair();
    const forged: RedirectHandler = async (req) =>
      `${REDIRECT}?error=access_denied&error_description=phish&state=${req.state}&iss=https%3A%2F%2Fevil.example.com`;
    const error = (await call(rs, provider(rs, { redirectHandler: forged })).catch((e: unknown) => e)) as OAuthError;
    expect(error.data.failure).toBe('iss-mismatch');
    expect(error.data.error).toBeUndefined();
    expect(error.message).not.toContain('phish');
  });
});

describe('no redirect handler', () => {
  it('fails with AuthorizationRequiredError carrying the URL; completeAuthorization() finishes the flow', async () => {
    const { as, rs } = await pair({}, { challengeScope: 'mcp:basic' });
    const oauth = provider(rs, { redirectHandler: undefined });
    const error = (await call(rs, oauth).catch((e: unknown) => e)) as AuthorizationRequiredError;
    expect(error).toBeInstanceOf(AuthorizationRequiredError);
    expect(error.code).toBe(-33019);
    expect(error.data).toMatchObject({
      reason: 'no-redirect-handler',
      scopes: ['mcp:basic'],
      issuer: as.issuer,
      resource: rs.url,
    });
    const url = new URL(error.data.authorizationUrl);
    expect(url.searchParams.get('scope')).toBe('mcp:basic');
    expect(as.authorizations).toEqual([]);

    // The user authorizes in a browser; the host hands the redirect back.
    const callback = await createHeadlessRedirectHandler()({
      authorizationUrl: url,
      redirectUrl: REDIRECT,
      state: url.searchParams.get('state')!,
      scopes: [],
      issuer: as.issuer,
      signal: new AbortController().signal,
    });
    await oauth.completeAuthorization(callback!);
    expect(as.tokenRequests).toHaveLength(1);
    const result = await call(rs, oauth);
    expect(result.content[0].text).toBe('called read_file');
    await expect(oauth.completeAuthorization(callback!)).rejects.toMatchObject({
      data: { failure: 'invalid-callback' },
    });
  });

  it('a handler that declines gives the same error with reason declined', async () => {
    const { rs } = await pair();
    const error = (await call(rs, provider(rs, { redirectHandler: async () => undefined })).catch(
      (e: unknown) => e,
    )) as AuthorizationRequiredError;
    expect(error).toBeInstanceOf(AuthorizationRequiredError);
    expect(error.data.reason).toBe('declined');
  });
});

describe('authorization server migration', () => {
  it('re-discovers on 401, registers with the new server, never shows it the old client id', async () => {
    const as1 = await FakeAuthorizationServer.start({ clientIdPrefix: 'as1-client-' });
    const as2 = await FakeAuthorizationServer.start();
    let current = as1;
    const rs = await FakeProtectedMcpServer.start({
      authorizationServers: () => [current.issuer],
      verify: (token) => current.tokens.get(token),
      challengeScope: 'mcp:basic',
    });
    closeLater(
      () => as1.close(),
      () => as2.close(),
      () => rs.close(),
    );
    const store = new MemoryCredentialStore();
    const oauth = provider(rs, { store });
    await call(rs, oauth);
    const firstClient = as1.authorizations[0]!.get('client_id');
    expect(firstClient).toBe('as1-client-1');
    current = as2;
    await call(rs, oauth);

    expect(as2.registrations).toHaveLength(1);
    const as2ClientIds = [
      ...as2.authorizations.map((a) => a.get('client_id')),
      ...as2.tokenRequests.map((r) => r.params.get('client_id')),
    ];
    expect(as2ClientIds).not.toContain(firstClient);
    expect(as2ClientIds.every((id) => id === 'client-1')).toBe(true);
    expect(rs.prmRequests).toHaveLength(2);
    expect(store.getClient(as1.issuer)?.clientId).toBe(firstClient);
    expect(store.getClient(as2.issuer)?.issuer).toBe(as2.issuer);
    expect(store.getTokens(rs.url)?.issuer).toBe(as2.issuer);
  });
});

describe('provider guards', () => {
  it('refuses a transport for another URL: its tokens are never sent elsewhere', async () => {
    const { rs } = await pair();
    const oauth = provider(rs);
    await expect(
      oauth({ url: `${rs.origin}/other`, attempt: 1, signal: new AbortController().signal }),
    ).rejects.toBeInstanceOf(InvalidArgumentError);
  });

  it('validates its options', () => {
    const base = { serverUrl: 'https://mcp.example/mcp', clientMetadata: { client_name: 'x' }, redirectUrl: REDIRECT };
    expect(() => createOAuthProvider({ ...base, redirectUrl: 'http://app.example.com/cb' })).toThrow(
      InvalidArgumentError,
    );
    expect(() => createOAuthProvider({ ...base, clientIdMetadataUrl: 'http://x.example/c.json' })).toThrow(
      InvalidArgumentError,
    );
    expect(() => createOAuthProvider({ ...base, clientIdMetadataUrl: 'https://x.example/' })).toThrow(
      InvalidArgumentError,
    );
    expect(() => createOAuthProvider({ ...base, serverUrl: 'ftp://x' })).toThrow(InvalidArgumentError);
    expect(() => createOAuthProvider({ ...base, maxStepUps: 0 })).toThrow(InvalidArgumentError);
    expect(createOAuthProvider({ ...base, redirectUrl: 'com.example.app:/callback' }).serverUrl).toBe(
      'https://mcp.example/mcp',
    );
  });

  it('signOut() forgets the tokens here and in the store; the next request authorizes again', async () => {
    const { as, rs } = await pair();
    const store = new MemoryCredentialStore();
    const oauth = provider(rs, { store });
    await call(rs, oauth);
    await oauth.signOut();
    expect(store.getTokens(rs.url)).toBeUndefined();
    expect(await oauth.getTokens()).toBeUndefined();
    await call(rs, oauth);
    expect(as.authorizations).toHaveLength(2);
  });

  it('tokens found in the store are sent on the first request', async () => {
    const { as, rs } = await pair();
    const store = new MemoryCredentialStore();
    const issued = as.issue({ scopes: [], clientId: 'c', resource: rs.url });
    store.setTokens(rs.url, { issuer: as.issuer, resource: rs.url, accessToken: issued.accessToken, obtainedAt: 0 });
    await call(rs, provider(rs, { store }));
    expect(rs.authorizations).toEqual([`Bearer ${issued.accessToken}`]);
    expect(as.authorizations).toEqual([]);
  });
});
