import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/errors/codes.js';
import { InvalidArgumentError } from '../../src/errors/errors.js';
import { UriTemplateError } from '../../src/resources/errors.js';
import { expandUriTemplate, parseUriTemplate } from '../../src/resources/uriTemplate.js';
import { type UriTemplateValues } from '../../src/resources/rfc6570.js';

/** RFC 6570 §3.2.1's variables; `keys` in the RFC's order. */
const RFC_VARIABLES: UriTemplateValues = {
  count: ['one', 'two', 'three'],
  dom: ['example', 'com'],
  dub: 'me/too',
  hello: 'Hello World!',
  half: '50%',
  var: 'value',
  who: 'fred',
  base: 'http://example.com/home/',
  path: '/foo/bar',
  list: ['red', 'green', 'blue'],
  keys: { semi: ';', dot: '.', comma: ',' },
  v: '6',
  x: '1024',
  y: '768',
  empty: '',
  empty_keys: {},
  undef: null,
};

/** RFC 6570 §1.2: the examples of each level. */
const LEVEL_EXAMPLES: Array<[level: number, template: string, expansion: string]> = [
  [1, '{var}', 'value'],
  // In §1.2 and uritemplate-test's spec-examples, though §2.1's ABNF leaves ' out of literals.
  [1, "'{var}'", "'value'"],
  [1, '{hello}', 'Hello%20World%21'],
  [2, '{+var}', 'value'],
  [2, '{+hello}', 'Hello%20World!'],
  [2, '{+path}/here', '/foo/bar/here'],
  [2, 'here?ref={+path}', 'here?ref=/foo/bar'],
  [2, 'X{#var}', 'X#value'],
  [2, 'X{#hello}', 'X#Hello%20World!'],
  [3, 'map?{x,y}', 'map?1024,768'],
  [3, '{x,hello,y}', '1024,Hello%20World%21,768'],
  [3, '{+x,hello,y}', '1024,Hello%20World!,768'],
  [3, '{+path,x}/here', '/foo/bar,1024/here'],
  [3, '{#x,hello,y}', '#1024,Hello%20World!,768'],
  [3, '{#path,x}/here', '#/foo/bar,1024/here'],
  [3, 'X{.var}', 'X.value'],
  [3, 'X{.x,y}', 'X.1024.768'],
  [3, '{/var}', '/value'],
  [3, '{/var,x}/here', '/value/1024/here'],
  [3, '{;x,y}', ';x=1024;y=768'],
  [3, '{;x,y,empty}', ';x=1024;y=768;empty'],
  [3, '{?x,y}', '?x=1024&y=768'],
  [3, '{?x,y,empty}', '?x=1024&y=768&empty='],
  [3, '?fixed=yes{&x}', '?fixed=yes&x=1024'],
  [3, '{&x,y,empty}', '&x=1024&y=768&empty='],
  [4, '{var:3}', 'val'],
  [4, '{var:30}', 'value'],
  [4, '{list}', 'red,green,blue'],
  [4, '{list*}', 'red,green,blue'],
  [4, '{keys}', 'semi,%3B,dot,.,comma,%2C'],
  [4, '{keys*}', 'semi=%3B,dot=.,comma=%2C'],
  [4, '{+path:6}/here', '/foo/b/here'],
  [4, '{+list}', 'red,green,blue'],
  [4, '{+list*}', 'red,green,blue'],
  [4, '{+keys}', 'semi,;,dot,.,comma,,'],
  [4, '{+keys*}', 'semi=;,dot=.,comma=,'],
  [4, '{#path:6}/here', '#/foo/b/here'],
  [4, '{#list}', '#red,green,blue'],
  [4, '{#list*}', '#red,green,blue'],
  [4, '{#keys}', '#semi,;,dot,.,comma,,'],
  [4, '{#keys*}', '#semi=;,dot=.,comma=,'],
  [4, 'X{.var:3}', 'X.val'],
  [4, 'X{.list}', 'X.red,green,blue'],
  [4, 'X{.list*}', 'X.red.green.blue'],
  [4, 'X{.keys}', 'X.semi,%3B,dot,.,comma,%2C'],
  [4, 'X{.keys*}', 'X.semi=%3B.dot=..comma=%2C'],
  [4, '{/var:1,var}', '/v/value'],
  [4, '{/list}', '/red,green,blue'],
  [4, '{/list*}', '/red/green/blue'],
  [4, '{/list*,path:4}', '/red/green/blue/%2Ffoo'],
  [4, '{/keys}', '/semi,%3B,dot,.,comma,%2C'],
  [4, '{/keys*}', '/semi=%3B/dot=./comma=%2C'],
  [4, '{;hello:5}', ';hello=Hello'],
  [4, '{;list}', ';list=red,green,blue'],
  [4, '{;list*}', ';list=red;list=green;list=blue'],
  [4, '{;keys}', ';keys=semi,%3B,dot,.,comma,%2C'],
  [4, '{;keys*}', ';semi=%3B;dot=.;comma=%2C'],
  [4, '{?var:3}', '?var=val'],
  [4, '{?list}', '?list=red,green,blue'],
  [4, '{?list*}', '?list=red&list=green&list=blue'],
  [4, '{?keys}', '?keys=semi,%3B,dot,.,comma,%2C'],
  [4, '{?keys*}', '?semi=%3B&dot=.&comma=%2C'],
  [4, '{&var:3}', '&var=val'],
  [4, '{&list}', '&list=red,green,blue'],
  [4, '{&list*}', '&list=red&list=green&list=blue'],
  [4, '{&keys}', '&keys=semi,%3B,dot,.,comma,%2C'],
  [4, '{&keys*}', '&semi=%3B&dot=.&comma=%2C'],
];

