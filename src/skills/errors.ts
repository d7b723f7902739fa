import { ErrorCode } from '../errors/codes.js';
import { LocalError } from '../errors/errors.js';
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
