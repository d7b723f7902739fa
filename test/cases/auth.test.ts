/**
 * Cases from ../shared/cases/CASES.md that belong to OAuth authorization (issue 9).
 * Each test is named after its case id and asserts the case's "Right" values, against the fake
 * authorization server and MCP endpoint of test/fakes/authServer.ts.
 */
import { describe, expect, it } from 'vitest';
import { MemoryCredentialStore } from '../../src/auth/credentialStore.js';
import { AuthorizationRequiredError, InsufficientScopeError, OAuthError } from '../../src/auth/errors.js';
import type { AuthorizationCodeProviderOptions } from '../../src/auth/oauthOptions.js';
import type { OAuthProvider } from '../../src/auth/oauthProvider.js';
import { createHeadlessRedirectHandler } from '../../src/auth/redirectHandler.js';
import type { StoredTokens } from '../../src/auth/types.js';
import type { AuthRequestInfo } from '../../src/transport/http/auth.js';
import { HttpAuthError } from '../../src/transport/transportErrors.js';
import {
  startAuthPair,
  type FakeAuthorizationServer,
  type FakeAuthorizationServerOptions,
  type FakeProtectedMcpServer,
} from '../fakes/authServer.js';
import { request } from '../fakes/httpHarness.js';
import { authTestBed, codeFlowProvider } from '../auth/authTestBed.js';

const REDIRECT = 'http://localhost:3000/callback';

const { startPair, recordedTransport } = authTestBed();

function pair(asOptions: FakeAuthorizationServerOptions = {}, rsOptions: Parameters<typeof startAuthPair>[1] = {}) {
  return startPair(asOptions, rsOptions);
}

function provider(rs: FakeProtectedMcpServer, options: Partial<AuthorizationCodeProviderOptions> = {}): OAuthProvider {
  return codeFlowProvider(rs, { clientMetadata: { client_name: 'cases' }, ...options });
}

/** A transport with the provider, started; `call(id, name)` sends one tools/call and resolves with its result. */
async function transportFor(rs: FakeProtectedMcpServer, authProvider: OAuthProvider) {
  const { transport, recorded } = await recordedTransport(rs, authProvider);
  return {
    transport,
    call: async (id: number, name: string): Promise<any> => {
      await transport.send(request(id, 'tools/call', { name, arguments: {} }));
      return recorded.messages.find((m) => m.message.id === id)?.message.result;
    },
  };
}

/** Seeds a store as an earlier session left it: a registered public client and its tokens. */
function seed(
  as: FakeAuthorizationServer,
  rs: FakeProtectedMcpServer,
  store: MemoryCredentialStore,
  scopes: string[],
  resource = rs.url,
): StoredTokens {
  as.addClient('seeded-client', { method: 'none', redirectUris: [REDIRECT] });
  store.setClient(as.issuer, {
    issuer: as.issuer,
    clientId: 'seeded-client',
    tokenEndpointAuthMethod: 'none',
    redirectUris: [REDIRECT],
    registeredAt: 0,
  });
  const issued = as.issue({ scopes, clientId: 'seeded-client', resource });
  const tokens: StoredTokens = {
    issuer: as.issuer,
    resource,
    clientId: 'seeded-client',
    accessToken: issued.accessToken,
    refreshToken: issued.refreshToken,
    ...(scopes.length > 0 && { scope: scopes.join(' ') }),
    obtainedAt: 0,
  };
  store.setTokens(rs.url, tokens);
  return tokens;
}

/** A store that records every delete. */
class WatchedStore extends MemoryCredentialStore {
  deletes = 0;
  override deleteTokens(serverKey: string): void {
    this.deletes++;
    super.deleteTokens(serverKey);
  }
  override deleteClient(issuer: string): void {
    this.deletes++;
    super.deleteClient(issuer);
  }
}

function unauthorized(rejected: string): AuthRequestInfo['failure'] {
  return { status: 401, failure: 'unauthorized', challenges: [], bearer: { error: 'invalid_token' }, rejected };
}

