/**
 * The {@link HttpStack} on `node:http` and `node:https` with a keep-alive `Agent`: the request
 * path `StreamableHttpTransport` takes when it comes from `mcp-live/node`. Node-only.
 *
 * The modules are loaded on the first request, not at import: `node:https` pulls in `tls`,
 * which a stdio-only host should not pay for at startup.
 */
import type { Agent as HttpAgent, ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import {
  BodyTooLargeError,
  declaredLength,
  type HttpStack,
  type HttpStackRequest,
  type HttpStackResponse,
} from './stack.js';

/** Options of the `node:http` request path. Every field is optional. */
export interface NodeHttpOptions {
  /**
   * The `Agent` for every request: an `http.Agent` for an `http:` endpoint, an `https.Agent` for
   * an `https:` one (its `ca`, `cert`, `key`, `rejectUnauthorized`... apply). The transport never
   * destroys an agent it was given. @default a keep-alive agent of the transport's own, destroyed
   * by `close()`
   */
  agent?: HttpAgent | undefined;
}

type RequestFunction = (options: RequestOptions, callback: (response: IncomingMessage) => void) => ClientRequest;

interface NodeModules {
  readonly http: RequestFunction;
  readonly https: RequestFunction;
  readonly HttpAgent: new (options: { keepAlive: boolean }) => HttpAgent;
  readonly HttpsAgent: new (options: { keepAlive: boolean }) => HttpAgent;
}

let loaded: NodeModules | undefined;
let loading: Promise<NodeModules> | undefined;

function loadModules(): Promise<NodeModules> {
  loading ??= Promise.all([import('node:http'), import('node:https')]).then(([http, https]) => {
    loaded = {
      http: http.request,
      https: https.request,
      HttpAgent: http.Agent,
      HttpsAgent: https.Agent as unknown as NodeModules['HttpsAgent'],
    };
    return loaded;
  });
  return loading;
}

/** Bodies up to this size are read to the end when discarded, so their connection can be reused. */
const DRAIN_BYTES = 64 * 1024;

/**
 * A `node:http` stack for one transport. Requests to one origin share its keep-alive agent;
 * `close()` destroys that agent (unless it was given in `options.agent`).
 */
export function nodeHttpStack(options: NodeHttpOptions = {}): HttpStack {
  return new NodeHttpStack(options.agent);
}

/** Where requests to one URL go, parsed once. */
interface Target {
  readonly url: string;
  readonly secure: boolean;
  readonly hostname: string;
  readonly port: number | undefined;
  readonly path: string;
  /** The `Host` header: host name (bracketed for IPv6) and the port when not the scheme's default. */
  readonly host: string;
}

/** One exchange in flight: how to abort it. */
interface Inflight {
  abort(reason: unknown): void;
}

class NodeHttpStack implements HttpStack {
  private ownAgent: HttpAgent | undefined;
  private closed = false;
  private target: Target | undefined;
  private readonly inflight = new Set<Inflight>();
  /** `node:http` speaks HTTP/1.1. */
  readonly protocolVersion = '1.1';

  constructor(private readonly givenAgent: HttpAgent | undefined) {}

  send(request: HttpStackRequest): Promise<HttpStackResponse> {
    if (loaded !== undefined) return this.exchange(loaded, request);
    return loadModules().then((modules) => this.exchange(modules, request));
  }

  abortAll(reason: unknown): void {
    for (const exchange of [...this.inflight]) exchange.abort(reason);
  }

  close(): void {
    this.closed = true;
    this.ownAgent?.destroy();
    this.ownAgent = undefined;
  }

  private agentFor(modules: NodeModules, secure: boolean): HttpAgent {
    if (this.givenAgent !== undefined) return this.givenAgent;
    if (this.ownAgent === undefined) {
      this.ownAgent = secure ? new modules.HttpsAgent({ keepAlive: true }) : new modules.HttpAgent({ keepAlive: true });
      // A transport closed with requests still running must not keep a fresh agent alive.
      if (this.closed) queueMicrotask(() => this.close());
    }
    return this.ownAgent;
  }

  /** The parsed form of `url` (the endpoint, or a redirect target): cached for the last one. */
  private targetOf(url: string): Target {
    if (this.target?.url === url) return this.target;
    const parsed = new URL(url);
    const hostname = parsed.hostname.startsWith('[') ? parsed.hostname.slice(1, -1) : parsed.hostname;
    this.target = {
      url,
      secure: parsed.protocol === 'https:',
      hostname,
      port: parsed.port === '' ? undefined : Number(parsed.port),
      path: `${parsed.pathname}${parsed.search}`,
      host: parsed.host,
    };
    return this.target;
  }

  private exchange(modules: NodeModules, request: HttpStackRequest): Promise<HttpStackResponse> {
    const cancel = request.cancel;
    if (cancel?.aborted === true) return Promise.reject(cancel.reason);
    const target = this.targetOf(request.url);
    return new Promise<HttpStackResponse>((resolve, reject) => {
      let response: NodeStackResponse | undefined;
      const inflight: Inflight = {
        abort: (reason) => {
          if (response !== undefined) response.abort(reason);
          else {
            finish();
            req.destroy();
            reject(reason);
          }
        },
      };
      // A cancelled send destroys the request (or its response) from here: no AbortSignal involved.
      const onAbort = (): void => inflight.abort(cancel?.reason);
      const finish = (): void => {
        this.inflight.delete(inflight);
        cancel?.offAbort(onAbort);
      };
      const req = (target.secure ? modules.https : modules.http)(
        {
          agent: this.agentFor(modules, target.secure),
          hostname: target.hostname,
          port: target.port,
          path: target.path,
          method: request.method,
          headers: headerLines(request, target),
        },
        (res) => {
          response = new NodeStackResponse(res, finish);
          resolve(response);
        },
      );
      req.on('error', (error) => {
        if (response !== undefined) return; // the response reports it
        finish();
        reject(error);
      });
      this.inflight.add(inflight);
      cancel?.onAbort(onAbort);
      req.end(request.body);
    });
  }
}

/**
 * The request's headers as a flat `[name, value, ...]` list, with `host` and `content-length`
 * added: `node:http` then writes them as they are, instead of storing and checking each one
 * again (the transport already checked them: lower-case names, valid values).
 */
function headerLines(request: HttpStackRequest, target: Target): string[] {
  const headers = request.headers;
  const lines: string[] = [];
  for (const name in headers) if (name !== 'content-length') lines.push(name, headers[name] as string);
  if (headers['host'] === undefined) lines.push('host', target.host);
  if (request.body !== undefined) lines.push('content-length', String(Buffer.byteLength(request.body)));
  return lines;
}

class NodeStackResponse implements HttpStackResponse {
  readonly status: number;
  private abortReason: unknown;
  private aborted = false;

  constructor(
    private readonly res: IncomingMessage,
    done: () => void,
  ) {
    this.status = res.statusCode ?? 0;
    // `on`, not `once`: 'close' comes once, and a response is never reused.
    res.on('close', done);
  }

  header(name: string): string | undefined {
    const value = this.res.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  }

  /** Ends the body with `reason` (the signal aborted). */
  abort(reason: unknown): void {
    this.aborted = true;
    this.abortReason = reason;
    this.res.destroy();
  }

  async *chunks(): AsyncGenerator<Uint8Array, void, undefined> {
    try {
      for await (const chunk of this.res) yield chunk as Buffer;
    } catch (error) {
      throw this.failure(error);
    }
    if (this.aborted) throw this.abortReason;
    if (!this.res.complete) throw prematureClose();
  }

  text(maxBytes: number): Promise<string> {
    const res = this.res;
    const length = declaredLength(this.header('content-length'));
    if (length !== undefined && length > maxBytes) {
      res.destroy();
      return Promise.reject(new BodyTooLargeError(maxBytes, length));
    }
    return new Promise<string>((resolve, reject) => {
      let first: Buffer | undefined;
      let rest: Buffer[] | undefined;
      let total = 0;
      let tooLarge = false;
      res.on('data', (chunk: Buffer) => {
        if (tooLarge) return;
        total += chunk.byteLength;
        if (total > maxBytes) {
          // Settled here; the 'close' the destroy causes rejects a settled promise, harmlessly.
          tooLarge = true;
          reject(new BodyTooLargeError(maxBytes, total));
          first = undefined;
          rest = undefined;
          res.destroy();
          return;
        }
        if (first === undefined) first = chunk;
        else (rest ??= [first]).push(chunk);
      });
      // Each event comes at most once and settling twice is harmless: plain `on` listeners.
      res.on('end', () =>
        resolve(
          rest !== undefined ? Buffer.concat(rest).toString('utf8') : first === undefined ? '' : first.toString('utf8'),
        ),
      );
      res.on('error', (error) => reject(this.failure(error)));
      res.on('close', () => {
        if (!res.complete || this.aborted) reject(this.failure(prematureClose()));
      });
    });
  }

  discard(): void {
    const res = this.res;
    if (res.complete || res.destroyed) return;
    const length = Number(res.headers['content-length']);
    if (Number.isFinite(length) && length <= DRAIN_BYTES) res.resume();
    else res.destroy();
  }

  private failure(error: unknown): unknown {
    return this.aborted ? this.abortReason : error;
  }
}

function prematureClose(): Error {
  return Object.assign(new Error('the connection closed before the response body was complete'), {
    code: 'ECONNRESET',
  });
}
