/**
 * Fakes for the OAuth tests, on 127.0.0.1 (port 0): an authorization server (metadata,
 * registration, authorize, token) that checks what a real one checks (PKCE S256, redirect URI,
 * resource, client authentication including private_key_jwt assertions, one-time codes,
 * rotating refresh tokens, DPoP proofs and nonces), with the client credentials, JWT bearer and
 * token exchange grants when a test turns them on; and an MCP endpoint behind bearer or DPoP
 * auth that answers the 2026-07-28 wire (server/discover, tools/list, tools/call) and serves its
 * protected resource metadata. Everything they receive is recorded.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { DISCOVER, HttpFake, sendJson, type RecordedRequest } from './httpFake.js';
import { checkDPoPProof, decodeJwt, verifyJwt, type CheckedProof } from './jwt.js';

type Method = 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt' | 'none';

/** What a grant handler answers: the scopes of the token to issue, or an OAuth error. */
export type GrantAnswer = { scopes: string[] } | { error: string; status?: number };

/** Options of {@link FakeAuthorizationServer}. */
export interface FakeAuthorizationServerOptions {
  /** Path of the issuer (`/tenant1`); `''` for an issuer at the origin. @default '' */
  issuerPath?: string;
  /**
   * Which well-known URL serves the metadata: `oauth` (RFC 8414, path inserted), `oidc`
   * (OpenID Connect, path inserted), `oidc-append` (OpenID Connect, path appended). The others 404.
   * @default 'oauth'
   */
  metadataAt?: 'oauth' | 'oidc' | 'oidc-append';
  /** `issuer` written in the metadata instead of the real one. */
  metadataIssuer?: string;
  /** `code_challenge_methods_supported`; `null` leaves it out. @default ['S256'] */
  codeChallengeMethods?: readonly string[] | null;
  /** `authorization_response_iss_parameter_supported`; `null` leaves it out. @default true */
  issParameterSupported?: boolean | null;
  /** The `iss` of the redirect. @default 'correct' */
  issInRedirect?: 'correct' | 'none' | 'wrong' | 'normalized';
  /** `token_endpoint_auth_methods_supported`. @default ['none'] */
  tokenEndpointAuthMethods?: readonly Method[];
  /** Serve a registration endpoint. @default true */
  registration?: boolean;
  /** The method the registration answer names (and enforces); absent = the one asked for, not echoed. */
  registrationMethod?: Method;
  /** `client_id_metadata_document_supported: true`. @default false */
  cimd?: boolean;
  /** `scopes_supported`. @default absent */
  scopesSupported?: readonly string[];
  /** A client known in advance (with its public key for `private_key_jwt`). */
  preRegistered?: { clientId: string; clientSecret?: string; method: Method; publicJwk?: JsonWebKey };
  /** Issue refresh tokens. @default true */
  refreshTokens?: boolean;
  /** `expires_in` of access tokens, in seconds. @default 3600 */
  expiresIn?: number;
  /** The scopes a token gets for the scopes asked for. @default what was asked */
  grant?: (requested: string[]) => string[];
  /** Omit `scope` from token responses. @default false */
  omitScopeInTokenResponse?: boolean;
  /** Prefix of registered client ids. @default 'client-' */
  clientIdPrefix?: string;
  /** `grant_types_supported`. @default ['authorization_code', 'refresh_token'] */
  grantTypes?: readonly string[];
  /**
   * DPoP (RFC 9449): `dpop_signing_alg_values_supported` in the metadata; a token request with
   * a valid proof gets a `DPoP` token bound to its key; `requireNonce` answers a proof without
   * the current nonce with 400 `use_dpop_nonce`.
   */
  dpop?: { algs?: readonly string[]; requireNonce?: boolean };
  /** Answers the `client_credentials` grant for the authenticated client. Off when absent. */
  clientCredentials?: (clientId: string, params: URLSearchParams) => GrantAnswer;
  /** Answers the JWT bearer grant (`assertion`); `clientId` when the request authenticated a client. Off when absent. */
  jwtBearer?: (assertion: string, params: URLSearchParams, clientId: string | undefined) => GrantAnswer;
  /** Answers token exchange (RFC 8693), as an IdP: the token to issue and its type. Off when absent. */
  tokenExchange?: (
    params: URLSearchParams,
    clientId: string | undefined,
  ) => { token: string; issuedTokenType: string } | { error: string };
}

