/**
 * The exposed-name rules, exactly: prefixing, the character set, the leading character, the
 * 64-character limit with its hash, collisions (renamed, reported, never dropped) and
 * duplicates. Hashes are checked against node:crypto, not against our own SHA-256.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  assignExposedNames,
  MAX_EXPOSED_NAME_LENGTH,
  sanitizeName,
  type NameRequest,
} from '../../src/host/catalog/exposedNames.js';

const hash = (server: string, name: string, digits = 8): string =>
  createHash('sha256').update(`${server}\u0000${name}`, 'utf8').digest('hex').slice(0, digits);

const req = (server: string, name: string, prefix: string = server): NameRequest => ({ server, name, prefix });
const namesOf = (requests: NameRequest[], rules = {}): Array<string | undefined> =>
  assignExposedNames(requests, rules).names;

/** What every model API accepts (OpenAI, Anthropic: ^[a-zA-Z0-9_-]{1,64}$; Gemini: starts with a letter or _). */
const MODEL_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

describe('exposed names', () => {
  it.each([
    ['server and tool', req('github', 'create_issue'), 'github__create_issue'],
    ['a dash is kept', req('my-server', 'get-sum'), 'my-server__get-sum'],
    ['a dot becomes _', req('fs', 'files.read'), 'fs__files_read'],
    ['spaces and slashes become _', req('My Server', 'a/b c'), 'My_Server__a_b_c'],
    ['each non-ASCII code point becomes one _', req('s', 'héllo😀'), 's__h_llo_'],
    ['a custom prefix', req('github', 'x', 'gh'), 'gh__x'],
    ['an empty prefix: the bare name', req('github', 'x', ''), 'x'],
    ['a leading digit gets a leading _', req('1password', 'get'), '_1password__get'],
    ['a leading dash gets a leading _', req('s', '-x', ''), '_-x'],
  ])('%s', (_label, request, expected) => {
    const [name] = namesOf([request]);
    expect(name).toBe(expected);
    expect(name).toMatch(MODEL_NAME);
  });

  it('uses the separator asked for', () => {
    expect(namesOf([req('a', 'b')], { separator: '-' })).toEqual(['a-b']);
    expect(namesOf([req('a', 'b')], { separator: '' })).toEqual(['ab']);
  });

  it('keeps a name of exactly 64 characters, and cuts a longer one to 55 + _ + 8 hex of SHA-256(server \\0 name)', () => {
    const fits = 'x'.repeat(64 - 'srv__'.length);
    expect(namesOf([req('srv', fits)])).toEqual([`srv__${fits}`]);
    const long = 'y'.repeat(80);
    const [name] = namesOf([req('srv', long)]);
    expect(name).toBe(`${`srv__${long}`.slice(0, 55)}_${hash('srv', long)}`);
    expect(name).toHaveLength(MAX_EXPOSED_NAME_LENGTH);
    expect(name).toMatch(MODEL_NAME);
  });

  it('gives two long names with the same first 55 characters different names', () => {
    const a = `${'z'.repeat(70)}_alpha`;
    const b = `${'z'.repeat(70)}_beta`;
    const result = assignExposedNames([req('s', a), req('s', b)]);
    expect(result.names[0]).not.toBe(result.names[1]);
    expect(result.collisions).toEqual([]);
  });

  it('hashes the original server and tool names, not the sanitized ones', () => {
    const [name] = namesOf([req('s.v', `${'q'.repeat(70)}.t`)]);
    expect(name?.endsWith(`_${hash('s.v', `${'q'.repeat(70)}.t`)}`)).toBe(true);
  });

  it('suffixes every tool of a collision with its hash, and reports it', () => {
    // "a.b" and "a_b" sanitize to the same name on the same server; a prefix shared by two servers too.
    const requests = [
      req('s', 'a.b'),
      req('s', 'a_b'),
      req('one', 'echo', 'x'),
      req('two', 'echo', 'x'),
      req('s', 'ok'),
    ];
    const { names, collisions } = assignExposedNames(requests);
    expect(names).toEqual([
      `s__a_b_${hash('s', 'a.b')}`,
      `s__a_b_${hash('s', 'a_b')}`,
      `x__echo_${hash('one', 'echo')}`,
      `x__echo_${hash('two', 'echo')}`,
      's__ok',
    ]);
    expect(collisions).toEqual([
      {
        exposedName: 's__a_b',
        resolution: 'suffixed',
        items: [
          { server: 's', name: 'a.b' },
          { server: 's', name: 'a_b' },
        ],
        exposedNames: [names[0], names[1]],
      },
      {
        exposedName: 'x__echo',
        resolution: 'suffixed',
        items: [
          { server: 'one', name: 'echo' },
          { server: 'two', name: 'echo' },
        ],
        exposedNames: [names[2], names[3]],
      },
    ]);
  });

  it("resolves a natural name that equals another tool's shortened one", () => {
    const long = 'w'.repeat(80);
    const shortened = `${`s__${long}`.slice(0, 55)}_${hash('s', long)}`;
    // A tool on a bare-prefixed server that happens to be named exactly like the shortened one.
    const { names, collisions } = assignExposedNames([req('s', long), req('t', shortened, '')]);
    expect(new Set(names).size).toBe(2);
    expect(names[0]).toBe(shortened);
    expect(names[1]).toBe(`${shortened.slice(0, 55)}_${hash('t', shortened)}`);
    expect(collisions).toHaveLength(1);
    expect(collisions[0]?.exposedName).toBe(shortened);
  });

  it('keeps the first of a name one server lists twice, and reports the duplicate', () => {
    const { names, collisions } = assignExposedNames([req('s', 'echo'), req('s', 'add'), req('s', 'echo')]);
    expect(names).toEqual(['s__echo', 's__add', undefined]);
    expect(collisions).toEqual([
      {
        exposedName: 's__echo',
        resolution: 'duplicate',
        items: [
          { server: 's', name: 'echo' },
          { server: 's', name: 'echo' },
        ],
        exposedNames: [],
      },
    ]);
  });

  it('onCollision: bare names unless two servers share one; then both are prefixed', () => {
    const { names, collisions } = assignExposedNames(
      [req('example', 'echo'), req('example', 'add'), req('everything', 'echo'), req('everything', 'get-sum')],
      { prefixMode: 'onCollision' },
    );
    expect(names).toEqual(['example__echo', 'add', 'everything__echo', 'get-sum']);
    expect(collisions).toEqual([]);
  });

  it('onCollision: a shared name on a server with an empty prefix is still made unique', () => {
    const { names, collisions } = assignExposedNames([req('a', 'echo', ''), req('b', 'echo')], {
      prefixMode: 'onCollision',
    });
    expect(names).toEqual(['echo', 'b__echo']);
    expect(collisions).toEqual([]);
    const both = assignExposedNames([req('a', 'echo', ''), req('b', 'echo', '')], { prefixMode: 'onCollision' });
    expect(both.names).toEqual([`echo_${hash('a', 'echo')}`, `echo_${hash('b', 'echo')}`]);
    expect(both.collisions).toHaveLength(1);
  });

  it('names a tool the same whatever the order of the others', () => {
    const requests = [req('a', 'x'), req('b', 'x', 'a'), req('c', 'y'), req('a', `${'l'.repeat(90)}`)];
    const forward = assignExposedNames(requests).names;
    const backward = assignExposedNames([...requests].reverse()).names.reverse();
    expect(backward).toEqual(forward);
  });

  it('never gives two tools one name, and every name fits every model API (a property)', () => {
    const piece = fc.constantFrom('a', 'A', '.', '_', '-', '9', 'é', ' ', '__', '😀', 'x'.repeat(40));
    const word = fc.array(piece, { minLength: 1, maxLength: 4 }).map((parts) => parts.join(''));
    const request = fc
      .record({ server: fc.constantFrom('s1', 's2', 's.3', '9x'), name: word, bare: fc.boolean() })
      .map(({ server, name, bare }) => req(server, name, bare ? '' : server));
    fc.assert(
      fc.property(fc.array(request, { maxLength: 30 }), fc.constantFrom('always', 'onCollision'), (requests, mode) => {
        const { names } = assignExposedNames(requests, { prefixMode: mode });
        const kept = names.filter((n): n is string => n !== undefined);
        expect(new Set(kept).size).toBe(kept.length);
        for (const name of kept) expect(name).toMatch(MODEL_NAME);
        // Only exact duplicates (same server, same name) are left out.
        expect(kept.length).toBe(new Set(requests.map((r) => `${r.server}\u0000${r.name}`)).size);
      }),
      { numRuns: 300 },
    );
  });

  it('sanitizeName', () => {
    expect(sanitizeName('ok_Name-1')).toBe('ok_Name-1');
    expect(sanitizeName('9lives')).toBe('_9lives');
    expect(sanitizeName('')).toBe('_');
  });
});
