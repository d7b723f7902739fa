import { ErrorCode } from '../errors/codes.js';
import { InvalidArgumentError, LocalError } from '../errors/errors.js';
import type { InvalidSkillEntry } from './types.js';

/** Why a skill file failed verification (SEP-2640, Integrity and verification). */
export type SkillVerificationReason = 'unlisted' | 'size' | 'digest' | 'frontmatter';

/** `data` of {@link SkillVerificationError}. */
export interface SkillVerificationErrorData {
  reason: SkillVerificationReason;
  /** The file's URI (as resolved from the reference). */
  uri: string;
  /** The skill's `SKILL.md` URI. */
  skill: string;
  /** `size` and `digest`: what the entry promised. */
  expected?: string | number | undefined;
  /** `size` and `digest`: what the bytes have. */
  actual?: string | number | undefined;
  /** `frontmatter`: one line per differing field, or why the frontmatter could not be read. */
  differences: string[];
  /**
   * `frontmatter` that could not be read (no `---` lines, or YAML outside the subset
   * docs/skills.md lists): the line of `SKILL.md` (1-based) and the offending text.
   */
  line?: number | undefined;
  /** With {@link line}: the offending text (at most 80 characters as written). */
  value?: string | undefined;
}

/**
 * A skill file failed verification against its listing entry (code -33060): it is not listed in
 * the entry's `resources` (`unlisted`, nothing was sent), its byte length differs (`size`), its
 * SHA-256 differs (`digest`), or, for the skill's own `SKILL.md`, its frontmatter differs from
 * the entry's (`frontmatter`). The content is not returned: a host must not use it, and must not
 * load the skill on a `SKILL.md` failure. A fresh `skills/get` gives the current entry.
 * `data` is {@link SkillVerificationErrorData}.
 */
export class SkillVerificationError extends LocalError {
  override name = 'SkillVerificationError';
  declare readonly data: SkillVerificationErrorData;

  constructor(data: SkillVerificationErrorData, message: string) {
    super(ErrorCode.SkillVerificationFailed, `skill ${data.skill}: ${data.uri}: ${message}`, { data });
  }

  /** The reason, as `data.reason`. */
  get reason(): SkillVerificationReason {
    return this.data.reason;
  }
}

/**
 * Entries of `skills/list` or `skills/get` that break SEP-2640's rules (code -33061): each one is
 * named in `data.entries` (index across every page walked, `uri` when it had one, the reason, the
 * value as received). `skills.list({ skipInvalid: true })` returns them in `invalid` instead.
 */
export class InvalidSkillEntryError extends LocalError {
  override name = 'InvalidSkillEntryError';
  declare readonly data: { method: string; entries: InvalidSkillEntry[] };

  constructor(method: string, entries: InvalidSkillEntry[]) {
    const shown = entries
      .slice(0, 5)
      .map((e) => `#${e.index}${e.uri === undefined ? '' : ` ${e.uri}`}: ${e.reason}`)
      .join('; ');
    const more = entries.length > 5 ? ` (and ${entries.length - 5} more)` : '';
    super(
      ErrorCode.SkillEntryInvalid,
      `${method}: ${entries.length} invalid skill entr${entries.length === 1 ? 'y' : 'ies'}: ${shown}${more}`,
      { data: { method, entries } },
    );
  }
}

/**
 * The server does not declare what a Skills call needs (code -33062): the extension
 * (`data.missing: "extension"`), or `directoryRead: true` for `resources/directory/read`
 * (`"directoryRead"`). Nothing was sent. `data` is `{ method, missing }`.
 */
export class SkillsUnsupportedError extends LocalError {
  override name = 'SkillsUnsupportedError';
  declare readonly data: { method: string; missing: 'extension' | 'directoryRead' };

  constructor(method: string, missing: 'extension' | 'directoryRead') {
    super(
      ErrorCode.SkillsUnsupported,
      missing === 'extension'
        ? `${method}: the server does not declare the io.modelcontextprotocol/skills extension; nothing was sent`
        : `${method}: the server does not declare directoryRead: true; nothing was sent`,
      { data: { method, missing } },
    );
  }
}

/**
 * Why a path was refused before anything was sent (SkillPathError): `empty`; `nul` (a NUL,
 * raw or `%00`); `malformed-encoding` (a `%` not followed by two hex digits that decode);
 * `backslash` (raw or `%5C`); `double-encoded` (an escape left after decoding once, `%252e`);
 * `absolute` (a leading `/`, raw or `%2F`); `drive-or-scheme` (`C:`, `file:`); `dot-segment` (a
 * segment of dots and spaces other than `.` and `..`, which some file systems read as `..`);
 * `outside-root` (a `..` above the skill's root, or an absolute URI outside it).
 */
export type SkillPathReason =
  | 'empty'
  | 'nul'
  | 'malformed-encoding'
  | 'backslash'
  | 'double-encoded'
  | 'absolute'
  | 'drive-or-scheme'
  | 'dot-segment'
  | 'outside-root';

/** `data` of {@link SkillPathError}. */
export interface SkillPathErrorData {
  /** The argument: `ref` (`skills.read`, `host.readSkill`) or `path` (`readDirectory`, `read_skill_file`). */
  name: 'ref' | 'path';
  /** The path or URI as given. */
  value: string;
  /** The root it was resolved against (the skill's `SKILL.md` URI without `/SKILL.md`). */
  root: string;
  /** Why it was refused ({@link SkillPathReason}). */
  reason: SkillPathReason;
  /** The path after percent-decoding once, when it got that far. */
  decoded?: string | undefined;
}

/**
 * A path or URI given for a skill's file that could name something outside the skill
 * (SEP-2640: a skill reads only its own files), refused before anything was sent: an
 * {@link InvalidArgumentError} (code -32602) whose `data` ({@link SkillPathErrorData}) names the
 * path as given, the root and the reason. `src/skills/uris.ts` `resolveSkillRef` says how
 * paths are normalised.
 */
export class SkillPathError extends InvalidArgumentError {
  override name = 'SkillPathError';
  declare readonly data: SkillPathErrorData;

  constructor(data: SkillPathErrorData) {
    super(
      data.name,
      data.value,
      `${JSON.stringify(data.value)} ${SKILL_PATH_REASONS[data.reason]} (root ${data.root}${data.decoded === undefined || data.decoded === data.value ? '' : `; decoded ${JSON.stringify(data.decoded)}`}); nothing was sent`,
      { ...data },
    );
  }

  /** The reason, as `data.reason`. */
  get reason(): SkillPathReason {
    return this.data.reason;
  }
}

const SKILL_PATH_REASONS: Record<SkillPathReason, string> = {
  empty: "is empty: expected a path relative to the skill's root",
  nul: 'holds a NUL character',
  'malformed-encoding': 'holds a % escape that does not decode',
  backslash: 'holds a backslash: paths are /-separated',
  'double-encoded': 'is percent-encoded twice',
  absolute: "starts with /: expected a path relative to the skill's root",
  'drive-or-scheme': "starts with a drive letter or scheme: expected a path relative to the skill's root",
  'dot-segment': 'holds a segment of dots and spaces',
  'outside-root': "leaves the skill's root",
};