interface Client {
  secret: string | undefined;
  method: Method;
  redirectUris: string[] | undefined;
  /** The public key of a `private_key_jwt` client. */
  publicJwk?: JsonWebKey | undefined;
}

interface CodeGrant {
  clientId: string;
  redirectUri: string;
  challenge: string;
  resource: string | undefined;
  scopes: string[];
}

/** What an issued access token stands for. */
export interface TokenInfo {
  scopes: string[];
  clientId: string;
  resource: string | undefined;
  issuer: string;
  /** The thumbprint of the DPoP key the token is bound to. */
  jkt?: string | undefined;
}

/** One token endpoint request as received. */
export interface TokenRequest {
  params: URLSearchParams;
  authorization: string | undefined;
  /** The `DPoP` header, when there was one. */
  dpop?: string | undefined;
}

export class FakeAuthorizationServer {
  readonly issuer: string;
  readonly registrations: any[] = [];
  readonly authorizations: URLSearchParams[] = [];
  readonly tokenRequests: TokenRequest[] = [];
  readonly metadataRequests: string[] = [];
  readonly tokens = new Map<string, TokenInfo>();
  readonly clients = new Map<string, Client>();
  /** Resolved before the token endpoint answers, when set (to hold refreshes in flight). */
  tokenGate: Promise<void> | undefined;
  /** Status and body the token endpoint answers with instead, when set. */
  tokenFailure: { status: number; body: unknown } | undefined;
  /** DPoP proofs of token requests that passed the checks, in order. */
  readonly dpopProofs: CheckedProof[] = [];
  /** Why DPoP proofs of token requests failed, in order. */
  readonly dpopFailures: string[] = [];
  /** The nonce a proof must carry when `dpop.requireNonce` (changed by tests to rotate it). */
  dpopNonce = 'as-nonce-1';
  private readonly seenJtis = new Set<string>();
  private readonly codes = new Map<string, CodeGrant>();
  private readonly refreshTokens = new Map<string, TokenInfo & { used: boolean }>();
  private counter = 0;

  private constructor(
    readonly http: HttpFake,
    readonly origin: string,
    private readonly options: FakeAuthorizationServerOptions,
  ) {
    this.issuer = `${origin}${options.issuerPath ?? ''}`;
    if (options.preRegistered !== undefined) {
      const pre = options.preRegistered;
      this.clients.set(pre.clientId, {
        secret: pre.clientSecret,
        method: pre.method,
        redirectUris: undefined,
        publicJwk: pre.publicJwk,
      });
    }
  }

  static async start(options: FakeAuthorizationServerOptions = {}): Promise<FakeAuthorizationServer> {
    let server: FakeAuthorizationServer | undefined;
    const http = await HttpFake.start((request, res) => server!.handle(request, res), '');
    server = new FakeAuthorizationServer(http, http.url, options);
    return server;
  }

  /** Every URL path the metadata could be asked at, with the one that serves it. */
  get metadataPath(): string {
    const path = this.options.issuerPath ?? '';
    switch (this.options.metadataAt ?? 'oauth') {
      case 'oidc':
        return `/.well-known/openid-configuration${path}`;
      case 'oidc-append':
        return `${path}/.well-known/openid-configuration`;
      default:
        return `/.well-known/oauth-authorization-server${path}`;
    }
  }

  /** The metadata document. */
  metadata(): Record<string, unknown> {
    const o = this.options;
    const base = this.issuer;
    return {
      issuer: o.metadataIssuer ?? this.issuer,
      authorization_endpoint: `${base}/authorize`,
      token_endpoint: `${base}/token`,
      ...((o.registration ?? true) && { registration_endpoint: `${base}/register` }),
      response_types_supported: ['code'],
      grant_types_supported: o.grantTypes ?? ['authorization_code', 'refresh_token'],
      ...(o.codeChallengeMethods !== null && { code_challenge_methods_supported: o.codeChallengeMethods ?? ['S256'] }),
      ...(o.issParameterSupported !== null && {
        authorization_response_iss_parameter_supported: o.issParameterSupported ?? true,
      }),
      token_endpoint_auth_methods_supported: o.tokenEndpointAuthMethods ?? ['none'],
      ...(o.cimd === true && { client_id_metadata_document_supported: true }),
      ...(o.scopesSupported !== undefined && { scopes_supported: o.scopesSupported }),
      ...(o.dpop !== undefined && { dpop_signing_alg_values_supported: o.dpop.algs ?? ['ES256'] }),
    };
  }

