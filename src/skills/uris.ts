/**
 * Skill URIs (SEP-2640, Resource Mapping and Reading): a skill's root is its `SKILL.md` URI
 * without `/SKILL.md`; a relative reference resolves against that root as a file path would,
 * and never above it; URIs compare in one canonical spelling, whatever percent-encoding either
 * side used. Pure.
 */
import { SkillPathError, type SkillPathReason } from './errors.js';

/** The file every skill has at its root. */
export const SKILL_MD = 'SKILL.md';

/** The root directory of a skill: its `SKILL.md` URI without `/SKILL.md`; `undefined` if it does not end so. */
export function skillRoot(skillUri: string): string | undefined {
  const suffix = `/${SKILL_MD}`;
  if (!skillUri.endsWith(suffix)) return undefined;
  const root = skillUri.slice(0, -suffix.length);
  return /^[A-Za-z][A-Za-z0-9+.-]*:\/*[^/]/.test(root) ? root : undefined;
}

/** The skill's name as its URI says: the last segment of its path (percent-decoded). */
export function nameFromUri(skillUri: string): string | undefined {
  const root = skillRoot(skillUri);
  if (root === undefined) return undefined;
  const last = root.slice(root.lastIndexOf('/') + 1).replace(/^[A-Za-z][A-Za-z0-9+.-]*:/, '');
  return decodeSegment(last);
}

/** True for an absolute URI (`scheme:`). */
export function isAbsoluteUri(ref: string): boolean {
  return /^[A-Za-z][A-Za-z0-9+.-]*:/.test(ref);
}

/**
 * Resolves `ref` against the skill's root, as what the server will read: a relative path
 * (`references/FORMS.md`, `./a/../b.md`) is normalised the way RFC 3986 reads it and joined to
 * the root, an absolute URI must name the root or a file under it; a fragment is dropped.
 * Normalising decodes the percent-encoding once (`%2e%2e` is `..`, `%2f` a `/`), then refuses
 * what could name a file outside the skill on any server: a NUL, a backslash (raw or encoded),
 * a leading `/`, a drive letter (`C:`) or scheme, a segment of dots and spaces other than `.`
 * and `..`, an encoding left after decoding once (`%252e`), and a `..` above the root. The URI
 * returned holds the decoded segments encoded again one way (`encodeSegment`), with no dot
 * segment left, so the server receives exactly the file that was checked.
 * @throws SkillPathError (an InvalidArgumentError, -32602) naming `ref`, the root and the reason.
 */
export function resolveSkillRef(root: string, ref: string, name: 'ref' | 'path' = 'ref'): string {
  const bare = ref.split('#', 1)[0] ?? '';
  let relative = bare;
  if (/^[A-Za-z]:/.test(bare)) throw new SkillPathError({ name, value: ref, root, reason: 'drive-or-scheme' });
  if (isAbsoluteUri(bare)) {
    const canonical = canonicalUri(bare);
    const base = canonicalUri(root);
    if (canonical === base) return root;
    if (!canonical.startsWith(`${base}/`)) throw new SkillPathError({ name, value: ref, root, reason: 'outside-root' });
    relative = canonical.slice(base.length + 1);
  }
  const segments = skillPathSegments(relative, (reason, decoded) => {
    throw new SkillPathError({ name, value: ref, root, reason, ...(decoded !== undefined && { decoded }) });
  });
  if (segments.length === 0) return root;
  return `${root}/${segments.map(encodeSegment).join('/')}`;
}

/**
 * The segments of a path relative to a skill's root, percent-decoded once and with the dot
 * segments removed (RFC 3986 §5.2.4); `refuse` is called (and must throw) for anything
 * {@link resolveSkillRef} refuses. Pure.
 */
export function skillPathSegments(
  path: string,
  refuse: (reason: SkillPathReason, decoded?: string) => never,
): string[] {
  if (path === '') refuse('empty');
  if (path.includes('\u0000')) refuse('nul');
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return refuse('malformed-encoding');
  }
  if (decoded.includes('\u0000')) refuse('nul', decoded);
  if (decoded.includes('\\')) refuse('backslash', decoded);
  if (/%[0-9A-Fa-f]{2}/.test(decoded)) refuse('double-encoded', decoded);
  if (decoded.startsWith('/')) refuse('absolute', decoded);
  if (/^[A-Za-z]:/.test(decoded) || isAbsoluteUri(decoded)) refuse('drive-or-scheme', decoded);
  const segments: string[] = [];
  for (const segment of decoded.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0) refuse('outside-root', decoded);
      segments.pop();
    } else if (/^[. ]+$/.test(segment)) refuse('dot-segment', decoded);
    else segments.push(segment);
  }
  // `./C:/x` or `a/../C:` is a drive letter once the dot segments are gone.
  if (/^[A-Za-z]:/.test(segments[0] ?? '')) refuse('drive-or-scheme', decoded);
  return segments;
}

/**
 * The path of `uri` under `root` (`references/FORMS.md`); `undefined` when it is not under it,
 * or when a segment decodes to `.` or `..` (`%2e%2e`: a server may read it as a step up).
 */
export function pathUnder(root: string, uri: string): string | undefined {
  const r = canonicalUri(root);
  const u = canonicalUri(uri);
  if (!u.startsWith(`${r}/`)) return undefined;
  const segments = u
    .slice(r.length + 1)
    .split('/')
    .map(decodeSegment);
  return segments.some((segment) => segment === '.' || segment === '..') ? undefined : segments.join('/');
}

/**
 * One spelling of a URI for comparison: each `/`-separated piece after the scheme is
 * percent-decoded where it decodes and encoded again the same way; the scheme is lower-cased.
 */
export function canonicalUri(uri: string): string {
  const colon = uri.indexOf(':');
  const scheme = colon > 0 && isAbsoluteUri(uri) ? uri.slice(0, colon).toLowerCase() + ':' : '';
  const rest = scheme === '' ? uri : uri.slice(colon + 1);
  return (
    scheme +
    rest
      .split('/')
      .map((segment) => encodeSegment(decodeSegment(segment)))
      .join('/')
  );
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** `encodeURIComponent`, keeping the sub-delimiters and `:@` that path segments allow (RFC 3986 §3.3). */
function encodeSegment(segment: string): string {
  return encodeURIComponent(segment).replace(/%(21|24|26|27|28|29|2A|2B|2C|3B|3D|3A|40)/g, (match) =>
    decodeURIComponent(match),
  );
}
