/**
 * The grants built on a JWT the host supplies, over a real StreamableHttpTransport against the
 * fake servers: workload identity federation (the JWT bearer grant, RFC 7523 §2.1, with the
 * platform's JWT) and enterprise-managed authorization (RFC 8693 token exchange at the IdP for
 * an ID-JAG, then the JWT bearer grant with client authentication). What each request carries,
 * what the callbacks are told, and that a refusal is surfaced once, never retried or traded for
 * another grant.
 */
import { describe, expect, it } from 'vitest';
import type { AssertionRequest, SubjectTokenRequest } from '../../src/auth/grantOptions.js';
import { OAuthError } from '../../src/auth/errors.js';
import type { NonInteractiveProviderOptions } from '../../src/auth/oauthOptions.js';
import { createOAuthProvider, type OAuthProvider } from '../../src/auth/oauthProvider.js';
import { McpClient } from '../../src/client/client.js';
import { InvalidArgumentError } from '../../src/errors/errors.js';
import { StreamableHttpTransport } from '../../src/transport/http/streamableHttp.js';
import { authTestBed, call } from './authTestBed.js';
import {
  FakeAuthorizationServer,
  type FakeAuthorizationServerOptions,
  type FakeProtectedMcpServer,
} from '../fakes/authServer.js';
import { decodeJwt, es256KeyPair, signJwt, verifyJwt } from '../fakes/jwt.js';

const { startPair, transportFor, closeLater } = authTestBed();

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ID_JAG = 'urn:ietf:params:oauth:token-type:id-jag';
const ID_TOKEN = 'urn:ietf:params:oauth:token-type:id_token';

async function pair(asOptions: FakeAuthorizationServerOptions) {
  const started = await startPair(
    { grantTypes: [JWT_BEARER], registration: false, ...asOptions },
    { scopesSupported: ['mcp:tools'] },
  );
  return started;
}

describe('workload identity federation (JWT bearer grant)', () => {
  const platform = es256KeyPair();

  /** An AS that trusts JWTs signed by the platform key, for its own issuer as audience. */
  function trustingPlatform(issuer: () => string): NonNullable<FakeAuthorizationServerOptions['jwtBearer']> {
    return (assertion, params) => {
      const jwt = decodeJwt(assertion);
      if (!verifyJwt(assertion, platform.publicJwk) || jwt?.payload['aud'] !== issuer())
        return { error: 'invalid_grant' };
      return { scopes: (params.get('scope') ?? '').split(' ').filter((s) => s !== '') };
    };
  }

  it('presents the platform JWT as the assertion, with resource and scope and no client authentication', async () => {
    let as: FakeAuthorizationServer | undefined;
    const started = await pair({ tokenEndpointAuthMethods: ['none'], jwtBearer: trustingPlatform(() => as!.issuer) });
    as = started.as;
    const { rs } = started;
    const seen: AssertionRequest[] = [];
    const oauth = createOAuthProvider({
      serverUrl: rs.url,
      grant: {
        type: 'jwt-bearer',
        assertion: (req) => {
          seen.push(req);
          return signJwt(
            {
              iss: 'https://k8s.example',
              sub: 'system:serviceaccount:ns:agent',
              aud: req.issuer,
              exp: Math.floor(Date.now() / 1000) + 300,
            },
            platform.privateKey,
          );
        },
      },
    });
    await call(await transportFor(rs, oauth));
    expect(as.tokenRequests).toHaveLength(1);
    const { params, authorization } = as.tokenRequests[0]!;
    expect(params.get('grant_type')).toBe(JWT_BEARER);
    expect(params.get('resource')).toBe(rs.url);
    expect(params.get('scope')).toBe('mcp:tools');
    expect(params.get('client_id')).toBeNull();
    expect(authorization).toBeUndefined();
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      issuer: as.issuer,
      tokenEndpoint: `${as.issuer}/token`,
      resource: rs.url,
      scopes: ['mcp:tools'],
    });
    expect(rs.authorizations.at(-1)).toMatch(/^Bearer at-/);
  });

  it('authenticates as the pre-registered client when there is one for the server', async () => {
    let as: FakeAuthorizationServer | undefined;
    const started = await pair({
      tokenEndpointAuthMethods: ['none'],
      preRegistered: { clientId: 'workload', method: 'none' },
      jwtBearer: trustingPlatform(() => as!.issuer),
    });
    as = started.as;
    const oauth = createOAuthProvider({
      serverUrl: started.rs.url,
      grant: {
        type: 'jwt-bearer',
        assertion: ({ issuer }) => signJwt({ iss: 'p', sub: 'w', aud: issuer }, platform.privateKey),
      },
      preRegistered: { clientId: 'workload' },
    });
    await call(await transportFor(started.rs, oauth));
    expect(as.tokenRequests[0]!.params.get('client_id')).toBe('workload');
  });

  it.each([
    ['invalid_grant', 'the assertion'],
    ['invalid_scope', 'the scope'],
    ['unauthorized_client', 'the client'],
  ])('a refused assertion (%s: %s) fails connect once: no retry, no other grant', async (code) => {
    const { as, rs } = await pair({ tokenEndpointAuthMethods: ['none'], jwtBearer: () => ({ error: code }) });
    let asked = 0;
    const client = new McpClient({
      transport: new StreamableHttpTransport(rs.url, {
        authProvider: createOAuthProvider({
          serverUrl: rs.url,
          grant: { type: 'jwt-bearer', assertion: () => (asked++, 'platform.jwt.value') },
        }),
        retry: false,
      }),
      clientInfo: { name: 'wif-test', version: '0.0.0' },
    });
    closeLater(() => client.close());
    const error = await client.connect().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthError);
    expect((error as OAuthError).data).toMatchObject({ failure: 'token-request-failed', error: code });
    expect(as.tokenRequests.map((r) => r.params.get('grant_type'))).toEqual([JWT_BEARER]);
    expect(asked).toBe(1);
    expect(as.authorizations).toEqual([]);
    expect(JSON.stringify(error)).not.toContain('platform.jwt.value');
  });

  it('an assertion callback that returns no string fails with InvalidArgumentError; its own errors pass through', async () => {
    const { as, rs } = await pair({ tokenEndpointAuthMethods: ['none'], jwtBearer: () => ({ scopes: [] }) });
    const empty = createOAuthProvider({ serverUrl: rs.url, grant: { type: 'jwt-bearer', assertion: () => '' } });
    await expect(call(await transportFor(rs, empty))).rejects.toBeInstanceOf(InvalidArgumentError);
    const boom = new Error('metadata server down');
    const failing = createOAuthProvider({
      serverUrl: rs.url,
      grant: {
        type: 'jwt-bearer',
        assertion: () => {
          throw boom;
        },
      },
    });
    await expect(call(await transportFor(rs, failing))).rejects.toBe(boom);
    expect(as.tokenRequests).toEqual([]);
  });
});

