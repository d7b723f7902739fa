/**
 * Host configuration files: both shapes, every entry form, ${VAR} expansion, and the typed
 * error (server + field) of each malformed entry, table by table.
 */
import { describe, expect, it } from 'vitest';
import { expandVariables, isHostConfig, parseHostConfig, type HostServerEntry } from '../../src/host/servers/config.js';
import { HostConfigError, isHostConfigError } from '../../src/host/catalog/errors.js';
import { ErrorCode } from '../../src/errors/codes.js';

const env = { HOME: '/home/ada', TOKEN: 's3cr3t-token', EMPTY: '', PORT: '8080' };

/** The one entry `json` (an mcpServers entry named `s`) parses to. */
function entryOf(json: unknown): HostServerEntry {
  const config = parseHostConfig({ mcpServers: { s: json } }, { env, strict: true });
  return config.servers['s'] as HostServerEntry;
}

/** The error of the one malformed entry `json`. */
function errorOf(json: unknown): HostConfigError {
  const config = parseHostConfig({ mcpServers: { s: json } }, { env });
  expect(config.servers).toEqual({});
  expect(config.errors).toHaveLength(1);
  return config.errors[0] as HostConfigError;
}

describe('parseHostConfig: entries', () => {
  it.each([
    [
      'stdio with args, env, cwd (Claude Desktop)',
      { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'], env: { A: 'b' }, cwd: '/srv' },
      {
        type: 'stdio',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'],
        env: { A: 'b' },
        cwd: '/srv',
      },
    ],
    ['stdio, command only', { command: 'my-server' }, { type: 'stdio', command: 'my-server' }],
    ['explicit stdio type (VS Code)', { type: 'stdio', command: 'x' }, { type: 'stdio', command: 'x' }],
    [
      'url without type is Streamable HTTP (Cursor)',
      { url: 'https://a.example/mcp' },
      { type: 'http', url: 'https://a.example/mcp' },
    ],
    ['ws:// url without type is WebSocket', { url: 'wss://a.example/mcp' }, { type: 'ws', url: 'wss://a.example/mcp' }],
    [
      'http with headers (Claude Code .mcp.json)',
      { type: 'http', url: 'https://a.example/mcp', headers: { 'X-Api-Key': 'k' } },
      { type: 'http', url: 'https://a.example/mcp', headers: { 'X-Api-Key': 'k' } },
    ],
    ['streamable-http alias', { type: 'streamable-http', url: 'http://h/mcp' }, { type: 'http', url: 'http://h/mcp' }],
    ['streamableHttp alias', { type: 'streamableHttp', url: 'http://h/mcp' }, { type: 'http', url: 'http://h/mcp' }],
    ['sse', { type: 'sse', url: 'http://h/sse' }, { type: 'sse', url: 'http://h/sse' }],
    ['ws with an http url', { type: 'ws', url: 'http://h/ws' }, { type: 'ws', url: 'http://h/ws' }],
    ['websocket alias', { type: 'websocket', url: 'ws://h/ws' }, { type: 'ws', url: 'ws://h/ws' }],
    [
      'unknown fields are ignored',
      { command: 'x', alwaysAllow: ['a'], autoApprove: [], timeout: 5, envFile: '.env' },
      { type: 'stdio', command: 'x' },
    ],
  ])('%s', (_label, json, expected) => {
    expect(entryOf(json)).toEqual(expected);
  });

  it('reads the VS Code shape, keeps file order, and lists disabled entries', () => {
    const config = parseHostConfig({
      inputs: [],
      servers: {
        b: { type: 'stdio', command: 'b' },
        a: { type: 'http', url: 'http://a/mcp' },
        off: { command: 'off', disabled: true },
        alsoOff: { disabled: true },
      },
    });
    expect(config.format).toBe('servers');
    expect(Object.keys(config.servers)).toEqual(['b', 'a']);
    expect(config.names).toEqual(['b', 'a', 'off', 'alsoOff']);
    expect(config.disabled).toEqual(['off', 'alsoOff']);
    expect(config.errors).toEqual([]);
    expect(isHostConfig(config)).toBe(true);
    expect(isHostConfig({ servers: {} })).toBe(false);
  });

  it('keeps a server named __proto__ as a plain key', () => {
    const config = parseHostConfig(JSON.parse('{"mcpServers": {"__proto__": {"command": "x"}}}'));
    expect(Object.keys(config.servers)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(config.servers)).toBe(Object.prototype);
  });
});

describe('parseHostConfig: ${VAR} expansion', () => {
  it.each([
    ['${VAR}', '${HOME}/data', '/home/ada/data'],
    ['${env:VAR} (VS Code)', '${env:HOME}/x', '/home/ada/x'],
    ['${VAR:-default} when set', '${PORT:-1}', '8080'],
    ['${VAR:-default} when unset', '${NOPE:-fallback}', 'fallback'],
    ['${VAR:-default} when empty', '${EMPTY:-fallback}', 'fallback'],
    ['${VAR} that is empty', 'a${EMPTY}b', 'ab'],
    ['an empty default', '${NOPE:-}', ''],
    ['a default with : and /', '${NOPE:-http://x:1/}', 'http://x:1/'],
    ['several', '${HOME}:${PORT}', '/home/ada:8080'],
    ['a lone $', 'cost $5 and $HOME', 'cost $5 and $HOME'],
  ])('%s', (_label, text, expected) => {
    expect(
      expandVariables(text, env, (reason) => {
        throw new Error(reason);
      }),
    ).toBe(expected);
  });

  it('expands command, args, env, cwd, url and headers', () => {
    expect(
      entryOf({ command: '${HOME}/bin/s', args: ['--port', '${PORT}'], env: { T: '${TOKEN}' }, cwd: '${HOME}' }),
    ).toEqual({
      type: 'stdio',
      command: '/home/ada/bin/s',
      args: ['--port', '8080'],
      env: { T: 's3cr3t-token' },
      cwd: '/home/ada',
    });
    expect(entryOf({ url: 'http://localhost:${PORT}/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } })).toEqual({
      type: 'http',
      url: 'http://localhost:8080/mcp',
      headers: { Authorization: 'Bearer s3cr3t-token' },
    });
  });

  it('reads variables from the env passed in only (nothing from the process by default)', () => {
    const error = parseHostConfig({ mcpServers: { s: { command: '${PATH}' } } }).errors[0];
    expect(error?.data).toMatchObject({ server: 's', field: 'command' });
    expect(error?.message).toContain('${PATH} is not set');
  });
});

describe('parseHostConfig: malformed entries', () => {
  it.each([
    ['not an object', 'npx', '(entry)', 'expected an object'],
    ['neither command nor url', { args: [] }, '(entry)', 'needs a "command"'],
    ['both command and url', { command: 'x', url: 'http://h' }, '(entry)', 'both "command" and "url"'],
    ['an unknown type', { type: 'grpc', url: 'http://h' }, 'type', 'expected "stdio", "http", "sse" or "ws"'],
    ['a command that is not a string', { command: 42 }, 'command', 'expected a string'],
    ['an empty command', { command: '  ' }, 'command', 'is empty'],
    ['args not an array', { command: 'x', args: '-y' }, 'args', 'expected an array of strings'],
    ['an arg that is not a string', { command: 'x', args: ['a', 1] }, 'args[1]', 'expected a string'],
    ['env not an object', { command: 'x', env: ['A=b'] }, 'env', 'expected an object of strings'],
    ['an env value that is a number', { command: 'x', env: { PORT: 1 } }, 'env.PORT', 'expected a string'],
    ['an unset variable', { command: 'x', args: ['${MISSING}'] }, 'args[0]', '${MISSING} is not set'],
    ['an unterminated ${', { command: 'x${HOME' }, 'command', 'without a closing'],
    [
      'a VS Code input variable',
      { command: 'x', env: { K: '${input:apiKey}' } },
      'env.K',
      'is not an environment variable',
    ],
    ['${workspaceFolder}', { command: '${workspaceFolder}/s' }, 'command', 'is a VS Code variable'],
    ['disabled that is not a boolean', { command: 'x', disabled: 'yes' }, 'disabled', 'expected true or false'],
    ['stdio type with a url', { type: 'stdio', url: 'http://h' }, 'url', 'is for a remote server'],
    ['http type with a command', { type: 'http', command: 'x' }, 'command', 'is for a stdio server'],
    ['http type without url', { type: 'http' }, 'url', 'needs a url'],
    ['stdio type without command', { type: 'stdio' }, 'command', 'needs a command'],
    ['a relative url', { url: '/mcp' }, 'url', 'is not an absolute URL'],
    ['a file: url', { url: 'file:///tmp/x' }, 'url', 'expected http(s)://'],
    ['a ws url for http', { type: 'http', url: 'ws://h' }, 'url', 'expected http(s)://'],
    ['headers not an object', { url: 'http://h', headers: 'x' }, 'headers', 'expected an object of strings'],
    ['a header that is not a string', { url: 'http://h', headers: { A: true } }, 'headers.A', 'expected a string'],
  ])('%s', (_label, json, field, reason) => {
    const error = errorOf(json);
    expect(error).toBeInstanceOf(HostConfigError);
    expect(isHostConfigError(error)).toBe(true);
    expect(error.code).toBe(ErrorCode.HostConfigInvalid);
    expect(error.data.server).toBe('s');
    expect(error.data.field).toBe(field);
    expect(error.message).toContain(reason);
    expect(error.message).toContain('server "s"');
  });

  it('never repeats an env or header value, nor a url credential, in the error', () => {
    const env = { TOKEN: 'tok-123' };
    const errors = parseHostConfig(
      {
        mcpServers: {
          a: { command: 'x', env: { K: 'raw-secret ${MISSING}' } },
          d: { command: 'x', args: ['--key', 'arg-secret', '${MISSING}'] },
          b: { url: 'http://h/mcp', headers: { Authorization: 'Bearer ${TOKEN} ${MISSING}' } },
          c: { url: 'ftp://user:pw@h/mcp?key=qk-9' },
        },
      },
      { env },
    ).errors;
    expect(errors.map((e) => e.data.field)).toEqual(['env.K', 'args[2]', 'headers.Authorization', 'url']);
    expect(errors.map((e) => 'value' in e.data)).toEqual([false, false, false, true]);
    expect(errors[3]?.data.value).toBe('ftp://h/mcp');
    const text = JSON.stringify(errors.map((e) => [e.message, e.data]));
    for (const secret of ['raw-secret', 'arg-secret', 'tok-123', 'Bearer', 'pw', 'qk-9'])
      expect(text).not.toContain(secret);
  });

  it('shows the value of a command or type that is wrong', () => {
    expect(errorOf({ command: '${NOPE}/bin' }).data.value).toBe('${NOPE}/bin');
    expect(errorOf({ type: 'grpc', url: 'http://h' }).data.value).toBe('grpc');
  });

  it('keeps the good entries when one is bad, in file order', () => {
    const config = parseHostConfig({
      mcpServers: { good: { command: 'g' }, bad: { command: 1 }, also: { url: 'http://h/m' } },
    });
    expect(Object.keys(config.servers)).toEqual(['good', 'also']);
    expect(config.errors.map((e) => e.data.server)).toEqual(['bad']);
  });

  it('throws the first bad entry in strict mode', () => {
    expect(() =>
      parseHostConfig({ mcpServers: { good: { command: 'g' }, bad: { command: 1 }, worse: {} } }, { strict: true }),
    ).toThrow(
      expect.objectContaining({
        name: 'HostConfigError',
        data: expect.objectContaining({ server: 'bad', field: 'command' }),
      }),
    );
  });

  it.each([
    ['not an object', [], '(file)', 'expected a JSON object'],
    ['no servers key', { other: {} }, '(file)', 'expected "mcpServers"'],
    ['both keys', { mcpServers: {}, servers: {} }, '(file)', 'has both'],
    ['mcpServers not an object', { mcpServers: [] }, 'mcpServers', 'expected an object of servers by name'],
  ])('throws for a file that is %s, strict or not', (_label, json, field, reason) => {
    let thrown: unknown;
    try {
      parseHostConfig(json);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(HostConfigError);
    expect((thrown as HostConfigError).data).toMatchObject({ server: undefined, field });
    expect((thrown as HostConfigError).message).toContain(reason);
  });
});
