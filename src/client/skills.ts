/**
 * `client.skills`: the Skills extension (SEP-2640) on one client. The object is small and made on
 * first access; the code behind it (`skills/`, with its frontmatter reader) is imported on the first
 * call, so a client that never uses skills never loads it.
 */
import { skillsCapabilityOf } from '../wire/skillsCapability.js';
import type {
  DirectoryReadOptions,
  SkillListOptions,
  SkillsClient,
  SkillsClientDeps,
} from '../skills/skillsClient.lazy.js';
import { onDemand } from '../errors/moduleLoad.js';
import type { DirectoryListing, Skill, SkillFile, SkillListing } from '../skills/types.js';
import type { CallOptions } from '../wire/callOptions.js';

/**
 * The Skills extension on one server (SEP-2640): a server declares
 * `capabilities.extensions["io.modelcontextprotocol/skills"]`, lists its skills with
 * `skills/list`, answers `skills/get` for one, and serves each file of a skill as a resource.
 * Every file read is verified against the skill's entry before it is returned. Requests go
 * through the response cache (TTL, scope, invalidation by `notifications/resources/list_changed`
 * on a listen stream) and declare the extension in their client capabilities. See docs/skills.md.
 */
export interface ClientSkills {
  /** The server declares the extension (from discovery; `false` before `connect()`). */
  readonly supported: boolean;
  /** The server declares `directoryRead: true`: {@link readDirectory} may be used. */
  readonly directoryRead: boolean;
  /**
   * `skills/list`: every page (at most `maxPages`, default 1000), or the one page at `cursor`
   * (then `nextCursor` says where the next one starts). A server without the extension gives an
   * empty listing and nothing is sent. An empty or partial listing is allowed by the SEP: it
   * does not prove the server has no other skills ({@link get} reaches them by URI).
   * @throws InvalidSkillEntryError (-33061) naming every entry that breaks the SEP's rules (the
   *   URI's last segment not `frontmatter.name`, an incomplete or out-of-directory `resources`,
   *   a bad digest or size, a repeated URI, over the limits), unless `skipInvalid` returns them
   *   in `invalid`; ProtocolError (-32600) for a malformed page; as `client.pages` otherwise.
   */
  list(options?: SkillListOptions): Promise<SkillListing>;
  /**
   * `skills/get`: the entry of the skill whose `SKILL.md` is at `uri`, listed or not.
   * @throws InvalidArgumentError (-32602), nothing sent, when `uri` does not end in `/SKILL.md`;
   *   SkillsUnsupportedError (-33062) without the extension; InvalidSkillEntryError (-33061)
   *   for an invalid entry or one of another skill; RpcError -32602 from a server that serves
   *   no such skill.
   */
  get(uri: string, options?: CallOptions): Promise<Skill>;
  /**
   * Reads one file of `skill` (default its `SKILL.md`) and verifies it: `ref` is a path relative
   * to the skill's root (`references/FORMS.md`) or an absolute URI under it; a fragment is
   * ignored. The path is percent-decoded once and its dot segments removed before anything is
   * sent, and what could leave the root is refused (`..` above it in any spelling: `%2e%2e/`,
   * `.%2e/`, `..%2f`; a NUL, a backslash, a leading `/`, a drive letter, double encoding):
   * docs/skills.md, "Paths stay inside their skill". The file must be listed in the entry (checked before anything is sent,
   * whatever percent-encoding either side used) and is requested by the entry's spelling; its
   * size and SHA-256 must match, and for the skill's own `SKILL.md` the frontmatter must be in
   * the YAML subset docs/skills.md lists (YAML 1.2 core schema) and equal the entry's. A copy
   * served from the cache that fails is read once
   * more with `cacheMode: 'reload'` before the error. A `"dynamic"` skill's files skip the list,
   * size and digest checks (`verified: false`), not the frontmatter.
   * @throws SkillVerificationError (-33060; `data.reason` `unlisted`, `size`, `digest` or
   *   `frontmatter`, with `data.line` and `data.value` when it cannot be read); SkillPathError
   *   (-32602, an InvalidArgumentError; `data.reason`, `data.value`, `data.root`) for a reference
   *   that could leave the skill, nothing sent; InvalidArgumentError (-32602) for an invalid entry;
   *   ProtocolError (-32600) when the result has no contents for the file; as `readResource`.
   */
  read(skill: Skill, ref?: string, options?: CallOptions): Promise<SkillFile>;
  /**
   * `resources/directory/read`, every page: the direct children of a directory (`mimeType:
   * "inode/directory"` for subdirectories). `target` is a directory URI, or a skill entry whose
   * root `path` (relative, default the root itself) is resolved against, normalised as in
   * `read` (never above the root or the directory URI).
   * @throws SkillPathError (-32602), nothing sent, for a `path` that could leave it;
   *   SkillsUnsupportedError (-33062), nothing sent, unless the server declares
   *   `directoryRead: true`; RpcError -32602 for a URI that is not a directory; as `client.pages`.
   */
  readDirectory(target: string | Skill, path?: string, options?: DirectoryReadOptions): Promise<DirectoryListing>;
}

/** What `client.skills` is built on: the client's capabilities and its cached requests. */
export type ClientSkillsDeps = SkillsClientDeps;

const loadSkillsClient = onDemand('skills', () =>
  import('../skills/skillsClient.lazy.js').then((module) => module.SkillsClient),
);

/** Makes `client.skills`; the implementation is imported on the first call. */
export function clientSkills(host: ClientSkillsDeps): ClientSkills {
  let loading: Promise<SkillsClient> | undefined;
  const impl = (): Promise<SkillsClient> =>
    (loading ??= loadSkillsClient().then(
      (SkillsClient) => new SkillsClient(host),
      (error: unknown) => {
        loading = undefined; // a failed load is tried again on the next call
        throw error;
      },
    ));
  return {
    get supported() {
      return skillsCapabilityOf(host.capabilities()) !== undefined;
    },
    get directoryRead() {
      return skillsCapabilityOf(host.capabilities())?.directoryRead === true;
    },
    list: async (options) => (await impl()).list(options),
    get: async (uri, options) => (await impl()).get(uri, options),
    read: async (skill, ref, options) => (await impl()).read(skill, ref, options),
    readDirectory: async (target, path, options) => (await impl()).readDirectory(target, path, options),
  };
}
