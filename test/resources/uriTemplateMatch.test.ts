import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/errors/codes.js';
import { InvalidArgumentError } from '../../src/errors/errors.js';
import {
  UriTemplateAmbiguityError,
  UriTemplateError,
  isUriTemplateAmbiguityError,
} from '../../src/resources/errors.js';
import { expandUriTemplate, parseUriTemplate } from '../../src/resources/uriTemplate.js';
import { type UriTemplateValues } from '../../src/resources/rfc6570.js';
import { matchUriTemplate, matchUriTemplates } from '../../src/resources/uriTemplateMatch.js';

const one = (uri: string, template: string) => matchUriTemplates(uri, [template])[0];

describe('matchUriTemplates: examples', () => {
  it('reads variables back, pct-decoded', () => {
    expect(one('travel://activities/Paris/museums', 'travel://activities/{city}/{category}')?.variables).toEqual({
      city: 'Paris',
      category: 'museums',
    });
    expect(one('demo://greeting/J%C3%BCrgen%20K', 'demo://greeting/{name}')?.variables).toEqual({ name: 'Jürgen K' });
    expect(one('file:///home/u/a%20b.txt', 'file:///{+path}')?.variables).toEqual({ path: 'home/u/a b.txt' });
    expect(one('file:///home/u', 'file:///{path}')).toBeUndefined();
  });

  it('reads every operator of the RFC tables', () => {
    const cases: Array<[string, string, Record<string, string | string[]>]> = [
      ['X{.var}', 'X.value', { var: 'value' }],
      ['X{.var}', 'X', {}],
      ['{/var,x}/here', '/value/1024/here', { var: 'value', x: '1024' }],
      ['{;x,y,empty}', ';x=1024;y=768;empty', { x: '1024', y: '768', empty: '' }],
      ['{;v,bar,who}', ';v=6;who=fred', { v: '6', who: 'fred' }],
      ['{?x,y,empty}', '?x=1024&y=768&empty=', { x: '1024', y: '768', empty: '' }],
      ['{?x,y}', '?y=768', { y: '768' }],
      ['{?x,y}', '', {}],
      ['?fixed=yes{&x}', '?fixed=yes&x=1024', { x: '1024' }],
      ['{#path,x}/here', '#/foo/bar,1024/here', { path: '/foo/bar', x: '1024' }],
      ['foo{#undef}', 'foo', {}],
      ['{/list*}', '/red/green/blue', { list: ['red', 'green', 'blue'] }],
      ['{?list*}', '?list=red&list=green&list=blue', { list: ['red', 'green', 'blue'] }],
      ['{;list*}', ';list=red;list;list=blue', { list: ['red', '', 'blue'] }],
      ['{/list}', '/red,green,blue', { list: ['red', 'green', 'blue'] }],
      ['{?list}', '?list=red,green,blue', { list: ['red', 'green', 'blue'] }],
      ['www{.dom*}', 'www.example.com', { dom: ['example', 'com'] }],
      ['{var:3}', 'val', { var: 'val' }],
      ['{/var:1,var}', '/v/value', { var: 'value' }],
      ['{+base}index', 'http://example.com/home/index', { base: 'http://example.com/home/' }],
      ['demo://café/{x}', 'demo://caf%C3%A9/a', { x: 'a' }],
    ];
    for (const [template, uri, variables] of cases) {
      const match = one(uri, template);
      expect(match, `${template} on ${uri}`).toBeDefined();
      expect(match?.variables, `${template} on ${uri}`).toEqual(variables);
      expect(match?.ambiguous, `${template} on ${uri}`).toBe(false);
    }
  });

  it('does not match what the template cannot produce', () => {
    expect(one('X.value', 'X{/var}')).toBeUndefined();
    expect(one('valu', '{var:3}')).toBeUndefined();
    expect(one('a b', '{x}')).toBeUndefined();
    expect(one('demo://items/3/extra', 'demo://items/{n}')).toBeUndefined();
    expect(one('?y=1&x=2', '{?x,y}')).toBeUndefined();
  });

  it('keeps an escape that is not UTF-8 as sent', () => {
    expect(one('file:///a%FFb', 'file:///{+path}')?.variables).toEqual({ path: 'a%FFb' });
  });

  it('flags a template that matches in more than one way', () => {
    expect(one('ab', '{x}{y}')).toMatchObject({ ambiguous: true });
    expect(one('a,b,c', '{x,y}')).toMatchObject({ ambiguous: true });
    expect(one('a/b', '{+x}/{+y}')).toMatchObject({ ambiguous: false, variables: { x: 'a', y: 'b' } });
    expect(one('a/b/c', '{+x}/{+y}')).toMatchObject({ ambiguous: true });
  });

  it('keeps the given objects and order, and skips templates that are not RFC 6570', () => {
    const reported: Error[] = [];
    const templates = [
      { uriTemplate: 'demo://{+rest}', server: 'b' },
      { uriTemplate: 'demo://{bad', server: 'c' },
      { uriTemplate: 'demo://items/{n}', server: 'a' },
    ];
    const matches = matchUriTemplates('demo://items/7', templates, { onError: (e) => reported.push(e) });
    expect(matches.map((m) => m.template.server)).toEqual(['b', 'a']);
    expect(matches[1]?.variables).toEqual({ n: '7' });
    expect(reported).toHaveLength(1);
    expect(reported[0]).toBeInstanceOf(UriTemplateError);
    expect(matchUriTemplates('demo://items/7', [parseUriTemplate('demo://items/{n}')])).toHaveLength(1);
  });
});

