/**
 * What `new McpHost(options)` and `McpHost.fromConfig` take, the events a host emits, and the
 * checks of both that run before anything starts.
 */
import type { CacheStore } from '../../cache/cacheStore.js';
import type { HostStateStore } from '../state/stateStore.js';
import type { AppsOptions } from '../../client/options.js';
import type { CompleterOptions } from '../../completion/completer.js';
import { InvalidArgumentError } from '../../errors/errors.js';
import type { ClientEvent } from '../../reconnect/types.js';
import type { LivePollReason } from '../../subscriptions/types.js';
import type { Implementation } from '../../wire/protocol.js';
import type { CatalogKind } from '../catalog/catalog.js';
import type { HostRoutingError } from '../catalog/errors.js';
import {
  isHostConfig,
  parseHostConfig,
  type HostClientOptions,
  type HostConfig,
  type HostServerEntry,
  type HostServerOptions,
  type ParseHostConfigOptions,
} from './config.js';
import type { ContextBudgetOptions } from '../contextBudget/options.js';
import { DEFAULT_NAME_SEPARATOR, type ExposedNameCollision, type PrefixMode } from '../catalog/exposedNames.js';
import type { HostSkill } from '../skills/hostSkills.js';
import type { ApproveHook } from '../policy/approval.js';
import { assertOverrides } from '../catalog/overrides.js';
import type { HostViewOptions } from '../policy/viewOptions.js';
import type { HostServerState } from './serverSlot.js';
import type { HostSkillsOptions } from '../skills/skillsFront.js';
import type { SlashCommand, SlashCommandOptions } from '../userInput/slashCommands.js';
import type { CreateTransport } from './transports.js';

/** Options of `new McpHost(options)`. */
export interface McpHostOptions {
  /** This host's name and version, sent to every server (an entry's `client.clientInfo` wins). */
  clientInfo: Implementation;
  /** The servers, by name, in the order the catalog lists them. @default none (add them with `add`) */
  servers?: Readonly<Record<string, HostServerEntry>> | undefined;
  /** Client options every server gets; an entry's `client` options win, key by key. @default {} */
  client?: HostClientOptions | undefined;
  /**
   * The MCP Apps extension for every server (docs/apps.md): the `apps` client option's default
   * (`client.apps` and an entry's `client.apps` win, so one server can opt in or out).
   * @default off
   */
  apps?: AppsOptions | boolean | undefined;
  /**
   * Makes the transport of a stdio or remote entry. @default `fetchTransport` (runtime-neutral:
   * no stdio) for the `McpHost` of `mcp-live`; `nodeTransport` (stdio, `node:http`, `ws`) for
   * the `McpHost` of `mcp-live/node`
   */
  createTransport?: CreateTransport | undefined;
  /**
   * The one cache store of every server's response cache; keys carry each server's identity, so
   * entries never mix (see docs/host.md). `false`: no cache. An entry's `client.cache: false`
   * turns its cache off. @default a new `MemoryCacheStore` (5000 entries / 50 MiB)
   */
  cacheStore?: CacheStore | false | undefined;
  /**
   * Where artifacts are kept besides this process, so a turn that goes on on another worker reads
   * them back (`read_artifact`, `artifacts.fetch`): `RedisHostStateStore` of `mcp-live/redis`
   * for a fleet, keyed by each user scope's partition (docs/fleet.md). A store that fails is
   * reported to `onError` (`HostStateError` -33063 with `data.lost`) and the host keeps serving
   * from memory. For approvals any worker can answer, see `storedApproval`. @default none (this process only)
   */
  state?: HostStateStore | undefined;
  /** When tool and prompt names get their server's prefix. @default "always" */
  prefixMode?: PrefixMode | undefined;
  /** Between prefix and name; letters, digits, `_` and `-` only. @default "__" */
  separator?: string | undefined;
  /** Skills (SEP-2640): which servers' skills are trusted, and the built-in tools' result size. @default {} */
  skills?: HostSkillsOptions | undefined;
  /**
   * Tool search with deferred definitions, and bounded tool results (docs/host.md, "The
   * context budget"). @default { defer: 'auto', deferThresholdTokens: 20000, maxResultTokens: 25000 }
   */
  contextBudget?: ContextBudgetOptions | undefined;
  /** Prompts as slash commands: the reserved server names (docs/host.md). @default { reservedServers: ["anthropic-skills"] } */
  slashCommands?: SlashCommandOptions | undefined;
  /**
   * Completion as the user types (`completeSlashCommand`, `completeMention`): debounce, cache
   * lifetime and size, as `client.completer()` takes them. @default { debounceMs: 150, cacheTtlMs: 30000 }
   */
  completion?: CompleterOptions | undefined;
  /** Receives non-fatal problems of every server (and of the host), tagged with the server name. @default ignore */
  onError?: ((error: Error, server: string | undefined) => void) | undefined;
  /**
   * Approves each `callTool` before it is sent (a server's own `approve` replaces it for that
   * server): `approvalPreset(...)`, `approveWithElicitation(...)` or your own hook.
   * A denial throws `ToolApprovalDeniedError` (-33052). @default none: every call goes
   */
  approve?: ApproveHook | undefined;
  /** How long a call waits for its approval, in ms; no answer by then is a denial. @default 120000 */
  approvalTimeoutMs?: number | undefined;
  /** Named views of the host (`host.view(name)`), by name. @default none */
  views?: Readonly<Record<string, HostViewOptions>> | undefined;
}

