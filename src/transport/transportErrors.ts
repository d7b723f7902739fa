/**
 * Errors of the network transports (Streamable HTTP, WebSocket). All are local errors
 * (`local: true`) with codes in the JSON-RPC implementation-defined range, next to the codes in
 * `ErrorCode`. Runtime-neutral.
 */
import { LocalError, McpError } from '../errors/errors.js';
import { ErrorCode } from '../errors/codes.js';
import type { JsonRpcErrorObject, RequestId } from '../wire/messages.js';
import type { AuthChallenge, BearerChallenge, HttpAuthFailure } from './http/auth.js';
import { headOf, shorten } from '../util/text.js';

/** Local codes of the transport errors. */
export const TransportErrorCode = {
  /** {@link HttpError}: an HTTP status, content type or body the transport cannot use. */
  Http: ErrorCode.Http,
  /** {@link HttpAuthError}: HTTP 401 or 403. */
  HttpAuth: ErrorCode.HttpAuth,
  /** {@link StreamBrokenError}: the exchange ended before the response; outcome unknown. */
  StreamBroken: ErrorCode.StreamBroken,
  /** {@link WebSocketCloseError}: the WebSocket closed (code in `data.code`). */
  WebSocketClosed: ErrorCode.WebSocketClosed,
} as const;

/** Longest body excerpt kept in {@link HttpErrorData.bodyExcerpt}, in characters. */
export const BODY_EXCERPT_CHARS = 200;

/** `data` of an {@link HttpError}. */
export interface HttpErrorData {
  /** HTTP status code; 0 when the runtime hid it (an opaque redirect in a browser). */
  status: number;
  /** JSON-RPC method of the message that was sent. */
  method: string;
  /** The endpoint, without credentials or query (the transport's `serverIdentity`). */
  url: string;
  /** `Content-Type` of the response, as sent; `undefined` when absent. */
  contentType: string | undefined;
  /** Start of the response body, whitespace collapsed, at most 200 characters; `""` if empty. */
  bodyExcerpt: string;
  /** What was wrong: the status, the content type, or the body. */
  problem: 'status' | 'content-type' | 'empty-body' | 'redirect';
  /** Delay the server asked for with `Retry-After`, in ms (429/503). */
  retryAfterMs?: number | undefined;
  /** `Location` of a redirect the transport did not follow. */
  location?: string | undefined;
  /** The JSON-RPC error the body carried, when it carried one. */
  rpcError?: JsonRpcErrorObject | undefined;
}

/**
 * An HTTP exchange failed in a way JSON-RPC cannot express (code -33010): a status other than
 * 2xx without a usable JSON-RPC error body (HTML error pages, 405, 500, 502-504 after retries),
 * a 2xx with a content type other than `application/json` or `text/event-stream`, an empty
 * body where a response was due, or a redirect other than a same-origin 307/308.
 * `data` is {@link HttpErrorData}.
 */
export class HttpError extends LocalError {
  override name = 'HttpError';
  declare readonly data: HttpErrorData;

  constructor(data: HttpErrorData, options: { code?: number; message?: string; cause?: unknown } = {}) {
    super(options.code ?? TransportErrorCode.Http, options.message ?? httpMessage(data), {
      data,
      cause: options.cause,
    });
  }

  /** The HTTP status. */
  get status(): number {
    return this.data.status;
  }
}

/** `data` of an {@link HttpAuthError}. */
export interface HttpAuthErrorData extends HttpErrorData {
  /** `unauthorized` (401), `insufficient_scope` (403 with that Bearer error), `forbidden` (other 403). */
  failure: HttpAuthFailure;
  /** Every challenge of the `WWW-Authenticate` header, parsed (RFC 9110 §11.6.1). */
  challenges: AuthChallenge[];
  /** The parameters of the first Bearer challenge, if any. */
  bearer: BearerChallenge | undefined;
  /** Whether the transport's `authProvider` was asked for a new credential and retried once. */
  retriedWithNewCredential: boolean;
}

/**
 * The server refused the credential (HTTP 401) or the permission (HTTP 403), code -33011.
 * `data` is {@link HttpAuthErrorData}: the parsed `WWW-Authenticate` challenges and the Bearer
 * parameters (`resourceMetadata`, `scope`, `error`, `errorDescription`) that drive an OAuth
 * flow or a scope step-up. The message never claims the token expired: the server said only
 * what `error` says.
 */
