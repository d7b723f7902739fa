/**
 * Host configuration as desktop hosts already write it, and the entries `McpHost` runs.
 *
 * Two file shapes are read: `{ "mcpServers": { name: {...} } }` (Claude Desktop, Cursor, Claude
 * Code's `.mcp.json`) and `{ "servers": { name: { "type": ... } } }` (VS Code's `mcp.json`).
 * Pure and runtime-neutral: the environment used for `${VAR}` expansion is passed in.
 */
import type { Transport } from '../../transport/transport.js';
import type { AuthProvider } from '../../transport/http/auth.js';
import type { ClientOptions } from '../../client/options.js';
import type { Implementation } from '../../wire/protocol.js';
import { HostConfigError } from '../catalog/errors.js';
import type { ContextBudgetServerOptions } from '../contextBudget/options.js';
import type { ApproveHook } from '../policy/approval.js';
import type { ToolFilter } from '../catalog/catalog.js';
import type { ToolOverrides } from '../catalog/overrides.js';
import { parsePolicyFields, parseViews } from '../policy/policyConfig.js';
import type { HostViewOptions } from '../policy/viewOptions.js';
import { parseEventsSection } from '../events/eventsConfig.js';
import type { DeclaredEventSubscription } from '../events/hostEvents.js';

/** A server run as a child process speaking newline-delimited JSON-RPC (spec: basic/transports, stdio). */
export interface StdioServerLocation {
  type: 'stdio';
  /** The program, looked up on `PATH` as a shell would. */
  command: string;
  args?: readonly string[] | undefined;
  /** Extra environment variables; they win over the safe defaults the child inherits. */
  env?: Readonly<Record<string, string>> | undefined;
  /** Working directory of the child. @default the host's */
  cwd?: string | undefined;
}

/**
 * A server reached over the network: `http` is Streamable HTTP (with the 2025-11-25 fallbacks,
 * HTTP+SSE included), `sse` the deprecated HTTP+SSE transport of 2024-11-05 alone, `ws` WebSocket.
 */
export interface RemoteServerLocation {
  type: 'http' | 'sse' | 'ws';
  /** `http(s)://` (or `ws(s)://` for `ws`). */
  url: string;
  /** Extra request headers (an API key...). */
  headers?: Readonly<Record<string, string>> | undefined;
}

/** A server behind a transport the host program makes itself (in-memory servers, tests, custom wires). */
export interface CustomServerLocation {
  type: 'custom';
  /** Makes the transport of one connection. */
  transport: () => Transport;
}

/** Where a server is: the transport part of a host entry. */
export type ServerLocation = StdioServerLocation | RemoteServerLocation | CustomServerLocation;

/**
 * Options of every client the host makes: {@link ClientOptions} less the transport (the entry
 * says where the server is). `clientInfo` defaults to the host's.
 */
export type HostClientOptions = Omit<ClientOptions, 'transport' | 'clientInfo'> & {
  clientInfo?: Implementation | undefined;
};

/** What a host program sets per server, beyond where it is (the context budget's options among them). */
export interface HostServerOptions extends ContextBudgetServerOptions {
  /** Client options of this server, over the host's `client` defaults (timeouts, handlers, era...). */
  client?: HostClientOptions | undefined;
  /** Which tools to expose. @default all */
  tools?: ToolFilter | undefined;
  /**
   * The prefix of this server's exposed tool and prompt names (`<prefix>__<tool>`); `""` for
   * none. @default the server's name
   */
  prefix?: string | undefined;
  /** Supplies `Authorization` for an `http` or `sse` server (OAuth: `createOAuthProvider`). */
  authProvider?: AuthProvider | undefined;
  /**
   * Whether approval presets may act on this server's tool annotations. Annotations of a server
   * that is not trusted are hints, never permissions: its tools count as destructive. @default false
   */
  trusted?: boolean | undefined;
  /** How its tools are presented to models (rename, re-describe, defaults, hidden arguments), by original name. */
  overrides?: ToolOverrides | undefined;
  /** Approves each call of this server's tools, instead of the host's `approve`. @default the host's */
  approve?: ApproveHook | undefined;
  /**
   * `true`: the server serves each user with the user's own credentials, so the host never
   * connects it itself (it stays `new` in `host.servers`): each user scope (`host.forUser`)
   * connects it with the credentials it was given, on a client of its own (docs/fleet.md).
   * @default false (the host's one client, shared by every scope that gives no credentials for it)
   */
  perUser?: boolean | undefined;
}

