/**
 * RFC 6570 URI templates, as MCP resource templates use them (spec: server/resources, Resource
 * Templates): the parse (which variables, with which operator and modifiers) is ours, strict to
 * the RFC's grammar (§2); the expansion is `@std-uritemplate/std-uritemplate`'s (all four levels).
 * The public functions and their contracts are in `uriTemplate.ts`; the client and the host load
 * this file on first use (a template read, a mention's completion), and `uriTemplate.ts` only
 * imports it, so a program that imports neither loads none of it.
 */
import { StdUriTemplate } from '@std-uritemplate/std-uritemplate';
import { UriTemplateError } from './errors.js';

/**
 * An expression's operator (RFC 6570 §2.2): `""` simple string, `+` reserved, `#` fragment,
 * `.` label, `/` path segment, `;` path-style parameter, `?` form-style query, `&` query
 * continuation.
 */
export type UriTemplateOperator = '' | '+' | '#' | '.' | '/' | ';' | '?' | '&';

/** One varspec of a template (RFC 6570 §2.3, §2.4): what a host needs to build a form field. */
export interface UriTemplateVariable {
  /** The variable's name as written (`city`, `a.b`; pct-encoded names stay encoded). */
  readonly name: string;
  /** The operator of the expression it is in. */
  readonly operator: UriTemplateOperator;
  /** `*`: a list or map expands to one item per member (§2.4.2). */
  readonly explode: boolean;
  /** `:n`: only the first `n` characters of a string value are used (§2.4.1); 1..9999. */
  readonly prefix?: number | undefined;
}

/** One expression of a parsed template: `{` operator varspec, … `}`. */
export interface UriTemplateExpression {
  readonly operator: UriTemplateOperator;
  readonly variables: readonly UriTemplateVariable[];
}

/** A literal run (as written) or an expression. */
export type UriTemplatePart = string | UriTemplateExpression;

/** A value a variable can take (RFC 6570 §2.3): a string, a list, or an associative array (map). */
export type UriTemplateValue =
  | string
  | number
  | boolean
  | readonly (string | number | boolean)[]
  | Readonly<Record<string, string | number | boolean | null | undefined>>;

/** Values by variable name; `undefined` and `null` mean the variable is undefined (§2.3). */
export type UriTemplateValues = Readonly<Record<string, UriTemplateValue | null | undefined>>;

/**
 * A parsed RFC 6570 template. Build it with {@link parseUriTemplate}; it is immutable, and any
 * function that takes a template string also takes one of these (and skips the parse).
 */
export interface UriTemplate {
  /** The template as given. */
  readonly uriTemplate: string;
  /** Literal runs (as written) and expressions, in order. */
  readonly parts: readonly UriTemplatePart[];
  /** Every varspec in order of appearance; a name used twice appears twice. */
  readonly variables: readonly UriTemplateVariable[];
  /** Each variable name once, in order of first appearance. */
  readonly variableNames: readonly string[];
}

/**
 * Where a template can come from: its string, a `ResourceTemplate` from `resources/templates/list`
 * (or any object with a `uriTemplate` string), or a {@link UriTemplate} already parsed.
 */
export type UriTemplateSource = string | { readonly uriTemplate: string } | UriTemplate;

const OPERATORS = new Set(['+', '#', '.', '/', ';', '?', '&']);
const RESERVED_OPERATORS = new Set(['=', ',', '!', '@', '|']);
const BRAND = new WeakSet<object>();

