/**
 * Two real HTTP MCP servers on 127.0.0.1 for the fleet tests (2026-07-28, JSON responses):
 * `mail`, which needs a per-user bearer token and answers each user's private results, and
 * `notes`, which needs none (one connection for every user) and counts what it serves so a test
 * sees whether a result came from it or from a cache.
 */
import type { ServerResponse } from 'node:http';
import { DISCOVER, HttpFake, sendJson, type RecordedRequest } from '../../fakes/httpFake.js';

const CAPABILITIES = { tools: {}, resources: {} };

function discover(name: string): unknown {
  return {
    ...DISCOVER,
    capabilities: CAPABILITIES,
    _meta: { 'io.modelcontextprotocol/serverInfo': { name, version: '0.0.0' } },
  };
}

function text(value: string): { type: 'text'; text: string } {
  return { type: 'text', text: value };
}

/** Answers one JSON-RPC request (a notification gets 202); `result` returns the result or an error. */
function answer(
  request: RecordedRequest,
  res: ServerResponse,
  result: (method: string, params: any) => { result: unknown } | { error: { code: number; message: string } },
): void {
  const message = request.json ?? {};
  if (message.id === undefined) {
    res.writeHead(202).end();
    return;
  }
  const outcome = result(String(message.method), message.params);
  sendJson(res, 200, { jsonrpc: '2.0', id: message.id, ...outcome });
}

const NO_LISTEN = { error: { code: -32601, message: 'Method not found' } };

/** What `mail` saw: each request's user (by token), method and tool or URI. */
export interface MailRequest {
  user: string | undefined;
  method: string;
  target: string | undefined;
}

export interface FleetServers {
  readonly mail: HttpFake;
  readonly notes: HttpFake;
  /** Every request `mail` received, with the user its token belongs to (`undefined`: none or unknown). */
  readonly mailRequests: MailRequest[];
  /** How many times `notes` served each URI or tool. */
  readonly notesServed: Map<string, number>;
  close(): Promise<void>;
}

/** Starts both servers; `tokens` maps a bearer token of `mail` to its user. */
export async function startFleetServers(tokens: Readonly<Record<string, string>>): Promise<FleetServers> {
  const mailRequests: MailRequest[] = [];
  const notesServed = new Map<string, number>();
  const serve = (key: string): number => {
    const n = (notesServed.get(key) ?? 0) + 1;
    notesServed.set(key, n);
    return n;
  };

  const mail = await HttpFake.start((request, res) => {
    const header = request.headers.authorization;
    const token = typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7) : undefined;
    const user = token === undefined ? undefined : tokens[token];
    const message = request.json ?? {};
    mailRequests.push({
      user,
      method: String(message.method),
      target: message.params?.name ?? message.params?.uri,
    });
    if (user === undefined) {
      sendJson(res, 401, { error: 'invalid_token' }, { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
      return;
    }
    answer(request, res, (method, params) => {
      switch (method) {
        case 'server/discover':
          return { result: discover('mail') };
        case 'tools/list':
          return {
            result: {
              resultType: 'complete',
              tools: [{ name: 'whoami', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }],
              ttlMs: 0,
              cacheScope: 'private',
            },
          };
        case 'tools/call':
          return { result: { resultType: 'complete', content: [text(`you are ${user}; secret-of-${user}`)] } };
        case 'resources/list':
          return {
            result: {
              resultType: 'complete',
              resources: [{ uri: 'mail://inbox', name: 'inbox' }],
              ttlMs: 0,
              cacheScope: 'private',
            },
          };
        case 'resources/templates/list':
          return { result: { resultType: 'complete', resourceTemplates: [], ttlMs: 0, cacheScope: 'public' } };
        case 'resources/read':
          return {
            result: {
              resultType: 'complete',
              contents: [{ uri: params?.uri, text: `inbox of ${user}` }],
              ttlMs: 60_000,
              cacheScope: 'private',
            },
          };
        default:
          return NO_LISTEN;
      }
    });
  });

  const notes = await HttpFake.start((request, res) => {
    answer(request, res, (method, params) => {
      switch (method) {
        case 'server/discover':
          return { result: discover('notes') };
        case 'tools/list':
          return {
            result: {
              resultType: 'complete',
              tools: [
                { name: 'big', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
                { name: 'delete_note', inputSchema: { type: 'object', properties: { id: { type: 'string' } } } },
              ],
              ttlMs: 60_000,
              cacheScope: 'public',
            },
          };
        case 'tools/call': {
          const n = serve(`tool:${String(params?.name)}`);
          if (params?.name === 'big')
            return {
              result: {
                resultType: 'complete',
                content: [text(`${String(params?.arguments?.tag)}:`.padEnd(4000, 'x'))],
              },
            };
          return {
            result: { resultType: 'complete', content: [text(`deleted ${String(params?.arguments?.id)} (#${n})`)] },
          };
        }
        case 'resources/list':
          return {
            result: {
              resultType: 'complete',
              resources: [
                { uri: 'notes://private', name: 'private' },
                { uri: 'notes://public', name: 'public' },
              ],
              ttlMs: 60_000,
              cacheScope: 'public',
            },
          };
        case 'resources/templates/list':
          return { result: { resultType: 'complete', resourceTemplates: [], ttlMs: 60_000, cacheScope: 'public' } };
        case 'resources/read': {
          const uri = String(params?.uri);
          const n = serve(uri);
          return {
            result: {
              resultType: 'complete',
              contents: [{ uri, text: `${uri} read #${n}` }],
              ttlMs: 60_000,
              cacheScope: uri === 'notes://public' ? 'public' : 'private',
            },
          };
        }
        default:
          return NO_LISTEN;
      }
    });
  });

  return {
    mail,
    notes,
    mailRequests,
    notesServed,
    close: async () => void (await Promise.all([mail.close(), notes.close()])),
  };
}
