/** Which network failures mean "nothing reached the server" (connectFailure.ts). */
import { describe, expect, it } from 'vitest';
import {
  AuthorizationRequiredError,
  ConnectionClosedError,
  HttpAuthError,
  StreamBrokenError,
} from '../../../src/index.js';
import { connectFailureOf, isNotDelivered, unreachableError } from '../../../src/transport/http/connectFailure.js';

const withCode = (code: string): Error => Object.assign(new Error('x'), { code });
const fetchFailure = (cause: unknown): Error => new TypeError('fetch failed', { cause });

describe('connectFailureOf', () => {
  it('names the failure from the Node, undici or OpenSSL code, however deep', () => {
    expect(connectFailureOf(withCode('ECONNREFUSED'))).toEqual({ failure: 'refused', code: 'ECONNREFUSED' });
    expect(connectFailureOf(fetchFailure(withCode('ENOTFOUND')))).toEqual({ failure: 'dns', code: 'ENOTFOUND' });
    expect(connectFailureOf(fetchFailure(withCode('DEPTH_ZERO_SELF_SIGNED_CERT')))?.failure).toBe('tls');
    expect(connectFailureOf(fetchFailure(withCode('CERT_HAS_EXPIRED')))?.failure).toBe('tls');
    expect(connectFailureOf(fetchFailure(withCode('ERR_TLS_CERT_ALTNAME_INVALID')))?.failure).toBe('tls');
    expect(connectFailureOf(fetchFailure(withCode('ERR_SSL_WRONG_VERSION_NUMBER')))?.failure).toBe('tls');
    expect(connectFailureOf(withCode('EPROTO'))?.failure).toBe('tls');
    expect(connectFailureOf(fetchFailure(new Error('bad port')))).toEqual({ failure: 'blocked', code: undefined });
  });

  it('says nothing of failures after the request may have left', () => {
    expect(connectFailureOf(withCode('ECONNRESET'))).toBeUndefined();
    expect(connectFailureOf(fetchFailure(withCode('UND_ERR_SOCKET')))).toBeUndefined();
    expect(connectFailureOf(new Error('socket hang up'))).toBeUndefined();
  });
});

describe('isNotDelivered', () => {
  it('is true for connections never made and for authorization failures, false for outcome unknown', () => {
    expect(
      isNotDelivered(unreachableError('m', 'http://x/mcp', { failure: 'refused', code: 'ECONNREFUSED' }, undefined)),
    ).toBe(true);
    expect(isNotDelivered(new ConnectionClosedError('closed', { reason: 'closed by client' }))).toBe(false);
    expect(
      isNotDelivered(
        new HttpAuthError({
          status: 401,
          method: 'm',
          url: 'u',
          contentType: undefined,
          bodyExcerpt: '',
          problem: 'status',
          failure: 'unauthorized',
          challenges: [],
          bearer: undefined,
          retriedWithNewCredential: false,
        }),
      ),
    ).toBe(true);
    expect(
      isNotDelivered(
        new AuthorizationRequiredError({
          reason: 'no-redirect-handler',
          authorizationUrl: 'https://as.example/authorize',
          scopes: [],
          issuer: 'https://as.example',
          resource: 'https://mcp.example/mcp',
        }),
      ),
    ).toBe(true);
    expect(
      isNotDelivered(
        new StreamBrokenError({
          method: 'm',
          requestId: 1,
          phase: 'mid-stream',
          reason: 'r',
          eventsReceived: 0,
          outcome: 'unknown',
        }),
      ),
    ).toBe(false);
    expect(isNotDelivered(new Error('plain'))).toBe(false);
  });
});
