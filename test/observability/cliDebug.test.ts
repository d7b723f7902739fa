/**
 * `mcp-live --debug`, in process (main() with collected stdout/stderr), against the built
 * example server: over stdio, and over Streamable HTTP with an `Authorization` header that
 * the log must never show.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { parseCommandLine } from '../../src/cli/args.js';
import type { HttpServerProcess } from '../../examples/httpServerProcess.js';
import { EXAMPLE_SERVER, startExampleHttpServer } from '../integration/exampleServer.js';

const SECRET = 'cli-s3cr3t-value';

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  });
  return { code, stdout, stderr };
}

describe('mcp-live --debug', () => {
  let http: HttpServerProcess;

  beforeAll(async () => {
    http = await startExampleHttpServer();
  });
  afterAll(async () => {
    await http?.stop();
  });

  it('parses --debug into the global options', () => {
    const invocation = parseCommandLine(['inspect', '--debug', '--', 'node', 'server.js']);
    expect(invocation).toMatchObject({ kind: 'run', options: { debug: true } });
    expect(parseCommandLine(['inspect', '--', 'node', 'server.js'])).toMatchObject({ options: { debug: false } });
  });

  it('over stdio: wire lines and decisions on stderr, the result alone on stdout', async () => {
    const { code, stdout, stderr } = await run([
      'call',
      'add',
      '{"a":2,"b":40}',
      '--json',
      '--debug',
      '--',
      process.execPath,
      EXAMPLE_SERVER,
    ]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ structuredContent: { sum: 42 } });
    const lines = stderr.trimEnd().split('\n');
    expect(
      lines.some((line) =>
        /^\[debug\] connected to stdio:.*server\.js.*: modern wire, protocol 2026-07-28$/.test(line),
      ),
    ).toBe(true);
    expect(
      lines.some((line) =>
        line.startsWith('[debug] → {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add"'),
      ),
    ).toBe(true);
    expect(lines.some((line) => /^\[debug\] tools\/call add: ok \(/.test(line))).toBe(true);
  });

  it('over HTTP: each exchange logged, the Authorization header redacted', async () => {
    const { code, stderr } = await run([
      'list',
      'tools',
      '--debug',
      '--url',
      http.url,
      '-H',
      `Authorization: Bearer ${SECRET}`,
    ]);
    expect(code).toBe(0);
    const exchanges = stderr.split('\n').filter((line) => line.startsWith(`[debug] POST ${http.url}`));
    expect(exchanges.length).toBeGreaterThanOrEqual(2);
    for (const line of exchanges) expect(line).toContain('"authorization":"[redacted]"');
    expect(stderr).toContain('[debug] tools/list: ok (');
    expect(stderr).not.toContain(SECRET);
  });

  it('without --debug (and without MCP_LIVE_DEBUG), stderr stays quiet', async () => {
    vi.stubEnv('MCP_LIVE_DEBUG', '');
    const { code, stderr } = await run(['call', 'add', '{"a":1,"b":2}', '--', process.execPath, EXAMPLE_SERVER]);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    vi.unstubAllEnvs();
  });
});
