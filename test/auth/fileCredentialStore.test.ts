/** The JSON-file credential store of `mcp-live/node`. */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileCredentialStore } from '../../src/auth/fileCredentialStore.js';
import type { StoredClient, StoredTokens } from '../../src/auth/types.js';

const tokens: StoredTokens = {
  issuer: 'https://as.example',
  resource: 'https://mcp.example/mcp',
  accessToken: 'at',
  refreshToken: 'rt',
  expiresAt: 2_000_000,
  obtainedAt: 1_000_000,
};
const client: StoredClient = {
  issuer: 'https://as.example',
  clientId: 'c1',
  clientSecret: 's1',
  tokenEndpointAuthMethod: 'client_secret_basic',
  redirectUris: ['http://localhost/cb'],
  registeredAt: 1,
};

describe('FileCredentialStore', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mcp-live-auth-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('is empty without a file, and writes a 0600 file in a new directory', async () => {
    const path = join(dir, 'nested', 'credentials.json');
    const store = new FileCredentialStore(path);
    expect(await store.getTokens('https://mcp.example/mcp')).toBeUndefined();
    await store.setTokens('https://mcp.example/mcp', tokens);
    await store.setClient('https://as.example', client);
    expect(await store.getTokens('https://mcp.example/mcp')).toEqual(tokens);
    expect(await store.getClient('https://as.example')).toEqual(client);
    if (process.platform !== 'win32') expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({
      version: 1,
      tokens: { 'https://mcp.example/mcp': tokens },
      clients: { 'https://as.example': client },
    });
  });

  it('keeps concurrent writes of one process, and another instance reads them', async () => {
    const path = join(dir, 'credentials.json');
    const store = new FileCredentialStore(path);
    await Promise.all([
      store.setTokens('a', tokens),
      store.setTokens('b', { ...tokens, accessToken: 'at-b' }),
      store.setClient('https://as.example', client),
    ]);
    const other = new FileCredentialStore(path);
    expect((await other.getTokens('a'))?.accessToken).toBe('at');
    expect((await other.getTokens('b'))?.accessToken).toBe('at-b');
    await other.deleteTokens('a');
    await other.deleteClient('https://as.example');
    expect(await store.getTokens('a')).toBeUndefined();
    expect(await store.getClient('https://as.example')).toBeUndefined();
    expect((await store.getTokens('b'))?.accessToken).toBe('at-b');
  });

  it('refuses a file that is not a credential file, and leaves it alone', async () => {
    const path = join(dir, 'credentials.json');
    await writeFile(path, '{"something":"else"}');
    const store = new FileCredentialStore(path);
    await expect(store.getTokens('a')).rejects.toThrow(TypeError);
    await expect(store.setTokens('a', tokens)).rejects.toThrow(TypeError);
    expect(await readFile(path, 'utf8')).toBe('{"something":"else"}');
    // The write queue survives the failure.
    await writeFile(path, '{"version":1,"tokens":{},"clients":{}}');
    await store.setTokens('a', tokens);
    expect((await store.getTokens('a'))?.accessToken).toBe('at');
  });
});
