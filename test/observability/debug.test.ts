/**
 * The debug log: wire lines and decisions for real calls against the example server (in
 * process, over the in-memory transport), the environment switch, and redaction, down to an
 * `Authorization` header on a real Streamable HTTP exchange.
 */
import { createMcpHandler } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { McpClient } from '../../src/client/client.js';
import { InvalidArgumentError } from '../../src/errors/errors.js';
import { DEBUG_ENV_VAR, redact, redactText, type DebugEntry } from '../../src/observability/debug.js';
import { debugFetch } from '../../src/observability/debugFetch.js';
import { InMemoryTransport } from '../../src/transport/memory.js';
import { StreamableHttpTransport } from '../../src/transport/http/streamableHttp.js';
import { createExampleServerFactory, createExampleState } from '../../examples/serverFactory.js';
import { exampleInMemory } from './exampleInMemory.js';

const SECRET = 's3cr3t-t0ken-value';

function messages(entries: DebugEntry[], type?: DebugEntry['type']): string[] {
  return entries.filter((entry) => type === undefined || entry.type === type).map((entry) => entry.message);
}

describe('debug log: a client against the example server', () => {
  it('logs the era, each wire message, the cache outcome, rounds, and how each call ended', async () => {
    const entries: DebugEntry[] = [];
    const form = async () => ({ action: 'accept' as const, content: { name: 'Ada', priority: 'high' } });
    const peer = exampleInMemory({ debug: (entry) => entries.push(entry), handlers: { elicitation: { form } } });
    try {
      await peer.client.connect();
      expect(messages(entries, 'era')).toEqual(['connected to memory:example: modern wire, protocol 2026-07-28']);

      entries.length = 0;
      await peer.client.callTool('add', { a: 2, b: 40 });
      const wire = entries.filter((entry) => entry.type === 'wire');
      expect(wire.map((entry) => entry.data?.['direction'])).toEqual(['send', 'receive']);
      const sent = wire[0]?.data?.['message'] as { id: number; method: string; params: { arguments: unknown } };
      expect(sent).toMatchObject({
        jsonrpc: '2.0',
        method: 'tools/call',
        params: { name: 'add', arguments: { a: 2, b: 40 } },
      });
      expect(wire[0]?.message).toBe(`→ ${JSON.stringify(sent)}`);
      expect(wire[1]?.message.startsWith('← ')).toBe(true);
      expect(JSON.parse(wire[1]?.message.slice(2) ?? '')).toMatchObject({
        jsonrpc: '2.0',
        id: sent.id,
        result: { structuredContent: { sum: 42 } },
      });
      expect(messages(entries, 'call')).toEqual([expect.stringMatching(/^tools\/call add: ok \(\d+(\.\d)? ms\)$/)]);

      entries.length = 0;
      await peer.client.readResource('demo://readme');
      await peer.client.readResource('demo://readme');
      expect(messages(entries, 'cache')).toEqual([
        'resources/read demo://readme: cache miss',
        'resources/read demo://readme: cache hit',
      ]);
      expect(entries.filter((entry) => entry.type === 'wire')).toHaveLength(2);

      entries.length = 0;
      await peer.client.callTool('create_ticket', { title: 'Printer on fire' });
      expect(messages(entries, 'input-required')).toEqual(['tools/call create_ticket: input_required, round 1']);
      expect(messages(entries, 'call')).toEqual([
        expect.stringMatching(/^tools\/call create_ticket: ok \(.* ms, 1 round\)$/),
      ]);

      entries.length = 0;
      const error = (await peer.client.callTool('no_such_tool', {}).catch((e: unknown) => e)) as Error;
      expect(messages(entries, 'call')).toEqual([
        expect.stringMatching(
          new RegExp(
            `^tools/call no_such_tool: failed: RpcError -32602: ${error.message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`,
          ),
        ),
      ]);
    } finally {
      await peer.close();
    }
  });

  it('redacts credentials a call puts in _meta', async () => {
    const entries: DebugEntry[] = [];
    const peer = exampleInMemory({ debug: (entry) => entries.push(entry) });
    try {
      await peer.client.connect();
      await peer.client.callTool(
        'echo',
        { message: 'hi' },
        { meta: { 'com.example/auth': { Authorization: `Bearer ${SECRET}` }, 'com.example/note': `token=${SECRET}` } },
      );
    } finally {
      await peer.close();
    }
    // The server got the values; the log did not.
    expect(JSON.stringify(peer.requests('tools/call'))).toContain(SECRET);
    const sent = entries.find((entry) => entry.type === 'wire' && entry.message.includes('"tools/call"'));
    expect(sent?.message).toContain('"com.example/auth":{"Authorization":"[redacted]"}');
    expect(JSON.stringify(entries)).not.toContain(SECRET);
  });

  it('a sink that throws never fails the call; the error goes to onError', async () => {
    const errors: Error[] = [];
    const peer = exampleInMemory({
      debug: () => {
        throw new Error('sink down');
      },
      onError: (error) => errors.push(error),
    });
    try {
      await peer.client.connect();
      expect((await peer.client.callTool('add', { a: 1, b: 2 })).structuredContent).toEqual({ sum: 3 });
    } finally {
      await peer.close();
    }
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((error) => error.message === 'sink down')).toBe(true);
  });
});

