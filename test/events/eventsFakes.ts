/**
 * A scripted events server for the client tests: the scripted wire fake with the extension
 * declared and two event types whose descriptors name the modes given (as the conformance
 * client scenarios serve them: a replay type and a cursorless one).
 */
import { DISCOVER_RESULT, scriptedPair, type ScriptedServer } from '../fakes/scriptedServer.js';
import type { McpClient } from '../../src/client/client.js';
import type { ClientOptions } from '../../src/client/options.js';

export const REPLAY = 'conformance.ticks';
export const CURSORLESS = 'conformance.cursorless';
export const EXTENSION = 'io.modelcontextprotocol/events';

export function descriptor(name: string, delivery: string[]): Record<string, unknown> {
  return { name, description: name, delivery, inputSchema: { type: 'object', properties: {} } };
}

export function occurrence(eventId: string, cursor?: string | null, name = REPLAY): Record<string, unknown> {
  return {
    eventId,
    name,
    timestamp: '2026-12-03T12:00:00Z',
    data: { eventId },
    ...(cursor !== undefined && { cursor }),
  };
}

/** A connected client and a scripted server that declares the extension (unless `declare` is false). */
export async function eventsPair(
  delivery: string[],
  options: Partial<ClientOptions> & { declare?: boolean } = {},
): Promise<{ client: McpClient; server: ScriptedServer }> {
  const { declare = true, ...clientOptions } = options;
  const pair = scriptedPair(clientOptions);
  pair.server.on('server/discover', () => ({
    result: {
      ...DISCOVER_RESULT,
      capabilities: {
        ...DISCOVER_RESULT.capabilities,
        ...(declare && { extensions: { [EXTENSION]: { listChanged: true } } }),
      },
    },
  }));
  pair.server.on('events/list', () => ({
    result: { resultType: 'complete', events: [descriptor(REPLAY, delivery), descriptor(CURSORLESS, delivery)] },
  }));
  await pair.server.start();
  await pair.client.connect();
  return pair;
}