/** One server of a host: where it is, and how the host treats it. */
export type HostServerEntry = ServerLocation & HostServerOptions;

const CONFIG_BRAND = Symbol.for('mcp-live.hostConfig');

/** A configuration file, read: the entries to run, the disabled ones, and the bad ones. */
export interface HostConfig {
  /** Which shape the file had. */
  readonly format: 'mcpServers' | 'servers';
  /** Every server name of the file, in file order (enabled, disabled and malformed alike). */
  readonly names: readonly string[];
  /** Every enabled entry that is well-formed, by server name, in file order. */
  readonly servers: Readonly<Record<string, HostServerEntry>>;
  /** Entries with `"disabled": true`, in file order. */
  readonly disabled: readonly string[];
  /** One error per malformed entry (each names its server and field), in file order; then malformed views. */
  readonly errors: readonly HostConfigError[];
  /** The file's named views (`"views": { name: { servers?, tools? } }`), the well-formed ones. */
  readonly views: Readonly<Record<string, HostViewOptions>>;
  /**
   * The file's `events` section, the well-formed entries: the subscriptions `host.events().start()`
   * makes (docs/events.md#in-a-host). A malformed entry is in `errors` (field `events[i]…`).
   */
  readonly events: readonly DeclaredEventSubscription[];
}

/** Options of {@link parseHostConfig}. */
export interface ParseHostConfigOptions {
  /**
   * Variables for `${VAR}`, `${VAR:-default}` and `${env:VAR}` in `command`, `args`, `env`,
   * `cwd`, `url` and `headers`. @default {} (loadHostConfig in mcp-live/node passes `process.env`)
   */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Throw the first malformed entry's error instead of leaving that server out. @default false */
  strict?: boolean | undefined;
}

/** True for what {@link parseHostConfig} returns (as opposed to the raw JSON of a file). */
export function isHostConfig(value: unknown): value is HostConfig {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[CONFIG_BRAND] === true;
}

/**
 * Reads a parsed configuration file. Each entry under `mcpServers` (or VS Code's `servers`) is
 * `command`/`args`/`env`/`cwd` for a stdio server, or `url`/`headers` with `type` `http`
 * (also `streamable-http`, `streamableHttp`), `sse` or `ws` for a remote one; without `type`, a
 * `command` means stdio and a `url` means `http` (`ws` for a `ws(s)://` URL). `disabled: true`
 * leaves an entry out. Unknown fields are ignored. `${VAR}` and `${VAR:-default}` (also
 * `${env:VAR}`) are expanded from `options.env`; `:-` uses the default when the variable is unset
 * or empty, and an unset variable without a default is an error. A `$` not followed by `{` is
 * kept as is.
 *
 * @throws HostConfigError (-33050) when the file is not an object with an `mcpServers` or
 *   `servers` object; in strict mode, also for the first malformed entry. Otherwise a malformed
 *   entry is reported in `errors` and the other entries are still returned.
 */
