/**
 * A scripted legacy (2025-11-25) Streamable HTTP server on 127.0.0.1, on top of {@link HttpFake}:
 * sessions handed out by `initialize`, 404 for unknown sessions, 202 for notifications and
 * responses, a scriptable answer to the `server/discover` probe, to `GET` and to
 * `notifications/initialized`. Every request is recorded by the fake.
 */
import type { ServerResponse } from 'node:http';
import { HttpFake, sendJson, type RecordedRequest } from './httpFake.js';

/** How a scripted step answers; `undefined` from `request` falls through to the default. */
export type Answer = (request: RecordedRequest, res: ServerResponse) => void;

export interface LegacyHttpScript {
  /** The answer to `server/discover`. @default H1: 400 JSON -32000 "Bad Request: Missing session ID" */
  probe?: Answer | undefined;
  /** Session ids handed out by each `initialize`, in order; `false` hands out none. @default S1, S2, ... */
  sessions?: false | undefined;
  /** The answer to `notifications/initialized`. @default 202 with no body */
  initialized?: Answer | undefined;
  /** The answer to `GET`. @default 405 */
  get?: Answer | undefined;
  /** Runs first for every other POSTed request: return true when it answered. */
  request?: ((request: RecordedRequest, res: ServerResponse) => boolean) | undefined;
  /**
   * Runs first for each `initialize` (`n` from 1): return true when it answered (a failure, or
   * an answer held back); else the default hands out a session.
   */
  initialize?: ((request: RecordedRequest, res: ServerResponse, n: number) => boolean) | undefined;
  /** `protocolVersion` of the InitializeResult. @default the one asked for */
  version?: string | undefined;
}

/** B45 H1: the answer of a legacy stateful server to a request without a session. */
export const H1: Answer = (_request, res) =>
  sendJson(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: Missing session ID' } });

/** A running scripted legacy server. */
export interface LegacyHttpServer {
  readonly fake: HttpFake;
  readonly url: string;
  /** Session ids handed out so far. */
  readonly issued: string[];
  /** Forgets every session (a restart): requests that carry one get 404 from now on. */
  expireSessions(): void;
  /** The recorded POSTs whose JSON body has `method`. */
  posts(method: string): RecordedRequest[];
  close(): Promise<void>;
}

export async function startLegacyHttpServer(script: LegacyHttpScript = {}): Promise<LegacyHttpServer> {
  const live = new Set<string>();
  const issued: string[] = [];
  let initializes = 0;
  const fake = await HttpFake.start((request, res) => {
    const json = request.json as Record<string, any> | undefined;
    const session = request.headers['mcp-session-id'];
    if (request.method === 'GET')
      return (script.get ?? ((_r, out) => out.writeHead(405, { Allow: 'POST' }).end()))(request, res);
    if (request.method === 'DELETE') {
      if (typeof session === 'string') live.delete(session);
      res.writeHead(200).end();
      return;
    }
    if (json?.method === 'server/discover') return (script.probe ?? H1)(request, res);
    if (json?.method === 'initialize') {
      if (script.initialize?.(request, res, ++initializes) === true) return;
      const headers: Record<string, string> = {};
      if (script.sessions !== false) {
        const id = `S${issued.length + 1}`;
        issued.push(id);
        live.add(id);
        headers['Mcp-Session-Id'] = id;
      }
      sendJson(
        res,
        200,
        { jsonrpc: '2.0', id: json['id'], result: initializeResult(script.version ?? json['params']?.protocolVersion) },
        headers,
      );
      return;
    }
    if (typeof session === 'string' && !live.has(session)) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Session not found');
      return;
    }
    if (json?.method === 'notifications/initialized')
      return (script.initialized ?? ((_r, out) => out.writeHead(202).end()))(request, res);
    if (script.request?.(request, res) === true) return;
    if (json === undefined || !('id' in json) || typeof json['method'] !== 'string') {
      res.writeHead(202).end();
      return;
    }
    const reply = (result: unknown) => sendJson(res, 200, { jsonrpc: '2.0', id: json['id'], result });
    if (json['method'] === 'tools/list') return reply({ tools: [{ name: 'echo', inputSchema: { type: 'object' } }] });
    if (json['method'] === 'tools/call')
      return reply({ content: [{ type: 'text', text: JSON.stringify(json['params']?.arguments ?? {}) }] });
    if (
      json['method'] === 'resources/subscribe' ||
      json['method'] === 'resources/unsubscribe' ||
      json['method'] === 'ping'
    )
      return reply({});
    sendJson(res, 200, { jsonrpc: '2.0', id: json['id'], error: { code: -32601, message: 'Method not found' } });
  });
  return {
    fake,
    url: fake.url,
    issued,
    expireSessions: () => live.clear(),
    posts: (method) => fake.requests.filter((r) => r.method === 'POST' && r.json?.method === method),
    close: () => fake.close(),
  };
}

/** The InitializeResult the fake answers with. */
export function initializeResult(version: string | undefined): Record<string, unknown> {
  return {
    protocolVersion: version ?? '2025-11-25',
    capabilities: { tools: { listChanged: true }, resources: { subscribe: true } },
    serverInfo: { name: 'legacy-http-fake', version: '1.0.0' },
    instructions: 'a scripted legacy server',
  };
}
