/**
 * A server the CLI cannot reach gets one line naming the likely cause (refused, wrong path,
 * TLS on a plain port, a name that does not resolve); `--json` keeps the whole error beside
 * that hint, and `--debug` prints both.
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diagnoseConnection } from '../../src/cli/diagnose.js';
import { ConnectionClosedError } from '../../src/errors/errors.js';
import type { HttpServerProcess } from '../../examples/httpServerProcess.js';
import { startExampleHttpServer } from '../integration/exampleServer.js';
import { runCli } from './harness.js';

/** A loopback port nobody listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('one line for a server that cannot be reached', () => {
  let server: HttpServerProcess | undefined;
  beforeAll(async () => {
    server = await startExampleHttpServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('connection refused', async () => {
    const port = await closedPort();
    const { code, stdout, stderr } = await runCli(['list', 'tools', '--url', `http://127.0.0.1:${port}/mcp`]);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `mcp-live: connection refused at 127.0.0.1:${port}: is the server running, on that port? (--debug for details)\n`,
    );
  });

  it('HTTP 404 at a path without an MCP endpoint names /mcp', async () => {
    const base = new URL(server!.url);
    const { code, stderr } = await runCli(['list', 'tools', '--url', `${base.origin}/`]);
    expect(code).toBe(1);
    expect(stderr).toBe(
      `mcp-live: HTTP 404 at ${base.origin}/: no MCP endpoint at this path (the MCP endpoint is often /mcp) (--debug for details)\n`,
    );
  });

  it('https:// to a plain-HTTP port', async () => {
    const url = server!.url.replace('http:', 'https:');
    const { code, stderr } = await runCli(['list', 'tools', '--url', url]);
    expect(code).toBe(1);
    expect(stderr).toBe(
      `mcp-live: TLS failed at ${new URL(url).host}: the port seems to speak plain HTTP; try http:// (--debug for details)\n`,
    );
  });

  it('--json: the whole error, with the one-line reading as its hint', async () => {
    const port = await closedPort();
    const { code, stdout } = await runCli(['list', 'tools', '--json', '--url', `http://127.0.0.1:${port}/mcp`]);
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toEqual({
      error: expect.objectContaining({
        code: expect.any(Number),
        message: expect.stringContaining('ECONNREFUSED'),
        hint: `connection refused at 127.0.0.1:${port}: is the server running, on that port?`,
      }),
    });
  });

  it('--debug: the hint, then the whole error', async () => {
    const base = new URL(server!.url);
    const { stderr } = await runCli(['list', 'tools', '--debug', '--url', `${base.origin}/`]);
    expect(stderr).toMatch(/\nmcp-live: HTTP 404 at .+\nmcp-live: EraDetectionError -33015: .+\n {2}data: \{/);
  });
});

describe('diagnoseConnection', () => {
  const failure = (code: string, message = `connect ${code}`): Error =>
    new ConnectionClosedError(
      `server/discover: cannot reach the server`,
      { reason: 'cannot reach' },
      Object.assign(new Error(message), { code }),
    );

  it('plain HTTP to a TLS port: the reset connection suggests https://', () => {
    expect(diagnoseConnection(failure('ECONNRESET'), 'http://127.0.0.1:8443/mcp')?.summary).toBe(
      '127.0.0.1:8443 closed the connection without an HTTP reply: if it speaks TLS, try https://',
    );
  });

  it('a name that does not resolve', () => {
    expect(diagnoseConnection(failure('ENOTFOUND'), 'http://mcp.example.invalid/mcp')?.summary).toBe(
      'cannot resolve the host name "mcp.example.invalid"',
    );
  });

  it('a refused connection inside an AggregateError (localhost: both ::1 and 127.0.0.1 tried)', () => {
    const inner = [
      Object.assign(new Error('connect ECONNREFUSED ::1:3000'), { code: 'ECONNREFUSED' }),
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3000'), { code: 'ECONNREFUSED' }),
    ];
    const error = new ConnectionClosedError('cannot reach', { reason: 'x' }, new AggregateError(inner));
    expect(diagnoseConnection(error, 'http://localhost:3000/mcp')?.summary).toMatch(
      /^connection refused at localhost:3000/,
    );
  });

  it('leaves other failures alone', () => {
    expect(diagnoseConnection(new Error('something else'), 'http://127.0.0.1:3000/mcp')).toBeUndefined();
    // A reset on https:// is not a TLS mismatch of that kind.
    expect(diagnoseConnection(failure('ECONNRESET'), 'https://127.0.0.1:8443/mcp')).toBeUndefined();
  });
});