/** Options of {@link McpHost.fromConfig}: the host's options, per-server options by name, and parsing options. */
export interface HostFromConfigOptions extends Omit<McpHostOptions, 'servers'>, ParseHostConfigOptions {
  /** Per-server options (client options, tool filter, prefix, authProvider), by server name. */
  servers?: Readonly<Record<string, HostServerOptions>> | undefined;
}

/**
 * One host event. `state`: a server changed state. `catalog`: the catalog changed (`kinds`
 * says which lists; read them from the host): a server's list changed, its items came or went,
 * or its availability changed. `collision`: tools or prompts that would have shared an exposed
 * name (they were renamed, never dropped). `client`: a reconnect event of a server's client.
 * `slashCommands`: the slash commands changed (once per change; read `commands` or
 * `host.slashCommands()`). `polling`: a server's changes are not pushed (its listen was refused, never acknowledged,
 * keeps dropping, or is not offered), so its lists are fetched again every `intervalMs`
 * (docs/host.md); said once per server, and `error`, when there is one, is also its
 * `lastError`. All are tagged with the server, where there is one.
 */
export type HostEvent =
  | { type: 'state'; server: string; state: HostServerState; previous: HostServerState; error?: Error | undefined }
  | { type: 'catalog'; kinds: readonly CatalogKind[] }
  | {
      type: 'polling';
      server: string;
      /** The first list found polling. */
      kind: CatalogKind;
      reason: LivePollReason;
      error?: Error | undefined;
      intervalMs: number;
    }
  | { type: 'collision'; kind: 'tools' | 'prompts' | 'slashCommands'; collision: ExposedNameCollision }
  | { type: 'client'; server: string; event: ClientEvent }
  | { type: 'skills'; skills: readonly HostSkill[] }
  | { type: 'slashCommands'; commands: readonly SlashCommand[] }
  /**
   * A `callTool`, `getPrompt` or `readResource` the host refused before any server was asked
   * (a `HostRoutingError`: no such tool, a server unavailable...), heard before the call rejects
   * with it: what a count of a server's failures alone would miss. `target` is the exposed name,
   * `server:name`, or the URI.
   */
  | {
      type: 'refused';
      method: 'tools/call' | 'prompts/get' | 'resources/read';
      target: string;
      error: HostRoutingError;
    };

/**
 * @throws InvalidArgumentError (-32602) for a bad `clientInfo`, `separator`, `prefixMode` or
 *   `approve`.
 */
