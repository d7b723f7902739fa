/**
 * Exposed names: what a model sees of a tool (or prompt) gathered from many servers. Pure.
 *
 * The rules, in order:
 * 1. A name is `<prefix><separator><name>` (`github__create_issue`), or the bare name when the
 *    server's prefix is `""`, or, in `onCollision` mode, when no other server has a tool of that
 *    name.
 * 2. Every character outside `[A-Za-z0-9_-]` becomes `_`; a name that does not start with a
 *    letter or `_` gets a leading `_` (Gemini requires it). OpenAI, Anthropic and Gemini all
 *    accept the result.
 * 3. A name longer than 64 characters keeps its first 55 and ends with `_` and 8 hex digits of
 *    the SHA-256 of `server \0 name`: deterministic, and different for different tools.
 * 4. Tools that would still share a name all get that hash suffix instead (and, should two
 *    suffixes meet, a longer one), so no two tools ever share an exposed name. Each such case is
 *    reported as a collision, never resolved by dropping a tool. The one exception: a server
 *    that lists the same name twice; the first is kept (both would call the same tool) and
 *    the duplicate is reported.
 */
import { sha256Hex } from '../../util/sha256.js';

/** The longest exposed name: what OpenAI, Anthropic and Gemini all accept. */
export const MAX_EXPOSED_NAME_LENGTH = 64;
/** Between prefix and name. */
export const DEFAULT_NAME_SEPARATOR = '__';
/** Hex digits of the hash that shortens or disambiguates a name (rule 3). */
const HASH_DIGITS = 8;

/**
 * When tool and prompt names get their server's prefix: `always` (stable names, the default),
 * or `onCollision`, only for names that more than one server uses.
 */
export type PrefixMode = 'always' | 'onCollision';

/** One item to name: a tool or prompt of one server. */
export interface NameRequest {
  /** The server's name (the hash input, with `name`). */
  server: string;
  /** The server's prefix; `""` for none. */
  prefix: string;
  /** The item's name on the wire. */
  name: string;
}

/** Several items that would have shared one exposed name. */
export interface ExposedNameCollision {
  /** The name they would all have had. */
  exposedName: string;
  /**
   * `suffixed`: distinct tools, each given a hash suffix (see `exposedNames` for the names now);
   * `duplicate`: one server listed the same name more than once, and the first one is kept.
   */
  resolution: 'suffixed' | 'duplicate';
  /** The items involved, in catalog order. */
  items: Array<{ server: string; name: string }>;
  /** `suffixed`: the exposed name each item got, in the order of `items`. */
  exposedNames: string[];
}

/** Options of {@link assignExposedNames}. */
export interface NameRules {
  /** @default "__" */
  separator?: string | undefined;
  /** @default "always" */
  prefixMode?: PrefixMode | undefined;
}

/** What {@link assignExposedNames} returns. */
export interface NameAssignment {
  /** The exposed name of each request, by index; `undefined` for a duplicate left out. */
  names: Array<string | undefined>;
  collisions: ExposedNameCollision[];
}

const ALLOWED = /^[A-Za-z0-9_-]$/;

/** Rule 2: each character (code point) outside `[A-Za-z0-9_-]` becomes `_`; a leading `_` unless it starts with a letter or `_`. */
export function sanitizeName(text: string): string {
  let out = '';
  for (const char of text) out += ALLOWED.test(char) ? char : '_';
  return /^[A-Za-z_]/.test(out) ? out : `_${out}`;
}

/** The hash of rules 3 and 4: `digits` hex digits of SHA-256(`server \0 name`). */
export function nameHash(server: string, name: string, digits: number = HASH_DIGITS): string {
  return sha256Hex(`${server}\u0000${name}`).slice(0, digits);
}

/** `sanitized` cut so that `_<hash>` fits within the limit, then `_<hash>`. */
function withSuffix(sanitized: string, hash: string): string {
  return `${sanitized.slice(0, MAX_EXPOSED_NAME_LENGTH - 1 - hash.length)}_${hash}`;
}

