import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { FrontmatterSyntaxError, parseFrontmatterYaml } from '../../src/skills/frontmatterYaml.js';
import { splitSkillMd } from '../../src/skills/frontmatter.js';

/** What a full YAML 1.2 parser (core schema) reads: the reference the restricted reader must agree with. */
const full = (yaml: string): unknown =>
  parse(yaml, { version: '1.2', schema: 'core', uniqueKeys: true, maxAliasCount: 0 });

// Frontmatters written the ways skills are written; each must read exactly as the full parser reads it.
const ACCEPTED: Record<string, string> = {
  minimal: 'name: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\n',
  'agent skills fields': [
    'name: refunds',
    'description: Process customer refund requests per company policy',
    'license: Apache-2.0',
    'compatibility: Requires Node.js 18+ and network access',
    'allowed-tools: Bash(git:*) Read WebFetch',
    'metadata:',
    '  author: example-org',
    '  version: "2.1.0"',
    '  io.modelcontextprotocol/reserved: x',
    '',
  ].join('\n'),
  'comments and blank lines': '# a comment\nname: a   # trailing comment\n\n  # indented comment\ndescription: b\n',
  'typed plain scalars': [
    'n: null',
    't: ~',
    'e:',
    'yes: yes',
    'on: On',
    'b1: true',
    'b2: False',
    'i: 42',
    'neg: -17',
    'lead: 007',
    'oct: 0o17',
    'hex: 0x1F',
    'f: 1.5',
    'f2: -2.5e3',
    'f3: .5',
    'f4: 1.',
    'ver: 1.0',
    'date: 2001-12-14',
    'str: 1.2.3',
    'url: https://example.com/a#b',
    'colon: a:b',
    'hash: C#',
    'dash: -x',
    'q: ?x',
    '',
  ].join('\n'),
  'quoted scalars': [
    `single: 'it''s here: yes # not a comment'`,
    `double: "tab\\tnl\\n quote\\" slash\\\\ u\\u00e9 x\\x41 U\\U0001F600 \\/ \\_"`,
    `"quoted key": 1`,
    `'single key': 2`,
    `empty: ""`,
    `after: "x"  # comment`,
    '',
  ].join('\n'),
  'folded plain scalar':
    'description: a long description\n  that continues here\n\n  and after a blank line\nname: x\n',
  'literal block': 'body: |\n  line one\n    indented\n  line three\n\nnext: 1\n',
  'literal strip and keep': 'a: |-\n  x\n  y\n\nb: |+\n  x\n\n\nc: 1\n',
  'folded block': 'd: >\n  folded one\n  folded two\n\n  new paragraph\n    more indented\n  back\n',
  'folded strip': 'd: >-\n  one\n  two\ne: >+\n  keep\n\n',
  'block scalar with comment header': 'd: | # comment\n  text\n',
  'empty block scalar': 'a: |\nb: >-\nc: 1\n',
  'block scalar trailing spaces kept': 'a: |\n  x  \n  y\n',
  'nested mappings': 'metadata:\n  a:\n    b:\n      c: deep\n  d: 1\nname: n\n',
  'block sequences': 'tags:\n  - one\n  - two\n  -\n  - "q"\nsame-indent:\n- a\n- b\nname: x\n',
  'sequence of sequences and mappings': 'x:\n  -\n    - a\n    - b\n  -\n    k: v\n',
  'flow collections':
    'tags: [a, b c, "d, e", 1, true, null]\nmap: {k: v, n: 1, "q k": [x, y], e: [], z: }\nempty: {}\nnested: [[1, 2], {a: b}]\ntrailing: [1, 2, ]\n',
  'key with trailing spaces': 'name  : x\n',
  'value on the line below its key': 'a:\n  "q"\nb:\n  [1, 2]\nc:\n  plain text\n  folded\nd:\n  |\n  e: 1\n',
  'windows-free utf-8': 'description: Café — naïve 日本語 🎉\n',
};

describe('parseFrontmatterYaml: what it reads, it reads as a full YAML parser does', () => {
  for (const [name, yaml] of Object.entries(ACCEPTED)) {
    it(name, () => {
      const ours = parseFrontmatterYaml(yaml);
      expect(ours).toEqual(full(yaml));
      expect(JSON.parse(JSON.stringify(ours))).toEqual(ours);
    });
  }

  it('types the core schema: spot checks of real values', () => {
    const doc = parseFrontmatterYaml(ACCEPTED['typed plain scalars']!);
    expect(doc).toMatchObject({
      n: null,
      e: null,
      yes: 'yes',
      b2: false,
      lead: 7,
      oct: 15,
      hex: 31,
      ver: 1,
      date: '2001-12-14',
    });
    expect(parseFrontmatterYaml(ACCEPTED['literal strip and keep']!)).toEqual({ a: 'x\ny', b: 'x\n\n\n', c: 1 });
  });
});

