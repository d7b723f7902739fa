/**
 * Wire shapes and constants of the Skills extension (SEP-2640, `io.modelcontextprotocol/skills`):
 * `skills/list`, `skills/get`, `resources/directory/read`, and the listing entry every skill file
 * is verified against. Types only, plus a few constants: nothing here pulls code into a bundle.
 */
import type { JsonObject } from '../wire/messages.js';
import type { CacheScope, Resource } from '../wire/protocol.js';

/** The `mimeType` of a directory resource. */
export const DIRECTORY_MIME_TYPE = 'inode/directory';

/**
 * Per-skill limits a host must accept (SEP-2640 via the official SDKs: 512 files, 16 MiB). An entry
 * beyond them is refused as invalid (`SkillsOptions.limits` raises them).
 */
export const SKILL_LIMITS: Readonly<{ files: number; bytes: number }> = Object.freeze({
  files: 512,
  bytes: 16 * 1024 * 1024,
});

/** One file of a skill as the listing promises it: `digest` is `sha256:` + 64 lowercase hex digits of the raw bytes. */
export interface SkillResourceEntry {
  uri: string;
  digest: string;
  /** Length of the raw bytes. */
  size: number;
  [field: string]: unknown;
}

/** A `SKILL.md`'s YAML frontmatter rendered as JSON, verbatim: `name` and `description` always, anything else as written. */
export interface SkillFrontmatter {
  name: string;
  description: string;
  [field: string]: unknown;
}

/**
 * One skill entry, as `skills/list` and `skills/get` carry it. `resources` lists every file of the
 * skill (its `SKILL.md` included), or is `"dynamic"` for a skill generated on demand whose files
 * cannot be digested ahead of time (they are read unverified, `SkillFile.verified: false`).
 */
export interface Skill {
  /** URI of the skill's `SKILL.md`; its directory is the skill's root. */
  uri: string;
  frontmatter: SkillFrontmatter;
  resources: SkillResourceEntry[] | 'dynamic';
  _meta?: JsonObject;
  [field: string]: unknown;
}

/** A listing entry refused by the checks, and why. `index` counts across every page walked. */
export interface InvalidSkillEntry {
  index: number;
  /** The entry's `uri`, when it had a string one. */
  uri?: string | undefined;
  reason: string;
  /** The entry as received. */
  value: unknown;
}

/** What `client.skills.list()` returns. */
export interface SkillListing {
  /** The valid entries, in listing order. */
  skills: Skill[];
  /** Refused entries; empty unless `skipInvalid` was set (otherwise they throw). */
  invalid: InvalidSkillEntry[];
  /** One page was asked for (a `cursor` given): the next page's cursor, if any. A whole walk has none. */
  nextCursor?: string | undefined;
  /** The first page's freshness hint, in ms (2026-07-28). */
  ttlMs?: number | undefined;
  /** The first page's scope (2026-07-28); `private` if any page was. */
  cacheScope?: CacheScope | undefined;
}

/** A file of a skill as read and verified by `client.skills.read()`. */
export interface SkillFile {
  /** The file's URI: the entry's spelling of it (for a `"dynamic"` skill, the resolved reference). */
  uri: string;
  /** The skill it belongs to, as it was verified against. */
  skill: Skill;
  /** The path relative to the skill's root, `/`-separated (`SKILL.md`, `references/FORMS.md`). */
  path: string;
  mimeType?: string | undefined;
  /** Exactly the bytes the digest covers. */
  bytes: Uint8Array;
  /** The text, when the server sent text (always for a `SKILL.md`). */
  text?: string | undefined;
  /** Size and digest were checked; `false` only for a `"dynamic"` skill. */
  verified: boolean;
  /** The skill's own `SKILL.md` only: its frontmatter as parsed (equal to the entry's). */
  frontmatter?: Record<string, unknown> | undefined;
  /** The skill's own `SKILL.md` only: the markdown after the frontmatter. */
  body?: string | undefined;
}

/** One child of a directory resource (`resources/directory/read`); `mimeType: "inode/directory"` marks a subdirectory. */
export type DirectoryEntry = Resource;

/** What `client.skills.readDirectory()` returns: every child (all pages walked). */
export interface DirectoryListing {
  /** The directory's URI as requested (no trailing slash). */
  uri: string;
  resources: DirectoryEntry[];
  /** The first page's freshness hint, in ms (2026-07-28). */
  ttlMs?: number | undefined;
  cacheScope?: CacheScope | undefined;
}
