/**
 * `serveDevtools(host)`: the devtools page of a Node host, served on 127.0.0.1 behind a random
 * token. `GET /?token=` is the page, `GET /events?token=` the Server-Sent Events stream of the
 * recorder (a `snapshot`, then `changes` in batches of at most every 100 ms), `GET /search?token=&q=`
 * the host's tool search for the catalog view, and, with `actions: true`, `POST /actions?token=`
 * runs one action. Any request without the token is answered 401. Node-only (node:http,
 * node:crypto).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { abortedError, InvalidArgumentError } from '../errors/errors.js';
import type { McpHost } from '../host/host.js';
import { systemTimers } from '../util/clock.js';
import { ChangeBatch } from './changeBatch.js';
import { DevtoolsRecorder } from './recorder.js';
import type { DevtoolsChange } from './snapshot.js';
import { devtoolsPage, devtoolsPagePolicy } from './page.js';
import { errorView } from './views.js';

/** The one address the page is served on. */
const LOOPBACK = '127.0.0.1';
/** A stream whose reader lags by more than this many bytes is ended (the page reconnects and gets a new snapshot). */
const MAX_BACKLOG_BYTES = 4 * 1024 * 1024;
/** The longest a change waits before it is sent to the pages, in ms (changes of one thing in between coalesce). */
const BATCH_MS = 100;
/** The largest action body read, in bytes. */
const MAX_ACTION_BYTES = 4096;

/** Options of {@link serveDevtools}. */
export interface ServeDevtoolsOptions {
  /** The TCP port; `0` picks a free one. @default 0 */
  port?: number | undefined;
  /** The address to listen on: only `127.0.0.1` is accepted (the page is for this machine). @default "127.0.0.1" */
  host?: string | undefined;
  /**
   * Lets the page act on the host: an "invalidate cache" button per server (drops every entry
   * of that server's response cache); "invalidate" and "refetch" on one cache entry; "allow"
   * and "deny" on an approval the recorder's hook lets the page answer
   * (`recorder.approve(hook, { fromPage: true })`). Off, the page is read-only and `/actions`
   * answers 404.
   * @default false
   */
  actions?: boolean | undefined;
  /** With a host (not a recorder): how many requests its recorder keeps. @default 500 */
  maxRequests?: number | undefined;
  /**
   * Aborts the start: aborted before the server listens, it is closed (and a recorder made for a
   * host detached) and `serveDevtools` rejects (`CancelledError` -32800).
   */
  signal?: AbortSignal | undefined;
}

/** A devtools page being served. */
export interface ServedDevtools {
  /** The page's address with its token, `http://127.0.0.1:PORT/?token=…`: a secret, show it only to the user. */
  readonly url: string;
  /** The TCP port it listens on, on 127.0.0.1. */
  readonly port: number;
  /** The recorder the page reads (the one given, or the one made for the host). */
  readonly recorder: DevtoolsRecorder;
  /**
   * Ends every stream and closes the server (no socket left); a recorder made for the host is
   * detached, a given one is left as it is. Idempotent.
   */
  close(): Promise<void>;
}

/**
 * Serves the devtools page of `source` (a host, which gets a recorder of its own attached now,
 * or a recorder already attached) on 127.0.0.1 behind a random token (24 bytes of
 * `node:crypto`). Give the returned `url` to the user: every request without its token gets 401.
 *
 * ```ts
 * const devtools = await serveDevtools(host);
 * console.log(`devtools: ${devtools.url}`);
 * // ...
 * await devtools.close();
 * ```
 * @throws InvalidArgumentError (-32602) for a `host` other than `127.0.0.1`, a `port` that is not
 *   an integer 0–65535, a `source` that is neither an `McpHost` nor a `DevtoolsRecorder`, or as
 *   `new DevtoolsRecorder` and `recorder.attach`; CancelledError (-32800) when `options.signal`
 *   aborts; the listen error (`EADDRINUSE`...) as Node gives it.
 */
