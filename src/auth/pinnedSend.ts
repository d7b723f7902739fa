/**
 * The request path of the OAuth code on Node (DNS pinning): each request goes over a socket
 * opened to an address the discovery address policy checked, never to one a second resolution
 * of the name might give (DNS rebinding). `node:http` speaks HTTP/1.1 over that socket; for
 * `https:` it is a `node:tls` socket whose server name and certificate identity are the URL's
 * host name. Redirects are not followed here: `guardedFetch` follows them by hand, checking
 * each hop. Node-only; the modules load on the first request.
 */
import type { IncomingMessage, RequestOptions, ClientRequest } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressLookup, CheckedSend, ResolvedAddress } from './addressPolicy.js';
import { isIpLiteral } from './addressKinds.js';

/** Where a {@link Connector} connects: one checked address, never a name. */
export interface ConnectTarget {
  /** The IP address (IPv6 without brackets), one the address policy checked. */
  readonly address: string;
  /** 4 or 6. */
  readonly family: number;
  readonly port: number;
  /** `https:`: TLS over the connection. */
  readonly secure: boolean;
  /** With `secure`: the server name sent (SNI) and matched against the certificate; `undefined` for a literal address. */
  readonly servername: string | undefined;
}

/** Opens a connection to exactly `target.address`; resolves once it is connected (and, with `secure`, the TLS handshake done). */
export type Connector = (target: ConnectTarget, signal: AbortSignal) => Promise<Duplex>;

type RequestFunction = (options: RequestOptions, callback: (response: IncomingMessage) => void) => ClientRequest;

interface NodeModules {
  readonly net: typeof import('node:net');
  readonly tls: typeof import('node:tls');
  readonly request: RequestFunction;
  readonly toWeb: (readable: IncomingMessage) => ReadableStream<Uint8Array>;
}

let loading: Promise<NodeModules> | undefined;

function loadModules(): Promise<NodeModules> {
  loading ??= Promise.all([import('node:net'), import('node:tls'), import('node:http'), import('node:stream')]).then(
    ([net, tls, http, stream]) => ({
      net,
      tls,
      request: http.request,
      toWeb: (readable) => stream.Readable.toWeb(readable) as ReadableStream<Uint8Array>,
    }),
  );
  return loading;
}

/** Statuses whose response has no body (the `Response` constructor refuses one). */
const NULL_BODY = new Set([101, 204, 205, 304]);

/**
 * The pinned sender: connects to the first of the addresses {@link checkAddress} returned that
 * accepts a connection (the next one when a connection fails), and sends the request there with
 * the URL's `Host`. A host the policy did not resolve (the MCP server's own, which the app named)
 * is resolved here once with `lookup`. Rejects with a `TypeError` when no connection or request
 * could be made, as `fetch` does; with the signal's reason when it aborts.
 */
export function pinnedSend(lookup: AddressLookup, connect: Connector = connectSocket): CheckedSend {
  return async (url, init, checked) => {
    const request = new Request(url, init);
    const target = new URL(request.url);
    const signal = init.signal ?? new AbortController().signal;
    const addresses = checked.length > 0 ? checked : await resolveOnce(target, lookup, signal);
    const body = request.body === null ? undefined : new Uint8Array(await request.arrayBuffer());
    const socket = await connectFirst(addresses, target, connect, signal);
    return exchange(socket, target, request, body, signal);
  };
}

/** `target`'s addresses: the literal one, or what `lookup` answers (once). */
async function resolveOnce(
  target: URL,
  lookup: AddressLookup,
  signal: AbortSignal,
): Promise<readonly ResolvedAddress[]> {
  if (isIpLiteral(target.hostname)) {
    const address = target.hostname.replace(/^\[|\]$/g, '');
    return [{ address, family: address.includes(':') ? 6 : 4 }];
  }
  let resolved: readonly ResolvedAddress[];
  try {
    resolved = await lookup(target.hostname);
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw new TypeError(`cannot resolve ${target.hostname}`, { cause: error });
  }
  if (signal.aborted) throw signal.reason;
  if (resolved.length === 0) throw new TypeError(`cannot resolve ${target.hostname}: no address`);
  return resolved;
}

