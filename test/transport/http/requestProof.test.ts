/**
 * The proof-of-possession hook of an auth provider (`requestProof`, RFC 9449 DPoP) in both
 * HTTP transports, against scripted servers on 127.0.0.1: a proof per HTTP try with its method
 * and URL, protocol headers the hook cannot override, the one retry a `use_dpop_nonce` 401
 * earns, bad proof values, and which challenge an auth failure reports for a DPoP credential.
 */
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../../src/errors/errors.js';
import type {
  AuthProvider,
  AuthRequestInfo,
  ProofRequest,
  ProofResponse,
  RequestProof,
} from '../../../src/transport/http/auth.js';
import { LegacySseTransport } from '../../../src/transport/http/legacy/legacySse.js';
import type { StreamableHttpTransport } from '../../../src/transport/http/streamableHttp.js';
import { bearerChallenge, parseWwwAuthenticate } from '../../../src/transport/http/wwwAuthenticate.js';
import { HttpAuthError } from '../../../src/transport/transportErrors.js';
import { HttpFake, sendJson, startSse, type RecordedRequest } from '../../fakes/httpFake.js';
import { request, startRecording } from '../../fakes/httpHarness.js';
import { HTTP_PATHS } from '../../fakes/httpPaths.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function fake(
  handler: (request: RecordedRequest, res: ServerResponse) => void,
  path?: string,
): Promise<HttpFake> {
  const started = await HttpFake.start(handler, path);
  closers.push(() => started.close());
  return started;
}

/** A provider with a proof hook that numbers its proofs and records what it saw. */
function proving(
  authorization: (info: AuthRequestInfo) => string | undefined,
  options: { extra?: Record<string, string>; nonceRetry?: (response: ProofResponse) => boolean } = {},
) {
  const proofs: ProofRequest[] = [];
  const responses: Array<{ url: string; status: number; nonce: string | undefined }> = [];
  const attempts: AuthRequestInfo[] = [];
  const requestProof: RequestProof = {
    headers: async (req) => {
      proofs.push(req);
      return { DPoP: `proof-${proofs.length}`, ...options.extra };
    },
    response: (res) => {
      responses.push({ url: res.url, status: res.status, nonce: res.header('dpop-nonce') });
      return options.nonceRetry?.(res) ?? false;
    },
  };
  const provider: AuthProvider = Object.assign(
    (info: AuthRequestInfo) => {
      attempts.push(info);
      return authorization(info);
    },
    { requestProof },
  );
  return { provider, proofs, responses, attempts };
}

const ok = (req: RecordedRequest, res: ServerResponse) =>
  req.json?.id === undefined
    ? res.writeHead(202).end()
    : sendJson(res, 200, { jsonrpc: '2.0', id: req.json.id, result: {} });

const nonceChallenge = (res: ServerResponse, nonce: string) =>
  res.writeHead(401, { 'WWW-Authenticate': 'DPoP error="use_dpop_nonce"', 'DPoP-Nonce': nonce }).end();

describe.each(HTTP_PATHS)('Streamable HTTP ($path path): requestProof', ({ Transport }) => {
  function transportFor(url: string, authProvider: AuthProvider): StreamableHttpTransport {
    const transport = new Transport(url, { retry: false, authProvider });
    closers.push(() => transport.close());
    return transport;
  }

  it('adds a fresh proof to every request that carries the credential, with its method and URL', async () => {
    const server = await fake(ok);
    const { provider, proofs, responses } = proving(() => 'DPoP AT1');
    const transport = transportFor(server.url, provider);
    await startRecording(transport);
    await transport.send(request(1, 'tools/list'));
    await transport.send(request(2, 'tools/list'));
    expect(server.requests.map((r) => [r.headers['authorization'], r.headers['dpop']])).toEqual([
      ['DPoP AT1', 'proof-1'],
      ['DPoP AT1', 'proof-2'],
    ]);
    expect(proofs.map((p) => [p.method, p.url, p.authorization])).toEqual([
      ['POST', server.url, 'DPoP AT1'],
      ['POST', server.url, 'DPoP AT1'],
    ]);
    expect(responses.map((r) => r.status)).toEqual([200, 200]);
  });

  it('never lets the hook replace a header the transport sends; names are lower-cased', async () => {
    const server = await fake(ok);
    const { provider } = proving(() => 'DPoP AT1', {
      extra: { 'Content-Type': 'text/plain', Authorization: 'Bearer stolen', 'X-Proof-Extra': 'e' },
    });
    const transport = transportFor(server.url, provider);
    await startRecording(transport);
    await transport.send(request(1, 'tools/list'));
    const headers = server.requests[0]!.headers;
    expect(headers['content-type']).toBe('application/json');
    expect(headers['authorization']).toBe('DPoP AT1');
    expect(headers['x-proof-extra']).toBe('e');
    expect(headers['dpop']).toBe('proof-1');
  });

  it('asks for no proof when the provider has no credential', async () => {
    const server = await fake(ok);
    const { provider, proofs } = proving(() => undefined);
    const transport = transportFor(server.url, provider);
    await startRecording(transport);
    await transport.send(request(1, 'tools/list'));
    expect(proofs).toEqual([]);
    expect(server.requests[0]!.headers['dpop']).toBeUndefined();
  });

  it('a use_dpop_nonce 401 is retried once with the same credential and a new proof, without asking the provider', async () => {
    let challenged = 0;
    const server = await fake((req, res) => {
      if (req.headers['dpop'] === 'proof-1') nonceChallenge(res, `n${++challenged}`);
      else ok(req, res);
    });
    const { provider, proofs, responses, attempts } = proving(() => 'DPoP AT1', {
      nonceRetry: (res) => res.status === 401 && res.header('dpop-nonce') !== undefined,
    });
    const transport = transportFor(server.url, provider);
    await startRecording(transport);
    await transport.send(request(1, 'tools/list'));
    expect(server.requests.map((r) => r.headers['dpop'])).toEqual(['proof-1', 'proof-2']);
    expect(responses).toEqual([
      { url: server.url, status: 401, nonce: 'n1' },
      { url: server.url, status: 200, nonce: undefined },
    ]);
    expect(attempts.map((a) => a.attempt)).toEqual([1]);
    expect(proofs).toHaveLength(2);
  });

  it('a second use_dpop_nonce 401 in a row is an ordinary 401: the provider is asked, once', async () => {
    let n = 0;
    const server = await fake((_req, res) => nonceChallenge(res, `n${++n}`));
    const { provider, attempts } = proving((info) => (info.attempt === 1 ? 'DPoP AT1' : 'DPoP AT2'), {
      nonceRetry: (res) => res.status === 401,
    });
    const transport = transportFor(server.url, provider);
    await startRecording(transport);
    const error = await transport.send(request(1, 'tools/list')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpAuthError);
    // AT1, AT1 again with the nonce, then AT2 (one nonce retry per exchange), and the provider's attempt 3.
    expect(server.requests.map((r) => r.headers['authorization'])).toEqual(['DPoP AT1', 'DPoP AT1', 'DPoP AT2']);
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3]);
    expect(attempts[1]!.failure).toMatchObject({ rejected: 'DPoP AT1', bearer: { error: 'use_dpop_nonce' } });
  });

  it('a proof value that is not valid HTTP fails the request without showing it', async () => {
    const server = await fake(ok);
    const requestProof: RequestProof = {
      headers: async () => ({ dpop: 'secret-proof\r\nX-Injected: 1' }),
      response: () => false,
    };
    const transport = transportFor(
      server.url,
      Object.assign(() => 'DPoP AT1', { requestProof }),
    );
    await startRecording(transport);
    const error = await transport.send(request(1, 'tools/list')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(JSON.stringify(error)).not.toContain('secret-proof');
    expect(String((error as Error).message)).not.toContain('secret-proof');
    expect(server.requests).toHaveLength(0);
  });
});