/** `parseUriTemplate` (see `uriTemplate.ts`). */
export function parseUriTemplate(uriTemplate: string | UriTemplateSource): UriTemplate {
  if (isUriTemplate(uriTemplate)) return uriTemplate;
  const template =
    typeof uriTemplate === 'object' && uriTemplate !== null
      ? (uriTemplate as { uriTemplate: unknown }).uriTemplate
      : uriTemplate;
  if (typeof template !== 'string')
    throw new UriTemplateError('expected a URI template string', {
      name: 'uriTemplate',
      value: template,
      template: String(template),
    });
  const fail = (reason: string, position: number, variable?: string): never => {
    throw new UriTemplateError(`${reason} at position ${position}`, {
      name: 'uriTemplate',
      value: template,
      template,
      position,
      ...(variable !== undefined && { variable }),
    });
  };
  const parts: UriTemplatePart[] = [];
  const variables: UriTemplateVariable[] = [];
  let literal = '';
  let i = 0;
  while (i < template.length) {
    const char = template[i] as string;
    if (char === '{') {
      if (literal !== '') parts.push(literal);
      literal = '';
      const close = template.indexOf('}', i + 1);
      if (close < 0) fail('unclosed expression', i);
      const expression = parseExpression(template, i + 1, close, fail);
      parts.push(expression);
      variables.push(...expression.variables);
      i = close + 1;
      continue;
    }
    if (char === '}') fail('"}" outside an expression', i);
    if (char === '%') {
      if (!isPctEncoded(template, i)) fail('"%" not followed by two hex digits', i);
      literal += template.slice(i, i + 3);
      i += 3;
      continue;
    }
    const codePoint = template.codePointAt(i) as number;
    if (!isLiteral(codePoint))
      fail(`${JSON.stringify(String.fromCodePoint(codePoint))} is not allowed in a literal`, i);
    const width = codePoint > 0xffff ? 2 : 1;
    literal += template.slice(i, i + width);
    i += width;
  }
  if (literal !== '') parts.push(literal);
  const variableNames = [...new Set(variables.map((v) => v.name))];
  const parsed: UriTemplate = Object.freeze({
    uriTemplate: template,
    parts: Object.freeze(parts),
    variables: Object.freeze(variables),
    variableNames: Object.freeze(variableNames),
  });
  BRAND.add(parsed);
  return parsed;
}

/** `isUriTemplate` (see `uriTemplate.ts`). */
export function isUriTemplate(value: unknown): value is UriTemplate {
  return typeof value === 'object' && value !== null && BRAND.has(value);
}

/** `expandUriTemplate` (see `uriTemplate.ts`). */
export function expandUriTemplate(template: UriTemplateSource, variables: UriTemplateValues): string {
  const parsed = parseUriTemplate(template);
  if (typeof variables !== 'object' || variables === null || Array.isArray(variables))
    throw new UriTemplateError('expected the variables as an object of name → value', {
      name: 'variables',
      value: variables,
      template: parsed.uriTemplate,
    });
  // A prototype-free copy: the library looks names up with `[]`, and `{constructor}` must not
  // find Object's.
  const substitutions: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const spec of parsed.variables) {
    if (spec.name in substitutions || !Object.hasOwn(variables, spec.name)) continue;
    substitutions[spec.name] = substitution(parsed, spec, variables[spec.name]);
  }
  for (const spec of parsed.variables) {
    const value = substitutions[spec.name];
    if (spec.prefix !== undefined && value !== undefined && typeof value === 'object')
      throw new UriTemplateError(
        `variable ${JSON.stringify(spec.name)} has a prefix (:${spec.prefix}) but a composite value`,
        {
          name: 'variables',
          value: variables[spec.name],
          template: parsed.uriTemplate,
          variable: spec.name,
        },
      );
  }
  let expanded = '';
  for (const part of parsed.parts) {
    if (typeof part === 'string') {
      expanded += encodeNonUriChars(part);
      continue;
    }
    let text: string;
    try {
      text = StdUriTemplate.expand(expressionText(part), substitutions);
    } catch (error) {
      throw new UriTemplateError(`cannot expand: ${error instanceof Error ? error.message : String(error)}`, {
        name: 'variables',
        value: variables,
        template: parsed.uriTemplate,
      });
    }
    // The library passes through a few characters that RFC 6570 §3.2.1 says to pct-encode:
    // under + and #, those neither reserved nor unreserved (`"`, `<`, `>`, `\`, `^`, `` ` ``, `{`, `|`,
    // `}`, controls); elsewhere, the sub-delims `'`, `(`, `)`, `*`. None of them is ever part of
    // an expansion's own syntax, so encoding them afterwards is exact.
    text = encodeNonUriChars(text);
    if (part.operator !== '+' && part.operator !== '#') text = text.replace(SUB_DELIMS_LEFT_RAW, pctEncodeAscii);
    expanded += text;
  }
  return expanded;
}