export async function serveDevtools(
  source: McpHost | DevtoolsRecorder,
  options: ServeDevtoolsOptions = {},
): Promise<ServedDevtools> {
  const address = options.host ?? LOOPBACK;
  if (address !== LOOPBACK)
    throw new InvalidArgumentError('host', address, 'the devtools are served on 127.0.0.1 only');
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new InvalidArgumentError('port', port, 'expected an integer from 0 to 65535');
  if (options.signal?.aborted) throw abortedError('serveDevtools', options.signal.reason);
  let recorder: DevtoolsRecorder;
  let detach: (() => void) | undefined;
  if (source instanceof DevtoolsRecorder) recorder = source;
  else if (isHost(source)) {
    recorder = new DevtoolsRecorder({ maxRequests: options.maxRequests });
    detach = recorder.attach(source);
  } else throw new InvalidArgumentError('source', typeof source, 'expected an McpHost or a DevtoolsRecorder');

  const token = randomBytes(24).toString('base64url');
  const page = new DevtoolsPageServer({
    token,
    recorder,
    actions: options.actions === true,
    maxRequests: recorder.maxRequests,
    actOn: () => recorder.host,
  });
  const server = createServer((req, res) => page.handle(req, res));
  const listening = new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, LOOPBACK, () => {
      server.off('error', reject);
      resolve();
    });
  });
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closed ??= new Promise<void>((resolve) => {
      detach?.();
      page.endStreams();
      server.close(() => resolve());
      server.closeAllConnections();
    }));
  try {
    // The listen on loopback settles at once: an abort meanwhile is read once it has.
    await listening;
    if (options.signal?.aborted) throw abortedError('serveDevtools', options.signal.reason);
  } catch (error) {
    await close();
    throw error;
  }
  const bound = (server.address() as AddressInfo).port;
  page.port = bound;
  return { url: `http://${LOOPBACK}:${bound}/?token=${token}`, port: bound, recorder, close };
}

interface PageServerDeps {
  token: string;
  recorder: DevtoolsRecorder;
  actions: boolean;
  maxRequests: number;
  /** The host the actions act on: the one the recorder is attached to. */
  actOn: () => McpHost | undefined;
}

/** The routes of one served page. */
class DevtoolsPageServer {
  /** The bound port, for the `Host` header check. */
  port = 0;
  private readonly token: Buffer;
  private readonly streams = new Set<ServerResponse>();
  private readonly batch: ChangeBatch;
  private offRecorder: (() => void) | undefined;

  constructor(private readonly deps: PageServerDeps) {
    this.token = Buffer.from(deps.token);
    this.batch = new ChangeBatch(BATCH_MS, systemTimers, (changes) => this.sendChanges(changes));
  }

  handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', `http://${LOOPBACK}`);
    if (!this.hasToken(url.searchParams.get('token'))) return plain(res, 401, 'a devtools token is required');
    // A page of another site that got a name resolving here (DNS rebinding) sends its own Host.
    const hostHeader = req.headers.host ?? '';
    if (hostHeader !== `${LOOPBACK}:${this.port}` && hostHeader !== `localhost:${this.port}`)
      return plain(res, 403, 'unexpected Host header');
    if (req.method === 'GET' && url.pathname === '/') return this.page(res);
    if (req.method === 'GET' && url.pathname === '/events') return this.events(req, res);
    if (req.method === 'GET' && url.pathname === '/search') return this.search(url, res);
    if (req.method === 'POST' && url.pathname === '/actions' && this.deps.actions) return void this.action(req, res);
    plain(res, 404, 'not found');
  }

  private hasToken(given: string | null): boolean {
    if (given === null) return false;
    const bytes = Buffer.from(given);
    return bytes.length === this.token.length && timingSafeEqual(bytes, this.token);
  }

  private page(res: ServerResponse): void {
    const nonce = randomBytes(16).toString('base64');
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': devtoolsPagePolicy(nonce),
    });
    res.end(devtoolsPage(nonce, this.deps.actions));
  }

  /**
   * One page's stream: the snapshot at once, then the changes in batches (one `changes` event of
   * at most every {@link BATCH_MS} ms, serialised once for every stream). The recorder is listened
   * to only while a stream is open.
   */
  private events(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/event-stream', connection: 'keep-alive' });
    this.streams.add(res);
    this.offRecorder ??= this.deps.recorder.on((change) => this.batch.add(change));
    req.once('close', () => this.endStream(res));
    // The snapshot reads the caches (a store may answer later): changes batched meanwhile are
    // older than it, and a page ignores changes before its snapshot.
    void this.deps.recorder.readSnapshot().then(
      (snapshot) => {
        if (!this.streams.has(res)) return;
        const data = { snapshot, maxRequests: this.deps.maxRequests, actions: this.deps.actions };
        this.write(res, `event: snapshot\ndata: ${JSON.stringify(data)}\n\n`);
      },
      () => this.endStream(res),
    );
  }

  /** Ends every stream (the server closes). */
  endStreams(): void {
    for (const stream of [...this.streams]) this.endStream(stream);
  }

  private endStream(res: ServerResponse): void {
    if (!this.streams.delete(res)) return;
    res.end();
    if (this.streams.size > 0) return;
    this.offRecorder?.();
    this.offRecorder = undefined;
    this.batch.clear();
  }

  private sendChanges(changes: DevtoolsChange[]): void {
    const message = `event: changes\ndata: ${JSON.stringify(changes)}\n\n`;
    for (const stream of [...this.streams]) this.write(stream, message);
  }

  /** Writes to one stream; a reader that lags too far is cut off (its page reconnects to a new snapshot). */
  private write(res: ServerResponse, message: string): void {
    res.write(message);
    if (res.writableLength > MAX_BACKLOG_BYTES) this.endStream(res);
  }

  /** The catalog view's tool search: read-only, so served with or without actions. */
  private search(url: URL, res: ServerResponse): void {
    try {
      json(res, 200, this.deps.recorder.searchTools(url.searchParams.get('q') ?? ''));
    } catch (error) {
      json(res, error instanceof InvalidArgumentError ? 400 : 500, { error: errorView(error) });
    }
  }

  private async action(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body: unknown;
    try {
      const text = await readBody(req);
      if (text === undefined) return json(res, 413, { error: 'a body of at most 4096 bytes' });
      body = JSON.parse(text);
    } catch {
      return json(res, 400, { error: 'expected a JSON body' });
    }
    const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    const action = fields['action'];
    const server = fields['server'];
    try {
      switch (action) {
        case 'invalidate-cache': {
          const cache = typeof server === 'string' ? this.deps.actOn()?.client(server)?.cache : undefined;
          if (cache === undefined)
            return json(res, 404, { error: 'no server with a cache by that name', server: String(server) });
          return json(res, 200, { invalidated: await cache.invalidateAll() });
        }
        case 'invalidate-entry':
          return json(res, 200, {
            invalidated: await this.deps.recorder.invalidateCacheEntry(String(server), String(fields['entry'])),
          });
        case 'refetch-entry':
          return json(res, 200, {
            refetched: await this.deps.recorder.refetchCacheEntry(String(server), String(fields['entry'])),
          });
        case 'answer-approval':
          this.deps.recorder.answerApproval(
            Number(fields['approval']),
            String(fields['argumentsHash']),
            fields['verdict'] as 'allow' | 'deny',
          );
          return json(res, 200, { answered: fields['verdict'] });
        default:
          return json(res, 400, { error: 'unknown action', action: String(action) });
      }
    } catch (error) {
      json(res, error instanceof InvalidArgumentError ? 409 : 500, { error: errorView(error) });
    }
  }
}

/** An `McpHost` by its shape (no import of the class: the entry stays free of the host's code). */
function isHost(value: unknown): value is McpHost {
  const host = value as Partial<McpHost> | null;
  return (
    typeof host === 'object' &&
    host !== null &&
    typeof host.on === 'function' &&
    typeof host.use === 'function' &&
    typeof host.client === 'function' &&
    typeof host.catalog === 'object'
  );
}

const SECURITY_HEADERS = {
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
} as const;

function plain(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8' }).end(text);
}

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'application/json' }).end(JSON.stringify(value));
}

/** The request body as text; `undefined` past {@link MAX_ACTION_BYTES} (the rest is read and dropped). */
function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_ACTION_BYTES) chunks.push(chunk);
    });
    req.once('end', () => resolve(size > MAX_ACTION_BYTES ? undefined : Buffer.concat(chunks).toString('utf8')));
    req.once('error', reject);
  });
}