export function parseHostConfig(json: unknown, options: ParseHostConfigOptions = {}): HostConfig {
  const env = options.env ?? {};
  if (!isPlainObject(json))
    throw new HostConfigError({ server: undefined, field: '(file)', reason: 'expected a JSON object' });
  const hasMcp = Object.hasOwn(json, 'mcpServers');
  const hasVsCode = Object.hasOwn(json, 'servers');
  if (hasMcp && hasVsCode)
    throw new HostConfigError({
      server: undefined,
      field: '(file)',
      reason: 'has both "mcpServers" and "servers"; keep one',
    });
  if (!hasMcp && !hasVsCode)
    throw new HostConfigError({
      server: undefined,
      field: '(file)',
      reason: 'expected "mcpServers" (Claude Desktop, Cursor, .mcp.json) or "servers" (VS Code mcp.json)',
    });
  const format = hasMcp ? 'mcpServers' : 'servers';
  const entries = json[format];
  if (!isPlainObject(entries))
    throw new HostConfigError({ server: undefined, field: format, reason: 'expected an object of servers by name' });

  const servers: Record<string, HostServerEntry> = {};
  const disabled: string[] = [];
  const errors: HostConfigError[] = [];
  const names = Object.keys(entries);
  for (const [name, raw] of Object.entries(entries)) {
    try {
      if (name === '') throw new HostConfigError({ server: name, field: '(name)', reason: 'a server needs a name' });
      const entry = parseEntry(name, raw, env);
      if (entry === 'disabled') disabled.push(name);
      else defineEntry(servers, name, entry);
    } catch (error) {
      if (!(error instanceof HostConfigError)) throw error;
      if (options.strict === true) throw error;
      errors.push(error);
    }
  }
  const read = parseViews(json['views']);
  if (options.strict === true && read.errors[0] !== undefined) throw read.errors[0];
  errors.push(...read.errors);
  const declared = parseEventsSection(json['events']);
  if (options.strict === true && declared.errors[0] !== undefined) throw declared.errors[0];
  errors.push(...declared.errors);
  const config = { format, names, servers, disabled, errors, views: read.views, events: declared.events } as HostConfig;
  Object.defineProperty(config, CONFIG_BRAND, { value: true });
  return Object.freeze(config);
}

/** The `type` values a file may hold. */
type FileServerType = Exclude<ServerLocation['type'], 'custom'>;

const TYPE_ALIASES: Readonly<Record<string, FileServerType>> = {
  stdio: 'stdio',
  http: 'http',
  'streamable-http': 'http',
  streamableHttp: 'http',
  sse: 'sse',
  ws: 'ws',
  websocket: 'ws',
};

function parseEntry(
  server: string,
  raw: unknown,
  env: Readonly<Record<string, string | undefined>>,
): HostServerEntry | 'disabled' {
  const location = parseLocation(server, raw, env);
  if (location === 'disabled') return location;
  return { ...location, ...parsePolicyFields(server, raw as Record<string, unknown>) };
}

function parseLocation(
  server: string,
  raw: unknown,
  env: Readonly<Record<string, string | undefined>>,
): HostServerEntry | 'disabled' {
  const fail = (field: string, reason: string, value?: unknown): never => {
    throw new HostConfigError({ server, field, reason, ...(value !== undefined && { value }) });
  };
  if (!isPlainObject(raw)) return fail('(entry)', 'expected an object');
  if (raw['disabled'] !== undefined && typeof raw['disabled'] !== 'boolean')
    fail('disabled', 'expected true or false', raw['disabled']);
  if (raw['disabled'] === true) return 'disabled';

  /** `show`: what of a value may appear in an error: `false` for nothing (it may be a secret). */
  type Show = boolean | ((value: string) => string);
  const shown = (value: unknown, show: Show): unknown =>
    show === false ? undefined : typeof show === 'function' && typeof value === 'string' ? show(value) : value;
  const text = (field: string, value: unknown, show: Show): string => {
    if (typeof value !== 'string') return fail(field, 'expected a string', shown(value, show));
    return expandVariables(value, env, (reason) => fail(field, reason, shown(value, show)));
  };
  const stringMap = (field: 'env' | 'headers'): Record<string, string> | undefined => {
    const value = raw[field];
    if (value === undefined) return undefined;
    if (!isPlainObject(value)) return fail(field, 'expected an object of strings');
    const out: Record<string, string> = {};
    for (const [key, item] of Object.entries(value)) defineEntry(out, key, text(`${field}.${key}`, item, false));
    return out;
  };

  let type: FileServerType | undefined;
  if (raw['type'] !== undefined) {
    type =
      typeof raw['type'] === 'string' && Object.hasOwn(TYPE_ALIASES, raw['type'])
        ? TYPE_ALIASES[raw['type']]
        : undefined;
    if (type === undefined) fail('type', 'expected "stdio", "http", "sse" or "ws"', raw['type']);
  }
  const hasCommand = raw['command'] !== undefined;
  const hasUrl = raw['url'] !== undefined;
  if (type === undefined) {
    if (hasCommand && hasUrl) fail('(entry)', 'has both "command" and "url"; a server is one or the other');
    if (!hasCommand && !hasUrl) fail('(entry)', 'needs a "command" (stdio) or a "url" (remote server)');
    type = hasCommand ? 'stdio' : undefined;
  }

  if (type === 'stdio') {
    if (hasUrl) fail('url', 'is for a remote server; this one is stdio');
    if (!hasCommand) fail('command', 'a stdio server needs a command');
    const command = text('command', raw['command'], true);
    if (command.trim() === '') fail('command', 'is empty', command);
    let args: string[] | undefined;
    if (raw['args'] !== undefined) {
      if (!Array.isArray(raw['args'])) fail('args', 'expected an array of strings', raw['args']);
      args = (raw['args'] as unknown[]).map((arg, i) => text(`args[${i}]`, arg, false));
    }
    const vars = stringMap('env');
    const cwd = raw['cwd'] === undefined ? undefined : text('cwd', raw['cwd'], true);
    return {
      type,
      command,
      ...(args !== undefined && { args }),
      ...(vars !== undefined && { env: vars }),
      ...(cwd !== undefined && { cwd }),
    };
  }

  if (hasCommand) fail('command', `is for a stdio server; this one is ${type ?? 'remote'}`);
  if (!hasUrl) fail('url', 'a remote server needs a url');
  const url = text('url', raw['url'], redactUrl);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return fail('url', 'is not an absolute URL', redactUrl(url));
  }
  const scheme = parsed.protocol;
  const web = scheme === 'http:' || scheme === 'https:';
  const socket = scheme === 'ws:' || scheme === 'wss:';
  if (type === undefined) type = socket ? 'ws' : 'http';
  if (type === 'ws' ? !(web || socket) : !web)
    fail('url', `expected ${type === 'ws' ? 'ws(s):// or http(s)://' : 'http(s)://'} for type ${type}`, redactUrl(url));
  const headers = stringMap('headers');
  return { type, url, ...(headers !== undefined && { headers }) };
}