  /** Issues tokens directly (as if an earlier session had authorized). */
  issue(info: { scopes: string[]; clientId: string; resource: string | undefined }): {
    accessToken: string;
    refreshToken: string;
  } {
    const accessToken = `at-${++this.counter}-${randomBytes(4).toString('hex')}`;
    const refreshToken = `rt-${this.counter}-${randomBytes(4).toString('hex')}`;
    this.tokens.set(accessToken, { ...info, issuer: this.issuer });
    this.refreshTokens.set(refreshToken, { ...info, issuer: this.issuer, used: false });
    return { accessToken, refreshToken };
  }

  /** Registers a client directly (as if an earlier session had registered it). */
  addClient(clientId: string, client: { secret?: string; method: Method; redirectUris?: string[] }): void {
    this.clients.set(clientId, { secret: client.secret, method: client.method, redirectUris: client.redirectUris });
  }

  /** Makes an access token invalid (expired) for the resource server. */
  revoke(accessToken: string): void {
    this.tokens.delete(accessToken);
  }

  /** Token requests of one grant type. */
  grants(type: string): TokenRequest[] {
    return this.tokenRequests.filter((r) => r.params.get('grant_type') === type);
  }

  close(): Promise<void> {
    return this.http.close();
  }

  private async handle(request: RecordedRequest, res: ServerResponse): Promise<void> {
    const url = new URL(request.path, this.origin);
    const path = this.options.issuerPath ?? '';
    if (request.method === 'GET' && url.pathname.includes('/.well-known/')) {
      this.metadataRequests.push(url.pathname);
      if (url.pathname === this.metadataPath) return sendJson(res, 200, this.metadata());
      return sendJson(res, 404, { error: 'not_found' });
    }
    if (request.method === 'POST' && url.pathname === `${path}/register` && (this.options.registration ?? true))
      return this.register(request, res);
    if (request.method === 'GET' && url.pathname === `${path}/authorize`) return this.authorize(url.searchParams, res);
    if (request.method === 'POST' && url.pathname === `${path}/token`) return this.token(request, res);
    sendJson(res, 404, { error: 'not_found' });
  }

  private register(request: RecordedRequest, res: ServerResponse): void {
    const body = request.json ?? {};
    this.registrations.push(body);
    const clientId = `${this.options.clientIdPrefix ?? 'client-'}${++this.counter}`;
    const method: Method = this.options.registrationMethod ?? body.token_endpoint_auth_method ?? 'client_secret_basic';
    const secret = method === 'none' ? undefined : `secret-${this.counter}`;
    this.clients.set(clientId, { secret, method, redirectUris: body.redirect_uris });
    sendJson(res, 201, {
      client_id: clientId,
      ...(secret !== undefined && { client_secret: secret, client_secret_expires_at: 0 }),
      redirect_uris: body.redirect_uris,
      ...(this.options.registrationMethod !== undefined && {
        token_endpoint_auth_method: this.options.registrationMethod,
      }),
    });
  }

  private authorize(params: URLSearchParams, res: ServerResponse): void {
    this.authorizations.push(params);
    const clientId = params.get('client_id') ?? '';
    const redirectUri = params.get('redirect_uri') ?? '';
    const client = this.clients.get(clientId);
    const cimd = this.options.cimd === true && clientId.startsWith('https://');
    if (client === undefined && !cimd) return sendJson(res, 400, { error: 'invalid_client' });
    if (client?.redirectUris !== undefined && !client.redirectUris.includes(redirectUri))
      return sendJson(res, 400, { error: 'invalid_redirect_uri' });
    if (
      params.get('response_type') !== 'code' ||
      params.get('code_challenge_method') !== 'S256' ||
      params.get('code_challenge') === null
    ) {
      return sendJson(res, 400, { error: 'invalid_request' });
    }
    const code = `code-${++this.counter}`;
    const scopes = (params.get('scope') ?? '').split(' ').filter((s) => s !== '');
    this.codes.set(code, {
      clientId,
      redirectUri,
      challenge: params.get('code_challenge')!,
      resource: params.get('resource') ?? undefined,
      scopes,
    });
    const location = new URL(redirectUri);
    location.searchParams.set('code', code);
    const state = params.get('state');
    if (state !== null) location.searchParams.set('state', state);
    const iss = this.options.issInRedirect ?? 'correct';
    if (iss === 'correct') location.searchParams.set('iss', this.issuer);
    else if (iss === 'wrong') location.searchParams.set('iss', 'https://evil.example.com');
    else if (iss === 'normalized') location.searchParams.set('iss', `${this.issuer}/`);
    res.writeHead(302, { Location: location.href });
    res.end();
  }

