/**
 * The debug log: wire traffic and the client's decisions (cache outcome, `input_required`
 * rounds, reconnects, era detection), redacted, to `console.debug` or a host's sink.
 * Runtime-neutral: the environment is read only through `globalThis.process?.env`.
 */
import { InvalidArgumentError } from '../errors/errors.js';
import { headOf } from '../util/text.js';

/** What a {@link DebugEntry} reports. */
export type DebugEntryType =
  /** A JSON-RPC message sent (`data.direction: "send"`) or received (`"receive"`). */
  | 'wire'
  /** A public call ended: `ok` or `failed`, with its duration. */
  | 'call'
  /** How the response cache answered a call: `hit`, `stale`, `miss` or `bypass`. */
  | 'cache'
  /** An `input_required` round: the answers are being sent. */
  | 'input-required'
  /** The era and protocol version `connect()` settled on. */
  | 'era'
  /** A request re-sent after its stream broke, or a new legacy HTTP session. */
  | 'reconnect'
  /** One HTTP exchange (from {@link debugFetch}). */
  | 'http';

/**
 * One debug log entry. Everything in it is redacted: values under credential-like keys
 * (`Authorization`, `Cookie`, `token`, `client_secret`, …) read `[redacted]`, as do bearer
 * tokens, URL user info and credential query parameters inside strings; strings longer than
 * 1024 characters are cut.
 */
export interface DebugEntry {
  type: DebugEntryType;
  /** One line for people, e.g. `→ {"jsonrpc":"2.0","id":3,"method":"tools/call",…}`. */
  message: string;
  /** Details for programs (for `wire`: `direction` and the redacted `message`). */
  data?: Readonly<Record<string, unknown>> | undefined;
}

/** Receives debug log entries. It must not throw (what it throws goes to `onError`). */
export type DebugSink = (entry: DebugEntry) => void;

/** `ClientOptions.debug`: `true` logs to `console.debug`, a function receives the entries, `false` is off. */
export type DebugOption = boolean | DebugSink;

/** The environment variable that turns the debug log on (`1` or `true`) when `debug` is not given. */
export const DEBUG_ENV_VAR = 'MCP_LIVE_DEBUG';

/** Longest string kept whole in a logged value, in characters. */
const MAX_STRING = 1024;
/** Longest `message` line, in characters. */
const MAX_LINE = 8192;
/** Most array items and object keys kept per level. */
const MAX_ITEMS = 100;
const MAX_DEPTH = 12;
const REDACTED = '[redacted]';

/** Keys whose values are credentials, compared case-insensitively with `-` and `_` ignored. */
const SECRET_KEYS: ReadonlySet<string> = new Set([
  'authorization',
  'proxyauthorization',
  'cookie',
  'setcookie',
  'xapikey',
  'apikey',
  'token',
  'accesstoken',
  'refreshtoken',
  'idtoken',
  'bearer',
  'clientsecret',
  'secret',
  'password',
  'passwd',
  'privatekey',
  'codeverifier',
  'assertion',
  'clientassertion',
  'subjecttoken',
  'actortoken',
  'dpop',
]);

/** True when a header, parameter or property named `key` holds a credential. */
export function isSecretKey(key: string): boolean {
  return SECRET_KEYS.has(key.toLowerCase().replace(/[-_]/g, ''));
}

/** A credential after an auth scheme; a challenge's `error="…"` or `realm="…"` is left alone. */
const BEARER = /\b(Bearer|Basic|DPoP)\s+(?![A-Za-z0-9_-]+=")[A-Za-z0-9._~+/-]+=*/gi;
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^/\s@]+@/gi;
/** `name=value` for credential names: query parameters (`key`, `code`, `sig` only there) and loose text. */
const SECRET_QUERY =
  /((?:[?&](?:key|code|sig|signature)|\b(?:access_token|refresh_token|id_token|token|api_key|apikey|client_secret|password))=)[^&#\s"',;]+/gi;
const SECRET_FLAG = /(--?(?:token|api[-_]?key|secret|password|client[-_]?secret|auth)(?:=|\s+))(\S+)/gi;

/** `text` with bearer tokens, URL user info, credential query values and `--token x` style arguments replaced. */
export function redactText(text: string): string {
  return text
    .replace(BEARER, `$1 ${REDACTED}`)
    .replace(URL_USERINFO, `$1${REDACTED}@`)
    .replace(SECRET_QUERY, `$1${REDACTED}`)
    .replace(SECRET_FLAG, `$1${REDACTED}`);
}

/**
 * A copy of `value` fit for a log: credential-like keys redacted, strings redacted and cut at
 * 1024 characters, at most 100 items per array or object and 12 levels.
 */
export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') {
    const text = value.length > MAX_STRING ? `${headOf(value, MAX_STRING)}…(${value.length} chars)` : value;
    return redactText(text);
  }
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_DEPTH) return '[…]';
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map((item) => redact(item, depth + 1));
    if (value.length > MAX_ITEMS) items.push(`…(${value.length} items)`);
    return items;
  }
  const out: Record<string, unknown> = {};
  let kept = 0;
  for (const [key, item] of Object.entries(value)) {
    if (kept++ === MAX_ITEMS) {
      out['…'] = `(${Object.keys(value).length} keys)`;
      break;
    }
    out[key] = isSecretKey(key) && item !== undefined && item !== null ? REDACTED : redact(item, depth + 1);
  }
  return out;
}

/** `value` as one JSON line for a log message, cut at 8 KiB. */
export function logLine(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > MAX_LINE ? `${headOf(text, MAX_LINE)}…(${text.length} chars)` : text;
}

/** The default sink: `console.debug("[mcp-live] " + message)`. */
export function consoleDebugSink(entry: DebugEntry): void {
  console.debug(`[mcp-live] ${entry.message}`);
}

/**
 * True when the environment variable {@link DEBUG_ENV_VAR} is `1` or `true`: in `env` when given,
 * else in `process.env` (Node and alike; false where there is none).
 */
export function debugFromEnvironment(env?: Readonly<Record<string, string | undefined>>): boolean {
  let value: string | undefined;
  try {
    value = (env ?? (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env)?.[
      DEBUG_ENV_VAR
    ];
  } catch {
    return false; // an environment that forbids reading it
  }
  return value === '1' || value?.toLowerCase() === 'true';
}

/**
 * The sink for `ClientOptions.debug`, or `undefined` when the log is off. Unset means on
 * (to `console.debug`) only when {@link DEBUG_ENV_VAR} says so. The sink never throws: what
 * the host's sink throws goes to `onError`.
 * @throws InvalidArgumentError (-32602) when `option` is neither a boolean nor a function.
 */
export function resolveDebug(option: DebugOption | undefined, onError: (error: Error) => void): DebugSink | undefined {
  if (option !== undefined && typeof option !== 'boolean' && typeof option !== 'function') {
    throw new InvalidArgumentError('debug', option, 'expected true, false or a function receiving DebugEntry objects');
  }
  const chosen = option ?? debugFromEnvironment();
  if (chosen === false) return undefined;
  const sink = chosen === true ? consoleDebugSink : chosen;
  return (entry) => {
    try {
      sink(entry);
    } catch (error) {
      onError(error instanceof Error ? error : new Error(String(error)));
    }
  };
}
