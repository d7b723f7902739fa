/**
 * Matching a URI against resource templates: which template (and which variable values) could
 * have produced it. Pure. Hosts use it to label a `resource_link`, and `McpHost` to route a
 * `resources/read` to the server whose template covers the URI. Ambiguity is reported, never
 * resolved by a guess.
 */
import { InvalidArgumentError } from '../errors/errors.js';
import { UriTemplateAmbiguityError, UriTemplateError } from './errors.js';
import {
  encodeNonUriChars,
  parseUriTemplate,
  type UriTemplate,
  type UriTemplateExpression,
  type UriTemplateOperator,
  type UriTemplateSource,
  type UriTemplateVariable,
} from './rfc6570.js';

/** One template that matches a URI. */
export interface UriTemplateMatch<T> {
  /** The template as it was given (a string, a `ResourceTemplate`, a host's own record...). */
  template: T;
  /** Its URI template string. */
  uriTemplate: string;
  /**
   * The variable values, pct-decoded (UTF-8; an escape that is not UTF-8 is kept as sent).
   * Only defined variables appear. A string for a plain variable; a list for an exploded one
   * (`{/path*}`), and for a plain one whose text holds unencoded commas (a list expanded
   * without explode, `{list}` → `a,b`), except under `+` and `#`, where a comma may be part
   * of a string.
   */
  variables: Record<string, string | string[]>;
  /** True when this template matches in more than one way; `variables` is then the first. */
  ambiguous: boolean;
}

/** Options of {@link matchUriTemplates} and {@link matchUriTemplate}. */
export interface MatchUriTemplateOptions {
  /**
   * Receives a `UriTemplateError` for each template that is not RFC 6570; that template is
   * left out and the others are still matched. Pass the client's `onError`. @default ignore
   */
  onError?: ((error: Error) => void) | undefined;
}

/**
 * Every template that could have produced `uri` by expansion (RFC 6570 §3), in the order
 * given. The matcher reads a template the way its expansion writes it:
 * - in an expression without names (`{x}`, `{+x}`, `{/x,y}`...), every variable is defined
 *   when the expression shows at all (`{x,y}` on `a,b` is `x: "a", y: "b"`); `{.x}`, `{/x}`,
 *   `{#x}` and `{;x}`-style expressions may be absent as a whole;
 * - in `{;…}`, `{?…}` and `{&…}`, any variable may be missing (the names say which are there);
 * - an exploded variable's items never hold its separator; exploded maps (`{?keys*}`) are not
 *   recovered.
 * Within that reading, a URI that a template can produce in two ways (`{x}{y}` on `ab`) is
 * flagged `ambiguous`. The work is bounded: about 16 candidate splits per character of the URI.
 * @throws InvalidArgumentError (-32602, `data.name: "uri"`) when a template would need more (a
 *   long URI built against several adjacent `{+x}` variables): a bound on what one URI can cost.
 */
export function matchUriTemplates<T extends UriTemplateSource>(
  uri: string,
  templates: Iterable<T>,
  options: MatchUriTemplateOptions = {},
): UriTemplateMatch<T>[] {
  const matches: UriTemplateMatch<T>[] = [];
  for (const template of templates) {
    let parsed: UriTemplate;
    try {
      parsed = parseUriTemplate(template);
    } catch (error) {
      if (!(error instanceof UriTemplateError)) throw error;
      options.onError?.(error);
      continue;
    }
    const outcome = new Matcher(uri, parsed).run();
    if (outcome.count === 0) continue;
    matches.push({
      template,
      uriTemplate: parsed.uriTemplate,
      variables: variablesOf(outcome.assign),
      ambiguous: outcome.count > 1,
    });
  }
  return matches;
}

/**
 * The one template that produced `uri`, or `undefined` when none did (see
 * {@link matchUriTemplates} for how a URI is read).
 * @throws UriTemplateAmbiguityError (-33026) when more than one template matches, or one
 *   matches in more than one way; `data.matches` lists them. Nothing is picked.
 * @throws InvalidArgumentError (-32602) as {@link matchUriTemplates}.
 */
