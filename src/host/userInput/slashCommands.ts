/**
 * Prompts as slash commands, named as Claude Code names them: a server's prompt is typed as
 * `/mcp__<server>__<prompt>` and shown as `/<server>:<prompt> (MCP)`. In the command every
 * character (code point) of the server name outside `A-Z a-z 0-9 _ -` becomes `_`; the
 * prompt's `name` is used as declared (its `title` is only shown). The prompts of a reserved
 * server (`anthropic-skills` by default) are not offered. Two prompts whose commands meet (two
 * servers that sanitise to one name) both get the hash suffix of exposed names
 * (`exposedNames.ts`, rule 4) and the case is reported. Pure.
 */
import type { HostPrompt } from '../catalog/catalog.js';
import { nameHash, type ExposedNameCollision } from '../catalog/exposedNames.js';

/** The server names whose prompts are not offered by default: Claude Code reserves this one. */
export const DEFAULT_RESERVED_SERVERS: readonly string[] = Object.freeze(['anthropic-skills']);

/** Options of the host's slash commands (`McpHostOptions.slashCommands`). */
export interface SlashCommandOptions {
  /**
   * Server names (as the host names them) whose prompts are never offered as slash commands,
   * as Claude Code does for `anthropic-skills`. `[]` turns the rule off (a host that is not
   * Claude Code). The prompts stay in `host.prompts()`.
   * @default ["anthropic-skills"]
   */
  reservedServers?: readonly string[] | undefined;
}

/** One argument of a slash command, in the prompt's order. */
export interface SlashCommandArgument {
  readonly name: string;
  readonly required: boolean;
  readonly description?: string | undefined;
}

/** A prompt offered as a slash command. Frozen. */
export interface SlashCommand {
  /** What the user types, without the `/`: `mcp__example__greet`. */
  readonly command: string;
  /** What a menu shows: `/example:greet (MCP)`. */
  readonly label: string;
  /** The server the prompt is on. */
  readonly server: string;
  /** The prompt's name as declared (what `prompts/get` sends). */
  readonly name: string;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  /** The arguments, in the order positional words fill them. */
  readonly arguments: readonly SlashCommandArgument[];
  /** How the command is typed: `/mcp__example__greet <name> [style]`. */
  readonly usage: string;
  /** The catalog entry it stands for. */
  readonly prompt: HostPrompt;
}

/** What {@link buildSlashCommands} returns. */
export interface SlashCommandList {
  readonly commands: readonly SlashCommand[];
  /** Prompts whose commands would have met, and the names they got (`suffixed`) or the one kept (`duplicate`). */
  readonly collisions: readonly ExposedNameCollision[];
  readonly byCommand: ReadonlyMap<string, SlashCommand>;
}

/** Each code point of `server` outside `[A-Za-z0-9_-]` as `_`. */
export function slashServerName(server: string): string {
  let out = '';
  for (const char of server) out += /^[A-Za-z0-9_-]$/.test(char) ? char : '_';
  return out;
}

/** `/mcp__<server>__<prompt>`'s name part for one prompt, before any collision suffix. */
export function slashCommandName(server: string, prompt: string): string {
  return `mcp__${slashServerName(server)}__${prompt}`;
}

/** The slash commands of the catalog's prompts, in catalog order. Keeps unchanged entries from `previous`. */
export function buildSlashCommands(
  prompts: readonly HostPrompt[],
  options: SlashCommandOptions = {},
  previous?: SlashCommandList,
): SlashCommandList {
  const reserved = new Set(options.reservedServers ?? DEFAULT_RESERVED_SERVERS);
  const offered = prompts.filter((p) => !reserved.has(p.server));
  const collisions: ExposedNameCollision[] = [];

  // One server listing one name twice: the catalog already kept the first; its prompts are unique.
  const names = offered.map((p) => slashCommandName(p.server, p.prompt.name));
  const base = [...names];
  for (let digits = 8; digits <= 32; digits *= 2) {
    const holders = new Map<string, number[]>();
    names.forEach((name, i) => holders.set(name, [...(holders.get(name) ?? []), i]));
    let clash = false;
    for (const [name, group] of holders) {
      if (group.length < 2) continue;
      clash = true;
      for (const i of group) {
        const p = offered[i] as HostPrompt;
        names[i] = `${base[i] as string}_${nameHash(p.server, p.prompt.name, digits)}`;
      }
      if (digits === 8)
        collisions.push({
          exposedName: name,
          resolution: 'suffixed',
          items: group.map((i) => ({
            server: (offered[i] as HostPrompt).server,
            name: (offered[i] as HostPrompt).prompt.name,
          })),
          exposedNames: [],
        });
    }
    if (!clash) break;
  }
  for (const collision of collisions)
    collision.exposedNames = collision.items.map(
      (item) => names[offered.findIndex((p) => p.server === item.server && p.prompt.name === item.name)] as string,
    );

  const old = new Map((previous?.commands ?? []).map((c) => [c.command, c]));
  const commands = offered.map((prompt, i) => {
    const command = names[i] as string;
    const kept = old.get(command);
    return kept !== undefined && kept.prompt.prompt === prompt.prompt && kept.server === prompt.server
      ? kept
      : makeCommand(command, prompt);
  });
  return Object.freeze({
    commands: Object.freeze(commands),
    collisions: Object.freeze(collisions),
    byCommand: new Map(commands.map((c) => [c.command, c])),
  });
}

/** Whether two lists offer the same commands (by entry identity, in order). */
export function sameCommands(a: SlashCommandList, b: SlashCommandList): boolean {
  return a.commands.length === b.commands.length && a.commands.every((c, i) => c === b.commands[i]);
}

function makeCommand(command: string, entry: HostPrompt): SlashCommand {
  const { prompt } = entry;
  const args: SlashCommandArgument[] = (Array.isArray(prompt.arguments) ? prompt.arguments : [])
    .filter((a) => typeof a?.name === 'string' && a.name !== '')
    .map((a) =>
      Object.freeze({
        name: a.name,
        required: a.required === true,
        ...(typeof a.description === 'string' && { description: a.description }),
      }),
    );
  const usage = [`/${command}`, ...args.map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`))].join(' ');
  return Object.freeze({
    command,
    label: `/${entry.server}:${prompt.name} (MCP)`,
    server: entry.server,
    name: prompt.name,
    ...(typeof prompt.title === 'string' && { title: prompt.title }),
    ...(typeof prompt.description === 'string' && { description: prompt.description }),
    arguments: Object.freeze(args),
    usage,
    prompt: entry,
  });
}