async function connectFirst(
  addresses: readonly ResolvedAddress[],
  target: URL,
  connect: Connector,
  signal: AbortSignal,
): Promise<Duplex> {
  const secure = target.protocol === 'https:';
  const port = target.port === '' ? (secure ? 443 : 80) : Number(target.port);
  const servername = secure && !isIpLiteral(target.hostname) ? target.hostname : undefined;
  let last: unknown;
  for (const { address, family } of addresses) {
    try {
      return await connect({ address, family, port, secure, servername }, signal);
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      last = error;
    }
  }
  throw new TypeError(`cannot connect to ${target.host}`, { cause: last });
}

/** The default {@link Connector}: `node:net`, or `node:tls` with `servername`, to the address itself (no lookup). */
async function connectSocket(target: ConnectTarget, signal: AbortSignal): Promise<Duplex> {
  const { net, tls } = await loadModules();
  if (signal.aborted) throw signal.reason;
  return new Promise<Duplex>((resolve, reject) => {
    const socket = target.secure
      ? tls.connect({
          host: target.address,
          port: target.port,
          ALPNProtocols: ['http/1.1'],
          ...(target.servername !== undefined && { servername: target.servername }),
        })
      : net.connect({ host: target.address, port: target.port });
    const settle = (): void => {
      signal.removeEventListener('abort', onAbort);
      socket.off('error', onError);
    };
    const onAbort = (): void => {
      settle();
      socket.destroy();
      reject(signal.reason);
    };
    const onError = (error: Error): void => {
      settle();
      socket.destroy();
      reject(error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('error', onError);
    socket.once(target.secure ? 'secureConnect' : 'connect', () => {
      settle();
      resolve(socket);
    });
  });
}

/** Sends `request` over `socket` (one request, then the connection closes) and answers with its `Response`. */
async function exchange(
  socket: Duplex,
  target: URL,
  request: Request,
  body: Uint8Array | undefined,
  signal: AbortSignal,
): Promise<Response> {
  const { request: send, toWeb } = await loadModules();
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  headers.host = target.host;
  if (body !== undefined) headers['content-length'] = String(body.byteLength);
  return new Promise<Response>((resolve, reject) => {
    let answered = false;
    const onAbort = (): void => {
      outgoing.destroy(signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason)));
      if (!answered) reject(signal.reason);
    };
    const outgoing = send(
      {
        method: request.method,
        path: `${target.pathname}${target.search}`,
        headers,
        createConnection: () => socket,
      },
      (response) => {
        answered = true;
        response.once('close', () => signal.removeEventListener('abort', onAbort));
        const status = response.statusCode ?? 0;
        const responseHeaders = new Headers();
        const raw = response.rawHeaders;
        for (let i = 0; i + 1 < raw.length; i += 2) responseHeaders.append(raw[i] as string, raw[i + 1] as string);
        const empty = NULL_BODY.has(status) || request.method === 'HEAD';
        if (empty) response.resume();
        try {
          resolve(
            new Response(empty ? null : toWeb(response), {
              status,
              statusText: response.statusMessage ?? '',
              headers: responseHeaders,
            }),
          );
        } catch (error) {
          response.destroy();
          reject(new TypeError(`invalid response from ${target.host}`, { cause: error }));
        }
      },
    );
    outgoing.once('error', (error) => {
      signal.removeEventListener('abort', onAbort);
      if (answered) return;
      if (signal.aborted) reject(signal.reason);
      else reject(new TypeError(`request to ${target.host} failed: ${error.message}`, { cause: error }));
    });
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    outgoing.end(body);
  });
}