export function checkHostOptions(options: McpHostOptions): void {
  if (typeof options?.clientInfo?.name !== 'string' || typeof options.clientInfo.version !== 'string')
    throw new InvalidArgumentError('clientInfo', options?.clientInfo, 'expected { name: string, version: string }');
  const separator = options.separator ?? DEFAULT_NAME_SEPARATOR;
  if (typeof separator !== 'string' || !/^[A-Za-z0-9_-]*$/.test(separator))
    throw new InvalidArgumentError('separator', separator, 'expected letters, digits, _ and - only');
  if (options.prefixMode !== undefined && options.prefixMode !== 'always' && options.prefixMode !== 'onCollision')
    throw new InvalidArgumentError('prefixMode', options.prefixMode, 'expected "always" or "onCollision"');
  if (options.approve !== undefined && typeof options.approve !== 'function')
    throw new InvalidArgumentError('approve', options.approve, 'expected a function');
}

/**
 * What `McpHost.fromConfig` makes its host of: the configuration (parsed here unless it is a
 * `HostConfig` already), the per-server options, and the host's options with the
 * configuration's views under the given ones.
 * @throws HostConfigError (-33050) as `parseHostConfig`; InvalidArgumentError (-32602) when
 *   `options.servers` names a server the configuration does not have.
 */
export function readHostConfig(
  config: unknown,
  options: HostFromConfigOptions,
): {
  parsed: HostConfig;
  perServer: Readonly<Record<string, HostServerOptions>> | undefined;
  hostOptions: McpHostOptions;
} {
  const parsed = isHostConfig(config) ? config : parseHostConfig(config, options);
  const { servers: perServer, env: _env, strict: _strict, ...hostOptions } = options;
  // Options for a server the file does not have (a typo) would silently not apply: a tool
  // deny list among them.
  for (const name of Object.keys(perServer ?? {}))
    if (!parsed.names.includes(name))
      throw new InvalidArgumentError(`servers.${name}`, name, 'names no server of the configuration');
  return { parsed, perServer, hostOptions: { ...hostOptions, views: { ...parsed.views, ...hostOptions.views } } };
}

/** @throws InvalidArgumentError (-32602) for an entry `add` or the constructor cannot run. */
export function checkEntry(name: string, entry: HostServerEntry): void {
  const bad = (field: string, value: unknown, reason: string): never => {
    throw new InvalidArgumentError(`servers.${name}.${field}`, value, reason);
  };
  if (typeof entry !== 'object' || entry === null) bad('', entry, 'expected a server entry');
  switch (entry.type) {
    case 'stdio':
      if (typeof entry.command !== 'string' || entry.command === '')
        bad('command', entry.command, 'expected a command');
      break;
    case 'http':
    case 'sse':
    case 'ws':
      if (typeof entry.url !== 'string') bad('url', undefined, 'expected a URL string');
      break;
    case 'custom':
      if (typeof entry.transport !== 'function') bad('transport', entry.transport, 'expected a function');
      break;
    default:
      bad('type', (entry as { type?: unknown }).type, 'expected "stdio", "http", "sse", "ws" or "custom"');
  }
  if (entry.prefix !== undefined && typeof entry.prefix !== 'string') bad('prefix', entry.prefix, 'expected a string');
  if (entry.trusted !== undefined && typeof entry.trusted !== 'boolean')
    bad('trusted', entry.trusted, 'expected true or false');
  if (entry.approve !== undefined && typeof entry.approve !== 'function')
    bad('approve', entry.approve, 'expected a function');
  if (entry.perUser !== undefined && typeof entry.perUser !== 'boolean')
    bad('perUser', entry.perUser, 'expected true or false');
  assertOverrides(name, entry.overrides);
  for (const key of ['allow', 'deny'] as const) {
    const list = entry.tools?.[key];
    if (list !== undefined && !(Array.isArray(list) && list.every((n) => typeof n === 'string')))
      bad(`tools.${key}`, list, 'expected an array of tool names');
  }
}
