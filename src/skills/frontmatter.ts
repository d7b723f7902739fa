/**
 * A `SKILL.md`'s frontmatter (Agent Skills specification): the YAML between a first line `---` and
 * the next line `---`, parsed with the YAML 1.2 core schema (the `yaml` package, loaded only with
 * this module), and compared field by field with the listing entry's `frontmatter` (SEP-2640,
 * Integrity and verification). Pure.
 */
import { parse } from 'yaml';
import { isObject } from '../wire/messages.js';

/** A `SKILL.md` split into its parsed frontmatter and its markdown body. */
export interface SplitSkillMd {
  frontmatter: Record<string, unknown>;
  body: string;
}

/**
 * Splits and parses a `SKILL.md` (a leading BOM is dropped; CRLF read as LF).
 * @throws Error with a reason when there is no frontmatter, the YAML is malformed (duplicate keys
 *   included), or it is not a mapping.
 */
export function splitSkillMd(text: string): SplitSkillMd {
  const normalized = (text.startsWith('\uFEFF') ? text.slice(1) : text).replace(/\r\n?/g, '\n');
  const open = /^---[ \t]*\n/.exec(normalized);
  if (open === null) throw new Error('SKILL.md does not begin with a "---" frontmatter line');
  const rest = normalized.slice(open[0].length);
  const close = /^---[ \t]*$/m.exec(rest);
  if (close === null) throw new Error('SKILL.md frontmatter has no closing "---" line');
  const yaml = rest.slice(0, close.index);
  let parsed: unknown;
  try {
    // The core schema: `1.0` is a number, `yes` a string, `2001-12-14` a string (no timestamps).
    parsed = parse(yaml, { version: '1.2', schema: 'core', uniqueKeys: true, maxAliasCount: 100 });
  } catch (error) {
    throw new Error(`SKILL.md frontmatter is not valid YAML: ${(error as Error).message.split('\n')[0]}`, {
      cause: error,
    });
  }
  if (!isObject(parsed)) throw new Error('SKILL.md frontmatter is not a YAML mapping');
  const afterClose = rest.slice(close.index + close[0].length);
  return { frontmatter: parsed, body: afterClose.startsWith('\n') ? afterClose.slice(1) : afterClose };
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
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
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
