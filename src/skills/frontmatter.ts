/**
 * A `SKILL.md`'s frontmatter (Agent Skills specification): the YAML between a first line `---` and
 * the next line `---`, read strictly by {@link parseFrontmatterYaml} (the YAML 1.2 subset skills are
 * written in, core-schema typing), and compared field by field with the listing entry's
 * `frontmatter` (SEP-2640, Integrity and verification). Pure.
 */
import { shorten } from '../util/text.js';
import { isObject } from '../wire/messages.js';
import { FrontmatterSyntaxError, parseFrontmatterYaml } from './frontmatterYaml.js';

/** A `SKILL.md` split into its parsed frontmatter and its markdown body. */
export interface SplitSkillMd {
  frontmatter: Record<string, unknown>;
  body: string;
}

/**
 * Splits and parses a `SKILL.md` (a leading BOM is dropped; CRLF read as LF).
 * @throws FrontmatterSyntaxError (line, reason, offending text) when there is no frontmatter, or
 *   its YAML is outside what {@link parseFrontmatterYaml} reads (a repeated key included).
 */
export function splitSkillMd(text: string): SplitSkillMd {
  const normalized = (text.startsWith('\uFEFF') ? text.slice(1) : text).replace(/\r\n?/g, '\n');
  const open = /^---[ \t]*\n/.exec(normalized);
  if (open === null)
    throw new FrontmatterSyntaxError('SKILL.md does not begin with a "---" line', 1, normalized.split('\n', 1)[0]!);
  const rest = normalized.slice(open[0].length);
  const close = /^---[ \t]*$/m.exec(rest);
  if (close === null) throw new FrontmatterSyntaxError('the frontmatter has no closing "---" line', 1, '---');
  const frontmatter = parseFrontmatterYaml(rest.slice(0, close.index), 2);
  const afterClose = rest.slice(close.index + close[0].length);
  return { frontmatter, body: afterClose.startsWith('\n') ? afterClose.slice(1) : afterClose };
}

/**
 * The fields where `parsed` and `listed` differ, one line each (`description: listed "a", file "b"`);
 * empty when they are equal as JSON values (key order aside). Compared over the union of keys.
 */
export function frontmatterDifferences(parsed: Record<string, unknown>, listed: Record<string, unknown>): string[] {
  const out: string[] = [];
  const keys = new Set([...Object.keys(listed), ...Object.keys(parsed)]);
  for (const key of [...keys].sort()) {
    const a = Object.hasOwn(listed, key) ? listed[key] : undefined;
    const b = Object.hasOwn(parsed, key) ? parsed[key] : undefined;
    if (!jsonEqual(a, b)) out.push(`${key}: listed ${show(a)}, file ${show(b)}`);
  }
  return out;
}

function show(value: unknown): string {
  if (value === undefined) return '(absent)';
  const text = JSON.stringify(value) ?? 'undefined';
  return shorten(text, 80, '...');
}

/** Deep equality of JSON values; object key order does not matter, array order does. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => jsonEqual(item, b[i]));
  }
  if (!isObject(a) || !isObject(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && jsonEqual(a[key], b[key]));
}