export class HttpAuthError extends HttpError {
  override name = 'HttpAuthError';
  declare readonly data: HttpAuthErrorData;

  constructor(data: HttpAuthErrorData, cause?: unknown) {
    super(data, { code: TransportErrorCode.HttpAuth, message: authMessage(data), cause });
  }

  /** `resource_metadata` of the Bearer challenge (RFC 9728). */
  get resourceMetadata(): string | undefined {
    return this.data.bearer?.resourceMetadata;
  }

  /** `scope` of the Bearer challenge, split on spaces; empty when absent. */
  get requiredScopes(): string[] {
    return (this.data.bearer?.scope ?? '').split(' ').filter((s) => s !== '');
  }
}

/** `data` of a {@link StreamBrokenError}. */
export interface StreamBrokenErrorData {
  /** JSON-RPC method of the request. */
  method: string;
  /** Its JSON-RPC id. */
  requestId: RequestId;
  /**
   * `before-response`: the connection failed after the request may have been sent and before
   * any response headers; `mid-stream`: a 2xx response began (usually an SSE stream) and ended
   * or failed before carrying the JSON-RPC response.
   */
  phase: 'before-response' | 'mid-stream';
  /** What happened, e.g. `"the response stream ended before the response"`. */
  reason: string;
  /** SSE events received on the stream before it broke (progress, logs...). */
  eventsReceived: number;
  /** Always `"unknown"`: the server may or may not have carried out the request. */
  outcome: 'unknown';
}

/**
 * The request was sent, and its exchange ended without a response (code -33012): the
 * connection was reset, or the response stream closed or failed before the JSON-RPC response.
 * The server may or may not have run the request. The spec asks the client to re-issue such a
 * request as a new request (new id); the session does that for requests that may safely run
 * twice and otherwise rejects with this error. `data` is {@link StreamBrokenErrorData};
 * `cause` is the network error, if any.
 */
export class StreamBrokenError extends LocalError {
  override name = 'StreamBrokenError';
  declare readonly data: StreamBrokenErrorData;

  constructor(data: StreamBrokenErrorData, cause?: unknown) {
    super(
      TransportErrorCode.StreamBroken,
      `${data.method}: ${data.reason}; the outcome is unknown (the server may or may not have run it)`,
      { data, cause },
    );
  }
}

/** Names of WebSocket close codes (RFC 6455 §7.4.1 and the IANA registry). */
export type WebSocketCloseKind =
  | 'normal'
  | 'going-away'
  | 'protocol-error'
  | 'unsupported-data'
  | 'no-status'
  | 'abnormal'
  | 'invalid-payload'
  | 'policy-violation'
  | 'message-too-big'
  | 'mandatory-extension'
  | 'internal-error'
  | 'service-restart'
  | 'try-again-later'
  | 'bad-gateway'
  | 'tls-handshake'
  | 'application'
  | 'unknown';

/** `data` of a {@link WebSocketCloseError}. */
export interface WebSocketCloseErrorData {
  /** The close code: from the peer's Close frame, 1005 when it had none, 1006 when the connection dropped without one. */
  code: number;
  /** The close reason from the Close frame, or a local description for 1006. */
  reason: string;
  /** The name of `code`. */
  kind: WebSocketCloseKind;
  /** True for a code reported locally (1006 after a heartbeat timeout or a dropped socket). */
  local: boolean;
  /** Whether a new connection may succeed (1001, 1006, 1011-1014: the server went away or was overloaded). */
  retryable: boolean;
}

/**
 * The WebSocket closed without the client asking (code -33013). It is the `cause` of the
 * `ConnectionClosedError` every pending request gets; `data` is {@link WebSocketCloseErrorData}.
 */
export class WebSocketCloseError extends LocalError {
  override name = 'WebSocketCloseError';
  declare readonly data: WebSocketCloseErrorData;

