/**
 * The YAML of a `SKILL.md` frontmatter, read strictly. SEP-2640 carries the frontmatter as JSON
 * (`frontmatter` in a skill entry, "rendered verbatim as a JSON object"), so what it allows is
 * YAML that means one JSON object. This reader takes the part of YAML 1.2 that skills are written
 * in, with the core schema's typing, and refuses everything else with a
 * {@link FrontmatterSyntaxError} (line, reason, offending text), rather than read a construct
 * differently from a full YAML parser:
 *
 * - read: block mappings and sequences; plain scalars (on one line or folded over several),
 *   single- and double-quoted scalars on one line, literal (`|`) and folded (`>`) block scalars
 *   with `-` / `+` chomping; flow sequences and mappings on one line; comments; `null`, `true`,
 *   `false`, integers (decimal, `0o`, `0x`) and floats as the core schema types them;
 * - refused: anchors, aliases, tags and directives; complex keys (`?`, flow keys); a key that
 *   is not a string once typed (`1:`, `null:`), `__proto__`, a repeated key; tabs in
 *   indentation; a mapping or sequence on the line of a sequence item or key; block scalar
 *   indentation indicators; a quoted scalar or flow collection over several lines; `.inf`,
 *   `.nan` and integers beyond 2^53 (not JSON); nesting deeper than 32.
 *
 * Pure, no dependencies.
 */
import { shorten } from '../util/text.js';

/** A frontmatter that is not in the YAML this reader takes. */
export class FrontmatterSyntaxError extends Error {
  override name = 'FrontmatterSyntaxError';

  /**
   * @param reason what is wrong, in a few words
   * @param line the line of `SKILL.md` it is on (1-based)
   * @param value the offending text (a line or part of one, at most 80 characters)
   */
  constructor(
    readonly reason: string,
    readonly line: number,
    readonly value: string,
  ) {
    super(`line ${line}: ${reason}: ${JSON.stringify(shorten(value, 80))}`);
  }
}

const MAX_DEPTH = 32;

interface Line {
  /** 1-based line number in the file. */
  no: number;
  /** Leading spaces. */
  indent: number;
  /** The line without its indentation and trailing spaces. */
  text: string;
  /** The line as written. */
  raw: string;
}

/** Blank or comment only: skipped between block nodes. */
const isVoid = (line: Line): boolean => line.text === '' || line.text.startsWith('#');

/**
 * Parses `yaml` (the text between the `---` lines, `\n` line ends), whose first line is line
 * `firstLine` of the file, into a plain object of JSON values.
 * @throws FrontmatterSyntaxError
 */
