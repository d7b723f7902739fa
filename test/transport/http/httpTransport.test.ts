/**
 * Streamable HTTP transport against scripted node:http servers on 127.0.0.1: request headers,
 * JSON responses, notification acknowledgements (B28), status mapping, B13 and B34.
 */
import { describe, expect, it } from 'vitest';
import { McpClient } from '../../../src/client/client.js';
import { ErrorCode } from '../../../src/errors/codes.js';
import { ConnectionClosedError, InvalidArgumentError, ProtocolError, RpcError } from '../../../src/errors/errors.js';
import { JsonRpcSession } from '../../../src/jsonrpc/session.js';
import type { StreamableHttpTransport } from '../../../src/transport/http/streamableHttp.js';
import {
  HttpAuthError,
  HttpError,
  isHttpAuthError,
  isHttpError,
  TransportErrorCode,
} from '../../../src/transport/transportErrors.js';
import { systemTimers } from '../../../src/util/clock.js';
import { answerDiscover, HttpFake, sendJson } from '../../fakes/httpFake.js';
import { request, startRecording } from '../../fakes/httpHarness.js';
import { httpTestBed } from '../../fakes/httpTestBed.js';
import { HTTP_PATHS } from '../../fakes/httpPaths.js';

describe.each(HTTP_PATHS)('$path path', ({ Transport: StreamableHttpTransport }) => {
  const { serve, transportFor } = httpTestBed(StreamableHttpTransport);
  let fake: HttpFake | undefined;

  function clientFor(transport: StreamableHttpTransport, onError: (error: Error) => void = () => {}): McpClient {
    return new McpClient({ transport, clientInfo: { name: 'http-tests', version: '0.0.0' }, onError });
  }

  describe('Streamable HTTP: request headers', () => {
    it('POSTs each message with Accept, Content-Type, MCP-Protocol-Version, Mcp-Method and Mcp-Name', async () => {
      fake = await serve((req, res) => sendJson(res, 200, { jsonrpc: '2.0', id: req.json.id, result: {} }));
      const transport = transportFor(fake.url, {
        headers: { 'X-Api-Key': 'k1', Accept: 'text/html', 'Mcp-Method': 'forged' },
      });
      await startRecording(transport);

      await transport.send(request(1, 'tools/call', { name: 'get_weather', arguments: { location: 'Seattle, WA' } }), {
        headers: { 'Mcp-Param-Region': 'us-west1' },
      });
      await transport.send(request(2, 'prompts/get', { name: 'greet' }));
      await transport.send(request(3, 'tools/list'));

      const [call, prompt, list] = fake.requests;
      expect(call!.method).toBe('POST');
      expect(call!.path).toBe('/mcp');
      expect(call!.headers['accept']).toBe('application/json, text/event-stream');
      expect(call!.headers['content-type']).toBe('application/json');
      expect(call!.headers['mcp-protocol-version']).toBe('2026-07-28');
      expect(call!.headers['mcp-method']).toBe('tools/call');
      expect(call!.headers['mcp-name']).toBe('get_weather');
      expect(call!.headers['mcp-param-region']).toBe('us-west1');
      expect(call!.headers['x-api-key']).toBe('k1');
      expect(call!.json).toEqual(
        request(1, 'tools/call', { name: 'get_weather', arguments: { location: 'Seattle, WA' } }),
      );
      expect(prompt!.headers['mcp-name']).toBe('greet');
      expect(list!.headers['mcp-method']).toBe('tools/list');
      expect(list!.headers['mcp-name']).toBeUndefined();
      expect(list!.headers['mcp-param-region']).toBeUndefined();
      expect(fake.requests.every((r) => r.method === 'POST')).toBe(true);
    });

    it('Mcp-Name carries params.taskId on tasks/get, tasks/update and tasks/cancel (Tasks extension)', async () => {
      fake = await serve((req, res) => sendJson(res, 200, { jsonrpc: '2.0', id: req.json.id, result: {} }));
      const transport = transportFor(fake.url);
      await startRecording(transport);
      await transport.send(request(1, 'tasks/get', { taskId: '786512e2-9e0d' }));
      await transport.send(request(2, 'tasks/update', { taskId: '786512e2-9e0d', inputResponses: {} }));
      await transport.send(request(3, 'tasks/cancel', { taskId: 'tâche' }));
      await transport.send(request(4, 'tasks/list', { taskId: 'not-a-routed-method' }));
      expect(fake.requests.map((r) => [r.headers['mcp-method'], r.headers['mcp-name']])).toEqual([
        ['tasks/get', '786512e2-9e0d'],
        ['tasks/update', '786512e2-9e0d'],
        ['tasks/cancel', '=?base64?dMOiY2hl?='],
        ['tasks/list', undefined],
      ]);
    });

    it('B13: Base64-wraps Mcp-Name values that are not plain ASCII, and keeps the body as UTF-8', async () => {
      fake = await serve((req, res) => {
        if (answerDiscover(req, res)) return;
        if (req.json.method === 'resources/read') {
          sendJson(res, 200, {
            jsonrpc: '2.0',
            id: req.json.id,
            result: { resultType: 'complete', contents: [{ uri: req.json.params.uri, text: 'x' }] },
          });
        } else {
          sendJson(res, 200, { jsonrpc: '2.0', id: req.json.id, result: { resultType: 'complete', content: [] } });
        }
      });
      const client = clientFor(transportFor(fake.url));
      await client.connect();

      const read = await client.readResource('file:///docs/café.md');
      expect(read.contents[0]?.uri).toBe('file:///docs/café.md');
      await client.readResource('oni://测试');
      await client.readResource('file:///a.json');
      await client.callTool('=?base64?literal?=', {});

      const reads = fake.requests.filter((r) => r.json?.method === 'resources/read');
      expect(reads.map((r) => r.headers['mcp-method'])).toEqual(['resources/read', 'resources/read', 'resources/read']);
      expect(reads.map((r) => r.headers['mcp-name'])).toEqual([
        '=?base64?ZmlsZTovLy9kb2NzL2NhZsOpLm1k?=',
        '=?base64?b25pOi8v5rWL6K+V?=',
        'file:///a.json',
      ]);
      expect(reads[0]!.body).toContain('"uri":"file:///docs/café.md"');
      expect(reads[1]!.json.params.uri).toBe('oni://测试');
      const call = fake.requests.find((r) => r.json?.method === 'tools/call')!;
      expect(call.headers['mcp-name']).toBe('=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=');
      expect(call.json.params.name).toBe('=?base64?literal?=');
      await client.close();
    });

    it('takes MCP-Protocol-Version from _meta only; a message without it gets the header only from send options', async () => {
      fake = await serve((req, res) =>
        req.json.id === undefined
          ? res.writeHead(202).end()
          : sendJson(res, 200, { jsonrpc: '2.0', id: req.json.id, result: {} }),
      );
      const transport = transportFor(fake.url);
      await startRecording(transport);
      await transport.send(request(1, 'tools/list'));
      await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      await transport.send(
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { headers: { 'MCP-Protocol-Version': '2025-11-25' } },
      );
      await transport.send(request(2, 'tools/list'), { headers: { 'MCP-Protocol-Version': '1999-01-01' } });
      expect(fake.requests.map((r) => r.headers['mcp-protocol-version'])).toEqual([
        '2026-07-28',
        undefined,
        '2025-11-25',
        '2026-07-28',
      ]);
      expect(fake.requests.map((r) => r.headers['mcp-method'])).toEqual([
        'tools/list',
        'notifications/initialized',
        'notifications/initialized',
        'tools/list',
      ]);
    });

    it('rejects a method or header value that cannot be sent, before any request', async () => {
      fake = await serve((_req, res) => sendJson(res, 200, {}));
      const transport = transportFor(fake.url);
      await startRecording(transport);
      await expect(transport.send(request(1, 'tools/列表'))).rejects.toBeInstanceOf(InvalidArgumentError);
      await expect(
        transport.send(request(2, 'tools/call', { name: 'x' }), { headers: { 'Mcp-Param-A': 'bad\nvalue' } }),
      ).rejects.toBeInstanceOf(InvalidArgumentError);
      await expect(transport.send({ jsonrpc: '2.0', id: 1, result: {} })).rejects.toBeInstanceOf(InvalidArgumentError);
      expect(fake.requests).toHaveLength(0);
    });

    it('names the server by origin, path and a digest of the query (never its text), and refuses credentials in the URL', () => {
      const identity = (url: string): string => new StreamableHttpTransport(url).serverIdentity;
      expect(identity('https://example.com:8443/mcp#x')).toBe('https://example.com:8443/mcp');
      expect(identity('https://example.com:8443/mcp?token=secret#x')).toMatch(
        /^https:\/\/example\.com:8443\/mcp\?sha256:[0-9a-f]{16}$/,
      );
      expect(identity('https://example.com:8443/mcp?token=secret#x')).not.toContain('secret');
      // Two tenants of one endpoint are two servers (their caches, tasks and cursors apart); the fragment never counts.
      expect(identity('https://example.com/mcp?tenant=acme')).not.toBe(
        identity('https://example.com/mcp?tenant=globex'),
      );
      expect(identity('https://example.com/mcp?tenant=acme#a')).toBe(identity('https://example.com/mcp?tenant=acme#b'));
      expect(() => new StreamableHttpTransport('https://user:pw@example.com/mcp')).toThrow(InvalidArgumentError);
      expect(() => new StreamableHttpTransport('ftp://example.com/mcp')).toThrow(InvalidArgumentError);
      expect(() => new StreamableHttpTransport('not a url')).toThrow(InvalidArgumentError);
    });
  });

  describe('Streamable HTTP: responses', () => {
    it('hands an application/json response up with relatedRequestId and resolves send', async () => {
      fake = await serve((req, res) => sendJson(res, 200, { jsonrpc: '2.0', id: req.json.id, result: { tools: [] } }));
      const transport = transportFor(fake.url);
      const recorded = await startRecording(transport);
      await transport.send(request(7, 'tools/list'));
      expect(recorded.messages).toEqual([
        { message: { jsonrpc: '2.0', id: 7, result: { tools: [] } }, context: { relatedRequestId: 7 } },
      ]);
      expect(recorded.errors).toEqual([]);
    });

    it('rejects a JSON response that answers another id, after handing it up', async () => {
      fake = await serve((_req, res) => sendJson(res, 200, { jsonrpc: '2.0', id: 99, result: {} }));
      const transport = transportFor(fake.url);
      const recorded = await startRecording(transport);
      await expect(transport.send(request(1, 'tools/list'))).rejects.toBeInstanceOf(ProtocolError);
      expect(recorded.messages).toHaveLength(1);
    });

    it.each([
      ['A: 202, no content type, empty body', (res: any) => res.writeHead(202).end()],
      [
        'B: 200 application/json with Content-Length 0',
        (res: any) => res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '0' }).end(),
      ],
      ['C: 204', (res: any) => res.writeHead(204).end()],
      [
        'D: 202 text/plain "Accepted"',
        (res: any) => res.writeHead(202, { 'Content-Type': 'text/plain; charset=UTF-8' }).end('Accepted'),
      ],
    ])('B28 %s acknowledges a notification without parsing the body', async (_name, reply) => {
      fake = await serve((req, res) => {
        if (req.json.id === undefined) reply(res);
        else sendJson(res, 200, { jsonrpc: '2.0', id: req.json.id, result: { tools: [] } });
      });
      const transport = transportFor(fake.url);
      const recorded = await startRecording(transport);
      await expect(transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' })).resolves.toBeUndefined();
      await transport.send(request(1, 'tools/list'));
      expect(recorded.errors).toEqual([]);
      expect(recorded.closes).toEqual([]);
      expect(recorded.messages.map((m) => m.message.id)).toEqual([1]);
    });

    it('B28 E: a 400 JSON-RPC error to a notification goes to onError for that send; no rejection, no teardown', async () => {
      fake = await serve((req, res) => {
        if (req.json.id === undefined) sendJson(res, 400, { jsonrpc: '2.0', error: { code: -32600, message: 'bad' } });
        else sendJson(res, 200, { jsonrpc: '2.0', id: req.json.id, result: { tools: [] } });
      });
      const transport = transportFor(fake.url);
      const recorded = await startRecording(transport);
      await expect(transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' })).resolves.toBeUndefined();
      expect(recorded.errors).toHaveLength(1);
      const error = recorded.errors[0] as HttpError;
      expect(error).toBeInstanceOf(HttpError);
      expect(error.data).toMatchObject({
        status: 400,
        method: 'notifications/initialized',
        rpcError: { code: -32600, message: 'bad' },
      });
      await transport.send(request(1, 'tools/list'));
      expect(recorded.closes).toEqual([]);
      expect(recorded.messages.map((m) => m.message.id)).toEqual([1]);
    });

    it('B34: an error with no id (or id null) in the body of the POST for request N rejects N with that error', async () => {
      fake = await serve((req, res) => {
        if (req.json.method === 'tools/list')
          sendJson(res, 400, { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request' } });
        else if (req.json.method === 'prompts/list')
          sendJson(res, 200, {
            jsonrpc: '2.0',
            id: null,
            error: { code: -32603, message: 'boom', data: { where: 'x' } },
          });
        else sendJson(res, 200, { jsonrpc: '2.0', id: req.json.id, result: { resources: [] } });
      });
      const errors: Error[] = [];
      const session = new JsonRpcSession({
        transport: transportFor(fake.url),
        timers: systemTimers,
        onNotification: () => {},
        onError: (e) => errors.push(e),
      });
      await session.start();
      const options = { timeoutMs: 5000, maxTotalTimeoutMs: 5000, resetTimeoutOnProgress: false };
      const tools = session.request('tools/list', {}, options);
      const prompts = session.request('prompts/list', {}, options);
      const resources = session.request('resources/list', {}, options);
      await expect(tools).rejects.toMatchObject({
        name: 'RpcError',
        code: -32600,
        message: 'Invalid Request',
        method: 'tools/list',
      });
      await expect(prompts).rejects.toMatchObject({ code: -32603, data: { where: 'x' }, method: 'prompts/list' });
      await expect(resources).resolves.toEqual({ resources: [] });
      expect(errors).toEqual([]);
      await session.close();
    });
  });

  describe('Streamable HTTP: status mapping', () => {
    async function sendOne(reply: (res: any) => void, method = 'tools/list') {
      fake = await serve((_req, res) => reply(res));
      const transport = transportFor(fake.url);
      const recorded = await startRecording(transport);
      const outcome = await transport.send(request(1, method, method === 'tools/call' ? { name: 't' } : {})).then(
        () => undefined,
        (error: unknown) => error,
      );
      return { outcome, recorded };
    }

    it('400 with a JSON-RPC error (-32022) is the response of that request', async () => {
      const body = {
        jsonrpc: '2.0',
        id: 1,
        error: {
          code: -32022,
          message: 'Unsupported protocol version',
          data: { supported: ['2026-07-28'], requested: '2027-01-01' },
        },
      };
      const { outcome, recorded } = await sendOne((res) => sendJson(res, 400, body));
      expect(outcome).toBeUndefined();
      expect(recorded.messages).toEqual([{ message: body, context: { relatedRequestId: 1, httpStatus: 400 } }]);
    });

    it('400 with -32020 HeaderMismatch and 404 with -32601 are delivered as responses too', async () => {
      const mismatch = { jsonrpc: '2.0', id: 1, error: { code: -32020, message: 'Header mismatch' } };
      let result = await sendOne((res) => sendJson(res, 400, mismatch), 'tools/call');
      expect(result.outcome).toBeUndefined();
      expect(result.recorded.messages[0]?.message).toEqual(mismatch);
      await fake?.close();
      const notFound = { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found' } };
      result = await sendOne((res) => sendJson(res, 404, notFound));
      expect(result.outcome).toBeUndefined();
      expect(result.recorded.messages[0]?.message).toEqual(notFound);
    });

    it('401 becomes HttpAuthError with the parsed WWW-Authenticate challenge', async () => {
      const { outcome } = await sendOne((res) =>
        res
          .writeHead(401, {
            'WWW-Authenticate':
              'Bearer error="invalid_token", error_description="The \\"token\\" is bad", resource_metadata="https://mcp.example/.well-known/oauth-protected-resource"',
            'Content-Type': 'application/json',
          })
          .end('{"error":"invalid_token"}'),
      );
      expect(outcome).toBeInstanceOf(HttpAuthError);
      const error = outcome as HttpAuthError;
      expect(isHttpAuthError(error)).toBe(true);
      expect(isHttpError(error)).toBe(true);
      expect(error.code).toBe(TransportErrorCode.HttpAuth);
      expect(error.data).toMatchObject({
        status: 401,
        failure: 'unauthorized',
        retriedWithNewCredential: false,
        bearer: {
          error: 'invalid_token',
          errorDescription: 'The "token" is bad',
          resourceMetadata: 'https://mcp.example/.well-known/oauth-protected-resource',
        },
      });
      expect(error.resourceMetadata).toBe('https://mcp.example/.well-known/oauth-protected-resource');
      expect(error.message).not.toMatch(/expired/i);
    });

    it('403 insufficient_scope becomes HttpAuthError listing the required scopes', async () => {
      const { outcome } = await sendOne((res) =>
        res
          .writeHead(403, {
            'WWW-Authenticate':
              'Bearer error="insufficient_scope", scope="files:read files:write", resource_metadata="https://mcp.example/.well-known/oauth-protected-resource", error_description="Additional file write permission required"',
          })
          .end(),
      );
      const error = outcome as HttpAuthError;
      expect(error).toBeInstanceOf(HttpAuthError);
      expect(error.data.failure).toBe('insufficient_scope');
      expect(error.requiredScopes).toEqual(['files:read', 'files:write']);
      expect(error.message).toContain('files:read files:write');
      expect(error.message).not.toMatch(/expired/i);
    });

    it('403 without insufficient_scope is a plain forbidden error', async () => {
      const { outcome } = await sendOne((res) =>
        sendJson(res, 403, { jsonrpc: '2.0', error: { code: -32000, message: 'Origin not allowed' } }),
      );
      const error = outcome as HttpAuthError;
      expect(error.data.failure).toBe('forbidden');
      expect(error.data.rpcError).toEqual({ code: -32000, message: 'Origin not allowed' });
    });

    it('404 with an HTML page becomes HttpError with a short excerpt', async () => {
      const page = `<!DOCTYPE html><html><body><h1>Cannot POST /mcp</h1>${'<p>padding</p>\n'.repeat(100)}</body></html>`;
      const { outcome } = await sendOne((res) =>
        res.writeHead(404, { 'Content-Type': 'text/html; charset=utf-8' }).end(page),
      );
      const error = outcome as HttpError;
      expect(error).toBeInstanceOf(HttpError);
      expect(error.code).toBe(TransportErrorCode.Http);
      expect(error.status).toBe(404);
      expect(error.data.contentType).toBe('text/html; charset=utf-8');
      expect(error.data.bodyExcerpt.startsWith('<!DOCTYPE html><html><body><h1>Cannot POST /mcp</h1>')).toBe(true);
      expect(error.data.bodyExcerpt.length).toBeLessThanOrEqual(200);
      expect(error.data.rpcError).toBeUndefined();
    });

    it('405 with an empty body and 500 with HTML become HttpError', async () => {
      let result = await sendOne((res) => res.writeHead(405, { Allow: 'POST' }).end());
      expect(result.outcome).toMatchObject({
        name: 'HttpError',
        data: { status: 405, bodyExcerpt: '', problem: 'status' },
      });
      await fake?.close();
      result = await sendOne((res) =>
        res.writeHead(500, { 'Content-Type': 'text/html' }).end('<h1>Internal   Server\nError</h1>'),
      );
      expect(result.outcome).toMatchObject({
        name: 'HttpError',
        data: { status: 500, bodyExcerpt: '<h1>Internal Server Error</h1>' },
      });
      expect(result.recorded.messages).toEqual([]);
    });

    it('a 500 with a JSON-RPC error body is an HttpError that carries the error', async () => {
      const { outcome } = await sendOne((res) =>
        sendJson(res, 500, { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'Internal error' } }),
      );
      expect(outcome).toMatchObject({
        name: 'HttpError',
        data: { status: 500, rpcError: { code: -32603, message: 'Internal error' } },
      });
    });

    it('odd content types and bodies on 200: HTML, an empty body, broken JSON', async () => {
      let result = await sendOne((res) =>
        res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html>login page</html>'),
      );
      expect(result.outcome).toMatchObject({
        name: 'HttpError',
        data: { status: 200, problem: 'content-type', bodyExcerpt: '<html>login page</html>' },
      });
      await fake?.close();
      result = await sendOne((res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end());
      expect(result.outcome).toMatchObject({ name: 'HttpError', data: { status: 200, problem: 'empty-body' } });
      await fake?.close();
      result = await sendOne((res) => res.writeHead(202).end());
      expect(result.outcome).toMatchObject({ name: 'HttpError', data: { status: 202, problem: 'empty-body' } });
      await fake?.close();
      result = await sendOne((res) =>
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"jsonrpc":"2.0",'),
      );
      expect(result.outcome).toBeInstanceOf(ProtocolError);
      expect((result.outcome as ProtocolError).code).toBe(ErrorCode.ParseError);
    });

    it('follows a same-origin 307 with the same POST, and refuses 302 (never turns into GET)', async () => {
      fake = await serve((req, res) => {
        if (req.path === '/mcp') res.writeHead(307, { Location: '/mcp/' }).end();
        else if (req.path === '/mcp/') sendJson(res, 200, { jsonrpc: '2.0', id: req.json.id, result: {} });
        else res.writeHead(302, { Location: '/elsewhere' }).end();
      });
      let transport = transportFor(fake.url);
      await startRecording(transport);
      await transport.send(request(1, 'tools/list'));
      expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /mcp', 'POST /mcp/']);
      expect(fake.requests[1]!.json.id).toBe(1);

      transport = transportFor(fake.url.replace('/mcp', '/old'));
      await startRecording(transport);
      await expect(transport.send(request(2, 'tools/list'))).rejects.toMatchObject({
        name: 'HttpError',
        data: { status: 302, problem: 'redirect', location: '/elsewhere' },
      });
      expect(fake.requests.every((r) => r.method === 'POST')).toBe(true);
    });
  });

  describe('Streamable HTTP: lifecycle', () => {
    it('close() aborts exchanges in flight, calls onClose once, and later sends fail fast', async () => {
      fake = await serve(() => {
        /* never answers */
      });
      const transport = transportFor(fake.url);
      const recorded = await startRecording(transport);
      const pending = transport.send(request(1, 'tools/list'));
      await fake.waitForRequests(1);
      await transport.close();
      await transport.close();
      await expect(pending).rejects.toBeInstanceOf(ConnectionClosedError);
      expect(recorded.closes).toEqual([{ reason: 'closed by client', initiatedByClient: true }]);
      await expect(transport.send(request(2, 'tools/list'))).rejects.toBeInstanceOf(ConnectionClosedError);
    });

    it('rejects sends before start', async () => {
      const transport = transportFor('http://127.0.0.1:9/mcp');
      await expect(transport.send(request(1, 'tools/list'))).rejects.toBeInstanceOf(ConnectionClosedError);
    });

    it('a client over HTTP surfaces an RpcError from a 400 body (modern refusal, no fallback)', async () => {
      fake = await serve((req, res) => {
        if (answerDiscover(req, res)) return;
        sendJson(res, 400, { jsonrpc: '2.0', id: req.json.id, error: { code: -32602, message: 'Invalid params' } });
      });
      const client = clientFor(transportFor(fake.url));
      await client.connect();
      await expect(client.listTools()).rejects.toBeInstanceOf(RpcError);
      await expect(client.listTools()).rejects.toMatchObject({ code: -32602 });
      await client.close();
    });
  });
});