  constructor(code: number, reason: string, local: boolean) {
    const kind = webSocketCloseKind(code);
    super(
      TransportErrorCode.WebSocketClosed,
      `WebSocket closed: ${code} ${kind}${reason === '' ? '' : ` (${reason})`}`,
      {
        data: { code, reason, kind, local, retryable: RETRYABLE_CLOSE_CODES.has(code) },
      },
    );
  }
}

const CLOSE_KINDS: ReadonlyMap<number, WebSocketCloseKind> = new Map([
  [1000, 'normal'],
  [1001, 'going-away'],
  [1002, 'protocol-error'],
  [1003, 'unsupported-data'],
  [1005, 'no-status'],
  [1006, 'abnormal'],
  [1007, 'invalid-payload'],
  [1008, 'policy-violation'],
  [1009, 'message-too-big'],
  [1010, 'mandatory-extension'],
  [1011, 'internal-error'],
  [1012, 'service-restart'],
  [1013, 'try-again-later'],
  [1014, 'bad-gateway'],
  [1015, 'tls-handshake'],
]);
const RETRYABLE_CLOSE_CODES: ReadonlySet<number> = new Set([1001, 1006, 1011, 1012, 1013, 1014]);

/** The name of a WebSocket close code; 3000-4999 are `application`. */
export function webSocketCloseKind(code: number): WebSocketCloseKind {
  return CLOSE_KINDS.get(code) ?? (code >= 3000 && code <= 4999 ? 'application' : 'unknown');
}

/** True for an {@link HttpError} (including {@link HttpAuthError}), whichever package copy made it. */
export function isHttpError(value: unknown): value is HttpError {
  return (
    McpError.is(value) &&
    value.local &&
    (value.code === TransportErrorCode.Http || value.code === TransportErrorCode.HttpAuth)
  );
}

/** True for an {@link HttpAuthError}, whichever package copy made it. */
export function isHttpAuthError(value: unknown): value is HttpAuthError {
  return McpError.is(value) && value.local && value.code === TransportErrorCode.HttpAuth;
}

/** True for a {@link StreamBrokenError}, whichever package copy made it. */
export function isStreamBrokenError(value: unknown): value is StreamBrokenError {
  return McpError.is(value) && value.local && value.code === TransportErrorCode.StreamBroken;
}

/** True for a {@link WebSocketCloseError}, whichever package copy made it. */
export function isWebSocketCloseError(value: unknown): value is WebSocketCloseError {
  return McpError.is(value) && value.local && value.code === TransportErrorCode.WebSocketClosed;
}

/** Collapses whitespace and cuts `text` to {@link BODY_EXCERPT_CHARS} characters. */
export function bodyExcerpt(text: string): string {
  const collapsed = text.replace(/\s+/g, ' ').trim();
  return shorten(collapsed, BODY_EXCERPT_CHARS);
}

function httpMessage(data: HttpErrorData): string {
  const type = data.contentType === undefined ? 'no content type' : data.contentType;
  const excerpt = data.bodyExcerpt === '' ? '' : `: ${headOf(data.bodyExcerpt, 80)}`;
  switch (data.problem) {
    case 'content-type':
      return `${data.method}: HTTP ${data.status} with unexpected content type (${type})${excerpt}`;
    case 'empty-body':
      return `${data.method}: HTTP ${data.status} with an empty body where a JSON-RPC response was due`;
    case 'redirect':
      return `${data.method}: HTTP ${data.status} redirect${data.location === undefined ? '' : ` to ${data.location}`} not followed`;
    default:
      return `${data.method}: HTTP ${data.status} (${type})${data.rpcError === undefined ? excerpt : `: ${data.rpcError.message}`}`;
  }
}

function authMessage(data: HttpAuthErrorData): string {
  const scope = data.bearer?.scope === undefined ? '' : `; required scope: ${data.bearer.scope}`;
  const description = data.bearer?.errorDescription === undefined ? '' : ` (${data.bearer.errorDescription})`;
  switch (data.failure) {
    case 'insufficient_scope':
      return `${data.method}: HTTP 403: the credential lacks a required scope${scope}${description}`;
    case 'forbidden':
      return `${data.method}: HTTP 403: forbidden${description}`;
    default: {
      const error = data.bearer?.error === undefined ? '' : ` (${data.bearer.error})`;
      return `${data.method}: HTTP 401: the server did not accept the credential${error}${description}`;
    }
  }
}