/** RFC 6570 §3.2.1–§3.2.9: the examples of each expression type. */
const SECTION_EXAMPLES: Array<[section: string, template: string, expansion: string]> = [
  ['3.2.1', '{count}', 'one,two,three'],
  ['3.2.1', '{count*}', 'one,two,three'],
  ['3.2.1', '{/count}', '/one,two,three'],
  ['3.2.1', '{/count*}', '/one/two/three'],
  ['3.2.1', '{;count}', ';count=one,two,three'],
  ['3.2.1', '{;count*}', ';count=one;count=two;count=three'],
  ['3.2.1', '{?count}', '?count=one,two,three'],
  ['3.2.1', '{?count*}', '?count=one&count=two&count=three'],
  ['3.2.1', '{&count*}', '&count=one&count=two&count=three'],
  ['3.2.2', '{var}', 'value'],
  ['3.2.2', '{hello}', 'Hello%20World%21'],
  ['3.2.2', '{half}', '50%25'],
  ['3.2.2', 'O{empty}X', 'OX'],
  ['3.2.2', 'O{undef}X', 'OX'],
  ['3.2.2', '{x,y}', '1024,768'],
  ['3.2.2', '{x,hello,y}', '1024,Hello%20World%21,768'],
  ['3.2.2', '?{x,empty}', '?1024,'],
  ['3.2.2', '?{x,undef}', '?1024'],
  ['3.2.2', '?{undef,y}', '?768'],
  ['3.2.2', '{var:3}', 'val'],
  ['3.2.2', '{var:30}', 'value'],
  ['3.2.2', '{list}', 'red,green,blue'],
  ['3.2.2', '{list*}', 'red,green,blue'],
  ['3.2.2', '{keys}', 'semi,%3B,dot,.,comma,%2C'],
  ['3.2.2', '{keys*}', 'semi=%3B,dot=.,comma=%2C'],
  ['3.2.3', '{+var}', 'value'],
  ['3.2.3', '{+hello}', 'Hello%20World!'],
  ['3.2.3', '{+half}', '50%25'],
  ['3.2.3', '{base}index', 'http%3A%2F%2Fexample.com%2Fhome%2Findex'],
  ['3.2.3', '{+base}index', 'http://example.com/home/index'],
  ['3.2.3', 'O{+empty}X', 'OX'],
  ['3.2.3', 'O{+undef}X', 'OX'],
  ['3.2.3', '{+path}/here', '/foo/bar/here'],
  ['3.2.3', 'here?ref={+path}', 'here?ref=/foo/bar'],
  ['3.2.3', 'up{+path}{var}/here', 'up/foo/barvalue/here'],
  ['3.2.3', '{+x,hello,y}', '1024,Hello%20World!,768'],
  ['3.2.3', '{+path,x}/here', '/foo/bar,1024/here'],
  ['3.2.3', '{+path:6}/here', '/foo/b/here'],
  ['3.2.3', '{+list}', 'red,green,blue'],
  ['3.2.3', '{+list*}', 'red,green,blue'],
  ['3.2.3', '{+keys}', 'semi,;,dot,.,comma,,'],
  ['3.2.3', '{+keys*}', 'semi=;,dot=.,comma=,'],
  ['3.2.4', '{#var}', '#value'],
  ['3.2.4', '{#hello}', '#Hello%20World!'],
  ['3.2.4', '{#half}', '#50%25'],
  ['3.2.4', 'foo{#empty}', 'foo#'],
  ['3.2.4', 'foo{#undef}', 'foo'],
  ['3.2.4', '{#x,hello,y}', '#1024,Hello%20World!,768'],
  ['3.2.4', '{#path,x}/here', '#/foo/bar,1024/here'],
  ['3.2.4', '{#path:6}/here', '#/foo/b/here'],
  ['3.2.4', '{#list}', '#red,green,blue'],
  ['3.2.4', '{#list*}', '#red,green,blue'],
  ['3.2.4', '{#keys}', '#semi,;,dot,.,comma,,'],
  ['3.2.4', '{#keys*}', '#semi=;,dot=.,comma=,'],
  ['3.2.5', '{.who}', '.fred'],
  ['3.2.5', '{.who,who}', '.fred.fred'],
  ['3.2.5', '{.half,who}', '.50%25.fred'],
  ['3.2.5', 'www{.dom*}', 'www.example.com'],
  ['3.2.5', 'X{.var}', 'X.value'],
  ['3.2.5', 'X{.empty}', 'X.'],
  ['3.2.5', 'X{.undef}', 'X'],
  ['3.2.5', 'X{.var:3}', 'X.val'],
  ['3.2.5', 'X{.list}', 'X.red,green,blue'],
  ['3.2.5', 'X{.list*}', 'X.red.green.blue'],
  ['3.2.5', 'X{.keys}', 'X.semi,%3B,dot,.,comma,%2C'],
  ['3.2.5', 'X{.keys*}', 'X.semi=%3B.dot=..comma=%2C'],
  ['3.2.5', 'X{.empty_keys}', 'X'],
  ['3.2.5', 'X{.empty_keys*}', 'X'],
  ['3.2.6', '{/who}', '/fred'],
  ['3.2.6', '{/who,who}', '/fred/fred'],
  ['3.2.6', '{/half,who}', '/50%25/fred'],
  ['3.2.6', '{/who,dub}', '/fred/me%2Ftoo'],
  ['3.2.6', '{/var}', '/value'],
  ['3.2.6', '{/var,empty}', '/value/'],
  ['3.2.6', '{/var,undef}', '/value'],
  ['3.2.6', '{/var,x}/here', '/value/1024/here'],
  ['3.2.6', '{/var:1,var}', '/v/value'],
  ['3.2.6', '{/list}', '/red,green,blue'],
  ['3.2.6', '{/list*}', '/red/green/blue'],
  ['3.2.6', '{/list*,path:4}', '/red/green/blue/%2Ffoo'],
  ['3.2.6', '{/keys}', '/semi,%3B,dot,.,comma,%2C'],
  ['3.2.6', '{/keys*}', '/semi=%3B/dot=./comma=%2C'],
  ['3.2.7', '{;who}', ';who=fred'],
  ['3.2.7', '{;half}', ';half=50%25'],
  ['3.2.7', '{;empty}', ';empty'],
  ['3.2.7', '{;v,empty,who}', ';v=6;empty;who=fred'],
  ['3.2.7', '{;v,bar,who}', ';v=6;who=fred'],
  ['3.2.7', '{;x,y}', ';x=1024;y=768'],
  ['3.2.7', '{;x,y,empty}', ';x=1024;y=768;empty'],
  ['3.2.7', '{;x,y,undef}', ';x=1024;y=768'],
  ['3.2.7', '{;hello:5}', ';hello=Hello'],
  ['3.2.7', '{;list}', ';list=red,green,blue'],
  ['3.2.7', '{;list*}', ';list=red;list=green;list=blue'],
  ['3.2.7', '{;keys}', ';keys=semi,%3B,dot,.,comma,%2C'],
  ['3.2.7', '{;keys*}', ';semi=%3B;dot=.;comma=%2C'],
  ['3.2.8', '{?who}', '?who=fred'],
  ['3.2.8', '{?half}', '?half=50%25'],
  ['3.2.8', '{?x,y}', '?x=1024&y=768'],
  ['3.2.8', '{?x,y,empty}', '?x=1024&y=768&empty='],
  ['3.2.8', '{?x,y,undef}', '?x=1024&y=768'],
  ['3.2.8', '{?var:3}', '?var=val'],
  ['3.2.8', '{?list}', '?list=red,green,blue'],
  ['3.2.8', '{?list*}', '?list=red&list=green&list=blue'],
  ['3.2.8', '{?keys}', '?keys=semi,%3B,dot,.,comma,%2C'],
  ['3.2.8', '{?keys*}', '?semi=%3B&dot=.&comma=%2C'],
  ['3.2.9', '{&who}', '&who=fred'],
  ['3.2.9', '{&half}', '&half=50%25'],
  ['3.2.9', '?fixed=yes{&x}', '?fixed=yes&x=1024'],
  ['3.2.9', '{&x,y,empty}', '&x=1024&y=768&empty='],
  ['3.2.9', '{&x,y,undef}', '&x=1024&y=768'],
  ['3.2.9', '{&var:3}', '&var=val'],
  ['3.2.9', '{&list}', '&list=red,green,blue'],
  ['3.2.9', '{&list*}', '&list=red&list=green&list=blue'],
  ['3.2.9', '{&keys}', '&keys=semi,%3B,dot,.,comma,%2C'],
  ['3.2.9', '{&keys*}', '&semi=%3B&dot=.&comma=%2C'],
];

