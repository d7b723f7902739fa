/**
 * The OAuth code loads on a provider's first use: `createOAuthProvider` checks its options at
 * once and loads the flows (and `oauth4webapi`) through `onDemand('oauth', …)` on its first
 * call. A failed load is ModuleLoadError (-33042) with nothing sent, and the next call loads
 * again and runs the flow, against the fake authorization server and MCP endpoint. The failure
 * is injected through the provider's loader (`oauthProviderOn`), with no module mock.
 */
import { describe, expect, it } from 'vitest';
import { resolveOAuthOptions, type OAuthProviderOptions } from '../../src/auth/oauthOptions.js';
import { createOAuthProvider, oauthProviderOn, type OAuthProvider } from '../../src/auth/oauthProvider.js';
import type { OAuthSession } from '../../src/auth/oauthSession.lazy.js';
import { createHeadlessRedirectHandler } from '../../src/auth/redirectHandler.js';
import { InvalidArgumentError } from '../../src/errors/errors.js';
import { ModuleLoadError, onDemand } from '../../src/errors/moduleLoad.js';
import type { FakeProtectedMcpServer } from '../fakes/authServer.js';
import { authTestBed, call } from './authTestBed.js';

const { startPair, recordedTransport } = authTestBed();

/** A failed `import()` of a chunk, as a browser reports it. */
const chunkMissing = new TypeError('Failed to fetch dynamically imported module: chunk-OAUTH.js');

/** The loader `createOAuthProvider` uses, whose first `failures` loads fail with {@link chunkMissing}. */
function flakyLoader(failures: number): { load: () => Promise<typeof OAuthSession>; attempts: () => number } {
  let attempts = 0;
  const load = onDemand('oauth', async () => {
    attempts += 1;
    if (attempts <= failures) throw chunkMissing;
    return (await import('../../src/auth/oauthSession.lazy.js')).OAuthSession;
  });
  return { load, attempts: () => attempts };
}

function options(rs: FakeProtectedMcpServer, extra: Partial<OAuthProviderOptions> = {}): OAuthProviderOptions {
  return {
    serverUrl: rs.url,
    clientMetadata: { client_name: 'mcp-live tests' },
    redirectUrl: 'http://localhost:3000/callback',
    redirectHandler: createHeadlessRedirectHandler(),
    ...extra,
  } as OAuthProviderOptions;
}

async function failure(promise: Promise<unknown>): Promise<ModuleLoadError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ModuleLoadError);
  return error as ModuleLoadError;
}

describe('the OAuth code on demand', () => {
  it('a failed load fails the request with ModuleLoadError (-33042, module "oauth") and sends nothing; the next request loads and authorizes', async () => {
    const { as, rs } = await startPair();
    const { load, attempts } = flakyLoader(1);
    const oauth = oauthProviderOn(resolveOAuthOptions(options(rs)), load);
    const { transport } = await recordedTransport(rs, oauth);

    const error = await failure(call(transport));
    expect(error.code).toBe(-33042);
    expect(error.data).toEqual({ module: 'oauth' });
    expect(error.cause).toBe(chunkMissing);
    expect(rs.http.requests).toEqual([]);
    expect(as.http.requests).toEqual([]);

    await call(transport);
    expect(attempts()).toBe(2);
    expect(rs.authorizations).toHaveLength(2);
    expect(rs.authorizations[0]).toBeUndefined();
    expect(rs.authorizations[1]).toMatch(/^Bearer /);
    expect(as.registrations).toHaveLength(1);
    expect(as.authorizations).toHaveLength(1);
    expect((await oauth.getTokens())?.accessToken).toBe(rs.authorizations[1]!.slice('Bearer '.length));
  });

  it('every method of the provider fails alike until the load succeeds', async () => {
    const { as, rs } = await startPair();
    const { load, attempts } = flakyLoader(3);
    const oauth: OAuthProvider = oauthProviderOn(resolveOAuthOptions(options(rs)), load);
    expect(oauth.serverUrl).toBe(rs.url);

    expect((await failure(oauth.authorize())).data.module).toBe('oauth');
    expect((await failure(oauth.getTokens())).data.module).toBe('oauth');
    expect((await failure(oauth.signOut())).data.module).toBe('oauth');
    expect(as.http.requests).toEqual([]);

    await oauth.authorize();
    expect(attempts()).toBe(4);
    expect((await oauth.getTokens())?.issuer).toBe(as.issuer);
    expect(as.authorizations).toHaveLength(1);
  });

  it('a DPoP provider fails its first proof alike and proves once loaded', async () => {
    const { rs } = await startPair({ dpop: {} }, { dpop: {} });
    const { load } = flakyLoader(1);
    const oauth = oauthProviderOn(resolveOAuthOptions(options(rs, { dpop: true })), load);
    const proof = oauth.requestProof!;
    const answer = { url: rs.url, status: 401, header: () => undefined };
    expect(proof.response(answer)).toBe(false);
    const request = {
      method: 'POST',
      url: rs.url,
      authorization: 'DPoP token',
      signal: new AbortController().signal,
    };
    expect((await failure(proof.headers(request))).data.module).toBe('oauth');
    expect(Object.keys(await proof.headers(request))).toEqual(['dpop']);
  });

  it('createOAuthProvider checks its options at once, before anything loads', () => {
    expect(() =>
      createOAuthProvider({ serverUrl: 'ftp://mcp.example', grant: { type: 'client_credentials' } }),
    ).toThrow(InvalidArgumentError);
  });
});
