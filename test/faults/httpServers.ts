/**
 * Misbehaving 2026-07-28 servers over HTTP on 127.0.0.1: a node:http server that answers
 * `server/discover` and `tools/list` properly and lets each test script the rest, method by
 * method, down to the socket.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpFake, answerDiscover, sendJson, type RecordedRequest } from '../fakes/httpFake.js';

/** Answers one request; `request.json` is the JSON-RPC message. */
export type MethodHandler = (request: RecordedRequest, res: ServerResponse, req: IncomingMessage) => unknown;

export const TOOLS = [{ name: 'go', inputSchema: { type: 'object' } }];

/** A server: discover and tools/list as a good server does, everything else from `methods`. */
export function faultyServer(methods: Record<string, MethodHandler>): Promise<HttpFake> {
  return HttpFake.start((request, res, req) => {
    const method: unknown = request.json?.method;
    if (typeof method === 'string' && methods[method] !== undefined) return methods[method](request, res, req);
    if (answerDiscover(request, res)) return undefined;
    if (method === 'tools/list') {
      sendJson(res, 200, {
        jsonrpc: '2.0',
        id: request.json.id,
        result: { resultType: 'complete', tools: TOOLS, ttlMs: 0, cacheScope: 'public' },
      });
      return undefined;
    }
    if (request.json?.id === undefined) {
      res.writeHead(202).end();
      return undefined;
    }
    sendJson(res, 200, { jsonrpc: '2.0', id: request.json.id, error: { code: -32601, message: 'not here' } });
    return undefined;
  });
}

/** A complete result for `request`, as JSON. */
export function resultFor(request: RecordedRequest, result: Record<string, unknown> = {}): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: request.json.id,
    result: { resultType: 'complete', content: [], ...result },
  });
}

/** Writes `chunk` every `everyMs` until the client goes away. */
export function trickle(res: ServerResponse, chunk: string, everyMs: number): void {
  const timer = setInterval(() => {
    if (res.destroyed || res.writableEnded) clearInterval(timer);
    else res.write(chunk);
  }, everyMs);
  res.on('close', () => clearInterval(timer));
}

/** Writes `chunk` as fast as the socket takes it, until the client goes away. */
export function flood(res: ServerResponse, chunk: string): void {
  const pump = (): void => {
    while (!res.destroyed && !res.writableEnded) {
      if (!res.write(chunk)) {
        res.once('drain', pump);
        return;
      }
    }
  };
  res.on('close', () => res.off('drain', pump));
  pump();
}
