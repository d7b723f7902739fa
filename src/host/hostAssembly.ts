/**
 * The composition root of one `McpHost`: its shared state, its servers, its middleware, the
 * context budget, the slash commands and mentions, the views and the skills, wired to each
 * other and to the host's own verbs (called through the host, so a subclass's override applies).
 */
import type { McpClient } from '../client/client.js';
import type { JsonObject } from '../wire/messages.js';
import type { CallOptions } from '../wire/callOptions.js';
import type {
  CallToolResult,
  CompleteResult,
  GetPromptResult,
  PromptReference,
  ReadResourceResult,
  ResourceTemplateReference,
} from '../wire/protocol.js';
import { systemClock, systemTimers } from '../util/clock.js';
import type { HostCallOptions } from './servers/callOptions.js';
import { ContextBudget } from './contextBudget/contextBudget.js';
import { assignExposedNames } from './catalog/exposedNames.js';
import { HostCore } from './servers/hostCore.js';
import type { HostEvent, McpHostOptions } from './servers/hostOptions.js';
import { HostMiddleware } from './policy/hostMiddleware.js';
import { HostViews, type ViewCallToolOptions } from './views.js';
import type { ServerItemRef } from './catalog/routing.js';
import { HostServers } from './servers/serverLifecycle.js';
import type { HostServerStatus } from './servers/serverSlot.js';
import { SkillsFront } from './skills/skillsFront.js';
import { templateMatcher } from './catalog/templateRoute.js';
import { UserInput } from './userInput/userInput.js';
import { followHost, scopeCore, type ScopeSeed } from './scopes/userScope.js';
import { statePartition } from './state/stateStore.js';
import { storedCompletion, type CompleteFunction } from './state/completionState.js';

/** The host's own verbs its parts call back. */
export interface HostVerbs {
  readonly servers: readonly HostServerStatus[];
  client(name: string): McpClient | undefined;
  on(listener: (event: HostEvent) => void): () => void;
  callTool(tool: string, args: JsonObject, options: ViewCallToolOptions): Promise<CallToolResult>;
  getPrompt(
    prompt: string | ServerItemRef,
    args: Record<string, string>,
    options: CallOptions,
  ): Promise<GetPromptResult>;
  readResource(uri: string, options: HostCallOptions): Promise<ReadResourceResult>;
  complete(
    ref: PromptReference | ResourceTemplateReference,
    argument: { name: string; value: string },
    context: { arguments?: Record<string, string> } | undefined,
    options: HostCallOptions,
  ): Promise<CompleteResult>;
}

/** @internal The parts of one host. */
export interface HostParts {
  readonly core: HostCore;
  readonly servers: HostServers;
  readonly middleware: HostMiddleware;
  readonly budget: ContextBudget;
  readonly userInput: UserInput;
  readonly views: HostViews;
  /**
   * The skill verbs, made on first use.
   */
  skills(): SkillsFront;
  /** Closes the parts that hold listeners or timers (the servers close on their own). */
  close(): void;
}

/**
 * @internal Makes the parts of `host` (see the module comment); the options are checked
 * already. With `seed`, the host is a user scope of `seed.host` (scopes/userScope.ts): its core
 * is the scope's, its servers the host's (borrowed) and the user's own, its middleware the host's.
 */
