/**
 * Authorization over Streamable HTTP: WWW-Authenticate parsing (RFC 9110 §11.6.1), the
 * authProvider hook with its single retry on 401 / 403 insufficient_scope, and the opaque
 * credential id for cache partitioning.
 */
import { describe, expect, it } from 'vitest';
import type { AuthRequestInfo } from '../../../src/transport/http/auth.js';
import { HttpAuthError } from '../../../src/transport/transportErrors.js';
import { bearerChallenge, parseWwwAuthenticate } from '../../../src/transport/http/wwwAuthenticate.js';
import { HttpFake, sendJson } from '../../fakes/httpFake.js';
import { request, startRecording } from '../../fakes/httpHarness.js';
import { httpTestBed } from '../../fakes/httpTestBed.js';
import { HTTP_PATHS } from '../../fakes/httpPaths.js';

describe('parseWwwAuthenticate', () => {
  it('parses a Bearer challenge with quoted strings and escapes', () => {
    const challenges = parseWwwAuthenticate(
      'Bearer realm="mcp", error="insufficient_scope", scope="files:read files:write", error_description="needs \\"write\\", sorry", resource_metadata="https://h/.well-known/oauth-protected-resource"',
    );
    expect(challenges).toEqual([
      {
        scheme: 'Bearer',
        params: {
          realm: 'mcp',
          error: 'insufficient_scope',
          scope: 'files:read files:write',
          error_description: 'needs "write", sorry',
          resource_metadata: 'https://h/.well-known/oauth-protected-resource',
        },
      },
    ]);
    expect(bearerChallenge(challenges)).toEqual({
      realm: 'mcp',
      error: 'insufficient_scope',
      scope: 'files:read files:write',
      errorDescription: 'needs "write", sorry',
      resourceMetadata: 'https://h/.well-known/oauth-protected-resource',
    });
  });

  it('splits several challenges, with token68, bare schemes, tokens and odd spacing', () => {
    expect(
      parseWwwAuthenticate('Newauth realm="apps", type=1, title="Login to \\"apps\\"", Basic realm="simple"'),
    ).toEqual([
      { scheme: 'Newauth', params: { realm: 'apps', type: '1', title: 'Login to "apps"' } },
      { scheme: 'Basic', params: { realm: 'simple' } },
    ]);
    expect(
      parseWwwAuthenticate('Negotiate, NTLM abc+/def==, Bearer error = invalid_token ,,  DPoP algs="ES256 PS256"'),
    ).toEqual([
      { scheme: 'Negotiate', params: {} },
      { scheme: 'NTLM', params: {}, token68: 'abc+/def==' },
      { scheme: 'Bearer', params: { error: 'invalid_token' } },
      { scheme: 'DPoP', params: { algs: 'ES256 PS256' } },
    ]);
  });

  it('lower-cases parameter names, keeps the first of a repeated one, and finds Bearer case-insensitively', () => {
    const challenges = parseWwwAuthenticate('bearer Scope="a", SCOPE="b", Resource_Metadata="https://x"');
    expect(challenges).toEqual([{ scheme: 'bearer', params: { scope: 'a', resource_metadata: 'https://x' } }]);
    expect(bearerChallenge(challenges)).toEqual({ scope: 'a', resourceMetadata: 'https://x' });
  });

  it('keeps commas inside quoted strings and survives malformed input', () => {
    expect(parseWwwAuthenticate('Bearer error_description="a, b=c, d", scope="x"')).toEqual([
      { scheme: 'Bearer', params: { error_description: 'a, b=c, d', scope: 'x' } },
    ]);
    expect(parseWwwAuthenticate('Bearer realm="unterminated')).toEqual([{ scheme: 'Bearer', params: {} }]);
    expect(parseWwwAuthenticate('"junk", Bearer scope="s"')).toEqual([{ scheme: 'Bearer', params: { scope: 's' } }]);
    expect(parseWwwAuthenticate('')).toEqual([]);
    expect(parseWwwAuthenticate(null)).toEqual([]);
    expect(bearerChallenge(parseWwwAuthenticate('Basic realm="x"'))).toBeUndefined();
  });
});