export function matchUriTemplate<T extends UriTemplateSource>(
  uri: string,
  templates: Iterable<T>,
  options: MatchUriTemplateOptions = {},
): UriTemplateMatch<T> | undefined {
  const matches = matchUriTemplates(uri, templates, options);
  const [first] = matches;
  if (first === undefined) return undefined;
  if (matches.length === 1 && !first.ambiguous) return first;
  throw new UriTemplateAmbiguityError({
    uri,
    matches: matches.map(({ uriTemplate, variables, ambiguous }) => ({ uriTemplate, variables, ambiguous })),
  });
}

/** One variable's value in a parse, as a list from the last variable back to the first. */
type Assign = { name: string; value: string | string[]; prefixed: boolean; next: Assign } | undefined;

/** How many ways the rest of the URI parses (0, 1, or 2 meaning "more than one"), and the first. */
interface Outcome {
  count: number;
  assign: Assign;
}

const NO_MATCH: Outcome = { count: 0, assign: undefined };

/** One way a variable can be written: where it ends, and (lazily) its value. */
interface Candidate {
  end: number;
  value: () => string | string[];
}

const FIRST: Record<UriTemplateOperator, string> = {
  '': '',
  '+': '',
  '#': '#',
  '.': '.',
  '/': '/',
  ';': ';',
  '?': '?',
  '&': '&',
};
const SEPARATOR: Record<UriTemplateOperator, string> = {
  '': ',',
  '+': ',',
  '#': ',',
  '.': '.',
  '/': '/',
  ';': ';',
  '?': '&',
  '&': '&',
};
/**
 * How many candidate values one template may try per character of the URI (plus a fixed
 * allowance) before the match gives up with an InvalidArgumentError. A template with one free
 * variable needs about one per character; only templates with several adjacent `+`/`#`
 * variables and a URI built to defeat them come near.
 */
const STEPS_PER_CHAR = 16;
const BASE_STEPS = 1 << 16;

const CHAR_UNRESERVED = 1;
const CHAR_COMMA = 2;
/** Reserved, less the comma. */
const CHAR_RESERVED = 4;
/** The `%` of a valid `%XX` triplet. */
const CHAR_PCT = 8;

