/**
 * Slash command naming (Claude Code's rules) and the parse of a line, pure: sanitised server
 * names, prompt names as declared, the reserved server, collisions, quoting, `name=value`,
 * positional order and each typed error.
 */
import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/host/catalog.js';
import { buildSlashCommands, slashCommandName } from '../../src/host/slashCommands.js';
import { parseSlashCommandLine, splitWords } from '../../src/host/slashCommandLine.js';
import { SlashCommandError, isSlashCommandError } from '../../src/host/slashCommandError.js';
import type { Prompt } from '../../src/wire/protocol.js';

const greet: Prompt = {
  name: 'greet',
  title: 'Greet someone',
  description: 'A greeting',
  arguments: [
    { name: 'name', required: true, description: 'Who' },
    { name: 'style', description: 'How' },
  ],
};

function listOf(servers: Record<string, Prompt[]>, reservedServers?: string[]) {
  const catalog = buildCatalog(
    Object.entries(servers).map(([server, prompts]) => ({
      server,
      prefix: server,
      tools: [],
      prompts,
      resources: [],
      resourceTemplates: [],
    })),
  );
  return buildSlashCommands(catalog.prompts, reservedServers === undefined ? {} : { reservedServers });
}

function thrown(run: () => unknown): SlashCommandError {
  try {
    run();
  } catch (error) {
    expect(isSlashCommandError(error)).toBe(true);
    return error as SlashCommandError;
  }
  throw new Error('did not throw');
}

describe('slash command names', () => {
  it('are /mcp__<server>__<prompt>: server characters outside A-Za-z0-9_- as _, the prompt name as declared', () => {
    expect(slashCommandName('my.server v2', 'Create Issue!')).toBe('mcp__my_server_v2__Create Issue!');
    expect(slashCommandName('jira-cloud_1', 'create_issue')).toBe('mcp__jira-cloud_1__create_issue');
    // One _ per character (code point), as for exposed names.
    expect(slashCommandName('café😀', 'p')).toBe('mcp__caf____p');
    const [command] = listOf({ 'my.jira': [greet] }).commands;
    expect(command).toMatchObject({
      command: 'mcp__my_jira__greet',
      label: '/my.jira:greet (MCP)',
      server: 'my.jira',
      name: 'greet',
      title: 'Greet someone',
      description: 'A greeting',
      arguments: [
        { name: 'name', required: true, description: 'Who' },
        { name: 'style', required: false, description: 'How' },
      ],
      usage: '/mcp__my_jira__greet <name> [style]',
    });
  });

  it('leave out the reserved server anthropic-skills by default; reservedServers: [] turns the rule off', () => {
    expect(listOf({ 'anthropic-skills': [greet], other: [greet] }).commands.map((c) => c.command)).toEqual([
      'mcp__other__greet',
    ]);
    expect(listOf({ 'anthropic-skills': [greet] }, []).commands.map((c) => c.command)).toEqual([
      'mcp__anthropic-skills__greet',
    ]);
    expect(listOf({ mine: [greet], other: [greet] }, ['mine']).commands.map((c) => c.command)).toEqual([
      'mcp__other__greet',
    ]);
  });

  it('two servers that sanitise to one name: both commands get the hash suffix, and the collision is reported', () => {
    const list = listOf({ 'my.server': [greet], my_server: [greet], plain: [greet] });
    const [a, b, c] = list.commands;
    expect(a?.command).toMatch(/^mcp__my_server__greet_[0-9a-f]{8}$/);
    expect(b?.command).toMatch(/^mcp__my_server__greet_[0-9a-f]{8}$/);
    expect(a?.command).not.toBe(b?.command);
    expect(c?.command).toBe('mcp__plain__greet');
    expect(a?.label).toBe('/my.server:greet (MCP)');
    expect(b?.label).toBe('/my_server:greet (MCP)');
    expect(list.collisions).toEqual([
      {
        exposedName: 'mcp__my_server__greet',
        resolution: 'suffixed',
        items: [
          { server: 'my.server', name: 'greet' },
          { server: 'my_server', name: 'greet' },
        ],
        exposedNames: [a?.command, b?.command],
      },
    ]);
    // Deterministic: the same names on every build.
    expect(listOf({ 'my.server': [greet], my_server: [greet] }).commands[0]?.command).toBe(a?.command);
  });
});

