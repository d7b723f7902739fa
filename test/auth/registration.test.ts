/** Client identity helpers (spec: basic/authorization/client-registration; RFC 6749 §2.3.1). */
import * as oauth from 'oauth4webapi';
import { describe, expect, it } from 'vitest';
import {
  applicationTypeFor,
  chooseAuthMethod,
  clientAuthentication,
  registrationAuthMethod,
} from '../../src/auth/registration.js';
import { clientIdMetadataDocument } from '../../src/auth/clientMetadataDocument.js';

const as: oauth.AuthorizationServer = { issuer: 'https://as.example' };

async function authenticate(
  identity: Parameters<typeof clientAuthentication>[0],
): Promise<{ body: URLSearchParams; headers: Headers }> {
  const body = new URLSearchParams();
  const headers = new Headers();
  await clientAuthentication(identity)(as, { client_id: identity.clientId }, body, headers);
  return { body, headers };
}

describe('token endpoint authentication', () => {
  it('client_secret_basic: Base64 of form-encoded id:secret, letters, digits and -._* left as they are', async () => {
    const { body, headers } = await authenticate({
      clientId: 'pre-registered-client',
      clientSecret: 'pre-registered-secret',
      method: 'client_secret_basic',
      source: 'pre-registered',
    });
    expect(Buffer.from(headers.get('authorization')!.slice(6), 'base64').toString()).toBe(
      'pre-registered-client:pre-registered-secret',
    );
    expect([...body.keys()]).toEqual([]);
  });

  it('client_secret_basic: reserved characters are form-encoded (RFC 6749 §2.3.1)', async () => {
    const { headers } = await authenticate({
      clientId: 'a:b c',
      clientSecret: 's/é',
      method: 'client_secret_basic',
      source: 'dynamic',
    });
    expect(Buffer.from(headers.get('authorization')!.slice(6), 'base64').toString()).toBe('a%3Ab+c:s%2F%C3%A9');
  });

  it('client_secret_post puts id and secret in the body; none only the id', async () => {
    const post = await authenticate({
      clientId: 'id',
      clientSecret: 'sec',
      method: 'client_secret_post',
      source: 'dynamic',
    });
    expect(Object.fromEntries(post.body)).toEqual({ client_id: 'id', client_secret: 'sec' });
    expect(post.headers.has('authorization')).toBe(false);
    const none = await authenticate({ clientId: 'id', method: 'none', source: 'dynamic' });
    expect(Object.fromEntries(none.body)).toEqual({ client_id: 'id' });
    expect(none.headers.has('authorization')).toBe(false);
  });
});

describe('choosing methods', () => {
  it('with a secret: basic unless only post is listed; without: none', () => {
    expect(chooseAuthMethod(undefined, true)).toBe('client_secret_basic');
    expect(chooseAuthMethod(['client_secret_post', 'client_secret_basic'], true)).toBe('client_secret_basic');
    expect(chooseAuthMethod(['client_secret_post'], true)).toBe('client_secret_post');
    expect(chooseAuthMethod(['client_secret_basic'], false)).toBe('none');
  });

  it('asks Dynamic Client Registration for a public client when allowed', () => {
    expect(registrationAuthMethod(['none', 'client_secret_basic'])).toBe('none');
    expect(registrationAuthMethod(['client_secret_post'])).toBe('client_secret_post');
    expect(registrationAuthMethod(['client_secret_basic'])).toBe('client_secret_basic');
    expect(registrationAuthMethod(undefined)).toBe('client_secret_basic');
  });

  it('application_type: native for loopback and private-use schemes, web otherwise', () => {
    expect(applicationTypeFor('http://localhost:3000/callback')).toBe('native');
    expect(applicationTypeFor('http://127.0.0.1:8765/cb')).toBe('native');
    expect(applicationTypeFor('com.example.app:/oauth2redirect')).toBe('native');
    expect(applicationTypeFor('https://app.example.com/callback')).toBe('web');
  });
});

describe('clientIdMetadataDocument', () => {
  it('sets client_id to the document URL and the fields the provider relies on', () => {
    expect(
      clientIdMetadataDocument(
        'https://app.example.com/client.json',
        { client_name: 'App', logo_uri: 'https://app.example.com/logo.png', client_uri: undefined },
        'http://127.0.0.1:8765/cb',
      ),
    ).toEqual({
      client_id: 'https://app.example.com/client.json',
      client_name: 'App',
      logo_uri: 'https://app.example.com/logo.png',
      redirect_uris: ['http://127.0.0.1:8765/cb'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    });
  });
});
