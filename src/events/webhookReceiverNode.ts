/**
 * The webhook receiver on Node's `http` and on Express-like servers: each request is turned into
 * a fetch `Request` (the raw bytes kept, bounded) and answered by `WebhookReceiver.handle`.
 * Node-only (exported from mcp-live/node).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { WebhookReceiver } from './webhookReceiver.js';

/** A request as Express-like frameworks hand it over: Node's, maybe with a body already read. */
export type ExpressLikeRequest = IncomingMessage & { body?: unknown; originalUrl?: string };

function toRequest(request: IncomingMessage, body: BodyInit | undefined): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
  }
  const host = headers.get('host') ?? 'localhost';
  const init: RequestInit & { duplex?: 'half' } = { method: request.method ?? 'GET', headers };
  if (body !== undefined && init.method !== 'GET' && init.method !== 'HEAD') {
    init.body = body;
    init.duplex = 'half';
  }
  return new Request(new URL(request.url ?? '/', `http://${host}`), init);
}

async function send(response: ServerResponse, answer: Response): Promise<void> {
  const headers: Record<string, string> = {};
  answer.headers.forEach((value, name) => (headers[name] = value));
  response.writeHead(answer.status, headers);
  response.end(answer.body === null ? undefined : Buffer.from(await answer.arrayBuffer()));
}

/** A `node:http` request listener for `receiver` (or a `RedisWebhookRelay` of mcp-live/redis): `http.createServer(webhookNodeHandler(receiver))`. */
export function webhookNodeHandler(
  receiver: Pick<WebhookReceiver, 'handle'>,
): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    const body = Readable.toWeb(request) as unknown as ReadableStream<Uint8Array>;
    void receiver
      .handle(toRequest(request, body))
      .then((answer) => send(response, answer))
      .catch(() => {
        if (!response.headersSent) response.writeHead(500);
        response.end();
      });
  };
}

/**
 * An Express-like middleware `(req, res) => void` for `receiver`. Mount it without a JSON body
 * parser in front (the signature covers the raw bytes); a raw parser (`express.raw()`, a
 * `Buffer` or string in `req.body`) works too. A body parsed into an object cannot be verified:
 * such a request gets 400.
 */
export function webhookExpressHandler(
  receiver: Pick<WebhookReceiver, 'handle'>,
): (request: ExpressLikeRequest, response: ServerResponse) => void {
  const streamed = webhookNodeHandler(receiver);
  return (request, response) => {
    const given = request.body;
    if (
      given === undefined ||
      (typeof given === 'object' && given !== null && Object.keys(given).length === 0 && !Buffer.isBuffer(given))
    ) {
      if (request.readableEnded) {
        response.writeHead(400).end();
        return;
      }
      streamed(request, response);
      return;
    }
    if (typeof given !== 'string' && !Buffer.isBuffer(given)) {
      response.writeHead(400).end();
      return;
    }
    void receiver
      .handle(toRequest(request, typeof given === 'string' ? given : new Uint8Array(given)))
      .then((answer) => send(response, answer))
      .catch(() => {
        if (!response.headersSent) response.writeHead(500);
        response.end();
      });
  };
}