describe('expandUriTemplate: RFC 6570 examples', () => {
  it.each(LEVEL_EXAMPLES)('§1.2 level %i: %s → %s', (_, template, expansion) => {
    expect(expandUriTemplate(template, RFC_VARIABLES)).toBe(expansion);
  });

  it.each(SECTION_EXAMPLES)('§%s: %s → %s', (_, template, expansion) => {
    expect(expandUriTemplate(template, RFC_VARIABLES)).toBe(expansion);
  });
});

describe('expandUriTemplate: beyond the RFC tables', () => {
  it('pct-encodes what reserved and fragment expansion may not pass raw', () => {
    const x = 'a"b<c>d\\e^f`g{h|i}j k\n';
    expect(expandUriTemplate('{+x}', { x })).toBe('a%22b%3Cc%3Ed%5Ce%5Ef%60g%7Bh%7Ci%7Dj%20k%0A');
    expect(expandUriTemplate('{#x}', { x: '<>' })).toBe('#%3C%3E');
    // Reserved characters and pct-encoded triplets stay; a lone % does not.
    expect(expandUriTemplate('{+x}', { x: '/a?b=c&d#e[f]%41%zz' })).toBe('/a?b=c&d#e[f]%41%25zz');
  });

  it("pct-encodes the sub-delims ' ( ) * outside reserved expansion", () => {
    expect(expandUriTemplate('{x}{/y*}{?z}', { x: "'()*!", y: ["it's"], z: '(a)' })).toBe(
      '%27%28%29%2A%21/it%27s?z=%28a%29',
    );
    expect(expandUriTemplate('{+x}', { x: "'()*!" })).toBe("'()*!");
  });

  it('encodes values as UTF-8 and counts a prefix in characters, not UTF-16 units', () => {
    expect(expandUriTemplate('{x}', { x: 'é😀' })).toBe('%C3%A9%F0%9F%98%80');
    expect(expandUriTemplate('{x:1}', { x: '😀a' })).toBe('%F0%9F%98%80');
    expect(expandUriTemplate('demo://{x}', { x: 'a/b c' })).toBe('demo://a%2Fb%20c');
  });

  it('takes numbers and booleans, and treats empty lists and maps as undefined (§2.3)', () => {
    expect(expandUriTemplate('{?n,b}', { n: 42, b: false })).toBe('?n=42&b=false');
    expect(expandUriTemplate('{?l,m,e}', { l: [], m: {}, e: '' })).toBe('?e=');
    expect(expandUriTemplate('{?m*}', { m: { a: '1', b: undefined, c: null } })).toBe('?a=1');
  });

  it('never looks names up on the prototype', () => {
    expect(expandUriTemplate('x{constructor}{toString}y', {})).toBe('xy');
  });

  it('rejects values it cannot expand, naming the template and the variable', () => {
    const cases: Array<[UriTemplateValues, string]> = [
      [{ x: { nested: { deep: 1 } } as never }, 'x'],
      [{ x: [['a']] as never }, 'x'],
      [{ x: Number.NaN }, 'x'],
      [{ x: 'a\ud800' }, 'x'],
      [{ x: (() => 1) as never }, 'x'],
    ];
    for (const [values, variable] of cases) {
      const error = catchError(() => expandUriTemplate('demo://{x}', values));
      expect(error).toBeInstanceOf(UriTemplateError);
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error.code).toBe(ErrorCode.InvalidParams);
      expect(error.data).toMatchObject({ name: 'variables', template: 'demo://{x}', variable });
      expect(error.message).toContain('demo://{x}');
    }
    const prefixed = catchError(() => expandUriTemplate('{list:2}', { list: ['abc'] }));
    expect(prefixed.data).toMatchObject({ variable: 'list', value: ['abc'] });
    const map = catchError(() => expandUriTemplate('{+keys:1}', { keys: { a: 'b' } }));
    expect(map.data).toMatchObject({ variable: 'keys' });
    expect(catchError(() => expandUriTemplate('{x}', null as never)).data).toMatchObject({ name: 'variables' });
  });
});