  private async token(request: RecordedRequest, res: ServerResponse): Promise<void> {
    const params = new URLSearchParams(request.body);
    const authorization = request.headers.authorization;
    const dpopHeader = request.headers['dpop'];
    this.tokenRequests.push({
      params,
      authorization,
      ...(typeof dpopHeader === 'string' && { dpop: dpopHeader }),
    });
    if (this.tokenGate !== undefined) await this.tokenGate;
    if (this.tokenFailure !== undefined) return sendJson(res, this.tokenFailure.status, this.tokenFailure.body);
    let jkt: string | undefined;
    if (this.options.dpop !== undefined && dpopHeader !== undefined) {
      const checked = checkDPoPProof(dpopHeader, { method: 'POST', url: `${this.issuer}/token` });
      if (typeof checked === 'string') {
        this.dpopFailures.push(checked);
        return sendJson(res, 400, { error: 'invalid_dpop_proof', error_description: checked });
      }
      if (this.seenJtis.has(checked.payload['jti'])) {
        this.dpopFailures.push('replayed jti');
        return sendJson(res, 400, { error: 'invalid_dpop_proof', error_description: 'replayed' });
      }
      this.seenJtis.add(checked.payload['jti']);
      if (this.options.dpop.requireNonce === true && checked.payload['nonce'] !== this.dpopNonce) {
        res.writeHead(400, { 'Content-Type': 'application/json', 'DPoP-Nonce': this.dpopNonce });
        res.end(JSON.stringify({ error: 'use_dpop_nonce', error_description: 'nonce required' }));
        return;
      }
      this.dpopProofs.push(checked);
      jkt = checked.jkt;
    }
    const grantType = params.get('grant_type');
    const clientId = this.authenticate(params, authorization);
    if (grantType === 'urn:ietf:params:oauth:grant-type:jwt-bearer' && this.options.jwtBearer !== undefined) {
      const anonymous = clientId === undefined && authorization === undefined && !params.has('client_assertion');
      if (clientId === undefined && !anonymous) return sendJson(res, 401, { error: 'invalid_client' });
      const answer = this.options.jwtBearer(params.get('assertion') ?? '', params, clientId);
      if ('error' in answer) return sendJson(res, answer.status ?? 400, { error: answer.error });
      return this.sendTokens(
        res,
        { scopes: answer.scopes, clientId: clientId ?? '', resource: params.get('resource') ?? undefined, jkt },
        false,
      );
    }
    if (grantType === 'urn:ietf:params:oauth:grant-type:token-exchange' && this.options.tokenExchange !== undefined) {
      const answer = this.options.tokenExchange(params, clientId);
      if ('error' in answer) return sendJson(res, 400, { error: answer.error });
      return sendJson(res, 200, {
        access_token: answer.token,
        issued_token_type: answer.issuedTokenType,
        token_type: 'N_A',
        expires_in: 300,
      });
    }
    if (clientId === undefined) return sendJson(res, 401, { error: 'invalid_client' });
    if (grantType === 'client_credentials' && this.options.clientCredentials !== undefined) {
      const answer = this.options.clientCredentials(clientId, params);
      if ('error' in answer) return sendJson(res, answer.status ?? 400, { error: answer.error });
      return this.sendTokens(
        res,
        { scopes: answer.scopes, clientId, resource: params.get('resource') ?? undefined, jkt },
        false,
      );
    }
    if (grantType === 'authorization_code') {
      const code = params.get('code') ?? '';
      const grant = this.codes.get(code);
      this.codes.delete(code);
      if (grant === undefined || grant.clientId !== clientId || grant.redirectUri !== params.get('redirect_uri'))
        return sendJson(res, 400, { error: 'invalid_grant' });
      const verifier = params.get('code_verifier') ?? '';
      if (createHash('sha256').update(verifier).digest('base64url') !== grant.challenge)
        return sendJson(res, 400, { error: 'invalid_grant', error_description: 'PKCE' });
      if (params.get('resource') !== grant.resource) return sendJson(res, 400, { error: 'invalid_target' });
      return this.sendTokens(res, {
        scopes: (this.options.grant ?? ((s) => s))(grant.scopes),
        clientId,
        resource: grant.resource,
        jkt,
      });
    }
    if (grantType === 'refresh_token') {
      const stored = this.refreshTokens.get(params.get('refresh_token') ?? '');
      if (stored === undefined || stored.used || stored.clientId !== clientId)
        return sendJson(res, 400, { error: 'invalid_grant' });
      stored.used = true;
      if (stored.jkt !== undefined && stored.jkt !== jkt) return sendJson(res, 400, { error: 'invalid_grant' });
      return this.sendTokens(res, {
        scopes: stored.scopes,
        clientId,
        resource: params.get('resource') ?? stored.resource,
        jkt,
      });
    }
    sendJson(res, 400, { error: 'unsupported_grant_type' });
  }