describe('enterprise-managed authorization (ID-JAG)', () => {
  const ID_TOKEN_VALUE = 'eyJ.user-id-token.sig';

  /** An IdP that exchanges the user's ID token for ID-JAGs it records, and an AS that accepts them. */
  async function enterprise(options: { idpAuthMethods?: string[] } = {}) {
    const issued = new Map<string, { audience: string; resource: string; clientId: string; scope: string | null }>();
    const exchanges: Array<{ params: URLSearchParams; clientId: string | undefined }> = [];
    const idp = await FakeAuthorizationServer.start({
      tokenEndpointAuthMethods: (options.idpAuthMethods ?? ['client_secret_post']) as never,
      preRegistered: { clientId: 'host-at-idp', clientSecret: 'idp-secret', method: 'client_secret_post' },
      grantTypes: [TOKEN_EXCHANGE],
      codeChallengeMethods: null,
      tokenExchange: (params, clientId) => {
        exchanges.push({ params, clientId });
        if (params.get('subject_token') !== ID_TOKEN_VALUE) return { error: 'invalid_grant' };
        const token = `id-jag-${issued.size + 1}`;
        issued.set(token, {
          audience: params.get('audience') ?? '',
          resource: params.get('resource') ?? '',
          clientId: 'mcp-host',
          scope: params.get('scope'),
        });
        return { token, issuedTokenType: ID_JAG };
      },
    });
    closeLater(() => idp.close());
    let as: FakeAuthorizationServer | undefined;
    const started = await pair({
      tokenEndpointAuthMethods: ['client_secret_basic'],
      preRegistered: { clientId: 'mcp-host', clientSecret: 'as-secret', method: 'client_secret_basic' },
      jwtBearer: (assertion, params, clientId) => {
        const grant = issued.get(assertion);
        if (grant === undefined || grant.audience !== as!.issuer || grant.clientId !== clientId)
          return { error: 'invalid_grant' };
        if (grant.resource !== params.get('resource')) return { error: 'invalid_target' };
        return { scopes: (params.get('scope') ?? '').split(' ').filter((s) => s !== '') };
      },
    });
    as = started.as;
    return { idp, as, rs: started.rs, exchanges };
  }

  function enterpriseProvider(
    rs: FakeProtectedMcpServer,
    idpIssuer: string,
    overrides: Partial<NonInteractiveProviderOptions> = {},
    seen: SubjectTokenRequest[] = [],
  ): OAuthProvider {
    return createOAuthProvider({
      serverUrl: rs.url,
      grant: {
        type: 'id-jag',
        idp: { issuer: idpIssuer, clientId: 'host-at-idp', clientSecret: 'idp-secret' },
        subjectToken: (req) => (seen.push(req), ID_TOKEN_VALUE),
      },
      preRegistered: { clientId: 'mcp-host', clientSecret: 'as-secret' },
      ...overrides,
    });
  }

  it('exchanges the ID token at the IdP for an ID-JAG, then presents it with client authentication', async () => {
    const { idp, as, rs, exchanges } = await enterprise();
    const seen: SubjectTokenRequest[] = [];
    await call(await transportFor(rs, enterpriseProvider(rs, idp.issuer, {}, seen)));

    // IdP: metadata read (no PKCE needed there), one token exchange with the SEP-990 parameters.
    expect(idp.metadataRequests).toContain('/.well-known/oauth-authorization-server');
    expect(exchanges).toHaveLength(1);
    expect(Object.fromEntries(exchanges[0]!.params)).toEqual({
      grant_type: TOKEN_EXCHANGE,
      requested_token_type: ID_JAG,
      audience: as.issuer,
      resource: rs.url,
      scope: 'mcp:tools',
      subject_token: ID_TOKEN_VALUE,
      subject_token_type: ID_TOKEN,
      client_id: 'host-at-idp',
      client_secret: 'idp-secret',
    });
    expect(exchanges[0]!.clientId).toBe('host-at-idp');
    expect(seen).toEqual([
      expect.objectContaining({ idpIssuer: idp.issuer, audience: as.issuer, resource: rs.url, scopes: ['mcp:tools'] }),
    ]);

    // AS: the JWT bearer grant with the ID-JAG, Basic client authentication, resource, scope.
    const grants = as.grants(JWT_BEARER);
    expect(grants).toHaveLength(1);
    expect(grants[0]!.params.get('assertion')).toBe('id-jag-1');
    expect(grants[0]!.params.get('resource')).toBe(rs.url);
    expect(grants[0]!.params.get('scope')).toBe('mcp:tools');
    expect(grants[0]!.authorization).toBe(`Basic ${Buffer.from('mcp-host:as-secret').toString('base64')}`);
    expect(rs.authorizations.at(-1)).toMatch(/^Bearer at-/);
  });

  it('uses the token endpoint given without reading the IdP metadata', async () => {
    const { idp, rs, exchanges } = await enterprise();
    const oauth = createOAuthProvider({
      serverUrl: rs.url,
      grant: {
        type: 'id-jag',
        idp: {
          issuer: idp.issuer,
          tokenEndpoint: `${idp.issuer}/token`,
          clientId: 'host-at-idp',
          clientSecret: 'idp-secret',
        },
        subjectToken: () => ID_TOKEN_VALUE,
      },
      preRegistered: { clientId: 'mcp-host', clientSecret: 'as-secret' },
    });
    await call(await transportFor(rs, oauth));
    expect(idp.metadataRequests).toEqual([]);
    // Without IdP metadata, a secret goes by client_secret_basic.
    expect(exchanges[0]!.params.get('client_secret')).toBeNull();
  });

  it('an IdP that refuses the ID token ends the request: the MCP authorization server is never asked', async () => {
    const { idp, as, rs } = await enterprise();
    const oauth = createOAuthProvider({
      serverUrl: rs.url,
      grant: {
        type: 'id-jag',
        idp: { issuer: idp.issuer, clientId: 'host-at-idp', clientSecret: 'idp-secret' },
        subjectToken: () => 'stale.id.token',
      },
      preRegistered: { clientId: 'mcp-host', clientSecret: 'as-secret' },
    });
    const error = await call(await transportFor(rs, oauth)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthError);
    expect((error as OAuthError).data).toMatchObject({
      failure: 'token-request-failed',
      issuer: idp.issuer,
      error: 'invalid_grant',
    });
    expect(as.tokenRequests).toEqual([]);
    expect(JSON.stringify(error)).not.toContain('stale.id.token');
  });

  it('needs a client at the MCP authorization server, and a valid IdP', () => {
    const base = {
      serverUrl: 'https://mcp.example.com/mcp',
      grant: {
        type: 'id-jag' as const,
        idp: { issuer: 'https://idp.example', clientId: 'c' },
        subjectToken: () => 'x',
      },
    };
    expect(() => createOAuthProvider(base)).toThrow(/pre-registered client/);
    expect(() =>
      createOAuthProvider({
        ...base,
        grant: { ...base.grant, idp: { issuer: '', clientId: 'c' } },
        preRegistered: { clientId: 'a' },
      }),
    ).toThrow(/grant.idp.issuer/);
  });
});