describe('LegacySseTransport: requestProof', () => {
  it('proves the GET of the stream and every POST, each with its own method and URL', async () => {
    let stream: ServerResponse | undefined;
    const server = await fake((req, res) => {
      if (req.method === 'GET') {
        stream = res;
        return startSse(res, ['event: endpoint\ndata: /messages?session=1\n\n']);
      }
      res.writeHead(202).end('Accepted');
    }, '/sse');
    const { provider, proofs } = proving(() => 'DPoP AT1');
    const transport = new LegacySseTransport(server.url, { authProvider: provider });
    closers.push(() => transport.close());
    await transport.start({ onMessage: () => {}, onError: () => {}, onClose: () => {} });
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(stream).toBeDefined();
    const origin = new URL(server.url).origin;
    expect(proofs.map((p) => [p.method, p.url])).toEqual([
      ['GET', server.url],
      ['POST', `${origin}/messages?session=1`],
    ]);
    expect(server.requests.map((r) => r.headers['dpop'])).toEqual(['proof-1', 'proof-2']);
  });

  it('retries a POST refused with use_dpop_nonce once, with a new proof', async () => {
    const server = await fake((req, res) => {
      if (req.method === 'GET') return startSse(res, ['event: endpoint\ndata: /messages\n\n']);
      if (req.headers['dpop'] === 'proof-2') return nonceChallenge(res, 'n1');
      res.writeHead(202).end('Accepted');
    }, '/sse');
    const { provider, attempts } = proving(() => 'DPoP AT1', { nonceRetry: (res) => res.status === 401 });
    const transport = new LegacySseTransport(server.url, { authProvider: provider });
    closers.push(() => transport.close());
    await transport.start({ onMessage: () => {}, onError: () => {}, onClose: () => {} });
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(server.requests.map((r) => `${r.method} ${String(r.headers['dpop'])}`)).toEqual([
      'GET proof-1',
      'POST proof-2',
      'POST proof-3',
    ]);
    expect(attempts.map((a) => a.attempt)).toEqual([1, 1]);
  });
});

describe('bearerChallenge with the credential sent', () => {
  const challenges = parseWwwAuthenticate(
    'Bearer scope="a", resource_metadata="https://h/prm", DPoP error="insufficient_scope", scope="b", algs="ES256"',
  );

  it('reads the DPoP challenge for a DPoP credential, the Bearer one otherwise', () => {
    expect(bearerChallenge(challenges, 'DPoP abc')).toEqual({ error: 'insufficient_scope', scope: 'b' });
    expect(bearerChallenge(challenges, 'Bearer abc')).toEqual({ scope: 'a', resourceMetadata: 'https://h/prm' });
    expect(bearerChallenge(challenges)).toEqual({ scope: 'a', resourceMetadata: 'https://h/prm' });
  });

  it('falls back to a DPoP challenge when there is no Bearer one', () => {
    expect(bearerChallenge(parseWwwAuthenticate('DPoP resource_metadata="https://h/prm"'))).toEqual({
      resourceMetadata: 'https://h/prm',
    });
  });
});
