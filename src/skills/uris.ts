/**
 * Skill URIs (SEP-2640, Resource Mapping and Reading): a skill's root is its `SKILL.md` URI
 * without `/SKILL.md`; a relative reference resolves against that root as a file path would,
 * and never above it; URIs compare in one canonical spelling, whatever percent-encoding either
 * side used. Pure.
 */

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
 * Resolves `ref` against the skill's root: an absolute URI stays as it is, a relative path
 * (`references/FORMS.md`, `./a/../b.md`) is joined to the root; a fragment is dropped.
 * @throws Error naming the reference when it is empty, starts with `/`, or climbs above the root.
 */
export function resolveSkillRef(root: string, ref: string): string {
  const bare = ref.split('#', 1)[0] ?? '';
  if (isAbsoluteUri(bare)) return bare;
  if (bare === '' || bare.startsWith('/'))
    throw new Error(`expected a path relative to the skill's root, got ${JSON.stringify(ref)}`);
  const segments: string[] = [];
  for (const segment of bare.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0) throw new Error(`${JSON.stringify(ref)} leaves the skill's root`);
      segments.pop();
    } else segments.push(segment);
  }
  if (segments.length === 0) return root;
  return `${root}/${segments.join('/')}`;
}

/** The path of `uri` under `root` (`references/FORMS.md`); `undefined` when it is not under it. */
export function pathUnder(root: string, uri: string): string | undefined {
  const r = canonicalUri(root);
  const u = canonicalUri(uri);
  if (!u.startsWith(`${r}/`)) return undefined;
  return u
    .slice(r.length + 1)
    .split('/')
    .map(decodeSegment)
    .join('/');
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