export function assembleHost(host: HostVerbs, options: McpHostOptions, seed?: ScopeSeed): HostParts {
  const core = new HostCore(options, {
    toolsChanged: () => {
      budget.catalogChanged();
      servers.keepLazyTools();
    },
    changed: () => userInput.catalogChanged(),
  });
  let skills: SkillsFront | undefined;
  const front = (): SkillsFront => (skills ??= makeSkills(host, core));
  if (seed !== undefined) scopeCore(core, seed);
  const middleware = seed?.host.middleware ?? new HostMiddleware();
  const servers = new HostServers(
    core,
    middleware,
    seed && { store: seed.host.servers.store, eraMemory: seed.host.servers.eraMemory },
  );
  const budget = new ContextBudget(options.contextBudget ?? {}, {
    catalog: () => core.catalog,
    servers: () => host.servers,
    serverOptions: (name) => core.slots.get(name)?.entry,
    callTool: (name, args, call) => host.callTool(name, args, call),
    skillsListed: () => skillsListed,
    callSkillTool: async (name, args, call) => front().callSkillTool(name, args, call),
  });
  if (options.state !== undefined)
    budget.artifacts.share({
      store: options.state,
      partition: statePartition(core.scope?.authContext),
      onError: (error) => core.report(error, undefined),
    });
  let skillsListed = false;
  const stopSkills = core.events.on((event) => {
    if (event.type === 'skills') skillsListed = event.skills.length > 0;
  });
  const userInput = makeUserInput(host, core);
  if (seed !== undefined) core.started = seed.host.core.started;
  const views = new HostViews({
    catalog: () => core.catalog,
    listen: (listener) =>
      host.on((event) => {
        if (event.type === 'catalog' || event.type === 'state') listener(event);
      }),
    callTool: (tool, args, call) => host.callTool(tool.exposedName, args, call),
    getPrompt: (prompt, args, call) => host.getPrompt(prompt.exposedName, args, call),
    readResource: (uri, call) => host.readResource(uri, call),
    templateMatcher: templateMatcher((error) => core.report(error, undefined)),
    onError: (error) => core.report(error, undefined),
  });
  const stopFollowing = seed === undefined ? () => {} : followHost(core, servers, seed);
  return {
    core,
    servers,
    middleware,
    budget,
    userInput,
    views,
    skills: front,
    close: () => {
      stopFollowing();
      stopSkills();
      skills?.close();
      views.close();
      userInput.close();
    },
  };
}

/** The completer pool's `complete`, through the host state store (the scope's partition) when the host has one. */
function withCompletionState(core: HostCore, complete: CompleteFunction): CompleteFunction {
  const state = core.options.state;
  return state === undefined
    ? complete
    : storedCompletion(state, () => statePartition(core.scope?.authContext), complete);
}

function makeUserInput(host: HostVerbs, core: HostCore): UserInput {
  const options = core.options;
  return new UserInput(
    {
      catalog: () => core.catalog,
      servers: () => [...core.slots.keys()],
      getPrompt: (server, name, args, call) => host.getPrompt({ server, name }, args, call),
      readResource: (uri, own) => host.readResource(uri, own),
      complete: withCompletionState(core, (server, ref, argument, context, own) =>
        host.complete(ref, argument, context, { ...own, server }),
      ),
      capabilities: (server) => core.slots.get(server)?.client?.serverCapabilities,
      changed: (commands) => core.events.emit({ type: 'slashCommands', commands }),
      collision: (collision) => core.events.emit({ type: 'collision', kind: 'slashCommands', collision }),
      onError: (error, server) => core.report(error, server),
      clock: options.client?.clock ?? systemClock,
      timers: options.client?.timers ?? systemTimers,
    },
    { slashCommands: options.slashCommands, completion: options.completion },
  );
}

function makeSkills(host: HostVerbs, core: HostCore): SkillsFront {
  return new SkillsFront(
    {
      openServers: () =>
        [...core.slots.values()].flatMap((slot) => {
          const contribution = slot.contribution();
          return contribution === undefined ? [] : [{ server: slot.name, prefix: contribution.prefix }];
        }),
      client: (server) => host.client(server),
      onState: (listener) => host.on((event) => event.type === 'state' && listener(event.server, event.state)),
      assignNames: (requests) =>
        assignExposedNames(requests, { separator: core.options.separator, prefixMode: core.options.prefixMode }),
      changed: (skills) => core.events.emit({ type: 'skills', skills }),
      onError: (error, server) => core.report(error, server),
    },
    core.options.skills,
  );
}