describe('B42: concurrent 401s share a single refresh', () => {
  it('B42: 5 concurrent calls with an expired token → exactly one token-endpoint POST; each retried once with the new token', async () => {
    // As in the case: the metadata at the root, naming the host as the resource.
    const { as, rs } = await pair({}, { prm: 'root' });
    const store = new MemoryCredentialStore();
    const at1 = seed(as, rs, store, [], rs.origin);
    as.revoke(at1.accessToken); // expired for the server
    // Hold the refresh until all five requests and the metadata request reached the server.
    as.tokenGate = rs.http.waitForRequests(6);
    const oauth = provider(rs, { store });
    const { call } = await transportFor(rs, oauth);
    const results = await Promise.all([1, 2, 3, 4, 5].map((id) => call(id, 'read_file')));

    expect(results.map((r) => r.content[0].text)).toEqual(Array(5).fill('called read_file'));
    expect(as.tokenRequests).toHaveLength(1);
    expect(as.tokenRequests[0]!.params.get('grant_type')).toBe('refresh_token');
    expect(as.tokenRequests[0]!.params.get('refresh_token')).toBe(at1.refreshToken);
    expect(as.authorizations).toEqual([]);
    const stored = store.getTokens(rs.url)!;
    expect(stored.accessToken).not.toBe(at1.accessToken);
    expect(stored.refreshToken).not.toBe(at1.refreshToken);
    const at2 = `Bearer ${stored.accessToken}`;
    expect(rs.authorizations.filter((a) => a === `Bearer ${at1.accessToken}`)).toHaveLength(5);
    expect(rs.authorizations.filter((a) => a === at2)).toHaveLength(5);

    // A late 401 for a request sent with AT1 is retried with AT2: no second refresh, no discovery.
    const prmBefore = rs.prmRequests.length;
    const late = await oauth({
      url: rs.url,
      attempt: 2,
      failure: unauthorized(`Bearer ${at1.accessToken}`),
      signal: new AbortController().signal,
    });
    expect(late).toBe(at2);
    expect(as.tokenRequests).toHaveLength(1);
    expect(rs.prmRequests).toHaveLength(prmBefore);
  });

  it('B42: a process sharing the store picks up the tokens another one refreshed, without spending the refresh token again', async () => {
    const { as, rs } = await pair();
    const store = new MemoryCredentialStore();
    const at1 = seed(as, rs, store, []);
    as.revoke(at1.accessToken);
    const first = provider(rs, { store });
    const second = provider(rs, { store });
    expect(await second.getTokens()).toMatchObject({ accessToken: at1.accessToken }); // loaded AT1 too
    await (await transportFor(rs, first)).call(1, 'read_file');
    expect(as.tokenRequests).toHaveLength(1);
    await (await transportFor(rs, second)).call(1, 'read_file');
    expect(as.tokenRequests).toHaveLength(1);
    expect(rs.authorizations.at(-1)).toBe(`Bearer ${store.getTokens(rs.url)!.accessToken}`);
  });

  it('B42: a refresh the server refuses never deletes the stored credentials; a new authorization replaces them', async () => {
    const { as, rs } = await pair();
    const store = new WatchedStore();
    const at1 = seed(as, rs, store, []);
    as.revoke(at1.accessToken);
    // RT1 was already spent elsewhere: the server answers invalid_grant.
    await fetch(`${as.issuer}/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: at1.refreshToken!,
        client_id: 'seeded-client',
      }),
    });
    const beforeFlow: Array<StoredTokens | undefined> = [];
    const headless = createHeadlessRedirectHandler();
    const oauth = provider(rs, {
      store,
      redirectHandler: async (req) => {
        beforeFlow.push(store.getTokens(rs.url));
        return headless(req);
      },
    });
    const result = await (await transportFor(rs, oauth)).call(1, 'read_file');
    expect(result.content[0].text).toBe('called read_file');
    expect(as.grants('refresh_token')).toHaveLength(2); // ours, refused, after the one made elsewhere
    expect(beforeFlow).toEqual([
      expect.objectContaining({ accessToken: at1.accessToken, refreshToken: at1.refreshToken }),
    ]);
    expect(store.deletes).toBe(0);
    expect(store.getTokens(rs.url)?.accessToken).not.toBe(at1.accessToken);
  });

  it('B42: a refresh that fails for another reason (HTTP 500) fails the call and keeps every credential', async () => {
    const { as, rs } = await pair();
    const store = new WatchedStore();
    const at1 = seed(as, rs, store, []);
    as.revoke(at1.accessToken);
    as.tokenFailure = { status: 500, body: 'oops' };
    const error = await (await transportFor(rs, provider(rs, { store }))).call(1, 'read_file').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthError);
    expect((error as OAuthError).data.failure).toBe('token-request-failed');
    expect(store.deletes).toBe(0);
    expect(store.getTokens(rs.url)).toMatchObject({ accessToken: at1.accessToken, refreshToken: at1.refreshToken });
    expect(as.authorizations).toEqual([]);
  });

  it('B42: a token about to expire is refreshed before the request, once for concurrent requests', async () => {
    const { as, rs } = await pair({ expiresIn: 60 });
    let now = 1_000_000;
    const clock = { now: () => now };
    const oauth = provider(rs, { clock });
    const { call } = await transportFor(rs, oauth);
    await call(1, 'read_file');
    const first = (await oauth.getTokens())!;
    expect(first.expiresAt).toBe(1_000_000 + 60_000);
    now += 45_000; // within the 30 s skew
    await Promise.all([call(2, 'read_file'), call(3, 'read_file'), call(4, 'read_file')]);
    expect(as.grants('refresh_token')).toHaveLength(1);
    const second = (await oauth.getTokens())!;
    expect(second.accessToken).not.toBe(first.accessToken);
    expect(rs.authorizations.slice(-3)).toEqual(Array(3).fill(`Bearer ${second.accessToken}`));
  });
});

describe('B44: 403 insufficient_scope step-up', () => {
  const writeNeeds = (scopes: string[]) => (_method: string, params: any) =>
    params?.name === 'write_file' ? scopes : [];

  it.each([
    ['challenge lists both scopes', ['files:read', 'files:write']],
    ['variant: challenge lists files:write only', ['files:write']],
  ])(
    'B44 %s: authorization code flow for the union of granted and challenged scopes, then one retry',
    async (_label, challenged) => {
      const { as, rs } = await pair({}, { requiredScopes: writeNeeds(challenged) });
      const store = new MemoryCredentialStore();
      seed(as, rs, store, ['files:read']);
      const oauth = provider(rs, { store });
      const { call } = await transportFor(rs, oauth);
      const result = await call(1, 'write_file');
      expect(result.content[0].text).toBe('called write_file');
      expect(as.authorizations).toHaveLength(1);
      expect(as.authorizations[0]!.get('scope')!.split(' ').sort()).toEqual(['files:read', 'files:write']);
      expect(as.grants('refresh_token')).toEqual([]);
      expect(as.grants('authorization_code')).toHaveLength(1);
      expect(rs.mcpRequests).toHaveLength(2);
      expect((await oauth.getTokens())?.scope).toBe('files:read files:write');
    },
  );

  it('B44: a second 403 for scopes already granted stops with InsufficientScopeError listing them; no loop', async () => {
    // The server never accepts writes, whatever the token holds.
    const { as, rs } = await pair({}, (authServer) => ({
      requiredScopes: writeNeeds(['files:write']),
      verify: (token) => {
        const info = authServer.tokens.get(token);
        return info === undefined ? undefined : { ...info, scopes: info.scopes.filter((s) => s !== 'files:write') };
      },
    }));
    const store = new MemoryCredentialStore();
    seed(as, rs, store, ['files:read']);
    const oauth = provider(rs, { store });
    const { call } = await transportFor(rs, oauth);

    // Call 1: step-up, retried once; the retried token is refused too, and the transport lets
    // the provider say why (attempt 3): the typed error, in the same call.
    const first = await call(1, 'write_file').catch((e: unknown) => e);
    expect(first).toBeInstanceOf(InsufficientScopeError);
    expect((first as InsufficientScopeError).requiredScopes).toEqual(['files:write']);
    expect((first as InsufficientScopeError).data).toMatchObject({
      reason: 'already-granted',
      grantedScopes: ['files:read', 'files:write'],
    });
    expect(as.authorizations).toHaveLength(1);

    // Call 2: the token holds files:write already, so no new authorization.
    const second = await call(2, 'write_file').catch((e: unknown) => e);
    expect(second).toBeInstanceOf(InsufficientScopeError);
    expect((second as InsufficientScopeError).code).toBe(-33018);
    expect((second as InsufficientScopeError).requiredScopes).toEqual(['files:write']);
    expect((second as InsufficientScopeError).data).toMatchObject({
      reason: 'already-granted',
      grantedScopes: ['files:read', 'files:write'],
      errorDescription: 'Additional permission required',
    });
    expect(as.authorizations).toHaveLength(1);
    for (const error of [first, second]) expect(String((error as Error).message)).not.toMatch(/expired/i);

    // A transport that reports the refusal of the retried token (attempt 3) gets the typed error at once.
    const third = await oauth({
      url: rs.url,
      attempt: 3,
      failure: {
        status: 403,
        failure: 'insufficient_scope',
        challenges: [],
        bearer: { error: 'insufficient_scope', scope: 'files:write' },
        rejected: `Bearer ${(await oauth.getTokens())!.accessToken}`,
      },
      signal: new AbortController().signal,
    }).catch((e: unknown) => e);
    expect(third).toBeInstanceOf(InsufficientScopeError);
    expect(as.authorizations).toHaveLength(1);
  });

  it('B44: an authorization server that keeps withholding the scope: at most 2 step-ups (3 authorizations with the first) for one challenge', async () => {
    const { as, rs } = await pair(
      { grant: (requested) => requested.filter((s) => s !== 'files:write') },
      { requiredScopes: writeNeeds(['files:write']) },
    );
    const store = new MemoryCredentialStore();
    seed(as, rs, store, ['files:read']);
    const oauth = provider(rs, { store });
    const { call } = await transportFor(rs, oauth);
    const errors: unknown[] = [];
    for (let id = 1; id <= 5; id++) errors.push(await call(id, 'write_file').catch((e: unknown) => e));
    // Every call ends in the typed error, in the call itself; the step-ups stop at the limit.
    for (const error of errors) {
      expect(error).toBeInstanceOf(InsufficientScopeError);
      expect((error as InsufficientScopeError).data).toMatchObject({
        reason: 'retry-limit',
        requiredScopes: ['files:write'],
      });
    }
    expect(errors.slice(1).map((e) => (e as InsufficientScopeError).data)).toEqual(
      errors.slice(1).map(() => expect.objectContaining({ attempts: 2 })),
    );
    expect(as.authorizations).toHaveLength(2);
  });

  it('B44: a 403 without insufficient_scope is a plain forbidden error: no authorization flow', async () => {
    const { as, rs } = await pair({}, { forbidden: true });
    const store = new MemoryCredentialStore();
    seed(as, rs, store, ['files:read']);
    const oauth = provider(rs, { store });
    const attempts: number[] = [];
    const watched: OAuthProvider = Object.assign((info: AuthRequestInfo) => {
      attempts.push(info.attempt);
      return oauth(info);
    }, oauth);
    const error = await (await transportFor(rs, watched)).call(1, 'write_file').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpAuthError);
    expect((error as HttpAuthError).data.failure).toBe('forbidden');
    expect((error as HttpAuthError).message).not.toMatch(/expired/i);
    expect(attempts).toEqual([1]);
    expect(as.authorizations).toEqual([]);
    expect(as.tokenRequests).toEqual([]);
  });

  it('B44 headless: without a redirect handler, a structured error with the authorization URL and the scopes', async () => {
    const { as, rs } = await pair({}, { requiredScopes: writeNeeds(['files:write']) });
    const store = new MemoryCredentialStore();
    seed(as, rs, store, ['files:read']);
    const error = await (
      await transportFor(rs, provider(rs, { store, redirectHandler: undefined }))
    )
      .call(1, 'write_file')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthorizationRequiredError);
    const data = (error as AuthorizationRequiredError).data;
    expect(data.scopes).toEqual(['files:read', 'files:write']);
    expect(new URL(data.authorizationUrl).searchParams.get('scope')).toBe('files:read files:write');
    expect(data.issuer).toBe(as.issuer);
    expect((error as Error).message).not.toMatch(/expired/i);
  });
});
