/**
 * Authorization server discovery (spec: basic/authorization/authorization-server-discovery):
 * protected resource metadata URLs and the resource check (RFC 9728), authorization server
 * metadata URLs with path insertion (RFC 8414, OpenID Connect Discovery), exact issuer and PKCE
 * checks. Against the fake authorization server on 127.0.0.1.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  authorizationServerMetadataUrls,
  discoverAuthorizationServer,
  discoverResourceMetadata,
  resourceCoversServer,
  resourceMetadataUrls,
} from '../../src/auth/discovery.js';
import { OAuthError } from '../../src/auth/errors.js';
import type { HttpContext } from '../../src/auth/types.js';
import {
  FakeAuthorizationServer,
  FakeProtectedMcpServer,
  type FakeAuthorizationServerOptions,
  type FakeProtectedMcpServerOptions,
} from '../fakes/authServer.js';

const http: HttpContext = {
  fetch: (url, init) => fetch(url, init),
  allowInsecureHttp: false,
  signal: new AbortController().signal,
};

describe('protected resource metadata URLs', () => {
  it('tries the advertised URL, then the path-based, then the root well-known URL', () => {
    expect(resourceMetadataUrls(new URL('https://h.example/public/mcp'), 'https://h.example/custom/prm.json')).toEqual([
      'https://h.example/custom/prm.json',
      'https://h.example/.well-known/oauth-protected-resource/public/mcp',
      'https://h.example/.well-known/oauth-protected-resource',
    ]);
  });

  it('has only the root URL for a server at the root, and ignores an unusable advertised value', () => {
    expect(resourceMetadataUrls(new URL('https://h.example'), 'javascript:alert(1)')).toEqual([
      'https://h.example/.well-known/oauth-protected-resource',
    ]);
  });
});

describe('resourceCoversServer', () => {
  const server = new URL('http://localhost:3000/mcp');
  it.each([
    ['http://localhost:3000/mcp', true],
    ['http://localhost:3000', true],
    ['http://localhost:3000/', true],
    ['HTTP://LOCALHOST:3000/mcp', true],
    ['http://localhost:3000/mcp/', true],
    ['https://evil.example.com/mcp', false],
    ['http://localhost:3001/mcp', false],
    ['https://localhost:3000/mcp', false],
    ['http://localhost:3000/other', false],
    ['http://localhost:3000/mc', false],
    ['http://localhost:3000/mcp/deeper', false],
    ['http://localhost:3000/mcp#frag', false],
    ['not a url', false],
  ])('%s → %s', (resource, covers) => {
    expect(resourceCoversServer(resource, server)).toBe(covers);
  });
});

describe('authorization server metadata URLs', () => {
  it('inserts the issuer path for OAuth and OpenID Connect, then appends it for OpenID Connect', () => {
    expect(authorizationServerMetadataUrls(new URL('https://auth.example.com/tenant1'))).toEqual([
      'https://auth.example.com/.well-known/oauth-authorization-server/tenant1',
      'https://auth.example.com/.well-known/openid-configuration/tenant1',
      'https://auth.example.com/tenant1/.well-known/openid-configuration',
    ]);
  });

  it('tries OAuth then OpenID Connect for an issuer without a path', () => {
    expect(authorizationServerMetadataUrls(new URL('https://auth.example.com'))).toEqual([
      'https://auth.example.com/.well-known/oauth-authorization-server',
      'https://auth.example.com/.well-known/openid-configuration',
    ]);
  });
});

describe('discovery against fakes', () => {
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((close) => close()));
  });
  async function authServer(options: FakeAuthorizationServerOptions): Promise<FakeAuthorizationServer> {
    const as = await FakeAuthorizationServer.start(options);
    closers.push(() => as.close());
    return as;
  }
  async function resourceServer(options: Partial<FakeProtectedMcpServerOptions>): Promise<FakeProtectedMcpServer> {
    const rs = await FakeProtectedMcpServer.start({
      authorizationServers: () => ['https://as.example'],
      verify: () => undefined,
      ...options,
    });
    closers.push(() => rs.close());
    return rs;
  }

  it('path-based metadata: read at the path-based URL, the root never asked', async () => {
    const rs = await resourceServer({});
    const found = await discoverResourceMetadata(new URL(rs.url), undefined, http);
    expect(found).toEqual({
      metadataUrl: `${rs.origin}/.well-known/oauth-protected-resource/mcp`,
      resource: rs.url,
      authorizationServers: ['https://as.example'],
      scopesSupported: undefined,
    });
    expect(rs.prmRequests).toEqual(['/.well-known/oauth-protected-resource/mcp']);
  });

  it('root metadata: path-based 404 first, then the root; resource kept byte for byte (no trailing slash)', async () => {
    const rs = await resourceServer({ prm: 'root', scopesSupported: ['mcp:basic'] });
    const found = await discoverResourceMetadata(new URL(rs.url), undefined, http);
    expect(rs.prmRequests).toEqual([
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-protected-resource',
    ]);
    expect(found.resource).toBe(rs.origin);
    expect(found.resource.endsWith('/')).toBe(false);
    expect(found.scopesSupported).toEqual(['mcp:basic']);
  });

  it('custom metadata path: only the advertised URL', async () => {
    const rs = await resourceServer({ prm: '/custom/metadata/location.json' });
    const found = await discoverResourceMetadata(new URL(rs.url), `${rs.origin}/custom/metadata/location.json`, http);
    expect(found.metadataUrl).toBe(`${rs.origin}/custom/metadata/location.json`);
    expect(rs.prmRequests).toEqual(['/custom/metadata/location.json']);
  });

  it('refuses metadata for another resource, after reading it', async () => {
    const rs = await resourceServer({ prmResource: 'https://evil.example.com/mcp' });
    const error = await discoverResourceMetadata(new URL(rs.url), undefined, http).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthError);
    expect((error as OAuthError).data).toMatchObject({
      failure: 'resource-mismatch',
      expected: rs.url,
      actual: 'https://evil.example.com/mcp',
    });
    expect(rs.prmRequests).toEqual(['/.well-known/oauth-protected-resource/mcp']);
  });

  it('reports every URL tried when none has metadata', async () => {
    const rs = await resourceServer({ prm: '/elsewhere' });
    const error = (await discoverResourceMetadata(new URL(rs.url), undefined, http).catch(
      (e: unknown) => e,
    )) as OAuthError;
    expect(error.data.failure).toBe('metadata-not-found');
    expect(error.data.tried).toEqual([
      { url: `${rs.origin}/.well-known/oauth-protected-resource/mcp`, status: 404 },
      { url: `${rs.origin}/.well-known/oauth-protected-resource`, status: 404 },
    ]);
  });

  it.each([
    ['oauth', ['/.well-known/oauth-authorization-server']],
    ['oidc', ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']],
  ] as const)('issuer without a path, metadata at the %s URL', async (metadataAt, paths) => {
    const as = await authServer({ metadataAt });
    const metadata = await discoverAuthorizationServer(as.issuer, http);
    expect(metadata.issuer).toBe(as.issuer);
    expect(as.metadataRequests).toEqual(paths);
  });

  it.each([
    ['oauth', ['/.well-known/oauth-authorization-server/tenant1']],
    ['oidc', ['/.well-known/oauth-authorization-server/tenant1', '/.well-known/openid-configuration/tenant1']],
    [
      'oidc-append',
      [
        '/.well-known/oauth-authorization-server/tenant1',
        '/.well-known/openid-configuration/tenant1',
        '/tenant1/.well-known/openid-configuration',
      ],
    ],
  ] as const)('issuer with a path, metadata at the %s URL; the root URL is never asked', async (metadataAt, paths) => {
    const as = await authServer({ issuerPath: '/tenant1', metadataAt });
    const metadata = await discoverAuthorizationServer(as.issuer, http);
    expect(metadata.issuer).toBe(`${as.origin}/tenant1`);
    expect(as.metadataRequests).toEqual(paths);
  });

  it('refuses metadata naming another issuer, and uses none of its endpoints', async () => {
    const as = await authServer({ metadataIssuer: 'https://attacker.example.com' });
    const error = (await discoverAuthorizationServer(as.issuer, http).catch((e: unknown) => e)) as OAuthError;
    expect(error).toBeInstanceOf(OAuthError);
    expect(error.data.failure).toBe('issuer-mismatch');
    expect(as.metadataRequests).toEqual(['/.well-known/oauth-authorization-server']);
  });

  it('compares the issuer exactly: a trailing slash is a mismatch', async () => {
    const as = await authServer({});
    const error = (await discoverAuthorizationServer(`${as.issuer}/`, http).catch((e: unknown) => e)) as OAuthError;
    expect(error.data).toMatchObject({ failure: 'issuer-mismatch', expected: `${as.issuer}/`, actual: as.issuer });
  });

  it('refuses an authorization server without S256 PKCE', async () => {
    for (const codeChallengeMethods of [null, ['plain']]) {
      const as = await authServer({ codeChallengeMethods });
      const error = (await discoverAuthorizationServer(as.issuer, http).catch((e: unknown) => e)) as OAuthError;
      expect(error.data.failure).toBe('pkce-unsupported');
    }
  });

  it('refuses a plain-http authorization server off loopback unless allowed', async () => {
    const error = (await discoverAuthorizationServer('http://auth.example.com', http).catch(
      (e: unknown) => e,
    )) as OAuthError;
    expect(error).toBeInstanceOf(OAuthError);
    expect(error.data.failure).toBe('insecure-endpoint');
  });
});