  /** The client id when the request authenticates as its client's method requires. */
  private authenticate(params: URLSearchParams, authorization: string | undefined): string | undefined {
    if (authorization?.startsWith('Basic ') === true) {
      const decoded = Buffer.from(authorization.slice(6), 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      const id = formDecode(decoded.slice(0, colon));
      const secret = formDecode(decoded.slice(colon + 1));
      const client = this.clients.get(id);
      return client !== undefined && client.method === 'client_secret_basic' && client.secret === secret
        ? id
        : undefined;
    }
    const assertion = params.get('client_assertion');
    if (assertion !== null) return this.authenticateAssertion(params, assertion);
    const id = params.get('client_id') ?? '';
    if (this.options.cimd === true && id.startsWith('https://') && !params.has('client_secret')) return id;
    const client = this.clients.get(id);
    if (client === undefined) return undefined;
    if (client.method === 'client_secret_post') return params.get('client_secret') === client.secret ? id : undefined;
    return client.method === 'none' && !params.has('client_secret') ? id : undefined;
  }

  /** `private_key_jwt` (RFC 7523 §2.2): the client whose key signed a valid assertion for this issuer. */
  private authenticateAssertion(params: URLSearchParams, assertion: string): string | undefined {
    if (params.get('client_assertion_type') !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer')
      return undefined;
    const payload = decodeJwt(assertion)?.payload;
    const id = payload?.['iss'];
    const client = typeof id === 'string' ? this.clients.get(id) : undefined;
    if (client?.method !== 'private_key_jwt' || client.publicJwk === undefined) return undefined;
    const now = Date.now() / 1000;
    const fresh = typeof payload?.['exp'] === 'number' && payload['exp'] > now && payload['exp'] - now <= 300;
    const jti = payload?.['jti'];
    if (
      !verifyJwt(assertion, client.publicJwk) ||
      payload?.['sub'] !== id ||
      payload?.['aud'] !== this.issuer ||
      !fresh ||
      typeof jti !== 'string' ||
      this.seenJtis.has(jti)
    )
      return undefined;
    this.seenJtis.add(jti);
    return id as string;
  }

  private sendTokens(
    res: ServerResponse,
    info: { scopes: string[]; clientId: string; resource: string | undefined; jkt?: string | undefined },
    refresh = true,
  ): void {
    const accessToken = `at-${++this.counter}-${randomBytes(4).toString('hex')}`;
    this.tokens.set(accessToken, { ...info, issuer: this.issuer });
    let refreshToken: string | undefined;
    if (refresh && (this.options.refreshTokens ?? true)) {
      refreshToken = `rt-${this.counter}-${randomBytes(4).toString('hex')}`;
      this.refreshTokens.set(refreshToken, { ...info, issuer: this.issuer, used: false });
    }
    sendJson(res, 200, {
      access_token: accessToken,
      token_type: info.jkt === undefined ? 'Bearer' : 'DPoP',
      expires_in: this.options.expiresIn ?? 3600,
      ...(refreshToken !== undefined && { refresh_token: refreshToken }),
      ...(info.scopes.length > 0 && this.options.omitScopeInTokenResponse !== true && { scope: info.scopes.join(' ') }),
    });
  }
}

function formDecode(value: string): string {
  return decodeURIComponent(value.replace(/\+/g, ' '));
}

/** Options of {@link FakeProtectedMcpServer}. */
export interface FakeProtectedMcpServerOptions {
  /** The authorization servers its metadata lists (read per request, so a test can switch them). */
  authorizationServers: () => string[];
  /** Whether a token is valid here; its scopes when it is. */
  verify: (token: string) => TokenInfo | undefined;
  /** Path of the MCP endpoint. @default '/mcp' */
  path?: string;
  /**
   * Where its protected resource metadata is served: `path` (`/.well-known/oauth-protected-resource<path>`),
   * `root`, or another path. @default 'path'
   */
  prm?: string;
  /** Name the metadata URL in `WWW-Authenticate`. @default true */
  advertisePrm?: boolean;
  /** The metadata's `resource`. @default the endpoint URL (`root`: the bare origin) */
  prmResource?: string;
  /** The metadata's `scopes_supported`. */
  scopesSupported?: readonly string[];
  /** `scope` of the 401 challenge. */
  challengeScope?: string;
  /** Scopes a request needs (403 `insufficient_scope` with these when missing). @default none */
  requiredScopes?: (method: string, params: any) => string[];
  /** Answers every authenticated request with 403 without `insufficient_scope`. */
  forbidden?: boolean;
  /**
   * DPoP (RFC 9449 §7): accept `Authorization: DPoP <token>` with a valid proof for the token's
   * key (and refuse a bound token presented as Bearer); `requireNonce` answers a proof without
   * the current nonce with 401 `use_dpop_nonce`.
   */
  dpop?: { requireNonce?: boolean };
  /** `ttlMs` of the (private) tools/list result. @default 0 */
  listTtlMs?: number;
}

export class FakeProtectedMcpServer {
  readonly prmRequests: string[] = [];
  /** The `Authorization` header of every POST, in order. */
  readonly authorizations: Array<string | undefined> = [];
  /** DPoP proofs that passed the checks, in order. */
  readonly dpopProofs: CheckedProof[] = [];
  /** Why DPoP proofs failed, in order. */
  readonly dpopFailures: string[] = [];
  /** The nonce a proof must carry when `dpop.requireNonce`. */
  dpopNonce = 'rs-nonce-1';
  private readonly seenJtis = new Set<string>();

  private constructor(
    readonly http: HttpFake,
    readonly origin: string,
    private readonly options: FakeProtectedMcpServerOptions,
  ) {}

  static async start(options: FakeProtectedMcpServerOptions): Promise<FakeProtectedMcpServer> {
    let server: FakeProtectedMcpServer | undefined;
    const http = await HttpFake.start((request, res) => server!.handle(request, res), '');
    server = new FakeProtectedMcpServer(http, http.url, options);
    return server;
  }

  get path(): string {
    return this.options.path ?? '/mcp';
  }

  /** The MCP endpoint URL. */
  get url(): string {
    return `${this.origin}${this.path}`;
  }

  get prmPath(): string {
    const prm = this.options.prm ?? 'path';
    if (prm === 'path') return `/.well-known/oauth-protected-resource${this.path}`;
    if (prm === 'root') return '/.well-known/oauth-protected-resource';
    return prm;
  }

  /** The MCP requests (POSTs) received, in order. */
  get mcpRequests(): RecordedRequest[] {
    return this.http.requests.filter((r) => r.method === 'POST');
  }

  close(): Promise<void> {
    return this.http.close();
  }

  private handle(request: RecordedRequest, res: ServerResponse): void {
    const url = new URL(request.path, this.origin);
    if (request.method === 'GET') {
      this.prmRequests.push(url.pathname);
      if (url.pathname !== this.prmPath) return sendJson(res, 404, { error: 'not_found' });
      const resource = this.options.prmResource ?? (this.options.prm === 'root' ? this.origin : this.url);
      return sendJson(res, 200, {
        resource,
        authorization_servers: this.options.authorizationServers(),
        ...(this.options.scopesSupported !== undefined && { scopes_supported: this.options.scopesSupported }),
      });
    }
    if (request.method !== 'POST' || url.pathname !== this.path) return sendJson(res, 404, { error: 'not_found' });
    const header = request.headers.authorization;
    this.authorizations.push(header);
    const prmUrl = `${this.origin}${this.prmPath}`;
    const advertise = this.options.advertisePrm ?? true;
    const scheme = header?.split(' ', 1)[0];
    const dpop = this.options.dpop !== undefined && scheme === 'DPoP';
    const token = scheme === 'Bearer' || dpop ? header!.slice(scheme.length + 1) : undefined;
    let info = token === undefined ? undefined : this.options.verify(token);
    if (dpop && info !== undefined) {
      const checked = checkDPoPProof(request.headers['dpop'], {
        method: request.method,
        url: `${this.origin}${request.path}`,
        accessToken: token,
      });
      if (typeof checked === 'string' || checked.jkt !== info.jkt || this.seenJtis.has(checked.payload['jti'])) {
        this.dpopFailures.push(typeof checked === 'string' ? checked : checked.jkt !== info.jkt ? 'jkt' : 'replay');
        return sendJson(
          res,
          401,
          { error: 'invalid_dpop_proof' },
          { 'WWW-Authenticate': `DPoP error="invalid_dpop_proof", algs="ES256"` },
        );
      }
      this.seenJtis.add(checked.payload['jti']);
      if (this.options.dpop?.requireNonce === true && checked.payload['nonce'] !== this.dpopNonce) {
        return sendJson(
          res,
          401,
          { error: 'use_dpop_nonce' },
          { 'WWW-Authenticate': 'DPoP error="use_dpop_nonce"', 'DPoP-Nonce': this.dpopNonce },
        );
      }
      this.dpopProofs.push(checked);
    } else if (info?.jkt !== undefined) {
      info = undefined; // a DPoP-bound token presented as a bearer token
    }
    if (info === undefined) {
      const parts = [
        ...(token !== undefined ? ['error="invalid_token"'] : []),
        ...(this.options.challengeScope !== undefined ? [`scope="${this.options.challengeScope}"`] : []),
        ...(advertise ? [`resource_metadata="${prmUrl}"`] : []),
      ];
      const challengeScheme = this.options.dpop === undefined ? 'Bearer' : 'DPoP';
      return sendJson(
        res,
        401,
        { error: 'invalid_token' },
        { 'WWW-Authenticate': `${challengeScheme} ${parts.join(', ')}`.trim() },
      );
    }
    const message = request.json ?? {};
    if (this.options.forbidden === true)
      return sendJson(res, 403, { error: 'forbidden' }, { 'WWW-Authenticate': 'Bearer error="access_denied"' });
    const needed = this.options.requiredScopes?.(message.method, message.params) ?? [];
    if (!needed.every((s) => info.scopes.includes(s))) {
      return sendJson(
        res,
        403,
        { error: 'insufficient_scope' },
        {
          'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${needed.join(' ')}", resource_metadata="${prmUrl}", error_description="Additional permission required"`,
        },
      );
    }
    if (message.id === undefined) {
      res.writeHead(202);
      res.end();
      return;
    }
    sendJson(res, 200, { jsonrpc: '2.0', id: message.id, result: this.result(message.method, message.params) });
  }

  private result(method: string, params: any): unknown {
    switch (method) {
      case 'server/discover':
        return DISCOVER;
      case 'tools/list':
        return {
          resultType: 'complete',
          tools: [
            { name: 'read_file', inputSchema: { type: 'object' } },
            { name: 'write_file', inputSchema: { type: 'object' } },
          ],
          ttlMs: this.options.listTtlMs ?? 0,
          cacheScope: 'private',
        };
      case 'tools/call':
        return { resultType: 'complete', content: [{ type: 'text', text: `called ${String(params?.name)}` }] };
      default:
        return { resultType: 'complete' };
    }
  }
}

/** An authorization server and an MCP endpoint that trusts it, started together. */
export async function startAuthPair(
  asOptions: FakeAuthorizationServerOptions = {},
  rsOptions:
    | Partial<FakeProtectedMcpServerOptions>
    | ((as: FakeAuthorizationServer) => Partial<FakeProtectedMcpServerOptions>) = {},
): Promise<{ as: FakeAuthorizationServer; rs: FakeProtectedMcpServer; close: () => Promise<void> }> {
  const as = await FakeAuthorizationServer.start(asOptions);
  const rs = await FakeProtectedMcpServer.start({
    authorizationServers: () => [as.issuer],
    verify: (token) => as.tokens.get(token),
    ...(typeof rsOptions === 'function' ? rsOptions(as) : rsOptions),
  });
  return { as, rs, close: async () => void (await Promise.all([as.close(), rs.close()])) };
}