describe('matchUriTemplates: bounded work', () => {
  it('matches a long URI with one free variable', () => {
    const path = 'a/'.repeat(32_000);
    expect(one(`file:///${path}`, 'file:///{+path}')?.variables).toEqual({ path });
  });

  it('gives up on a URI built against adjacent reserved variables, with a typed error', () => {
    const uri = `demo://${'a/'.repeat(8000)}Z/`;
    let error: unknown;
    try {
      matchUriTemplates(uri, ['demo://{+a}{+b}Z{c}']);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as InvalidArgumentError).data.name).toBe('uri');
  });
});

describe('matchUriTemplate: one template or a typed error', () => {
  it('returns the one match, or undefined', () => {
    const templates = ['demo://items/{n}', 'demo://greeting/{name}'];
    expect(matchUriTemplate('demo://greeting/ada', templates)).toMatchObject({
      template: 'demo://greeting/{name}',
      variables: { name: 'ada' },
    });
    expect(matchUriTemplate('other://x', templates)).toBeUndefined();
  });

  it('reports two templates that match, never picks one', () => {
    let error: unknown;
    try {
      matchUriTemplate('demo://items/7', ['demo://items/{n}', 'demo://{+rest}', 'other://{x}']);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UriTemplateAmbiguityError);
    expect(isUriTemplateAmbiguityError(error)).toBe(true);
    const ambiguity = error as UriTemplateAmbiguityError;
    expect(ambiguity.code).toBe(ErrorCode.UriTemplateAmbiguous);
    expect(ambiguity.data).toEqual({
      uri: 'demo://items/7',
      matches: [
        { uriTemplate: 'demo://items/{n}', variables: { n: '7' }, ambiguous: false },
        { uriTemplate: 'demo://{+rest}', variables: { rest: 'items/7' }, ambiguous: false },
      ],
    });
  });

  it('reports one template that matches in two ways', () => {
    expect(() => matchUriTemplate('ab', ['{x}{y}'])).toThrow(UriTemplateAmbiguityError);
  });
});

// ---- properties: matching inverts expansion for simple templates ----

/** Strings of any Unicode characters (no lone surrogates). */
const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 });
const literal = fc.stringMatching(/^\/[a-z0-9-]{0,6}\/?$/);
const name = (i: number) => `v${i}`;

/**
 * A simple template: `demo://` then path pieces, each a literal starting with "/" and one
 * single-variable expression (`{x}`, `{/x}`, `{.x}`), then optionally a `{?a,b,c}` query and
 * a `{/list*}` tail; every value a non-empty string.
 */
const simpleTemplate = fc
  .record({
    pieces: fc.array(fc.record({ literal, operator: fc.constantFrom('', '/', '.'), value: text }), {
      minLength: 1,
      maxLength: 4,
    }),
    query: fc.option(
      fc.array(fc.option(fc.string({ unit: 'grapheme', maxLength: 8 }), { nil: undefined }), {
        minLength: 1,
        maxLength: 3,
      }),
      {
        nil: undefined,
      },
    ),
  })
  .map(({ pieces, query }) => {
    let template = 'demo://host';
    const values: Record<string, string> = {};
    pieces.forEach((piece, i) => {
      template += `${piece.literal}{${piece.operator}${name(i)}}`;
      values[name(i)] = piece.value;
    });
    if (query !== undefined) {
      template += `{?${query.map((_, i) => `q${i}`).join(',')}}`;
      query.forEach((value, i) => {
        if (value !== undefined) values[`q${i}`] = value;
      });
    }
    return { template, values };
  });

describe('matchUriTemplates inverts expandUriTemplate (properties)', () => {
  it('simple templates: the expansion matches, once, with the same values', () => {
    fc.assert(
      fc.property(simpleTemplate, ({ template, values }) => {
        const uri = expandUriTemplate(template, values);
        const match = one(uri, template);
        expect(match?.ambiguous).toBe(false);
        expect(match?.variables).toEqual(values);
      }),
      { numRuns: 500 },
    );
  });

  it('reserved expansion of a path (no "%" in it) reads back as it was', () => {
    const path = fc.string({ unit: 'grapheme', maxLength: 20 }).filter((s) => !s.includes('%'));
    fc.assert(
      fc.property(path, (value) => {
        const uri = expandUriTemplate('file:///{+path}', { path: value });
        expect(one(uri, 'file:///{+path}')?.variables).toEqual({ path: value });
      }),
      { numRuns: 300 },
    );
  });

  it('exploded path segments read back as the same list', () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 5 }), (segments) => {
        const values: UriTemplateValues = { segments };
        const uri = expandUriTemplate('demo://tree{/segments*}', values);
        expect(one(uri, 'demo://tree{/segments*}')).toEqual({
          template: 'demo://tree{/segments*}',
          uriTemplate: 'demo://tree{/segments*}',
          variables: { segments },
          ambiguous: false,
        });
      }),
      { numRuns: 300 },
    );
  });

  it('a template never matches another template expansion it cannot produce', () => {
    fc.assert(
      fc.property(text, (value) => {
        const uri = expandUriTemplate('demo://a/{x}', { x: value });
        expect(one(uri, 'demo://b/{x}')).toBeUndefined();
        expect(one(uri, 'demo://a/{x}/more')).toBeUndefined();
      }),
      { numRuns: 100 },
    );
  });
});