describe.each(HTTP_PATHS)('$path path', ({ Transport: StreamableHttpTransport }) => {
  describe('Streamable HTTP: authProvider', () => {
    const { serve, transportFor } = httpTestBed(StreamableHttpTransport);
    let fake: HttpFake | undefined;

    it('asks for a credential per request and retries once with a new one after a 401', async () => {
      fake = await serve((req, res) => {
        if (req.headers['authorization'] === 'Bearer AT2')
          sendJson(res, 200, { jsonrpc: '2.0', id: req.json.id, result: {} });
        else
          res
            .writeHead(401, { 'WWW-Authenticate': 'Bearer error="invalid_token", resource_metadata="https://h/prm"' })
            .end();
      });
      const calls: AuthRequestInfo[] = [];
      let token = 'AT1';
      const transport = transportFor(fake.url, {
        authProvider: (info) => {
          calls.push(info);
          if (info.attempt === 2 && info.failure?.rejected === `Bearer ${token}`) token = 'AT2';
          return `Bearer ${token}`;
        },
      });
      await startRecording(transport);
      await transport.send(request(1, 'tools/list'));
      expect(fake.requests.map((r) => r.headers['authorization'])).toEqual(['Bearer AT1', 'Bearer AT2']);
      expect(calls.map((c) => c.attempt)).toEqual([1, 2]);
      expect(calls[1]!.failure).toMatchObject({
        status: 401,
        failure: 'unauthorized',
        rejected: 'Bearer AT1',
        bearer: { error: 'invalid_token', resourceMetadata: 'https://h/prm' },
      });
      expect(calls[0]!.url).toBe(fake.url);

      // The next request uses AT2 straight away.
      await transport.send(request(2, 'tools/list'));
      expect(fake.requests.map((r) => r.headers['authorization'])).toEqual(['Bearer AT1', 'Bearer AT2', 'Bearer AT2']);
    });

    it('stops with HttpAuthError when the provider has nothing new, and never loops', async () => {
      fake = await serve((_req, res) =>
        res.writeHead(401, { 'WWW-Authenticate': 'Bearer error="invalid_token"' }).end(),
      );
      const transport = transportFor(fake.url, { authProvider: () => 'Bearer same' });
      await startRecording(transport);
      const error = await transport.send(request(1, 'tools/list')).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HttpAuthError);
      expect((error as HttpAuthError).data.failure).toBe('unauthorized');
      expect(fake.requests).toHaveLength(1);
    });

    it('403 insufficient_scope asks once for a stepped-up credential; a second 403 fails with the scopes', async () => {
      fake = await serve((_req, res) =>
        res
          .writeHead(403, { 'WWW-Authenticate': 'Bearer error="insufficient_scope", scope="files:read files:write"' })
          .end(),
      );
      let n = 0;
      const transport = transportFor(fake.url, { authProvider: () => `Bearer T${++n}` });
      await startRecording(transport);
      const error = (await transport
        .send(request(1, 'tools/call', { name: 'write_file' }))
        .catch((e: unknown) => e)) as HttpAuthError;
      expect(fake.requests.map((r) => r.headers['authorization'])).toEqual(['Bearer T1', 'Bearer T2']);
      expect(error).toBeInstanceOf(HttpAuthError);
      expect(error.data).toMatchObject({ status: 403, failure: 'insufficient_scope', retriedWithNewCredential: true });
      expect(error.requiredScopes).toEqual(['files:read', 'files:write']);
    });

    it('a plain 403 does not ask the provider again', async () => {
      fake = await serve((_req, res) => res.writeHead(403).end('forbidden'));
      const attempts: number[] = [];
      const transport = transportFor(fake.url, { authProvider: (info) => (attempts.push(info.attempt), 'Bearer x') });
      await startRecording(transport);
      await expect(transport.send(request(1, 'tools/list'))).rejects.toMatchObject({
        data: { failure: 'forbidden', bodyExcerpt: 'forbidden' },
      });
      expect(attempts).toEqual([1]);
    });

    it('credentialFor() resolves the next credential ahead, as an opaque id, and the request carries exactly it', async () => {
      fake = await serve((req, res) => sendJson(res, 200, { jsonrpc: '2.0', id: req.json.id, result: {} }));
      let token = 'secret-token-1';
      const transport = transportFor(fake.url, { authProvider: () => `Bearer ${token}` });
      await startRecording(transport);
      const first = await transport.credentialFor();
      expect(first.id).toMatch(/^credential:[0-9a-f]{32}$/);
      expect(first.id).not.toContain('secret');
      expect(JSON.stringify(first)).not.toContain('secret');
      expect(String(Object.values(first))).not.toContain('secret');
      expect((await transport.credentialFor()).id).toBe(first.id);
      // The provider now answers with another token; the pinned request still carries the first.
      token = 'secret-token-2';
      await transport.send(request(1, 'tools/list'), { credential: first });
      expect(fake.requests[0]!.headers.authorization).toBe('Bearer secret-token-1');
      await transport.send(request(2, 'tools/list'));
      expect(fake.requests[1]!.headers.authorization).toBe('Bearer secret-token-2');
      const next = await transport.credentialFor();
      expect(next.id).not.toBe(first.id);

      const other = transportFor(fake.url, { headers: { Authorization: 'Bearer secret-token-2' } });
      await startRecording(other);
      expect((await other.credentialFor()).id).toBe(next.id);
      // A credential pinned by another transport is not honoured: that transport uses its own.
      await other.send(request(3, 'tools/list'), { credential: first });
      expect(fake.requests[2]!.headers.authorization).toBe('Bearer secret-token-2');
      const anonymous = transportFor(fake.url);
      await startRecording(anonymous);
      expect((await anonymous.credentialFor()).id).toBeUndefined();
    });

    it('marks a pinned credential replaced when a 401 made the provider give another one', async () => {
      fake = await serve((req, res) =>
        req.headers.authorization === 'Bearer fresh'
          ? sendJson(res, 200, { jsonrpc: '2.0', id: req.json.id, result: {} })
          : res.writeHead(401, { 'www-authenticate': 'Bearer error="invalid_token"' }).end(),
      );
      const transport = transportFor(fake.url, {
        authProvider: (info) => (info.attempt === 1 ? 'Bearer stale' : 'Bearer fresh'),
      });
      await startRecording(transport);
      const pinned = await transport.credentialFor();
      expect(pinned.replaced).toBe(false);
      await transport.send(request(1, 'tools/list'), { credential: pinned });
      expect(fake.requests.map((r) => r.headers.authorization)).toEqual(['Bearer stale', 'Bearer fresh']);
      expect(pinned.replaced).toBe(true);
    });
  });
});
