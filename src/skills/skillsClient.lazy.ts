/**
 * The client side of the Skills extension (SEP-2640) for one server: `skills/list` (every page
 * or one), `skills/get`, reads of a skill's files verified against its entry before they are
 * returned, and `resources/directory/read`. Requests go through the client's response cache
 * (the host hooks), so TTL, scope and invalidation apply as to every other read; a cached file
 * that fails verification is fetched once more, fresh, before the error. Loaded on first use of
 * `client.skills`, with the frontmatter reader (frontmatterYaml.ts).
 */
import type { CacheSource } from '../cache/types.js';
import type { CallOptions } from '../wire/callOptions.js';
import { InvalidArgumentError, ProtocolError } from '../errors/errors.js';
import { isObject, type JsonObject } from '../wire/messages.js';
import { pages, type Page } from '../pagination/paginate.js';
import type { CacheScope, ReadResourceResult, ServerCapabilities } from '../wire/protocol.js';
import { skillsCapabilityOf } from '../wire/skillsCapability.js';
import { skillEntryProblem, sortEntries, type SkillLimits } from './entries.js';
import { InvalidSkillEntryError, SkillVerificationError, SkillsUnsupportedError } from './errors.js';
import {
  SKILL_LIMITS,
  type DirectoryEntry,
  type DirectoryListing,
  type InvalidSkillEntry,
  type Skill,
  type SkillFile,
  type SkillListing,
} from './types.js';
import { canonicalUri, pathUnder, resolveSkillRef, skillRoot, SKILL_MD } from './uris.js';
import { fileContents, verifyFile } from './verify.js';

/** What the skills client needs from the client: capabilities, and cached requests that declare the extension. */
export interface SkillsClientDeps {
  capabilities(): ServerCapabilities | undefined;
  /**
   * One cacheable request of the extension (the extension declared in its capabilities);
   * `check` runs on a result from the network before it is stored.
   */
  cached(
    method: 'skills/list' | 'skills/get' | 'resources/directory/read',
    params: JsonObject,
    key: { uri?: string; cursor?: string },
    options: CallOptions,
    check: (method: string, result: JsonObject) => JsonObject,
  ): Promise<{ result: JsonObject; source: CacheSource }>;
  /** `resources/read` through the cache, as `client.readResource`. */
  read(uri: string, options: CallOptions): Promise<{ result: ReadResourceResult; source: CacheSource }>;
  /** Drops every cached page of a list (a walk restarting after an invalid cursor). */
  invalidateList(method: 'skills/list'): Promise<unknown>;
}

/** Options of `skills.list()`: the call's options, one page or all, and what to do with invalid entries. */
export interface SkillListOptions extends CallOptions {
  /** Fetch this one page (`""` is a cursor) instead of walking every page. */
  cursor?: string | undefined;
  /** Return invalid entries in `invalid` instead of throwing `InvalidSkillEntryError`. @default false */
  skipInvalid?: boolean | undefined;
  /** The most page requests a whole walk sends. @default 1000 */
  maxPages?: number | undefined;
}

/** Options of `skills.readDirectory()`. */
export interface DirectoryReadOptions extends CallOptions {
  /** The most page requests the walk sends. @default 1000 */
  maxPages?: number | undefined;
}

/** The skills client of one server (see the file's opening comment). */
export class SkillsClient {
  private readonly limits: SkillLimits;

  constructor(
    private readonly host: SkillsClientDeps,
    options: { limits?: Partial<SkillLimits> | undefined } = {},
  ) {
    this.limits = { ...SKILL_LIMITS, ...options.limits };
  }

  /** The server declares the extension. */
  get supported(): boolean {
    return skillsCapabilityOf(this.host.capabilities()) !== undefined;
  }

  /** The server declares `directoryRead: true`. */
  get directoryRead(): boolean {
    return skillsCapabilityOf(this.host.capabilities())?.directoryRead === true;
  }