/** The class bits of each character of `uri`. */
function classify(uri: string): Uint8Array {
  const classes = new Uint8Array(uri.length);
  for (let i = 0; i < uri.length; i++) {
    const char = uri[i] as string;
    if (/[A-Za-z0-9\-._~]/.test(char)) classes[i] = CHAR_UNRESERVED;
    else if (char === ',') classes[i] = CHAR_COMMA;
    else if (/[:/?#[\]@!$&'()*+;=]/.test(char)) classes[i] = CHAR_RESERVED;
    else if (char === '%' && /^%[0-9A-Fa-f]{2}$/.test(uri.slice(i, i + 3))) classes[i] = CHAR_PCT;
  }
  return classes;
}

/** Counts the parses of one URI under one template (memoized: O(parts × length²) at worst). */
class Matcher {
  private readonly memo = new Map<number, Outcome>();
  private readonly literals: Map<number, string>;
  /** Per character: {@link CHAR_UNRESERVED} and the other class bits. */
  private readonly classes: Uint8Array;
  private readonly maxVariables: number;
  private steps = 0;
  private readonly maxSteps: number;

  constructor(
    private readonly uri: string,
    private readonly template: UriTemplate,
  ) {
    this.literals = new Map();
    template.parts.forEach((part, i) => {
      if (typeof part === 'string') this.literals.set(i, encodeNonUriChars(part));
    });
    this.maxVariables = Math.max(1, ...template.parts.map((p) => (typeof p === 'string' ? 0 : p.variables.length)));
    this.classes = classify(uri);
    this.maxSteps = BASE_STEPS + STEPS_PER_CHAR * uri.length;
  }

  run(): Outcome {
    return this.literalsInOrder() ? this.parts(0, 0) : NO_MATCH;
  }

  /** A cheap necessary condition: every literal appears, in order, the first and last in place. */
  private literalsInOrder(): boolean {
    const parts = this.template.parts;
    let from = 0;
    for (let i = 0; i < parts.length; i++) {
      const literal = this.literals.get(i);
      if (literal === undefined) continue;
      const at = i === 0 ? (this.uri.startsWith(literal) ? 0 : -1) : this.uri.indexOf(literal, from);
      if (at < 0) return false;
      from = at + literal.length;
    }
    const last = this.literals.get(parts.length - 1);
    return last === undefined || this.uri.endsWith(last);
  }

  /** Parses of `uri[pos..]` by `parts[index..]`. */
  private parts(index: number, pos: number): Outcome {
    const parts = this.template.parts;
    if (index === parts.length) return pos === this.uri.length ? { count: 1, assign: undefined } : NO_MATCH;
    const literal = this.literals.get(index);
    if (literal !== undefined)
      return this.uri.startsWith(literal, pos) ? this.parts(index + 1, pos + literal.length) : NO_MATCH;
    const expression = parts[index] as UriTemplateExpression;
    let outcome = this.variables(index, expression, 0, pos, false);
    // Without names, an expression is either there whole or absent whole; absent only shows
    // when it has a leading character to be missing.
    if (!isNamed(expression.operator) && FIRST[expression.operator] !== '')
      outcome = add(outcome, this.parts(index + 1, pos));
    return outcome;
  }

  /** Parses where `expression.variables[vi..]` start at `pos`; `emitted`: one is already written. */
  private variables(
    index: number,
    expression: UriTemplateExpression,
    vi: number,
    pos: number,
    emitted: boolean,
  ): Outcome {
    // Past the last variable: on to the next part, unless nothing was written where something must be.
    if (vi === expression.variables.length)
      return emitted || isNamed(expression.operator) ? this.parts(index + 1, pos) : NO_MATCH;
    const key = (((index * this.maxVariables + vi) * (this.uri.length + 1) + pos) << 1) | (emitted ? 1 : 0);
    const known = this.memo.get(key);
    if (known !== undefined) return known;
    const { operator } = expression;
    const spec = expression.variables[vi] as UriTemplateVariable;
    // Named operators may leave any variable out.
    let outcome = isNamed(operator) ? this.variables(index, expression, vi + 1, pos, emitted) : NO_MATCH;
    const lead = emitted ? SEPARATOR[operator] : FIRST[operator];
    if (this.uri.startsWith(lead, pos)) {
      for (const candidate of this.values(spec, pos + lead.length)) {
        if (outcome.count > 1) break;
        if (++this.steps > this.maxSteps)
          throw new InvalidArgumentError(
            'uri',
            this.uri,
            `too costly to match against ${JSON.stringify(this.template.uriTemplate)} (over ${this.maxSteps} steps)`,
          );
        const rest = this.variables(index, expression, vi + 1, candidate.end, true);
        if (rest.count === 0) continue;
        const assign: Assign = {
          name: spec.name,
          value: candidate.value(),
          prefixed: spec.prefix !== undefined,
          next: rest.assign,
        };
        outcome = add(outcome, { count: rest.count, assign });
      }
    }
    this.memo.set(key, outcome);
    return outcome;
  }

  /**
   * Every way one defined variable can be written from `start`: where it ends, and what it
   * holds (decoded only when asked: most ends lead nowhere).
   */
  private *values(spec: UriTemplateVariable, start: number): Generator<Candidate> {
    const { operator, explode, name } = spec;
    const reserved = operator === '+' || operator === '#';
    if (!isNamed(operator)) {
      if (!explode) {
        // Commas: list items of a non-exploded list (and plain characters under + and #).
        const allowComma = spec.prefix === undefined || reserved;
        for (const end of this.tokenEnds(start, reserved, allowComma ? '' : ',')) {
          const text = this.uri.slice(start, end);
          if (!this.fitsPrefix(spec, text)) continue;
          yield { end, value: () => (reserved || !text.includes(',') ? decode(text) : text.split(',').map(decode)) };
        }
        return;
      }
      const separator = SEPARATOR[operator];
      const exclude = reserved ? separator : `${separator},`;
      yield* this.items(start, reserved, separator, exclude, (end, texts) => ({
        end,
        value: () => texts().map(decode),
      }));
      return;
    }
    // Named: name=value (`;` writes an empty value as the bare name).
    if (!this.uri.startsWith(name, start)) return;
    const afterName = start + name.length;
    if (!explode) {
      if (operator === ';' && this.uri[afterName] !== '=') yield { end: afterName, value: () => '' };
      if (this.uri[afterName] !== '=') return;
      for (const end of this.tokenEnds(afterName + 1, false, spec.prefix === undefined ? '' : ',')) {
        const text = this.uri.slice(afterName + 1, end);
        if (operator === ';' && text === '') continue;
        if (!this.fitsPrefix(spec, text)) continue;
        yield { end, value: () => (text.includes(',') ? text.split(',').map(decode) : decode(text)) };
      }
      return;
    }
    yield* this.namedItems(spec, start, []);
  }

  /** Exploded list items under a named operator: `name=a&name=b` (`;name` for an empty one). */
  private *namedItems(spec: UriTemplateVariable, start: number, before: string[]): Generator<Candidate> {
    const { name, operator } = spec;
    if (!this.uri.startsWith(name, start)) return;
    const afterName = start + name.length;
    const ends: Array<{ end: number; text: string }> = [];
    if (operator === ';' && this.uri[afterName] !== '=') ends.push({ end: afterName, text: '' });
    if (this.uri[afterName] === '=') {
      for (const end of this.tokenEnds(afterName + 1, false, ',')) {
        const text = this.uri.slice(afterName + 1, end);
        if (operator !== ';' || text !== '') ends.push({ end, text });
      }
    }
    const separator = SEPARATOR[operator];
    for (const { end, text } of ends) {
      const items = [...before, text];
      yield { end, value: () => items.map(decode) };
      if (this.uri.startsWith(separator, end)) yield* this.namedItems(spec, end + separator.length, items);
    }
  }

  /** Exploded list items without names: `a,b,c` (or `a/b/c`...), each free of the separator. */
  private *items<V>(
    start: number,
    reserved: boolean,
    separator: string,
    exclude: string,
    make: (end: number, texts: () => string[]) => V,
  ): Generator<V> {
    const texts: string[] = [];
    let from = start;
    for (;;) {
      let last = from;
      for (const end of this.tokenEnds(from, reserved, exclude)) {
        last = end;
        const before = texts.slice();
        yield make(end, () => [...before, this.uri.slice(from, end)]);
      }
      if (!this.uri.startsWith(separator, last)) return;
      texts.push(this.uri.slice(from, last));
      from = last + separator.length;
    }
  }

  /**
   * The places a token starting at `start` may end: after each character (or whole `%XX`) of
   * the longest run of unreserved characters and commas (plus reserved ones when `reserved`),
   * less the characters in `exclude`; the empty token included.
   */
  private *tokenEnds(start: number, reserved: boolean, exclude: string): Generator<number> {
    const allowed = CHAR_UNRESERVED | CHAR_COMMA | (reserved ? CHAR_RESERVED : 0);
    const { classes, uri } = this;
    let i = start;
    yield i;
    while (i < uri.length) {
      const bits = classes[i] as number;
      if (bits & CHAR_PCT) {
        i += 3;
      } else {
        if ((bits & allowed) === 0 || (exclude !== '' && exclude.includes(uri[i] as string))) return;
        i += 1;
      }
      yield i;
    }
  }

  private fitsPrefix(spec: UriTemplateVariable, text: string): boolean {
    return spec.prefix === undefined || [...decode(text)].length <= spec.prefix;
  }
}

function isNamed(operator: UriTemplateOperator): boolean {
  return operator === ';' || operator === '?' || operator === '&';
}

function add(a: Outcome, b: Outcome): Outcome {
  if (a.count === 0) return b;
  if (b.count === 0) return a;
  return { count: Math.min(2, a.count + b.count), assign: a.assign };
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The values of a parse; a variable written twice keeps the occurrence without a prefix. */
function variablesOf(assign: Assign): Record<string, string | string[]> {
  const variables: Record<string, string | string[]> = {};
  const prefixedOnly = new Set<string>();
  for (let a = assign; a !== undefined; a = a.next) {
    const seen = Object.hasOwn(variables, a.name);
    if (seen && !(prefixedOnly.has(a.name) && !a.prefixed)) continue;
    Object.defineProperty(variables, a.name, { value: a.value, enumerable: true, writable: true, configurable: true });
    if (a.prefixed) prefixedOnly.add(a.name);
    else prefixedOnly.delete(a.name);
  }
  return variables;
}
