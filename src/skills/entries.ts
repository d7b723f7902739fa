/**
 * The rules a skill entry (`skills/list`, `skills/get`) must keep before anything is built on it
 * (SEP-2640, Enumeration): a `SKILL.md` URI whose last path segment is `frontmatter.name`; a
 * frontmatter object with string `name` and `description`; `resources` either `"dynamic"` or
 * the complete file list, each file once, inside the skill's directory, the `SKILL.md` among
 * them, each with a `sha256:` digest and a byte size, within the limits. Pure.
 */
import { isObject } from '../wire/messages.js';
import type { InvalidSkillEntry, Skill } from './types.js';
import { canonicalUri, nameFromUri, pathUnder, skillRoot } from './uris.js';

/** `sha256:` and 64 lowercase hex digits. */
export const DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;

/** Per-skill limits; see `SKILL_LIMITS`. */
export interface SkillLimits {
  files: number;
  bytes: number;
}

/** The reason `value` is not a valid skill entry, or `undefined` when it is. */
export function skillEntryProblem(value: unknown, limits: SkillLimits): string | undefined {
  if (!isObject(value)) return 'not an object';
  const { uri, frontmatter, resources } = value;
  if (typeof uri !== 'string' || uri === '') return 'uri is not a non-empty string';
  const root = skillRoot(uri);
  if (root === undefined) return 'uri does not name a SKILL.md (scheme://<skill-path>/SKILL.md)';
  if (!isObject(frontmatter)) return 'frontmatter is not an object';
  if (typeof frontmatter['name'] !== 'string' || frontmatter['name'] === '')
    return 'frontmatter.name is not a non-empty string';
  if (typeof frontmatter['description'] !== 'string') return 'frontmatter.description is not a string';
  if (nameFromUri(uri) !== frontmatter['name'])
    return `the last segment of uri (${JSON.stringify(nameFromUri(uri))}) is not frontmatter.name (${JSON.stringify(frontmatter['name'])})`;
  if (value['_meta'] !== undefined && !isObject(value['_meta'])) return '_meta is not an object';
  if (resources === 'dynamic') return undefined;
  if (!Array.isArray(resources)) return 'resources is neither an array nor "dynamic"';
  if (resources.length > limits.files)
    return `resources lists ${resources.length} files, over the limit of ${limits.files}`;
  const seen = new Set<string>();
  let total = 0;
  let hasSkillMd = false;
  const own = canonicalUri(uri);
  for (const [i, file] of resources.entries()) {
    if (!isObject(file)) return `resources[${i}] is not an object`;
    const fileUri = file['uri'];
    if (typeof fileUri !== 'string' || fileUri === '') return `resources[${i}].uri is not a non-empty string`;
    if (typeof file['digest'] !== 'string' || !DIGEST_PATTERN.test(file['digest']))
      return `resources[${i}].digest is not "sha256:" and 64 lowercase hex digits`;
    const size = file['size'];
    if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0)
      return `resources[${i}].size is not a byte count`;
    const canonical = canonicalUri(fileUri);
    if (canonical === own) hasSkillMd = true;
    else if (pathUnder(root, fileUri) === undefined)
      return `resources[${i}].uri ${fileUri} is outside the skill's directory`;
    if (seen.has(canonical)) return `resources lists ${fileUri} twice`;
    seen.add(canonical);
    total += size;
  }
  if (!hasSkillMd) return "resources does not list the skill's own SKILL.md";
  if (total > limits.bytes) return `resources add up to ${total} bytes, over the limit of ${limits.bytes}`;
  return undefined;
}

/**
 * Sorts the entries of one listing into valid and invalid ones. `start` is the index of the
 * first entry across the pages walked so far. A URI listed twice makes every copy invalid.
 */
export function sortEntries(
  values: readonly unknown[],
  start: number,
  limits: SkillLimits,
  seen: Map<string, number>,
): { skills: Array<{ index: number; skill: Skill }>; invalid: InvalidSkillEntry[] } {
  const skills: Array<{ index: number; skill: Skill }> = [];
  const invalid: InvalidSkillEntry[] = [];
  values.forEach((value, offset) => {
    const index = start + offset;
    const problem = skillEntryProblem(value, limits);
    const uri = isObject(value) && typeof value['uri'] === 'string' ? value['uri'] : undefined;
    if (problem !== undefined) {
      invalid.push({ index, uri, reason: problem, value });
      return;
    }
    const key = canonicalUri(uri as string);
    const first = seen.get(key);
    if (first !== undefined) {
      invalid.push({ index, uri, reason: `uri repeats entry #${first}`, value });
      return;
    }
    seen.set(key, index);
    skills.push({ index, skill: value as Skill });
  });
  return { skills, invalid };
}