describe('debug log: the switch', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  it(`${DEBUG_ENV_VAR}=1 turns it on, to console.debug; debug: false wins over it`, async () => {
    vi.stubEnv(DEBUG_ENV_VAR, '1');
    const lines: string[] = [];
    vi.spyOn(console, 'debug').mockImplementation((line: unknown) => void lines.push(String(line)));
    const on = exampleInMemory();
    try {
      await on.client.connect();
    } finally {
      await on.close();
    }
    expect(lines).toContain('[mcp-live] connected to memory:example: modern wire, protocol 2026-07-28');
    expect(
      lines.some((line) => line.startsWith('[mcp-live] → {"jsonrpc":"2.0","id":0,"method":"server/discover"')),
    ).toBe(true);

    lines.length = 0;
    const off = exampleInMemory({ debug: false });
    try {
      await off.client.connect();
    } finally {
      await off.close();
    }
    expect(lines).toEqual([]);
  });

  it('without the variable and the option, nothing is logged', async () => {
    vi.stubEnv(DEBUG_ENV_VAR, '');
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => {});
    const peer = exampleInMemory();
    try {
      await peer.client.connect();
      await peer.client.callTool('add', { a: 1, b: 2 });
    } finally {
      await peer.close();
    }
    expect(debug).not.toHaveBeenCalled();
  });

  it('a debug option that is neither boolean nor function is refused', () => {
    const [transport] = InMemoryTransport.createLinkedPair();
    expect(() => new McpClient({ transport, clientInfo: { name: 't', version: '0' }, debug: 'yes' as never })).toThrow(
      InvalidArgumentError,
    );
  });
});