describe('parseUriTemplate', () => {
  it('lists the variables with operator, explode and prefix', () => {
    const parsed = parseUriTemplate('travel://{city}/{+path:6}{/seg*}{?q,lang}{&x}{#frag}{.ext}{;p*}');
    expect(parsed.variables).toEqual([
      { name: 'city', operator: '', explode: false },
      { name: 'path', operator: '+', explode: false, prefix: 6 },
      { name: 'seg', operator: '/', explode: true },
      { name: 'q', operator: '?', explode: false },
      { name: 'lang', operator: '?', explode: false },
      { name: 'x', operator: '&', explode: false },
      { name: 'frag', operator: '#', explode: false },
      { name: 'ext', operator: '.', explode: false },
      { name: 'p', operator: ';', explode: true },
    ]);
    expect(parseUriTemplate('{/var:1,var}').variableNames).toEqual(['var']);
    expect(parseUriTemplate('{Stra%C3%9Fe}{a.b}').variableNames).toEqual(['Stra%C3%9Fe', 'a.b']);
    expect(parseUriTemplate('demo://plain').parts).toEqual(['demo://plain']);
  });

  it('takes a ResourceTemplate, and returns a parsed template as it is', () => {
    const parsed = parseUriTemplate({ uriTemplate: 'demo://{x}' });
    expect(parsed.variableNames).toEqual(['x']);
    expect(parseUriTemplate(parsed)).toBe(parsed);
    expect(Object.isFrozen(parsed.variables[0])).toBe(true);
  });

  /** RFC 6570 negative cases (malformed expressions, reserved operators, bad prefixes, bad names). */
  const MALFORMED: Array<[template: string, position: number]> = [
    ['{/id*', 0],
    ['/id*}', 4],
    ['{/?id}', 2],
    ['{var:prefix}', 1],
    ['{hello:2*}', 1],
    ['{??hello}', 2],
    ['{!hello}', 1],
    ['{with space}', 1],
    ['{ leading_space}', 1],
    ['{trailing_space }', 1],
    ['{=path}', 1],
    ['{$var}', 1],
    ['{|var*}', 1],
    ['{*keys?}', 1],
    ['{?empty=default,var}', 2],
    ['{var}{-prefix|/-/|var}', 6],
    ['x{?empty|foo=none}', 3],
    ['/h{#hello+}', 4],
    ['{;keys:1*}', 2],
    ['{var:0}', 1],
    ['{var:01}', 1],
    ['{var:10000}', 1],
    ['{var:}', 1],
    ['{x.}', 1],
    ['{x..y}', 1],
    ['{%2x}', 1],
    ['{}', 1],
    ['{a,}', 3],
    ['a b', 1],
    ['50%', 2],
    ['a"b', 1],
    ['a<b>', 1],
    ['a\\b', 1],
    ['a^b', 1],
    ['a`b', 1],
    ['a|b', 1],
    ['a\nb', 1],
  ];
  it.each(MALFORMED)('rejects %j at position %i', (template, position) => {
    const error = catchError(() => parseUriTemplate(template));
    expect(error).toBeInstanceOf(UriTemplateError);
    expect(error.code).toBe(ErrorCode.InvalidParams);
    expect(error.data).toMatchObject({ name: 'uriTemplate', value: template, template, position });
  });

  it('rejects what is not a template string', () => {
    expect(catchError(() => parseUriTemplate(42 as never)).data).toMatchObject({ name: 'uriTemplate', value: 42 });
  });

  it('accepts non-ASCII literals the RFC allows (ucschar, iprivate) and pct-encoded ones', () => {
    expect(expandUriTemplate('demo://café/{x}%20', { x: 'a' })).toBe('demo://caf%C3%A9/a%20');
  });
});

function catchError(run: () => unknown): UriTemplateError {
  try {
    run();
  } catch (error) {
    return error as UriTemplateError;
  }
  throw new Error('expected an error');
}
