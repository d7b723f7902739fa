/**
 * Slash command naming (Claude Code's rules) and the parse of a line, pure: sanitised server
 * names, prompt names as declared, the reserved server, collisions, quoting, `name=value`,
 * positional order, the last argument taking the rest of the line, each typed error, and
 * property tests: every line formatSlashCommandLine writes parses back to its values.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/host/catalog/catalog.js';
import { buildSlashCommands, slashCommandName } from '../../src/host/userInput/slashCommands.js';
import {
  formatSlashCommandLine,
  parseSlashCommandLine,
  quoteWord,
  splitWords,
} from '../../src/host/userInput/slashCommandLine.js';
import { SlashCommandError, isSlashCommandError } from '../../src/host/userInput/slashCommandError.js';
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

const find: Prompt = { name: 'find', arguments: [{ name: 'query', required: true }] };

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
  const list = listOf({ example: [greet, { name: 'none' }, find] });

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
    expect(thrown(() => parseSlashCommandLine('/mcp__example__greet style=a name=b c d', list)).data).toMatchObject({
      reason: 'too-many-arguments',
      extra: ['c', 'd'],
      usage: '/mcp__example__greet <name> [style]',
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
    const unclosed = thrown(() => parseSlashCommandLine('/mcp__example__greet "Ada', list));
    expect(unclosed.data).toMatchObject({ reason: 'unclosed-quote', usage: '/mcp__example__greet <name> [style]' });
    expect(unclosed.message).toContain('(usage: /mcp__example__greet <name> [style])');
  });

  it('opens a quote only at the start of a word or after name=: an apostrophe inside a word is a letter', () => {
    expect(parseSlashCommandLine("/mcp__example__find O'Brien", list).arguments).toEqual({ query: "O'Brien" });
    expect(parseSlashCommandLine("/mcp__example__greet Ada style=don't", list).arguments).toEqual({
      name: 'Ada',
      style: "don't",
    });
    expect(parseSlashCommandLine('/mcp__example__greet 5"10 tall', list).arguments).toEqual({
      name: '5"10',
      style: 'tall',
    });
    expect(parseSlashCommandLine("/mcp__example__greet name='Ada L' \"Ada's style\"", list).arguments).toEqual({
      name: 'Ada L',
      style: "Ada's style",
    });
    // A backslash outside double quotes is a letter.
    expect(parseSlashCommandLine('/mcp__example__greet C:\\dir', list).arguments).toEqual({ name: 'C:\\dir' });
  });

  it('gives the last argument left the rest of the line as typed, before the name= words that end it', () => {
    expect(parseSlashCommandLine('/mcp__example__find where is   the "MCP" client ', list).arguments).toEqual({
      query: 'where is   the "MCP" client',
    });
    expect(parseSlashCommandLine('/mcp__example__greet Ada a very formal way', list).arguments).toEqual({
      name: 'Ada',
      style: 'a very formal way',
    });
    expect(parseSlashCommandLine('/mcp__example__greet Ada Lovelace style=pirate', list).arguments).toEqual({
      name: 'Ada Lovelace',
      style: 'pirate',
    });
    expect(parseSlashCommandLine('/mcp__example__greet style=pirate Ada Lovelace', list).arguments).toEqual({
      name: 'Ada Lovelace',
      style: 'pirate',
    });
    // Inside the rest of the line, x=1 is text.
    expect(parseSlashCommandLine('/mcp__example__find rows where x=1', list).arguments).toEqual({
      query: 'rows where x=1',
    });
    // A name= word in the middle ends the positional run: the word after it has no argument left.
    expect(
      thrown(() => parseSlashCommandLine('/mcp__example__greet Ada style=pirate Lovelace', list)).data,
    ).toMatchObject({ reason: 'too-many-arguments', extra: ['Lovelace'] });
  });

  it('splitWords keeps where each word is, and the value of name= words', () => {
    expect(splitWords(' a "b c" k="v w"')).toEqual([
      { value: 'a', start: 1, end: 2, unclosed: false },
      { value: 'b c', start: 3, end: 8, unclosed: false },
      { value: 'k=v w', start: 9, end: 16, key: 'k', keyValue: 'v w', valueStart: 11, unclosed: false },
    ]);
  });
});

describe('formatSlashCommandLine and quoteWord: what they write parses back', () => {
  const names = ['a', 'b', 'c'];
  const commandOf = (required: boolean[]) =>
    listOf({
      s: [
        {
          name: 'p',
          arguments: names.slice(0, required.length).map((name, i) => ({ name, required: required[i] === true })),
        },
      ],
    }).commands[0]!;
  // Any text, whitespace, quotes, backslashes, = and non-ASCII included.
  const text = fc.oneof(
    fc.string({ unit: fc.constantFrom('a', ' ', '"', "'", '\\', '=', 'é', '\t', '\n', 'x', '😀') }),
    fc.string({ unit: 'grapheme' }),
  );

  it('quoteWord: one word, read back as the value', () => {
    fc.assert(
      fc.property(text, (value) => {
        const words = splitWords(` ${quoteWord(value)} `);
        expect(words).toHaveLength(1);
        expect(words[0]).toMatchObject({ value, unclosed: false });
        expect(words[0]?.key).toBeUndefined();
      }),
      { numRuns: 500 },
    );
    expect(quoteWord("O'Brien")).toBe("O'Brien");
    expect(quoteWord('x=1')).toBe('"x=1"');
    expect(quoteWord("'s")).toBe('"\'s"');
    expect(quoteWord('say "hi" \\o/')).toBe('"say \\"hi\\" \\\\o/"');
  });

  it('every line made from argument values parses back to those values', () => {
    const shape = fc.array(fc.boolean(), { minLength: 1, maxLength: 3 });
    fc.assert(
      fc.property(
        shape.chain((required) =>
          fc.tuple(
            fc.constant(required),
            fc.tuple(
              ...required.map((r) => (r ? text.map((v) => [v]) : fc.option(text).map((v) => (v === null ? [] : [v])))),
            ),
          ),
        ),
        ([required, values]) => {
          const command = commandOf(required);
          const args: Record<string, string> = {};
          values.forEach((value, i) => {
            if (value.length === 1) args[names[i]!] = value[0]!;
          });
          const line = formatSlashCommandLine(command, args);
          const list = listOf({ s: [command.prompt.prompt] });
          expect(parseSlashCommandLine(line, list).arguments).toEqual(args);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('writes positional values up to the first argument left out, name= after it', () => {
    const command = commandOf([true, false, false]);
    expect(formatSlashCommandLine(command, { a: "O'Brien", c: 'x y' })).toBe('/mcp__s__p O\'Brien c="x y"');
    expect(formatSlashCommandLine(command, { a: '', b: 'k=v' })).toBe('/mcp__s__p "" "k=v"');
    expect(thrown(() => formatSlashCommandLine(command, { d: 'x' })).data).toMatchObject({
      reason: 'unknown-argument',
      argument: 'd',
    });
  });
});
