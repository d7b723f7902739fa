import { describe, expect, it } from 'vitest';
import { AuthorizationRequiredError, InsufficientScopeError, OAuthError } from '../../src/auth/errors.js';
import { classifyProbeFailure, probeError, stepFailure } from '../../src/era/eraProbe.js';
import {
  CancelledError,
  ConnectionClosedError,
  InvalidArgumentError,
  ProtocolError,
  RpcError,
  TimeoutError,
} from '../../src/errors/errors.js';
import {
  HttpAuthError,
  HttpError,
  StreamBrokenError,
  type HttpErrorData,
} from '../../src/transport/transportErrors.js';

const httpData = (status: number, extra: Partial<HttpErrorData> = {}): HttpErrorData => ({
  status,
  method: 'server/discover',
  url: 'http://127.0.0.1/mcp',
  contentType: 'text/plain',
  bodyExcerpt: '',
  problem: 'status',
  ...extra,
});
const rpc = (code: number, httpStatus?: number) => new RpcError({ code, message: 'x' }, 'server/discover', httpStatus);

describe('classifyProbeFailure', () => {
  it.each([
    ['-32022 on stdio', rpc(-32022)],
    ['-32022 with HTTP 400', rpc(-32022, 400)],
    ['-32020 with HTTP 400', rpc(-32020, 400)],
    ['-32021', rpc(-32021)],
    ['-32601 with HTTP 404', rpc(-32601, 404)],
  ])('modern: %s', (_label, error) => {
    expect(classifyProbeFailure(error)).toBe('modern');
  });

  it.each([
    ['-32601 on stdio (no status)', rpc(-32601)],
    ['-32601 with HTTP 400', rpc(-32601, 400)],
    ['-32602', rpc(-32602)],
    ['-32600 Server not initialized', rpc(-32600)],
    ['-32000 with HTTP 400', rpc(-32000, 400)],
    ['an odd code (0)', rpc(0)],
    ['no answer in time', new TimeoutError({ method: 'server/discover', timeoutMs: 5000, kind: 'idle' })],
    ['400 text/plain', new HttpError(httpData(400))],
    ['404 text/html', new HttpError(httpData(404, { contentType: 'text/html' }))],
    ['405 empty', new HttpError(httpData(405, { contentType: undefined }))],
    ['500', new HttpError(httpData(500))],
    [
      'a result that is not a DiscoverResult ({} from a permissive legacy server)',
      new ProtocolError('result.supportedVersions must be an array', { method: 'server/discover', value: {} }),
    ],
    [
      'a stream that broke',
      new StreamBrokenError({
        method: 'server/discover',
        requestId: 0,
        phase: 'mid-stream',
        reason: 'x',
        eventsReceived: 0,
        outcome: 'unknown',
      }),
    ],
  ])('legacy: %s', (_label, error) => {
    expect(classifyProbeFailure(error)).toBe('legacy');
  });

  it.each([
    [
      '401',
      new HttpAuthError({
        ...httpData(401),
        failure: 'unauthorized',
        challenges: [],
        bearer: undefined,
        retriedWithNewCredential: false,
      }),
    ],
    [
      'a refused token request (OAuthError, even with HTTP 400)',
      new OAuthError('refused', { failure: 'token-request-failed', status: 400, error: 'invalid_grant' }),
    ],
    [
      'a scope the server keeps refusing',
      new InsufficientScopeError({
        requiredScopes: ['a'],
        grantedScopes: ['a'],
        reason: 'already-granted',
        attempts: 0,
      }),
    ],
    [
      'an authorization a user must finish in a browser',
      new AuthorizationRequiredError({
        authorizationUrl: 'https://as/authorize',
        scopes: [],
        issuer: 'https://as',
        resource: 'https://mcp',
        reason: 'no-redirect-handler',
      }),
    ],
    ['a closed connection', new ConnectionClosedError('gone', { reason: 'process exited' })],
    ['the caller abort', new CancelledError('server/discover', 'stop')],
    ['a bad argument', new InvalidArgumentError('uri', 1, 'bad')],
    ['a plain TypeError', new TypeError('bug')],
  ])('fatal: %s', (_label, error) => {
    expect(classifyProbeFailure(error)).toBe('fatal');
  });
});

describe('probeError', () => {
  it('turns a modern JSON-RPC error inside an HttpError into an RpcError with the status', () => {
    const wrapped = new HttpError(
      httpData(400, { rpcError: { code: -32022, message: 'Unsupported', data: { supported: ['2026-07-28'] } } }),
    );
    const error = probeError(wrapped, 'server/discover');
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({ code: -32022, httpStatus: 400, data: { supported: ['2026-07-28'] } });
    expect(classifyProbeFailure(error)).toBe('modern');
  });

  it('leaves other errors alone, legacy JSON-RPC errors in an HttpError included', () => {
    const legacy = new HttpError(httpData(400, { rpcError: { code: -32000, message: 'Missing session ID' } }));
    expect(probeError(legacy, 'server/discover')).toBe(legacy);
    const timeout = new TimeoutError({ method: 'server/discover', timeoutMs: 1, kind: 'idle' });
    expect(probeError(timeout, 'server/discover')).toBe(timeout);
  });
});

describe('stepFailure', () => {
  it('summarizes an HttpError and an RpcError with their status', () => {
    expect(stepFailure('server/discover', new HttpError(httpData(404)))).toMatchObject({
      method: 'server/discover',
      error: 'HttpError',
      code: -33010,
      status: 404,
    });
    expect(stepFailure('initialize', rpc(-32601, 404))).toMatchObject({
      error: 'RpcError',
      code: -32601,
      status: 404,
      message: 'x',
    });
    expect(stepFailure('initialize', 'odd')).toEqual({
      method: 'initialize',
      error: 'string',
      code: undefined,
      status: undefined,
      message: 'odd',
    });
  });
});