const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** VS Code's predefined variables, named in the error when one is not in the environment. */
const VS_CODE_VARIABLES = new Set(['workspaceFolder', 'workspaceFolderBasename', 'userHome', 'pathSeparator', 'cwd']);

/**
 * Expands `${VAR}`, `${VAR:-default}` and `${env:VAR}` in `value` from `env`. Pure.
 * @param fail called with the reason for an unset variable, an unsupported form
 *   (`${input:...}`, `${workspaceFolder}`...) or an unterminated `${`; it must throw.
 */
export function expandVariables(
  value: string,
  env: Readonly<Record<string, string | undefined>>,
  fail: (reason: string) => never,
): string {
  if (!value.includes('${')) return value;
  let out = '';
  let at = 0;
  for (;;) {
    const start = value.indexOf('${', at);
    if (start < 0) return out + value.slice(at);
    const end = value.indexOf('}', start + 2);
    if (end < 0) fail(`"\${" without a closing "}" at offset ${start}`);
    out += value.slice(at, start);
    const body = value.slice(start + 2, end);
    const split = body.indexOf(':-');
    let name = split < 0 ? body : body.slice(0, split);
    if (name.startsWith('env:')) name = name.slice(4);
    if (!VARIABLE.test(name))
      fail(`\${${body}} is not an environment variable (\${NAME}, \${NAME:-default} or \${env:NAME})`);
    const set = Object.hasOwn(env, name) ? env[name] : undefined;
    if (split >= 0) out += set === undefined || set === '' ? body.slice(split + 2) : set;
    else if (set === undefined)
      fail(
        VS_CODE_VARIABLES.has(name)
          ? `\${${name}} is a VS Code variable; only environment variables are expanded here`
          : `\${${name}} is not set (use \${${name}:-default} for a default)`,
      );
    else out += set;
    at = end + 1;
  }
}

/** A URL without its userinfo and query, for error data (either may carry a credential). */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return url.replace(/\/\/[^/@]*@/, '//').replace(/[?#].*$/, '');
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Sets `target[key]` as an own data property (a key such as `__proto__` stays a plain key). */
function defineEntry<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
