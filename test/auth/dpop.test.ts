/**
 * DPoP (RFC 9449; MCP extension auth/dpop) through the OAuth provider and a real
 * StreamableHttpTransport, against the fake authorization server and MCP endpoint, which check
 * every proof as RFC 9449 §4.3 says (signature, typ, jwk, htm, htu, iat, jti, ath, cnf.jkt):
 * proofs on token requests and on every MCP request, the DPoP scheme, both servers' nonces
 * retried once, the host's own key pair, the key binding of stored tokens, and bearer tokens
 * from servers without DPoP.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MemoryCredentialStore } from '../../src/auth/credentialStore.js';
import type { AuthorizationCodeProviderOptions, OAuthProviderOptions } from '../../src/auth/oauthOptions.js';
import { createOAuthProvider, type OAuthProvider } from '../../src/auth/oauthProvider.js';
import { InvalidArgumentError } from '../../src/errors/errors.js';
import { request } from '../fakes/httpHarness.js';
import { authTestBed, call, codeFlowProvider, nextId } from './authTestBed.js';
import {
  type FakeAuthorizationServerOptions,
  type FakeProtectedMcpServer,
  type FakeProtectedMcpServerOptions,
} from '../fakes/authServer.js';
import { jwkThumbprint } from '../fakes/jwt.js';

const { startPair, transportFor } = authTestBed();

async function pair(
  asOptions: FakeAuthorizationServerOptions = { dpop: {} },
  rsOptions: Partial<FakeProtectedMcpServerOptions> = { dpop: {} },
) {
  const started = await startPair(asOptions, rsOptions);
  return started;
}

function provider(rs: FakeProtectedMcpServer, options: Partial<AuthorizationCodeProviderOptions> = {}): OAuthProvider {
  return codeFlowProvider(rs, { dpop: true, ...options });
}

const ath = (token: string) => createHash('sha256').update(token).digest('base64url');

async function hostKeyPair(): Promise<CryptoKeyPair & { jkt: string }> {
  const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
  return Object.assign(pair, { jkt: jwkThumbprint(await crypto.subtle.exportKey('jwk', pair.publicKey)) });
}

describe('DPoP', () => {
  it('proves the token request and every MCP request; the token is presented with the DPoP scheme', async () => {
    const { as, rs } = await pair();
    const oauth = provider(rs);
    const transport = await transportFor(rs, oauth);
    await call(transport);
    await call(transport);
    await transport.send(request(nextId(), 'tools/list'));

    // The token request: a proof for POST <token endpoint>, no ath.
    expect(as.dpopFailures).toEqual([]);
    expect(as.dpopProofs).toHaveLength(1);
    expect(as.dpopProofs[0]!.payload).toMatchObject({ htm: 'POST', htu: `${as.issuer}/token` });
    expect(as.dpopProofs[0]!.payload['ath']).toBeUndefined();
    const tokens = (await oauth.getTokens())!;
    expect(tokens).toMatchObject({ tokenType: 'DPoP', dpopJkt: as.dpopProofs[0]!.jkt });

    // The MCP requests: DPoP scheme, a proof each, bound to the token's key, fresh jti.
    expect(rs.authorizations).toEqual([undefined, ...Array(3).fill(`DPoP ${tokens.accessToken}`)]);
    expect(rs.dpopFailures).toEqual([]);
    expect(rs.dpopProofs).toHaveLength(3);
    for (const proof of rs.dpopProofs) {
      expect(proof.header).toMatchObject({ typ: 'dpop+jwt', alg: 'ES256' });
      expect(proof.header['jwk']['d']).toBeUndefined();
      expect(proof.payload).toMatchObject({ htm: 'POST', htu: rs.url, ath: ath(tokens.accessToken) });
      expect(proof.jkt).toBe(tokens.dpopJkt);
    }
    expect(new Set(rs.dpopProofs.map((p) => p.payload['jti'])).size).toBe(3);
  });

  it('retries once with the nonce of the authorization server and of the MCP server, then keeps using it', async () => {
    const { as, rs } = await pair({ dpop: { requireNonce: true } }, { dpop: { requireNonce: true } });
    const oauth = provider(rs);
    const transport = await transportFor(rs, oauth);
    await call(transport);
    // Token endpoint: without nonce (400 use_dpop_nonce), then with it.
    expect(as.tokenRequests.map((r) => r.params.get('grant_type'))).toEqual([
      'authorization_code',
      'authorization_code',
    ]);
    expect(as.dpopProofs.map((p) => p.payload['nonce'])).toEqual(['as-nonce-1']);
    // MCP server: 401 (no token), 401 use_dpop_nonce, then 200 with the nonce.
    const token = (await oauth.getTokens())!.accessToken;
    expect(rs.authorizations).toEqual([undefined, `DPoP ${token}`, `DPoP ${token}`]);
    expect(rs.dpopProofs.map((p) => p.payload['nonce'])).toEqual(['rs-nonce-1']);

    // The next request carries the nonce straight away; a rotated nonce costs one more retry.
    await call(transport);
    expect(rs.authorizations).toHaveLength(4);
    rs.dpopNonce = 'rs-nonce-2';
    await call(transport);
    expect(rs.authorizations).toHaveLength(6);
    expect(rs.dpopProofs.map((p) => p.payload['nonce'])).toEqual(['rs-nonce-1', 'rs-nonce-1', 'rs-nonce-2']);
    expect(as.tokenRequests).toHaveLength(2);
  });

  it('concurrent requests that all meet a new MCP server nonce each retry once: no new token', async () => {
    const { as, rs } = await pair({ dpop: {} }, { dpop: { requireNonce: true } });
    const oauth = provider(rs);
    const transport = await transportFor(rs, oauth);
    await call(transport);
    const tokenRequests = as.tokenRequests.length;
    rs.dpopNonce = 'rs-nonce-2';
    await Promise.all(Array.from({ length: 5 }, () => call(transport)));
    expect(as.tokenRequests).toHaveLength(tokenRequests);
    expect(rs.dpopProofs.slice(-5).map((p) => p.payload['nonce'])).toEqual(Array(5).fill('rs-nonce-2'));
  });

  it("signs with the host's own key pair, loaded once; a refresh is proved with it too", async () => {
    const { as, rs } = await pair({ dpop: {}, expiresIn: 60 });
    const key = await hostKeyPair();
    let loads = 0;
    let now = 1_000_000;
    const oauth = provider(rs, {
      dpop: { keyPair: async () => (loads++, key) },
      clock: { now: () => now },
    });
    const transport = await transportFor(rs, oauth);
    await call(transport);
    now += 45_000; // within the 30 s refresh skew
    await call(transport);
    expect(loads).toBe(1);
    expect(as.grants('refresh_token')).toHaveLength(1);
    expect(as.dpopProofs.map((p) => p.jkt)).toEqual([key.jkt, key.jkt]);
    expect(rs.dpopProofs.map((p) => p.jkt)).toEqual([key.jkt, key.jkt]);
    expect((await oauth.getTokens())!.dpopJkt).toBe(key.jkt);
  });

  it('stored DPoP tokens are used only by a provider holding the same key', async () => {
    const { as, rs } = await pair();
    const key = await hostKeyPair();
    const store = new MemoryCredentialStore();
    await call(await transportFor(rs, provider(rs, { store, dpop: { keyPair: key } })));
    expect(as.tokenRequests).toHaveLength(1);

    // Same key (a restart with a key store): the stored token is sent at once.
    await call(await transportFor(rs, provider(rs, { store, dpop: { keyPair: key } })));
    expect(as.tokenRequests).toHaveLength(1);
    // Another key, or no DPoP: the stored token cannot be proved; a new one is obtained.
    await call(await transportFor(rs, provider(rs, { store, dpop: true })));
    expect(as.tokenRequests.filter((r) => r.params.get('grant_type') === 'authorization_code')).toHaveLength(2);
    const shared = { ...store.getTokens(rs.url)! };
    expect(shared.tokenType).toBe('DPoP');
    const plain = new MemoryCredentialStore();
    plain.setTokens(rs.url, shared);
    const bearerOnly = provider(rs, { store: plain, dpop: false });
    expect(await bearerOnly.getTokens()).toBeUndefined();
    await call(await transportFor(rs, bearerOnly));
    expect(as.tokenRequests.filter((r) => r.params.get('grant_type') === 'authorization_code')).toHaveLength(3);
    expect(rs.authorizations.at(-1)).toMatch(/^Bearer /);
    expect(rs.dpopFailures).toEqual([]);
  });

  it('a server without DPoP issues bearer tokens: presented as Bearer, with no proof', async () => {
    const { as, rs } = await pair({}, {});
    const oauth = provider(rs);
    await call(await transportFor(rs, oauth));
    expect(as.tokenRequests[0]!.dpop).toBeDefined(); // offered; the server ignored it
    const tokens = (await oauth.getTokens())!;
    expect(tokens.tokenType).toBeUndefined();
    expect(rs.authorizations.at(-1)).toBe(`Bearer ${tokens.accessToken}`);
    expect(rs.mcpRequests.at(-1)!.headers['dpop']).toBeUndefined();
  });

  it('works with a grant without a browser: client credentials bound to the key', async () => {
    const { as, rs } = await pair({
      dpop: {},
      grantTypes: ['client_credentials'],
      tokenEndpointAuthMethods: ['client_secret_basic'],
      preRegistered: { clientId: 'svc', clientSecret: 's3cret', method: 'client_secret_basic' },
      clientCredentials: () => ({ scopes: [] }),
    });
    const options: OAuthProviderOptions = {
      serverUrl: rs.url,
      grant: { type: 'client_credentials' },
      preRegistered: { clientId: 'svc', clientSecret: 's3cret' },
      dpop: true,
    };
    const oauth = createOAuthProvider(options);
    await call(await transportFor(rs, oauth));
    expect(as.dpopProofs).toHaveLength(1);
    expect(rs.dpopProofs).toHaveLength(1);
    expect(rs.authorizations.at(-1)).toBe(`DPoP ${(await oauth.getTokens())!.accessToken}`);
  });

  it('a key pair that cannot sign fails the request with InvalidArgumentError, and is not shown', async () => {
    const { rs } = await pair();
    const { publicKey } = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
      'sign',
      'verify',
    ]);
    expect(() => provider(rs, { dpop: { keyPair: { publicKey, privateKey: publicKey } } })).toThrow(
      InvalidArgumentError,
    );
    const oauth = provider(rs, { dpop: { keyPair: async () => ({ publicKey, privateKey: publicKey }) } });
    const error = await call(await transportFor(rs, oauth)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as InvalidArgumentError).message).toMatch(/dpop.keyPair/);
  });
});