/**
 * Exposed names for `requests`, in their order (the catalog's: servers in host order, items in
 * list order). The name of an item depends only on its server, its name, its prefix, and
 * whether others collide with it. See the module comment for the rules.
 */
export function assignExposedNames(requests: readonly NameRequest[], rules: NameRules = {}): NameAssignment {
  const separator = rules.separator ?? DEFAULT_NAME_SEPARATOR;
  const mode = rules.prefixMode ?? 'always';
  const names: Array<string | undefined> = new Array<string | undefined>(requests.length).fill(undefined);
  const collisions: ExposedNameCollision[] = [];

  // A server listing one name twice: keep the first.
  const live: number[] = [];
  const firstOf = new Map<string, number>();
  const duplicates = new Map<number, number[]>();
  requests.forEach((request, i) => {
    const key = `${request.server}\u0000${request.name}`;
    const first = firstOf.get(key);
    if (first === undefined) {
      firstOf.set(key, i);
      live.push(i);
    } else duplicates.set(first, [...(duplicates.get(first) ?? []), i]);
  });

  // onCollision: which bare names more than one server uses.
  const shared = new Set<string>();
  if (mode === 'onCollision') {
    const servers = new Map<string, Set<string>>();
    for (const i of live) {
      const request = requests[i] as NameRequest;
      const bare = fit(sanitizeName(request.name), request);
      const set = servers.get(bare) ?? new Set<string>();
      set.add(request.server);
      servers.set(bare, set);
    }
    for (const [bare, set] of servers) if (set.size > 1) shared.add(bare);
  }

  const sanitized = new Map<number, string>();
  for (const i of live) {
    const request = requests[i] as NameRequest;
    const prefixed =
      request.prefix !== '' && (mode === 'always' || shared.has(fit(sanitizeName(request.name), request)));
    const base = sanitizeName(prefixed ? `${request.prefix}${separator}${request.name}` : request.name);
    sanitized.set(i, base);
    names[i] = fit(base, request);
  }

  // Shared names: every holder gets a suffix, longer each round while suffixes still meet.
  const reported = new Set<string>();
  for (let digits = HASH_DIGITS; digits <= 32; digits *= 2) {
    const holders = new Map<string, number[]>();
    for (const i of live) {
      const name = names[i] as string;
      holders.set(name, [...(holders.get(name) ?? []), i]);
    }
    let clash = false;
    for (const [name, group] of holders) {
      if (group.length < 2) continue;
      clash = true;
      for (const i of group) {
        const request = requests[i] as NameRequest;
        names[i] = withSuffix(sanitized.get(i) as string, nameHash(request.server, request.name, digits));
      }
      if (!reported.has(name)) {
        reported.add(name);
        collisions.push({
          exposedName: name,
          resolution: 'suffixed',
          items: group.map((i) => ({
            server: (requests[i] as NameRequest).server,
            name: (requests[i] as NameRequest).name,
          })),
          exposedNames: [],
        });
      }
    }
    if (!clash) break;
  }
  for (const collision of collisions) {
    collision.exposedNames = collision.items.map(
      (item) => names[firstOf.get(`${item.server}\u0000${item.name}`) as number] as string,
    );
  }

  for (const [first, rest] of duplicates) {
    const request = requests[first] as NameRequest;
    collisions.push({
      exposedName: names[first] as string,
      resolution: 'duplicate',
      items: [first, ...rest].map(() => ({ server: request.server, name: request.name })),
      exposedNames: [],
    });
  }
  return { names, collisions };
}

/** Rule 3: a sanitized name within the length limit. */
function fit(sanitized: string, request: NameRequest): string {
  return sanitized.length <= MAX_EXPOSED_NAME_LENGTH
    ? sanitized
    : withSuffix(sanitized, nameHash(request.server, request.name));
}