  async list(options: SkillListOptions = {}): Promise<SkillListing> {
    const { cursor, skipInvalid = false, maxPages, ...call } = options;
    if (cursor !== undefined && typeof cursor !== 'string')
      throw new InvalidArgumentError('cursor', cursor, 'expected a string');
    if (!this.supported) return { skills: [], invalid: [] };
    const fetchPage = async (at: string | undefined, signal: AbortSignal | undefined): Promise<Page<unknown>> => {
      const params: JsonObject = at === undefined ? {} : { cursor: at };
      const { result } = await this.host.cached(
        'skills/list',
        params,
        at === undefined ? {} : { cursor: at },
        { ...call, signal },
        checkListResult,
      );
      const nextCursor = typeof result['nextCursor'] === 'string' ? result['nextCursor'] : undefined;
      return { items: result['skills'] as unknown[], nextCursor, result };
    };
    let skills: Skill[] = [];
    let invalid: InvalidSkillEntry[] = [];
    let seen = new Map<string, number>();
    let count = 0;
    let first: JsonObject | undefined;
    let anyPrivate = false;
    const take = (page: Page<unknown>): void => {
      first ??= page.result;
      if (page.result['cacheScope'] === 'private') anyPrivate = true;
      const sorted = sortEntries(page.items, count, this.limits, seen);
      count += page.items.length;
      skills.push(...sorted.skills.map((s) => s.skill));
      invalid.push(...sorted.invalid);
    };
    let nextCursor: string | undefined;
    if (cursor !== undefined || maxPages === 1) {
      const page = await fetchPage(cursor, call.signal);
      take(page);
      nextCursor = page.nextCursor;
    } else {
      const walk = pages(fetchPage, {
        method: 'skills/list',
        maxPages,
        signal: call.signal,
        onRestart: async () => {
          skills = [];
          invalid = [];
          seen = new Map();
          count = 0;
          first = undefined;
          anyPrivate = false;
          await this.host.invalidateList('skills/list');
        },
      });
      for await (const page of walk) take(page);
    }
    if (invalid.length > 0 && !skipInvalid) throw new InvalidSkillEntryError('skills/list', invalid);
    return {
      skills,
      invalid,
      ...(nextCursor !== undefined && { nextCursor }),
      ...cacheFields(first, anyPrivate),
    };
  }

  async get(uri: string, options: CallOptions = {}): Promise<Skill> {
    if (typeof uri !== 'string' || skillRoot(uri) === undefined)
      throw new InvalidArgumentError('uri', uri, 'expected the URI of a SKILL.md (scheme://<skill-path>/SKILL.md)');
    this.requireExtension('skills/get');
    const { result } = await this.host.cached('skills/get', { uri }, { uri }, options, checkGetResult);
    const skill = result['skill'];
    const problem = skillEntryProblem(skill, this.limits);
    const entryUri = isObject(skill) && typeof skill['uri'] === 'string' ? skill['uri'] : undefined;
    if (problem !== undefined)
      throw new InvalidSkillEntryError('skills/get', [{ index: 0, uri: entryUri, reason: problem, value: skill }]);
    if (canonicalUri(entryUri as string) !== canonicalUri(uri))
      throw new InvalidSkillEntryError('skills/get', [
        { index: 0, uri: entryUri, reason: `the server answered for another skill than ${uri}`, value: skill },
      ]);
    return skill as Skill;
  }

  async read(skill: Skill, ref: string = SKILL_MD, options: CallOptions = {}): Promise<SkillFile> {
    const problem = skillEntryProblem(skill, this.limits);
    if (problem !== undefined) throw new InvalidArgumentError('skill', skill, `not a valid skill entry: ${problem}`);
    if (typeof ref !== 'string') throw new InvalidArgumentError('ref', ref, 'expected a path or URI string');
    const root = skillRoot(skill.uri) as string;
    const uri = resolveSkillRef(root, ref, 'ref');
    const wanted = canonicalUri(uri);
    const entry =
      skill.resources === 'dynamic' ? undefined : skill.resources.find((file) => canonicalUri(file.uri) === wanted);
    if (skill.resources !== 'dynamic' && entry === undefined)
      throw new SkillVerificationError(
        { reason: 'unlisted', uri, skill: skill.uri, differences: [] },
        'not listed in the skill entry (nothing was sent)',
      );
    const target = entry?.uri ?? uri;
    const path = wanted === canonicalUri(skill.uri) ? SKILL_MD : (pathUnder(root, target) ?? target);
    const attempt = async (call: CallOptions): Promise<{ file?: SkillFile; error?: unknown; source: CacheSource }> => {
      const { result, source } = await this.host.read(target, call);
      const read = fileContents(result, target);
      if (read === undefined)
        throw new ProtocolError(`no text or blob contents for ${target}`, { method: 'resources/read', value: result });
      try {
        return { file: await verifyFile(skill, target, path, read, entry), source };
      } catch (error) {
        if (!(error instanceof SkillVerificationError)) throw error;
        return { error, source };
      }
    };
    const first = await attempt(options);
    if (first.file !== undefined) return first.file;
    // A copy from the cache may predate the entry: one fresh read before the verdict.
    if (first.source === 'network') throw first.error;
    const fresh = await attempt({ ...options, cacheMode: 'reload' });
    if (fresh.file !== undefined) return fresh.file;
    throw fresh.error;
  }