// Everything else is refused with the line and the offending text.
const REFUSED: [name: string, yaml: string, reason: RegExp, line: number, value?: string][] = [
  ['anchor', 'a: &x 1\n', /anchors, aliases and tags/, 2, '&x 1'],
  ['alias', 'a: 1\nb: *x\n', /anchors, aliases and tags/, 3, '*x'],
  ['tag', 'a: !!str 1\n', /anchors, aliases and tags/, 2],
  ['tag in flow', 'a: [!x 1]\n', /anchors, aliases and tags/, 2],
  ['directive-like', 'a: %x\n', /cannot start a plain value/, 2, '%x'],
  ['reserved @', 'a: @x\n', /cannot start a plain value/, 2],
  ['repeated key', 'name: a\nname: b\n', /repeated/, 3],
  ['repeated key in flow', 'a: {k: 1, k: 2}\n', /repeated/, 2],
  ['complex key', '? a\n: b\n', /complex keys/, 2],
  ['flow key', '[a]: b\n', /complex keys/, 2],
  ['integer key', '1: a\n', /key must be a string/, 2, '1'],
  ['null key', 'null: a\n', /key must be a string/, 2],
  ['empty key', ': a\n', /must not be empty/, 2],
  ['__proto__', '__proto__: a\n', /__proto__/, 2],
  ['tab indentation', 'a:\n\tb: 1\n', /tab/, 3],
  ['not a mapping (scalar)', 'just text\n', /expected "key: value"/, 2],
  ['not a mapping (sequence)', '- a\n- b\n', /must be a mapping/, 2],
  ['empty', '\n# only a comment\n', /empty/, 2],
  ['indented document', '  a: 1\n', /must be a mapping/, 2],
  ['bad indentation', 'a: 1\n  b: 2\n', /": "|unexpected indentation/, 3],
  ['over-indented key', 'a:\n  b: 1\n    c: 2\n', /": "|unexpected indentation/, 4],
  ['mapping on an item line', 'a:\n  - k: v\n', /mapping on the line of a sequence item/, 3],
  ['sequence on a key line', 'a: - x\n', /sequence on the line of its key/, 2],
  ['colon in a plain value', 'a: b: c\n', /cannot hold ": "/, 2],
  ['multi-line double quote', 'a: "one\n  two"\n', /close on its line/, 2],
  ['multi-line flow', 'a: [1,\n  2]\n', /close on its line/, 2],
  ['unknown escape', 'a: "\\q"\n', /unknown escape/, 2, '\\q'],
  ['lone surrogate escape', 'a: "\\ud800"\n', /not a character/, 2],
  ['text after a quoted value', 'a: "x" y\n', /unexpected text after the value/, 2, ' y'],
  ['indentation indicator', 'a: |2\n  x\n', /indentation indicators/, 2],
  ['bad block header', 'a: |x\n', /invalid block scalar header/, 2],
  ['more-indented leading blank line', 'a: |\n   \n  x\n', /leading blank line/, 4],
  ['multi-line single quote', "a: 'one\n  two'\n", /close on its line/, 2],
  ['block scalar dedent', 'a: |\n    x\n  y\n', /indented less/, 4],
  ['infinity', 'a: .inf\n', /JSON cannot hold/, 2, '.inf'],
  ['nan', 'a: .NaN\n', /JSON cannot hold/, 2],
  ['huge float', 'a: 1e400\n', /JSON cannot hold/, 2],
  ['unsafe integer', 'a: 9007199254740993\n', /exactly/, 2, '9007199254740993'],
  ['flow mapping in a sequence', 'a: [k: v]\n', /unexpected text in a flow collection/, 2],
  ['empty flow item', 'a: [1, , 2]\n', /empty value/, 2],
  ['document end marker', 'a: 1\n...\n', /expected "key: value"/, 3],
  ['too deep', `a: ${'['.repeat(40)}${']'.repeat(40)}\n`, /nesting deeper than 32/, 2],
];

describe('parseFrontmatterYaml: everything else is a FrontmatterSyntaxError with line and value', () => {
  for (const [name, yaml, reason, line, value] of REFUSED) {
    it(name, () => {
      let caught: unknown;
      try {
        parseFrontmatterYaml(yaml);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(FrontmatterSyntaxError);
      const error = caught as FrontmatterSyntaxError;
      expect(error.reason).toMatch(reason);
      expect(error.line).toBe(line);
      if (value !== undefined) expect(error.value).toBe(value);
      expect(error.message).toContain(`line ${line}: `);
    });
  }

  it('a refused document is one a full parser reads differently or not at all (never silently the same)', () => {
    // The cases a full parser accepts: ours refuses them rather than guess.
    for (const yaml of ['a: &x 1\nb: *x\n', 'a: [k: v]\n', '1: a\n'])
      expect(() => parse(yaml, { version: '1.2', schema: 'core' })).not.toThrow();
    for (const yaml of ['name: a\nname: b\n', 'a: b: c\n']) expect(() => full(yaml)).toThrow();
  });
});

describe('splitSkillMd', () => {
  it('splits frontmatter and body; BOM and CRLF read as LF; line numbers count from the file', () => {
    const md = '\uFEFF---\r\nname: x\r\ndescription: y\r\n---\r\n# Body\r\n';
    expect(splitSkillMd(md)).toEqual({ frontmatter: { name: 'x', description: 'y' }, body: '# Body\n' });
    expect(() => splitSkillMd('---\nname: x\nname: y\n---\n')).toThrow(/^line 3: /);
  });

  it('refuses a file without the --- lines', () => {
    expect(() => splitSkillMd('# no frontmatter\n')).toThrow(FrontmatterSyntaxError);
    expect(() => splitSkillMd('---\nname: x\n')).toThrow(/no closing "---" line/);
  });
});
