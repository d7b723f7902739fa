/**
 * What `host.forUser(principal, options)` takes: the user's credentials per server, the
 * partition of the user's private cache entries, the user's approval and views; and the check
 * of both before anything is made.
 */
import type { AuthContext } from '../../cache/authContext.js';
import { InvalidArgumentError } from '../../errors/errors.js';
import type { AuthProvider } from '../../transport/http/auth.js';
import type { ApproveHook } from '../policy/approval.js';
import type { HostViewOptions } from '../policy/viewOptions.js';
import type { HostServerEntry } from '../servers/config.js';

/**
 * One user's credentials for one server. Giving any (or the entry's `perUser: true`) makes the
 * server the user's own in the scope: a client and connection of its own, made when the scope
 * connects and closed with it.
 */
export interface ScopeCredentials {
  /** Supplies the user's `Authorization` (an `http` or `sse` server): `createOAuthProvider`, a static token... */
  authProvider?: AuthProvider | undefined;
  /** Request headers of the user's connection, over the entry's, key by key (an `http`, `sse` or `ws` server). */
  headers?: Readonly<Record<string, string>> | undefined;
  /** Environment of the user's own server process, over the entry's `env`, key by key (a `stdio` server). */
  env?: Readonly<Record<string, string>> | undefined;
}

/** Options of `host.forUser(principal, options)`. */
export interface HostScopeOptions {
  /** The user's credentials, by server name (see {@link ScopeCredentials}). @default none */
  credentials?: Readonly<Record<string, ScopeCredentials>> | undefined;
  /**
   * The partition of the user's private cache entries, on the servers the scope shares with other
   * users and on its own (hashed before use: never in a key). @default the principal
   */
  authContext?: AuthContext | undefined;
  /**
   * Approves each tool call made through the scope, in place of the host's `approve` and the
   * entries' (every path of the scope passes it, shared servers included). @default the entry's, else the host's
   */
  approve?: ApproveHook | undefined;
  /** How long a call of the scope waits for its approval, in ms. @default the host's `approvalTimeoutMs` */
  approvalTimeoutMs?: number | undefined;
  /** The scope's own named views (`scope.view(name)`), over its catalog. @default none */
  views?: Readonly<Record<string, HostViewOptions>> | undefined;
}

/**
 * @throws InvalidArgumentError (-32602) for a principal that is not a non-empty string, a
 *   malformed option, or credentials for a server the host does not have or cannot give them to.
 */
export function checkScopeOptions(
  principal: unknown,
  options: HostScopeOptions,
  entryOf: (server: string) => HostServerEntry | undefined,
): asserts principal is string {
  if (typeof principal !== 'string' || principal === '')
    throw new InvalidArgumentError('principal', typeof principal, 'expected a non-empty string (a stable user id)');
  if (typeof options !== 'object' || options === null)
    throw new InvalidArgumentError('options', options, 'expected an options object');
  if (options.approve !== undefined && typeof options.approve !== 'function')
    throw new InvalidArgumentError('approve', options.approve, 'expected a function');
  for (const [server, given] of Object.entries(options.credentials ?? {})) {
    const entry = entryOf(server);
    const field = `credentials.${server}`;
    if (entry === undefined) throw new InvalidArgumentError(field, server, 'the host has no server by that name');
    if (typeof given !== 'object' || given === null)
      throw new InvalidArgumentError(field, typeof given, 'expected { authProvider?, headers?, env? }');
    const remote = entry.type === 'http' || entry.type === 'sse' || entry.type === 'ws';
    if (given.env !== undefined && entry.type !== 'stdio')
      throw new InvalidArgumentError(`${field}.env`, entry.type, 'env is for a stdio server');
    if (given.headers !== undefined && !remote)
      throw new InvalidArgumentError(`${field}.headers`, entry.type, 'headers are for an http, sse or ws server');
    if (given.authProvider !== undefined && entry.type !== 'http' && entry.type !== 'sse')
      throw new InvalidArgumentError(
        `${field}.authProvider`,
        entry.type,
        'an auth provider is for an http or sse server',
      );
  }
}

/**
 * The entry of a user's own client of `entry`: the user's credentials over the entry's (the
 * values never leave the entry: a credential reaches only the server it is given for).
 */
export function userEntry(entry: HostServerEntry, given: ScopeCredentials | undefined): HostServerEntry {
  if (given === undefined) return entry;
  switch (entry.type) {
    case 'stdio':
      return given.env === undefined ? entry : { ...entry, env: { ...entry.env, ...given.env } };
    case 'http':
    case 'sse':
    case 'ws':
      return {
        ...entry,
        ...(given.headers !== undefined && { headers: { ...entry.headers, ...given.headers } }),
        ...(given.authProvider !== undefined && { authProvider: given.authProvider }),
      };
    default:
      return entry;
  }
}