describe('debugFetch: HTTP exchanges', () => {
  it('logs a real Streamable HTTP exchange with the Authorization header redacted', async () => {
    const state = createExampleState();
    const handler = createMcpHandler(createExampleServerFactory(state, { notifier: () => handler.notify }));
    const received: string[] = [];
    const entries: DebugEntry[] = [];
    const inProcess = async (url: string, init: RequestInit): Promise<Response> => {
      const request = new Request(url, init);
      received.push(request.headers.get('authorization') ?? '');
      return handler.fetch(request);
    };
    const client = new McpClient({
      transport: new StreamableHttpTransport('http://example.test/mcp', {
        headers: { Authorization: `Bearer ${SECRET}` },
        fetch: debugFetch((entry) => entries.push(entry), inProcess),
      }),
      clientInfo: { name: 'observability-tests', version: '0.0.0' },
      debug: (entry) => entries.push(entry),
    });
    try {
      await client.connect();
      await client.callTool('echo', { message: 'hi' });
    } finally {
      await client.close();
      await handler.close();
    }
    // The server got the credential on every request; the log never shows it.
    expect(received.length).toBeGreaterThanOrEqual(2);
    expect(received.every((value) => value === `Bearer ${SECRET}`)).toBe(true);
    const http = entries.filter((entry) => entry.type === 'http');
    expect(http.length).toBe(received.length);
    expect(http[0]?.message).toMatch(/^POST http:\/\/example\.test\/mcp \{.*"authorization":"\[redacted\]".*\} → 200/);
    expect(http[0]?.data?.['headers']).toMatchObject({ authorization: '[redacted]', 'mcp-method': 'server/discover' });
    expect(JSON.stringify(entries)).not.toContain(SECRET);
  });

  it('redacts credential headers, URL user info and token query parameters; logs a failed fetch and rethrows it', async () => {
    const entries: DebugEntry[] = [];
    const ok = debugFetch(
      (entry) => entries.push(entry),
      async () =>
        new Response('{}', {
          status: 401,
          headers: { 'content-type': 'application/json', 'www-authenticate': 'Bearer error="invalid_token"' },
        }),
    );
    await ok(`https://user:${SECRET}@mcp.example.com/mcp?access_token=${SECRET}&region=eu`, {
      method: 'post',
      headers: [
        ['Authorization', `Bearer ${SECRET}`],
        ['Cookie', `session=${SECRET}`],
        ['X-Api-Key', SECRET],
        ['Mcp-Method', 'tools/call'],
      ],
    });
    expect(entries).toHaveLength(1);
    expect(entries[0]?.data).toEqual({
      method: 'POST',
      url: 'https://[redacted]@mcp.example.com/mcp?access_token=[redacted]&region=eu',
      headers: {
        authorization: '[redacted]',
        cookie: '[redacted]',
        'x-api-key': '[redacted]',
        'mcp-method': 'tools/call',
      },
      status: 401,
      responseHeaders: { 'content-type': 'application/json', 'www-authenticate': 'Bearer error="invalid_token"' },
    });

    const failure = new TypeError('fetch failed');
    const down = debugFetch(
      (entry) => entries.push(entry),
      async () => {
        throw failure;
      },
    );
    await expect(
      down('http://127.0.0.1:9/mcp', { method: 'POST', headers: { Authorization: `Bearer ${SECRET}` } }),
    ).rejects.toBe(failure);
    expect(entries[1]?.message).toBe(
      'POST http://127.0.0.1:9/mcp {"authorization":"[redacted]"} failed: TypeError: fetch failed',
    );
    expect(JSON.stringify(entries)).not.toContain(SECRET);
  });
});

describe('redaction', () => {
  it('redacts credential keys at any depth, case- and separator-insensitively, and keeps the rest', () => {
    const value = {
      progressToken: 7,
      headers: { Authorization: 'Bearer abc', 'proxy-authorization': 'Basic xyz', 'Set-Cookie': 'a=b' },
      auth: { access_token: 'abc', refresh_token: 'def', client_secret: 'ghi', code_verifier: 'jkl', password: 'pw' },
      list: [{ apiKey: 'k' }, { API_KEY: 'k2' }],
      token: null,
      keep: 'plain',
    };
    expect(redact(value)).toEqual({
      progressToken: 7,
      headers: { Authorization: '[redacted]', 'proxy-authorization': '[redacted]', 'Set-Cookie': '[redacted]' },
      auth: {
        access_token: '[redacted]',
        refresh_token: '[redacted]',
        client_secret: '[redacted]',
        code_verifier: '[redacted]',
        password: '[redacted]',
      },
      list: [{ apiKey: '[redacted]' }, { API_KEY: '[redacted]' }],
      token: null,
      keep: 'plain',
    });
  });

  it('redacts secrets inside strings', () => {
    expect(redactText('header Authorization: Bearer eyJhbGciOi.x.y done')).toBe(
      'header Authorization: Bearer [redacted] done',
    );
    expect(redactText('ws://alice:pw@host:1/x and https://h/p?token=abc&x=1')).toBe(
      'ws://[redacted]@host:1/x and https://h/p?token=[redacted]&x=1',
    );
    expect(redactText('stdio:node server.js --api-key abc --token=def --port 3')).toBe(
      'stdio:node server.js --api-key [redacted] --token=[redacted] --port 3',
    );
  });

  it('cuts long strings and long arrays', () => {
    const long = 'x'.repeat(5000);
    expect(redact(long)).toBe(`${'x'.repeat(1024)}…(5000 chars)`);
    const items = redact(Array.from({ length: 150 }, (_, i) => i)) as unknown[];
    expect(items).toHaveLength(101);
    expect(items[100]).toBe('…(150 items)');
  });
});
