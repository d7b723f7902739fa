/**
 * What a client loads on first use, on fresh copies of the modules (`vi.resetModules()`: a
 * process's first client): the reconnect (loaded while connect() runs), the debug log and
 * telemetry (loaded with connect() when asked for), the era fallback (loaded when the first
 * server/discover does not settle the era), and the input_required rounds (loaded with the first
 * input_required result). Each works from the first use, and nothing is sent twice.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Scripted from '../fakes/scriptedServer.js';
import type * as Restartable from '../fakes/restartable.js';
import type { DebugEntry } from '../../src/observability/debug.js';

let fakes: typeof Scripted;
let restartable: typeof Restartable;

beforeEach(async () => {
  vi.resetModules();
  fakes = await import('../fakes/scriptedServer.js');
  restartable = await import('../fakes/restartable.js');
});

describe('a fresh client', () => {
  it('logs the first request on the wire when the debug log is on (it loads before anything is sent)', async () => {
    const entries: DebugEntry[] = [];
    const { client, server } = fakes.scriptedPair({ debug: (entry) => entries.push(entry) });
    await server.start();
    await client.connect();
    const wire = entries.filter((entry) => entry.type === 'wire').map((entry) => entry.message);
    expect(wire[0]).toMatch(/^→ .*"method":"server\/discover"/);
    expect(wire[1]).toMatch(/^← /);
    await client.close();
  });

  it('reconnects after its first drop', async () => {
    const transport = new restartable.RestartableFake(() => {});
    const { McpClient } = await import('../../src/client/client.js');
    const client = new McpClient({
      transport,
      clientInfo: { name: 'fresh', version: '0.0.0' },
      reconnect: { jitter: false, minDelayMs: 10 },
    });
    await client.connect();
    const reconnected = new Promise<void>((resolve) =>
      client.on((event) => {
        if (event.type === 'reconnected') resolve();
      }),
    );
    transport.drop({ exitCode: 1, signal: null, stderrTail: '' });
    expect(client.state).toBe('reconnecting');
    await reconnected;
    expect(client.state).toBe('open');
    expect(transport.starts).toBe(2);
    await client.close();
  });

  it('falls back to the legacy handshake when the probe is refused, sending server/discover once', async () => {
    const { client, server } = fakes.scriptedPair({ probeTimeoutMs: 1000 });
    server.on('server/discover', () => ({ error: { code: -32601, message: 'Method not found' } }));
    server.on('initialize', () => ({
      result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'old', version: '1' } },
    }));
    await server.start();
    await client.connect();
    expect(client.era).toBe('legacy');
    expect(server.requests('server/discover')).toHaveLength(1);
    expect(server.requests('initialize')).toHaveLength(1);
    await client.close();
  });

  it('answers its first input_required result with the host handlers', async () => {
    const { client, server } = fakes.scriptedPair({
      handlers: { elicitation: { form: async () => ({ action: 'accept', content: { name: 'Ada' } }) } },
    });
    server.on('tools/call', (request) => {
      const responses = request['params'].inputResponses as Record<string, { content?: { name?: string } }> | undefined;
      if (responses === undefined)
        return {
          result: {
            resultType: 'input_required',
            inputRequests: {
              who: {
                method: 'elicitation/create',
                params: {
                  message: 'Name?',
                  requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
                },
              },
            },
            requestState: 'opaque',
          },
        };
      return { result: { content: [{ type: 'text', text: `hello ${responses['who']?.content?.name}` }] } };
    });
    await server.start();
    await client.connect();
    const result = await client.callTool('greet', {});
    expect(result.content).toEqual([{ type: 'text', text: 'hello Ada' }]);
    expect(server.requests('tools/call')).toHaveLength(2);
    expect(server.requests('tools/call')[1]!['params'].requestState).toBe('opaque');
    await client.close();
  });
});
