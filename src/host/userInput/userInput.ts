/**
 * The host's verbs for what the user types (docs/host.md, "Slash commands and mentions"):
 * prompts as slash commands (the list, kept current from the catalog; parse; run), resources
 * as `@server:uri` mentions, and completion of both as the user types. The list, the parse and
 * the prompt converters are here; completion (slashCompletion.ts, mentionCompletion.ts) and the
 * reading of mentions (mentions.ts) are handed what they share with this side (the line's
 * words, the URI template functions).
 */
import type { CompleterOptions } from '../../completion/completer.js';
import { expandUriTemplate, parseUriTemplate } from '../../resources/uriTemplate.js';
import { matchUriTemplates } from '../../resources/uriTemplateMatch.js';
import type { CallOptions } from '../../wire/callOptions.js';
import type { GetPromptResult, ReadResourceResult } from '../../wire/protocol.js';
import type { Clock, Timers } from '../../util/clock.js';
import type { Catalog } from '../catalog/catalog.js';
import { CompleterPool, type CompleterPoolDeps } from './completerPool.js';
import type { HostCompletion } from './completionCandidates.js';
import type { ExposedNameCollision } from '../catalog/exposedNames.js';
import { resolveMentionsOf, type ResolvedMentions, type ResolveMentionsOptions } from './mentions.js';
import { completeMentionPrefix } from './mentionCompletion.js';
import { completeSlashCommandLine } from './slashCompletion.js';
import { messagesFor, type MessagesFor, type PromptApi } from '../models/promptMessages.js';
import {
  commandWord,
  parseSlashCommandLine,
  quoteWord,
  splitWords,
  type ParsedSlashCommand,
} from './slashCommandLine.js';
import {
  buildSlashCommands,
  sameCommands,
  type SlashCommand,
  type SlashCommandList,
  type SlashCommandOptions,
} from './slashCommands.js';

/** Options of `host.runSlashCommand`: the call's options, and the model API to write the messages for. */
export interface RunSlashCommandOptions<A extends PromptApi | undefined = undefined> extends CallOptions {
  /** Write `messages` for this model API (the prompt converters). @default none (only `result`) */
  api?: A;
}

/** What `host.runSlashCommand` resolves with. */
export interface SlashCommandRun<A extends PromptApi | undefined = undefined> extends ParsedSlashCommand {
  /** The `prompts/get` result as the server sent it. */
  result: GetPromptResult;
  /** The prompt's messages for `options.api`. */
  messages: A extends PromptApi ? MessagesFor<A> : undefined;
}

/** What the verbs need of the host. */
export interface UserInputDeps extends Pick<CompleterPoolDeps, 'complete' | 'capabilities'> {
  catalog(): Catalog;
  servers(): readonly string[];
  getPrompt(server: string, name: string, args: Record<string, string>, options: CallOptions): Promise<GetPromptResult>;
  readResource(uri: string, options: { server: string; signal?: AbortSignal | undefined }): Promise<ReadResourceResult>;
  /** The list changed: one `slashCommands` event. */
  changed(commands: readonly SlashCommand[]): void;
  /** New collisions of commands. */
  collision(collision: ExposedNameCollision): void;
  onError(error: Error, server: string | undefined): void;
  clock: Clock;
  timers: Timers;
}

/** @internal The verbs behind `McpHost`'s slash command and mention methods. */
export class UserInput {
  private list: SlashCommandList;
  private promptsSeen: Catalog['prompts'];
  private pool: CompleterPool | undefined;
  private closed = false;

  constructor(
    private readonly deps: UserInputDeps,
    private readonly options: {
      slashCommands?: SlashCommandOptions | undefined;
      completion?: CompleterOptions | undefined;
    },
  ) {
    this.promptsSeen = deps.catalog().prompts;
    this.list = buildSlashCommands(this.promptsSeen, options.slashCommands);
  }

  /** The current list, rebuilt when the catalog's prompts changed since. */
  commands(): SlashCommandList {
    const prompts = this.deps.catalog().prompts;
    if (prompts !== this.promptsSeen) this.update(prompts);
    return this.list;
  }

  /** The catalog changed: rebuild, and say so when the commands changed. */
  catalogChanged(): void {
    const prompts = this.deps.catalog().prompts;
    if (prompts !== this.promptsSeen) this.update(prompts);
  }

  parse(line: string): ParsedSlashCommand {
    return parseSlashCommandLine(line, this.commands());
  }

  async run<A extends PromptApi | undefined>(
    line: string,
    options: RunSlashCommandOptions<A>,
  ): Promise<SlashCommandRun<A>> {
    const parsed = this.parse(line);
    const { api, ...call } = options;
    const result = await this.deps.getPrompt(parsed.command.server, parsed.command.name, { ...parsed.arguments }, call);
    const messages = api === undefined ? undefined : messagesFor(api, result);
    return { ...parsed, result, messages: messages as SlashCommandRun<A>['messages'] };
  }

  async completeCommand(
    line: string,
    cursor: number | undefined,
    signal: AbortSignal | undefined,
  ): Promise<HostCompletion> {
    const pool = this.completers();
    const words = { commandWord, splitWords, quoteWord };
    return completeSlashCommandLine(line, cursor, { list: this.commands(), pool, words }, signal);
  }

  async completeMention(prefix: string, signal: AbortSignal | undefined): Promise<HostCompletion> {
    const pool = this.completers();
    const catalog = this.deps.catalog();
    return completeMentionPrefix(
      prefix,
      {
        servers: () => this.deps.servers(),
        resources: () => catalog.resources,
        resourceTemplates: () => catalog.resourceTemplates,
        templates: { parseUriTemplate, expandUriTemplate, matchUriTemplates },
      },
      pool,
      signal,
    );
  }

  async resolveMentions<A extends PromptApi | undefined>(
    text: string,
    options: ResolveMentionsOptions<A>,
  ): Promise<ResolvedMentions<A>> {
    const resolved = await resolveMentionsOf(
      text,
      {
        servers: () => this.deps.servers(),
        readResource: (uri, own) => this.deps.readResource(uri, own),
        listed: (server, uri) =>
          this.deps
            .catalog()
            .resourcesByUri.get(uri)
            ?.find((r) => r.server === server)?.resource,
      },
      options,
    );
    const messages =
      options.api === undefined
        ? undefined
        : messagesFor(options.api, { messages: resolved.content.map((block) => ({ role: 'user', content: block })) });
    return { ...resolved, messages: messages as ResolvedMentions<A>['messages'] };
  }

  close(): void {
    this.closed = true;
    this.pool?.close();
  }

  /** The completers, made on first use. */
  private completers(): CompleterPool {
    if (this.closed) throw new Error('the host is closed');
    return (this.pool ??= new CompleterPool(
      {
        complete: (...args) => this.deps.complete(...args),
        capabilities: (server) => this.deps.capabilities(server),
        onError: (error, server) => this.deps.onError(error, server),
        clock: this.deps.clock,
        timers: this.deps.timers,
      },
      this.options.completion,
    ));
  }

  private update(prompts: Catalog['prompts']): void {
    const before = this.list;
    this.promptsSeen = prompts;
    this.list = buildSlashCommands(prompts, this.options.slashCommands, before);
    const known = new Set(before.collisions.map((c) => JSON.stringify([c.exposedName, c.items])));
    if (!sameCommands(before, this.list)) this.deps.changed(this.list.commands);
    for (const collision of this.list.collisions)
      if (!known.has(JSON.stringify([collision.exposedName, collision.items]))) this.deps.collision(collision);
  }
}