describe('parseSlashCommandLine', () => {
  const list = listOf({ example: [greet, { name: 'none' }] });

  it('maps positional words onto the arguments in order', () => {
    expect(parseSlashCommandLine('/mcp__example__greet Ada pirate', list).arguments).toEqual({
      name: 'Ada',
      style: 'pirate',
    });
    expect(parseSlashCommandLine('  /mcp__example__greet   Ada  ', list).arguments).toEqual({ name: 'Ada' });
  });

  it('takes quoted values with spaces, and escapes inside double quotes', () => {
    expect(parseSlashCommandLine('/mcp__example__greet "the MCP client" \'very formal\'', list).arguments).toEqual({
      name: 'the MCP client',
      style: 'very formal',
    });
    expect(parseSlashCommandLine('/mcp__example__greet "say \\"hi\\"" ""', list).arguments).toEqual({
      name: 'say "hi"',
      style: '',
    });
  });

  it('takes name=value for any argument, the other words filling the rest in order', () => {
    expect(parseSlashCommandLine('/mcp__example__greet style=formal Ada', list).arguments).toEqual({
      name: 'Ada',
      style: 'formal',
    });
    expect(parseSlashCommandLine('/mcp__example__greet name="Ada L" style=pirate', list).arguments).toEqual({
      name: 'Ada L',
      style: 'pirate',
    });
    // Quoted, a word with = is a value.
    expect(parseSlashCommandLine('/mcp__example__greet "x=1"', list).arguments).toEqual({ name: 'x=1' });
    // The arguments come back in the prompt's order, however typed.
    expect(Object.keys(parseSlashCommandLine('/mcp__example__greet style=a name=b', list).arguments)).toEqual([
      'name',
      'style',
    ]);
  });

  it('names what is wrong, with the usage', () => {
    expect(thrown(() => parseSlashCommandLine('hello', list)).data).toEqual({ reason: 'not-a-command' });
    expect(thrown(() => parseSlashCommandLine('/mcp__example__nope', list)).data).toEqual({
      reason: 'unknown-command',
      command: 'mcp__example__nope',
    });
    const missing = thrown(() => parseSlashCommandLine('/mcp__example__greet style=formal', list));
    expect(missing.data).toEqual({
      reason: 'missing-argument',
      command: 'mcp__example__greet',
      argument: 'name',
      usage: '/mcp__example__greet <name> [style]',
    });
    expect(missing.code).toBe(-33055);
    expect(missing.message).toBe('/mcp__example__greet needs name (usage: /mcp__example__greet <name> [style])');
    expect(thrown(() => parseSlashCommandLine('/mcp__example__greet a b c d', list)).data).toMatchObject({
      reason: 'too-many-arguments',
      extra: ['c', 'd'],
    });
    expect(thrown(() => parseSlashCommandLine('/mcp__example__none x', list)).data).toMatchObject({
      reason: 'too-many-arguments',
      extra: ['x'],
      usage: '/mcp__example__none',
    });
    expect(thrown(() => parseSlashCommandLine('/mcp__example__greet Ada tone=x', list)).data).toMatchObject({
      reason: 'unknown-argument',
      argument: 'tone',
    });
    expect(thrown(() => parseSlashCommandLine('/mcp__example__greet name=a name=b', list)).data).toMatchObject({
      reason: 'duplicate-argument',
      argument: 'name',
    });
    expect(thrown(() => parseSlashCommandLine('/mcp__example__greet "Ada', list)).data).toMatchObject({
      reason: 'unclosed-quote',
    });
  });

  it('splitWords keeps where each word is, and the value of name= words', () => {
    expect(splitWords(' a "b c" k="v w"')).toEqual([
      { value: 'a', start: 1, end: 2, unclosed: false },
      { value: 'b c', start: 3, end: 8, unclosed: false },
      { value: 'k=v w', start: 9, end: 16, key: 'k', keyValue: 'v w', valueStart: 11, unclosed: false },
    ]);
  });
});