const SUB_DELIMS_LEFT_RAW = /['()*]/g;

function pctEncodeAscii(char: string): string {
  return `%${char.charCodeAt(0).toString(16).toUpperCase()}`;
}

/** One expression written back as a template of its own, for the library to expand. */
function expressionText(expression: UriTemplateExpression): string {
  const specs = expression.variables.map(
    (v) => `${v.name}${v.explode ? '*' : v.prefix !== undefined ? `:${v.prefix}` : ''}`,
  );
  return `{${expression.operator}${specs.join(',')}}`;
}

/**
 * Pct-encodes (UTF-8) every character that is neither unreserved, nor reserved, nor `%`: what
 * a literal like `café` becomes in an expansion. Internal, shared with the matcher.
 */
export function encodeNonUriChars(text: string): string {
  return text.replace(NOT_URI_CHAR, (char) => encodeURIComponent(char));
}

/** Characters never found raw in an expansion: neither unreserved, nor reserved, nor `%`. */
const NOT_URI_CHAR = /[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/gu;
const LONE_SURROGATE = /\p{Surrogate}/u;

/** The value as the library takes it, or `undefined` when the variable is undefined (§2.3). */
function substitution(parsed: UriTemplate, spec: UriTemplateVariable, value: unknown): unknown {
  const bad = (reason: string, offending: unknown = value): never => {
    throw new UriTemplateError(`variable ${JSON.stringify(spec.name)} ${reason}`, {
      name: 'variables',
      value: offending,
      template: parsed.uriTemplate,
      variable: spec.name,
    });
  };
  const scalar = (item: unknown): string | undefined => {
    if (typeof item === 'string') {
      if (LONE_SURROGATE.test(item)) bad('holds a lone UTF-16 surrogate, which has no UTF-8 encoding', item);
      return item;
    }
    if (typeof item === 'number') {
      if (!Number.isFinite(item)) bad('must be a finite number', item);
      return String(item);
    }
    if (typeof item === 'boolean') return String(item);
    return undefined;
  };
  if (value === undefined || value === null) return undefined;
  const single = scalar(value);
  if (single !== undefined) return single;
  if (Array.isArray(value)) {
    const items = value.map((item: unknown) => scalar(item) ?? bad('must hold only strings, numbers or booleans'));
    return items.length === 0 ? undefined : items;
  }
  if (typeof value === 'object') {
    const map: Record<string, string> = {};
    for (const [key, member] of Object.entries(value)) {
      if (member === undefined || member === null) continue;
      map[key] = scalar(member) ?? bad(`member ${JSON.stringify(key)} must be a string, number or boolean`);
      if (LONE_SURROGATE.test(key)) bad('has a key with a lone UTF-16 surrogate', key);
    }
    return Object.keys(map).length === 0 ? undefined : map;
  }
  return bad('must be a string, number, boolean, list or map');
}

function parseExpression(
  template: string,
  start: number,
  end: number,
  fail: (reason: string, position: number, variable?: string) => never,
): UriTemplateExpression {
  let i = start;
  let operator: UriTemplateOperator = '';
  const first = template[i];
  if (first !== undefined && OPERATORS.has(first)) {
    operator = first as UriTemplateOperator;
    i++;
  } else if (first !== undefined && RESERVED_OPERATORS.has(first)) {
    fail(`operator ${JSON.stringify(first)} is reserved for future extensions`, i);
  }
  const variables: UriTemplateVariable[] = [];
  for (const varspec of template.slice(i, end).split(',')) {
    const match = VARSPEC.exec(varspec);
    if (match === null) {
      const name = /^[^:*]*/.exec(varspec)?.[0] ?? '';
      fail(varspec === '' ? 'empty varspec' : `malformed varspec ${JSON.stringify(varspec)}`, i, name || undefined);
    }
    const [, name, prefix, explode] = match as unknown as [string, string, string | undefined, string | undefined];
    variables.push(
      Object.freeze({
        name,
        operator,
        explode: explode !== undefined,
        ...(prefix !== undefined && { prefix: Number(prefix) }),
      }),
    );
    i += varspec.length + 1;
  }
  return Object.freeze({ operator, variables: Object.freeze(variables) });
}

/** varname [ ":" max-length / "*" ] (RFC 6570 §2.3, §2.4). */
const VARSPEC =
  /^((?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*)(?::([1-9][0-9]{0,3})|(\*))?$/;

function isPctEncoded(text: string, i: number): boolean {
  return /^%[0-9A-Fa-f]{2}$/.test(text.slice(i, i + 3));
}

/** RFC 6570 §2.1 `literals`, less pct-encoded (handled apart). */
function isLiteral(cp: number): boolean {
  if (cp < 0x80) {
    return (
      cp === 0x21 ||
      cp === 0x23 ||
      cp === 0x24 ||
      // `'` (0x27): the ABNF of §2.1 leaves it out, but the RFC's own level 1 example
      // (§1.2, `'{var}'` → `'value'`) and the uritemplate-test suite use it; both win.
      cp === 0x26 ||
      cp === 0x27 ||
      (cp >= 0x28 && cp <= 0x3b) ||
      cp === 0x3d ||
      (cp >= 0x3f && cp <= 0x5b) ||
      cp === 0x5d ||
      cp === 0x5f ||
      (cp >= 0x61 && cp <= 0x7a) ||
      cp === 0x7e
    );
  }
  return isUcschar(cp) || isIprivate(cp);
}

/** RFC 3987 `ucschar`. */
function isUcschar(cp: number): boolean {
  if ((cp >= 0xa0 && cp <= 0xd7ff) || (cp >= 0xf900 && cp <= 0xfdcf) || (cp >= 0xfdf0 && cp <= 0xffef)) return true;
  if (cp < 0x10000 || cp > 0xefffd) return false;
  // %x10000-1FFFD / … / %xE1000-EFFFD: every plane but its last two code points; plane 14 from E1000.
  if ((cp & 0xffff) > 0xfffd) return false;
  return cp < 0xe0000 || cp >= 0xe1000;
}

/** RFC 3987 `iprivate`. */
function isIprivate(cp: number): boolean {
  return (cp >= 0xe000 && cp <= 0xf8ff) || (cp >= 0xf0000 && cp <= 0xffffd) || (cp >= 0x100000 && cp <= 0x10fffd);
}

/**
 * The `ref/resource` reference for completing `name` in `template` (spec:
 * server/utilities/completion: the template string itself is the ref's `uri`).
 * @throws UriTemplateError (-32602) for a malformed template, or a `name` that is not one of its variables.
 */
export function templateArgumentRef(template: UriTemplateSource, name: string): { type: 'ref/resource'; uri: string } {
  const parsed = parseUriTemplate(template);
  if (typeof name !== 'string' || !parsed.variableNames.includes(name))
    throw new UriTemplateError(
      `${JSON.stringify(name)} is not a variable of the template (its variables: ${parsed.variableNames.join(', ') || 'none'})`,
      { name: 'name', value: name, template: parsed.uriTemplate, variable: String(name) },
    );
  return { type: 'ref/resource', uri: parsed.uriTemplate };
}
