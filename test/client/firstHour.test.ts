/**
 * Mistakes a first hour with the library made, each answered by an error that says what
 * happened and what to write instead; and `await using` on the client, transports,
 * subscriptions and live lists.
 */
import { describe, expect, it } from 'vitest';
import { ClientStateError } from '../../src/client/errors.js';
import { InvalidArgumentError, McpError } from '../../src/errors/errors.js';
import { StdioTransport } from '../../src/transport/stdio/stdio.js';
import { exampleClient } from '../integration/exampleServer.js';

/** Whether process `pid` still runs. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('a second connect()', () => {
  it('says the client is connected, or closed, and what to do', async () => {
    const { client } = exampleClient();
    await client.connect();
    const again = await client.connect().catch((e: unknown) => e);
    expect(again).toBeInstanceOf(ClientStateError);
    expect(again).toMatchObject({
      code: -33040,
      data: { method: 'connect', state: 'open' },
      message: 'connect: the client is already connected (connect() runs once per McpClient)',
    });
    await client.close();
    const closed = await client.connect().catch((e: unknown) => e);
    expect(closed).toMatchObject({ name: 'ClientStateError', data: { state: 'closed' } });
    expect((closed as Error).message).toContain('create a new one');
  });

  it('while the first is under way', async () => {
    const { client } = exampleClient();
    const first = client.connect();
    await expect(client.connect()).rejects.toMatchObject({ data: { state: 'connecting' } });
    await first;
    await client.close();
  });
});

describe('StdioTransport given a command line', () => {
  it('as one string: fails at construction and suggests { command, args }', () => {
    const make = () => new StdioTransport('node server.js' as never);
    expect(make).toThrow(InvalidArgumentError);
    expect(make).toThrow(
      'invalid options: expected { command, args }, not a command line: new StdioTransport({ command: "node", args: ["server.js"] })',
    );
  });

  it('as command: the ENOENT error says the arguments belong in args', async () => {
    const transport = new StdioTransport({ command: `${process.execPath} /path/server.js` });
    const error = await transport.start({ onMessage() {}, onClose() {}, onError() {} }).catch((e: unknown) => e);
    expect(McpError.is(error) && error.code).toBe(-32000);
    expect((error as Error).message).toContain('ENOENT');
    expect((error as Error).message).toContain(
      `put the arguments in args, e.g. { command: ${JSON.stringify(process.execPath)}, args: ["/path/server.js"] }`,
    );
  });

  it('a command that is not a string', () => {
    expect(() => new StdioTransport({ command: undefined as never })).toThrow('invalid command');
  });
});

describe('callTool({ name, arguments })', () => {
  it('says to use callTool(name, args), and sends nothing', async () => {
    const { client } = exampleClient();
    await client.connect();
    try {
      const error = await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } } as never).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect((error as Error).message).toBe(
        'invalid name: expected a tool name: use callTool(name, args), not callTool({ name, arguments }) (mcp-live takes them apart: callTool("add", {"a":1,"b":2}))',
      );
    } finally {
      await client.close();
    }
  });
});

describe('await using', () => {
  it('closes the client (and its server process), subscriptions and live lists when the block ends', async () => {
    const { client, transport } = exampleClient();
    let subscriptionClosed;
    let liveClosed;
    {
      await using connected = client;
      await connected.connect();
      {
        await using sub = await connected.subscribe({ resourceSubscriptions: ['demo://note'] });
        subscriptionClosed = sub.closed;
        await using prompts = await connected.live('prompts');
        liveClosed = prompts.closed;
        expect(prompts.items.length).toBeGreaterThan(0);
      }
      expect(await subscriptionClosed).toMatchObject({ reason: 'closed' });
      expect(await liveClosed).toMatchObject({ reason: 'closed' });
      expect(connected.state).toBe('open');
    }
    expect(client.state).toBe('closed');
    expect(alive(transport.pid!)).toBe(false);
  });

  it('closes a transport', async () => {
    let transport: StdioTransport;
    {
      await using t = new StdioTransport({ command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] });
      transport = t;
      await t.start({ onMessage() {}, onClose() {}, onError() {} });
      expect(t.pid).toBeGreaterThan(0);
    }
    expect(alive(transport.pid!)).toBe(false);
  });
});