  async readDirectory(
    target: string | Skill,
    path?: string,
    options: DirectoryReadOptions = {},
  ): Promise<DirectoryListing> {
    let uri: string;
    if (typeof target === 'string')
      uri = path === undefined ? target : resolveSkillRef(target.replace(/\/+$/, ''), path, 'path');
    else {
      const root = isObject(target) && typeof target.uri === 'string' ? skillRoot(target.uri) : undefined;
      if (root === undefined) throw new InvalidArgumentError('skill', target, 'expected a skill entry');
      if (path !== undefined && typeof path !== 'string')
        throw new InvalidArgumentError('path', path, 'expected a string');
      uri = path === undefined ? root : resolveSkillRef(root, path, 'path');
    }
    if (typeof uri !== 'string' || uri === '') throw new InvalidArgumentError('uri', uri, 'expected a directory URI');
    uri = uri.replace(/\/+$/, '');
    this.requireExtension('resources/directory/read');
    if (!this.directoryRead) throw new SkillsUnsupportedError('resources/directory/read', 'directoryRead');
    const { maxPages, ...call } = options;
    const resources: DirectoryEntry[] = [];
    let first: JsonObject | undefined;
    let anyPrivate = false;
    const walk = pages<DirectoryEntry>(
      async (cursor, signal) => {
        const params: JsonObject = cursor === undefined ? { uri } : { uri, cursor };
        const { result } = await this.host.cached(
          'resources/directory/read',
          params,
          cursor === undefined ? { uri } : { uri, cursor },
          { ...call, signal },
          checkDirectoryResult,
        );
        const nextCursor = typeof result['nextCursor'] === 'string' ? result['nextCursor'] : undefined;
        return { items: result['resources'] as DirectoryEntry[], nextCursor, result };
      },
      {
        method: 'resources/directory/read',
        maxPages,
        signal: call.signal,
        onRestart: () => {
          resources.length = 0;
          first = undefined;
        },
      },
    );
    for await (const page of walk) {
      first ??= page.result;
      if (page.result['cacheScope'] === 'private') anyPrivate = true;
      resources.push(...page.items);
    }
    return { uri, resources, ...cacheFields(first, anyPrivate) };
  }

  private requireExtension(method: string): void {
    if (this.supported) return;
    throw new SkillsUnsupportedError(method, 'extension');
  }
}

function cacheFields(first: JsonObject | undefined, anyPrivate: boolean): { ttlMs?: number; cacheScope?: CacheScope } {
  if (first === undefined) return {};
  const ttlMs = first['ttlMs'];
  const scope = first['cacheScope'];
  return {
    ...(typeof ttlMs === 'number' && { ttlMs }),
    ...(anyPrivate ? { cacheScope: 'private' as const } : scope === 'public' && { cacheScope: 'public' as const }),
  };
}

function nextCursorOk(method: string, result: JsonObject): void {
  const next = result['nextCursor'];
  if (next !== undefined && next !== null && typeof next !== 'string')
    throw new ProtocolError('result.nextCursor is not a string', { method, value: result });
}

/** `skills/list`: a `skills` array and an optional string `nextCursor`; entries are judged when read. */
function checkListResult(method: string, result: JsonObject): JsonObject {
  if (!Array.isArray(result['skills']))
    throw new ProtocolError('result.skills is not an array', { method, value: result });
  nextCursorOk(method, result);
  return result;
}

function checkGetResult(method: string, result: JsonObject): JsonObject {
  if (!isObject(result['skill'])) throw new ProtocolError('result.skill is not an object', { method, value: result });
  return result;
}

/** `resources/directory/read`: a `resources` array of objects with a string `uri`; malformed children are dropped. */
function checkDirectoryResult(method: string, result: JsonObject): JsonObject {
  const resources = result['resources'];
  if (!Array.isArray(resources)) throw new ProtocolError('result.resources is not an array', { method, value: result });
  nextCursorOk(method, result);
  const kept = resources.filter((r) => isObject(r) && typeof r['uri'] === 'string' && r['uri'] !== '');
  return kept.length === resources.length ? result : { ...result, resources: kept };
}