export function parseFrontmatterYaml(yaml: string, firstLine = 2): Record<string, unknown> {
  const raws = yaml.split('\n');
  // A final line break ends the last line; it does not start another.
  if (yaml.endsWith('\n')) raws.pop();
  const lines: Line[] = raws.map((raw, i) => {
    const no = firstLine + i;
    const indent = /^ */.exec(raw)![0].length;
    const text = raw.slice(indent).replace(/[ \t]+$/, '');
    if (text.startsWith('\t')) throw new FrontmatterSyntaxError('a tab in indentation', no, raw);
    return { no, indent, text, raw };
  });
  let at = 0;
  const fail = (reason: string, line: Line | undefined, value = line?.text ?? ''): never => {
    throw new FrontmatterSyntaxError(reason, line?.no ?? firstLine + lines.length, value);
  };
  const next = (): Line | undefined => {
    while (at < lines.length && isVoid(lines[at]!)) at++;
    return lines[at];
  };

  const first = next();
  if (first === undefined) throw new FrontmatterSyntaxError('the frontmatter is empty', firstLine, yaml);
  if (first.indent > 0 || first.text.startsWith('- ') || first.text === '-')
    fail('the frontmatter must be a mapping of keys to values, from the first column', first);
  const doc = mapping(0, 1);
  const extra = next();
  if (extra !== undefined) fail('unexpected content', extra);
  return doc;

  /** A block mapping whose keys sit at `indent`. */
  function mapping(indent: number, depth: number): Record<string, unknown> {
    if (depth > MAX_DEPTH) fail(`nesting deeper than ${MAX_DEPTH} levels`, lines[at]);
    const out: Record<string, unknown> = {};
    for (let line = next(); line !== undefined && line.indent === indent && !isItem(line.text); line = next()) {
      const { key, rest } = splitKey(line);
      if (Object.hasOwn(out, key)) fail(`the key "${key}" is repeated`, line);
      at++;
      out[key] = value(rest, line, indent, depth, true);
    }
    const line = next();
    if (line !== undefined && line.indent > indent) fail('unexpected indentation', line);
    return out;
  }

  /** A block sequence whose `-` sit at `indent`. */
  function sequence(indent: number, depth: number): unknown[] {
    if (depth > MAX_DEPTH) fail(`nesting deeper than ${MAX_DEPTH} levels`, lines[at]);
    const out: unknown[] = [];
    for (let line = next(); line !== undefined && line.indent === indent && isItem(line.text); line = next()) {
      at++;
      const rest = line.text.slice(1).replace(/^[ \t]+/, '');
      if (/^(?:"[^"]*"|'[^']*'|[^\s'"#[{][^#]*?):(?:[ \t]|$)/.test(rest))
        fail('a mapping on the line of a sequence item; start it on its own line', line);
      out.push(value(rest, line, indent, depth, false));
    }
    const line = next();
    if (line !== undefined && line.indent > indent) fail('unexpected indentation', line);
    return out;
  }

  /**
   * The value after `key:` or `-` on `line` (its text after the indicator is `rest`), whose
   * parent node sits at `indent`: on the line, on the lines below it, or null.
   */
  function value(rest: string, line: Line, indent: number, depth: number, inMapping: boolean): unknown {
    if (rest === '' || rest.startsWith('#')) {
      const below = next();
      if (below === undefined) return null;
      if (below.indent > indent) {
        if (isItem(below.text)) return sequence(below.indent, depth + 1);
        if (/^(?:"[^"]*"|'[^']*'|[^\s"'#[{?][^#]*?):(?:[ \t]|$)/.test(below.text))
          return mapping(below.indent, depth + 1);
        // A scalar or flow collection that starts on the line below its key.
        at++;
        return value(below.text, below, indent, depth, inMapping);
      }
      // `key:` followed by a sequence at the key's own indentation.
      if (inMapping && below.indent === indent && isItem(below.text)) return sequence(indent, depth + 1);
      return null;
    }
    const c = rest[0]!;
    if (c === '|' || c === '>') return blockScalar(rest, line, indent);
    if (c === '"' || c === "'") {
      const { text, end } = quoted(rest, 0, line);
      trailing(rest.slice(end), line);
      return text;
    }
    if (c === '[' || c === '{') {
      const { item, end } = flow(rest, 0, line, depth + 1);
      trailing(rest.slice(end), line);
      return item;
    }
    if (isItem(rest)) fail('a sequence on the line of its key; start it on its own line', line);
    plainStart(rest, line);
    return typed(plain(rest, line, indent), line);
  }

  /** A plain scalar starting with `first`, folded over the more indented lines that follow. */
  function plain(first: string, line: Line, indent: number): string {
    let text = cutComment(first, line);
    const more = !/[ \t]#/.test(first);
    let breaks = 0;
    while (more && at < lines.length) {
      const l = lines[at]!;
      if (l.text === '') {
        breaks++;
        at++;
        continue;
      }
      if (l.indent <= indent || l.text.startsWith('#')) break;
      const part = cutComment(l.text, l);
      text += breaks === 0 ? ` ${part}` : '\n'.repeat(breaks);
      if (breaks > 0) text += part;
      breaks = 0;
      at++;
      if (part !== l.text) break;
    }
    return text;
  }

  /** `text` up to a ` #` comment; refuses `: ` inside and a trailing `:`. */
  function cutComment(text: string, line: Line): string {
    const cut = text.replace(/[ \t]+#.*$/, '');
    if (/:(?:[ \t]|$)/.test(cut)) fail('a plain value cannot hold ": " or end in ":"; quote it', line);
    return cut;
  }

  /** What may follow a quoted scalar or flow collection on its line: spaces, a comment. */
  function trailing(after: string, line: Line): void {
    if (!/^(?:[ \t]+#.*|[ \t]*)$/.test(after)) fail('unexpected text after the value', line, after);
  }

  /** `|` or `>` with optional chomping, then the lines more indented than `indent`. */
  function blockScalar(header: string, line: Line, indent: number): string {
    const match = /^([|>])([+-]?)(?:[ \t]+#.*)?$/.exec(header);
    if (match === null)
      fail(
        /^[|>][+-]?\d/.test(header)
          ? 'block scalar indentation indicators are not supported'
          : 'invalid block scalar header',
        line,
        header,
      );
    const [, style, chomp] = match!;
    const body: string[] = [];
    let contentIndent = -1;
    let leading = 0;
    while (at < lines.length) {
      const l = lines[at]!;
      if (contentIndent < 0 && l.text === '') leading = Math.max(leading, l.raw.length);
      if (l.text === '') {
        // Spaces past the content indentation are content; fewer make an empty line.
        body.push(contentIndent >= 0 && l.raw.length > contentIndent ? l.raw.slice(contentIndent) : '');
        at++;
        continue;
      }
      if (contentIndent < 0) {
        if (l.indent <= indent) break;
        contentIndent = l.indent;
        if (leading > contentIndent) fail('a leading blank line is indented more than the block scalar', l);
      }
      if (l.indent < contentIndent) {
        if (l.indent > indent) fail('a block scalar line is indented less than its first line', l);
        break;
      }
      body.push(l.raw.slice(contentIndent));
      at++;
    }
    let trail = 0;
    while (body.length > 0 && body[body.length - 1] === '') {
      body.pop();
      trail++;
    }
    let text = style === '|' ? body.join('\n') : fold(body);
    if (body.length === 0) return chomp === '+' ? '\n'.repeat(trail) : '';
    if (chomp === '') text += '\n';
    else if (chomp === '+') text += '\n'.repeat(trail + 1);
    return text;
  }

  /** Folds the lines of a `>` scalar: a single line break between two plain lines becomes a space. */
  function fold(body: string[]): string {
    let out = '';
    let empties = 0;
    let prevMore = true;
    let started = false;
    for (const l of body) {
      if (l === '') {
        empties++;
        continue;
      }
      const more = l.startsWith(' ');
      if (!started) out += '\n'.repeat(empties);
      else if (more || prevMore) out += '\n'.repeat(empties + 1);
      else out += empties === 0 ? ' ' : '\n'.repeat(empties);
      out += l;
      started = true;
      prevMore = more;
      empties = 0;
    }
    return out;
  }

  /** A quoted scalar at `text[start]`, closed on the same line; `end` is just past it. */
  function quoted(text: string, start: number, line: Line): { text: string; end: number } {
    const q = text[start];
    let out = '';
    for (let i = start + 1; i < text.length; i++) {
      const c = text[i]!;
      if (q === "'") {
        if (c !== "'") out += c;
        else if (text[i + 1] === "'") out += text[++i];
        else return { text: out, end: i + 1 };
      } else if (c === '"') return { text: out, end: i + 1 };
      else if (c !== '\\') out += c;
      else {
        const e = text[++i] ?? '';
        const simple = ESCAPES[e];
        if (simple !== undefined) out += simple;
        else {
          const width = { x: 2, u: 4, U: 8 }[e];
          const hex = width === undefined ? '' : text.slice(i + 1, i + 1 + width);
          if (width === undefined || !/^[0-9a-fA-F]+$/.test(hex) || hex.length !== width)
            fail('an unknown escape in a double-quoted value', line, `\\${e}${hex}`);
          const code = parseInt(hex, 16);
          if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff))
            fail('an escape that is not a character', line, `\\${e}${hex}`);
          out += String.fromCodePoint(code);
          i += width!;
        }
      }
    }
    return fail('a quoted value must close on its line', line);
  }

  /** A flow sequence or mapping at `text[start]`, closed on the same line. */
  function flow(text: string, start: number, line: Line, depth: number): { item: unknown; end: number } {
    if (depth > MAX_DEPTH) fail(`nesting deeper than ${MAX_DEPTH} levels`, line);
    const seq = text[start] === '[';
    const close = seq ? ']' : '}';
    const items: unknown[] = [];
    const map: Record<string, unknown> = {};
    let i = skip(text, start + 1);
    while (text[i] !== close) {
      if (i >= text.length || text[i] === '#') fail('a flow collection must close on its line', line);
      let key: string | undefined;
      if (!seq) {
        const k = scalar(text, i, line, depth);
        if (typeof k.item !== 'string') fail('a flow mapping key must be a string; quote it', line, text.slice(i));
        key = k.item as string;
        if (key === '__proto__') fail('the key "__proto__" is not supported', line);
        if (Object.hasOwn(map, key)) fail(`the key "${key}" is repeated`, line);
        i = skip(text, k.end);
        if (text[i] !== ':') fail('expected "key: value" in a flow mapping', line, text.slice(i));
        i = skip(text, i + 1);
      }
      if (seq && text[i] === ',') fail('an empty value in a flow collection', line, text.slice(i));
      const v = text[i] === ',' || text[i] === close ? { item: null, end: i } : scalar(text, i, line, depth);
      if (!seq && key !== undefined) map[key] = v.item;
      else items.push(v.item);
      i = skip(text, v.end);
      if (text[i] === ',') i = skip(text, i + 1);
      else if (text[i] !== close) fail(`unexpected text in a flow collection`, line, text.slice(i));
    }
    return { item: seq ? items : map, end: i + 1 };
  }

  /** One item of a flow collection: nested flow, quoted, or plain (typed). */
  function scalar(text: string, i: number, line: Line, depth: number): { item: unknown; end: number } {
    const c = text[i];
    if (c === '[' || c === '{') return flow(text, i, line, depth + 1);
    if (c === '"' || c === "'") {
      const q = quoted(text, i, line);
      return { item: q.text, end: q.end };
    }
    // Up to a flow indicator, a ":" before a space or indicator, or a " #" comment.
    const m = /^(?:[^,[\]{}:\s]|:(?![\s,[\]{}])|[ \t]+(?=[^\s,[\]{}#:]))*/.exec(text.slice(i))![0];
    if (m === '') fail('an empty value in a flow collection', line, text.slice(i));
    plainStart(m, line);
    return { item: typed(m, line), end: i + m.length };
  }

  /** The key of a `key: value` line (quoted or plain, a string once typed) and the text after it. */
  function splitKey(line: Line): { key: string; rest: string } {
    const t = line.text;
    let key: string;
    let end: number;
    if (t[0] === '"' || t[0] === "'") {
      const q = quoted(t, 0, line);
      key = q.text;
      end = q.end;
    } else {
      if (t[0] === '?' && /^\?(?:[ \t]|$)/.test(t)) fail('complex keys ("?") are not supported', line);
      if (t[0] === '[' || t[0] === '{') fail('complex keys (flow collections) are not supported', line);
      const m = /^(.*?):(?:[ \t]|$)/.exec(t);
      if (m === null) return fail('expected "key: value"', line);
      end = m[1]!.length;
      key = m[1]!.replace(/[ \t]+$/, '');
      if (key === '') fail('a key must not be empty', line);
      plainStart(key, line);
      if (/[ \t]#/.test(key)) fail('expected "key: value"', line);
      if (typeof typed(key, line) !== 'string') fail('a key must be a string; quote it', line, key);
    }
    if (t[end] !== ':' || (t[end + 1] !== undefined && t[end + 1] !== ' ' && t[end + 1] !== '\t'))
      fail('expected "key: value"', line);
    if (key === '__proto__') fail('the key "__proto__" is not supported', line);
    return { key, rest: t.slice(end + 1).replace(/^[ \t]+/, '') };
  }

  /** Refuses a plain scalar that starts with an indicator YAML gives another meaning. */
  function plainStart(text: string, line: Line): void {
    const c = text[0]!;
    if (c === '&' || c === '*' || c === '!') fail('anchors, aliases and tags are not supported', line, text);
    if ('%@`|>#,[]{}'.includes(c) || ('-?:'.includes(c) && /^.(?:[ \t]|$)/.test(text)))
      fail(`"${c}" cannot start a plain value; quote it`, line, text);
  }

  /** A plain scalar typed by the YAML 1.2 core schema; a value JSON cannot hold is refused. */
  function typed(text: string, line: Line): unknown {
    if (/^(?:~|null|Null|NULL)$/.test(text)) return null;
    if (/^(?:true|True|TRUE)$/.test(text)) return true;
    if (/^(?:false|False|FALSE)$/.test(text)) return false;
    let n: number | undefined;
    if (/^[-+]?[0-9]+$/.test(text)) n = Number(text);
    else if (/^0o[0-7]+$/.test(text)) n = parseInt(text.slice(2), 8);
    else if (/^0x[0-9a-fA-F]+$/.test(text)) n = parseInt(text.slice(2), 16);
    else if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/.test(text)) {
      n = Number(text);
      if (!Number.isFinite(n)) fail('a number JSON cannot hold; quote it', line, text);
      return n;
    } else if (/^[-+]?\.(?:inf|Inf|INF)$|^\.(?:nan|NaN|NAN)$/.test(text))
      fail('a number JSON cannot hold; quote it', line, text);
    if (n === undefined) return text;
    if (!Number.isSafeInteger(n)) fail('an integer JSON cannot hold exactly; quote it', line, text);
    return n;
  }
}

function isItem(text: string): boolean {
  return text === '-' || text.startsWith('- ') || text.startsWith('-\t');
}

function skip(text: string, i: number): number {
  while (text[i] === ' ' || text[i] === '\t') i++;
  return i;
}

const ESCAPES: Record<string, string> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  '\t': '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  N: '\u0085',
  _: '\u00a0',
  L: '\u2028',
  P: '\u2029',
};
