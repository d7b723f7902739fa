/**
 * End to end: an McpClient over StreamableHttpTransport with the OAuth provider as its
 * `authProvider`, against the fake MCP endpoint behind bearer auth and the fake authorization
 * server on 127.0.0.1.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createOAuthProvider, type OAuthProvider } from '../../src/auth/oauthProvider.js';
import { createHeadlessRedirectHandler } from '../../src/auth/redirectHandler.js';
import { McpClient } from '../../src/client/client.js';
import { credentialId } from '../../src/transport/http/pinnedCredential.js';
import { StreamableHttpTransport } from '../../src/transport/http/streamableHttp.js';
import { startAuthPair, type FakeProtectedMcpServer } from '../fakes/authServer.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

function clientFor(
  rs: FakeProtectedMcpServer,
  oauth: OAuthProvider,
): { client: McpClient; transport: StreamableHttpTransport } {
  const transport = new StreamableHttpTransport(rs.url, { authProvider: oauth });
  const client = new McpClient({ transport, clientInfo: { name: 'mcp-live-auth-e2e', version: '0.0.0' } });
  closers.push(() => client.close());
  return { client, transport };
}

describe('McpClient with the OAuth provider', () => {
  it('connects through the 401, lists and calls tools with the token; the cache partition follows the token', async () => {
    const { as, rs, close } = await startAuthPair(
      { scopesSupported: ['mcp:basic', 'offline_access'] },
      { challengeScope: 'mcp:basic' },
    );
    closers.push(close);
    const oauth = createOAuthProvider({
      serverUrl: rs.url,
      clientMetadata: { client_name: 'e2e' },
      redirectUrl: 'http://127.0.0.1:8765/callback',
      redirectHandler: createHeadlessRedirectHandler(),
    });
    const { client, transport } = clientFor(rs, oauth);
    await client.connect();
    expect(client.serverInfo?.name).toBe('http-fake');
    const tools = await client.listAllTools();
    expect(tools.items.map((t) => t.name)).toEqual(['read_file', 'write_file']);
    const result = await client.callTool('read_file', {});
    expect(result.content[0]).toMatchObject({ type: 'text', text: 'called read_file' });

    expect(as.authorizations).toHaveLength(1);
    expect(as.authorizations[0]!.get('scope')).toBe('mcp:basic offline_access');
    const tokens = (await oauth.getTokens())!;
    const header = `Bearer ${tokens.accessToken}`;
    expect(rs.authorizations[0]).toBeUndefined();
    expect(rs.authorizations.slice(1).every((a) => a === header)).toBe(true);
    // server/discover is refused once (no token yet), then sent again with the token.
    const methods = rs.mcpRequests.map((r) => r.json.method);
    expect(methods.slice(0, 2)).toEqual(['server/discover', 'server/discover']);
    expect(methods).toEqual(expect.arrayContaining(['tools/list', 'tools/call']));
    // The private cache partition is a digest of the header, never the token.
    const credential = await transport.credentialFor();
    expect(credential.id).toBe(credentialId(header));
    expect(credential.id).not.toContain(tokens.accessToken);
    expect(JSON.stringify(credential)).not.toContain(tokens.accessToken);
  });

  it('steps up inside callTool and carries on with the wider token', async () => {
    const { as, rs, close } = await startAuthPair(
      {},
      {
        challengeScope: 'mcp:basic',
        requiredScopes: (_m, p) => (p?.name === 'write_file' ? ['mcp:basic', 'mcp:write'] : ['mcp:basic']),
      },
    );
    closers.push(close);
    const oauth = createOAuthProvider({
      serverUrl: rs.url,
      clientMetadata: { client_name: 'e2e' },
      redirectUrl: 'http://localhost:3000/callback',
      redirectHandler: createHeadlessRedirectHandler(),
    });
    const { client, transport } = clientFor(rs, oauth);
    await client.connect();
    const before = (await transport.credentialFor()).id;
    const written = await client.callTool('write_file', {});
    expect(written.content[0]).toMatchObject({ text: 'called write_file' });
    expect(as.authorizations.map((a) => a.get('scope'))).toEqual(['mcp:basic', 'mcp:basic mcp:write']);
    expect((await transport.credentialFor()).id).not.toBe(before);
    await client.callTool('read_file', {});
    expect(as.authorizations).toHaveLength(2);
  });
});
