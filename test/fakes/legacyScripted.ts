/** A scripted legacy (2025-11-25) server over the in-memory pair, built on {@link ScriptedServer}. */
import type { ClientOptions } from '../../src/client/options.js';
import { scriptedPair, type ScriptedServer, type Wire } from './scriptedServer.js';
import type { McpClient } from '../../src/client/client.js';

/** The InitializeResult the scripted legacy server answers with (its version: the one asked for). */
export const LEGACY_INITIALIZE = {
  capabilities: { tools: { listChanged: true }, prompts: {}, resources: { subscribe: true, listChanged: true } },
  serverInfo: { name: 'legacy-scripted', version: '1.0.0' },
  instructions: 'a scripted legacy server',
};

/**
 * A client and a scripted legacy server (not started): `server/discover` gets -32601 (as a
 * legacy stdio server answers), `initialize` gets `initialize` (default
 * {@link LEGACY_INITIALIZE}), `ping` gets `{}`.
 */
export function legacyPair(
  options: Partial<ClientOptions> = {},
  initialize: Record<string, unknown> = LEGACY_INITIALIZE,
): { client: McpClient; server: ScriptedServer } {
  const pair = scriptedPair(options);
  pair.server.on('server/discover', () => ({ error: { code: -32601, message: 'Method not found' } }));
  pair.server.on('initialize', (request: Wire) => ({
    result: { protocolVersion: request['params']?.protocolVersion ?? '2025-11-25', ...initialize },
  }));
  pair.server.on('ping', () => ({ result: {} }));
  return pair;
}

/** {@link legacyPair}, started and connected. */
export async function connectedLegacyPair(
  options: Partial<ClientOptions> = {},
  initialize?: Record<string, unknown>,
): Promise<{ client: McpClient; server: ScriptedServer }> {
  const pair = legacyPair(options, initialize);
  await pair.server.start();
  await pair.client.connect();
  return pair;
}
