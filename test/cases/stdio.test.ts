/**
 * stdio cases from ../shared/cases/CASES.md at the client level (the transport-level halves
 * live in test/transport/stdio.test.ts).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { McpClient } from '../../src/client/client.js';
import { ConnectionClosedError, ProtocolError } from '../../src/errors/errors.js';
import { StdioTransport } from '../../src/transport/stdio/stdio.js';

const child = (name: string) => fileURLToPath(new URL(`../fakes/children/${name}`, import.meta.url));

function stdioClient(
  args: string[],
  options: { onError?: (e: Error) => void; onLog?: (m: unknown) => void; reconnect?: false } = {},
) {
  const transport = new StdioTransport({ command: process.execPath, args, stderr: 'pipe', closeTimeoutMs: 300 });
  return new McpClient({ transport, clientInfo: { name: 'cases', version: '0' }, ...options });
}

describe('B17: non-JSON lines on stdout do not kill the connection', () => {
  it('B17: connect and listTools resolve; noise is reported, not thrown; the notification comes first', async () => {
    const errors: Error[] = [];
    const order: string[] = [];
    const client = stdioClient([child('scripted-modern.mjs'), 'noisy'], {
      onError: (e) => errors.push(e),
      onLog: () => order.push('log'),
    });
    await client.connect();
    const list = await client.listTools().then((r) => {
      order.push('result');
      return r;
    });
    expect(list.tools).toEqual([]);
    expect(order).toEqual(['log', 'result']);
    expect(client.state).toBe('open');
    // Three non-JSON lines from the framer, one JSON log object from the session.
    expect(errors).toHaveLength(4);
    expect(errors.every((e) => e instanceof ProtocolError)).toBe(true);
    expect(errors.map((e) => (e as ProtocolError).code)).toEqual([-32700, -32700, -32600, -32700]);
    expect((errors[2] as ProtocolError).data).toMatchObject({ value: { level: 'info', msg: 'listening' } });
    await client.close();
  });
});

describe('B20: the child exits or crashes with requests pending', () => {
  it('B20: a pending call rejects with the exit code and stderr tail; later calls fail at once', async () => {
    // Without reconnecting (by default the client would start the server again; see
    // test/integration/reconnect.test.ts).
    const client = stdioClient([child('scripted-modern.mjs'), 'die-on-second'], { reconnect: false });
    await client.connect();
    const error = (await client.callTool('x').catch((e: unknown) => e)) as ConnectionClosedError;
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect(error.data).toMatchObject({
      exitCode: 1,
      reason: 'process exited with code 1: fatal: boom',
      outcome: 'unknown',
    });
    expect((error.data as { stderrTail: string }).stderrTail).toContain('fatal: boom');
    const later = await client.callTool('y').catch((e: unknown) => e);
    expect(later).toBeInstanceOf(ConnectionClosedError);
    await client.close();
  });

  it('B20: connect() rejects for ENOENT without waiting for a timeout', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      const client = new McpClient({
        transport: new StdioTransport({ command: 'mcp-live-no-such-server' }),
        clientInfo: { name: 'cases', version: '0' },
      });
      const error = await client.connect().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectionClosedError);
      expect(String((error as Error).message)).toContain('mcp-live-no-such-server');
      expect(client.state).toBe('closed');
    } finally {
      vi.useRealTimers();
    }
  });

  it('B20: connect() rejects when the child exits before answering server/discover', async () => {
    const client = stdioClient([child('fatal.mjs')]);
    const error = (await client.connect().catch((e: unknown) => e)) as ConnectionClosedError;
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect(error.data).toMatchObject({ exitCode: 1 });
    expect((error.data as { stderrTail: string }).stderrTail).toContain('fatal: boom');
    // The cause's first line is in the message, not only in data.stderrTail.
    expect(error.message).toBe('server/discover: connection closed (process exited with code 1: fatal: boom)');
  });

  it("B20: a script node cannot find: the message names the missing module (Node's own first error line)", async () => {
    const missing = fileURLToPath(new URL('../fakes/children/no-such-script.mjs', import.meta.url));
    const client = stdioClient([missing]);
    const error = (await client.connect().catch((e: unknown) => e)) as ConnectionClosedError;
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect(error.message).toMatch(
      /^server\/discover: connection closed \(process exited with code 1: Error: Cannot find module '.*no-such-script\.mjs'/,
    );
  });

  it('B20: ENOENT and EACCES are permanent: with retryFirstConnect the client closes at once instead of retrying', async () => {
    for (const command of ['mcp-live-no-such-server', fileURLToPath(new URL('../../package.json', import.meta.url))]) {
      const client = new McpClient({
        transport: new StdioTransport({ command }),
        clientInfo: { name: 'cases', version: '0' },
        reconnect: { retryFirstConnect: true },
      });
      const events: string[] = [];
      client.on((event) => events.push(event.type === 'state' ? event.state : event.type));
      const error = (await client.connect().catch((e: unknown) => e)) as ConnectionClosedError;
      expect(error).toBeInstanceOf(ConnectionClosedError);
      expect(error.data).toMatchObject({
        connectFailure: 'spawn',
        errorCode: command.endsWith('.json') ? 'EACCES' : 'ENOENT',
      });
      expect(client.state).toBe('closed');
      expect(events).toEqual(['connecting', 'closed']);
    }
  });
});
