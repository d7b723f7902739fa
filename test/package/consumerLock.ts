/**
 * A package-lock.json for a scratch project that depends on the packed mcp-live tarball only,
 * made from this project's own lock: mcp-live's runtime dependencies, and theirs, at the
 * versions, `resolved` URLs and integrities this project installed.
 *
 * Why: `npm ci` fetches tarballs by the lock's integrity and never the registry's packuments
 * (the version lists), so after it npm's cache holds the tarballs but not what an install
 * without a lock needs to resolve `^4.1.6`; an `--offline` install of the tarball then fails
 * with ENOTCACHED. With this lock the install resolves nothing, and reads only tarballs the
 * project's install put in the cache.
 */

interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  link?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  [field: string]: unknown;
}

/** The fields of a package-lock.json (lockfileVersion 3) this file reads and writes. */
export interface PackageLock {
  name?: string;
  lockfileVersion: number;
  requires?: boolean;
  packages: Record<string, LockEntry>;
}

/** The parts of the packed package.json that go into its lock entry. */
export interface PackedManifest {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  engines?: Record<string, string>;
  bin?: Record<string, string>;
  license?: string;
}

/** Where Node (and npm's tree) finds `name` from the package at lock path `from`: its own node_modules, then each parent's. */
function resolveIn(lock: PackageLock, from: string, name: string): string | undefined {
  for (let at = from; ;) {
    const candidate = `${at === '' ? '' : `${at}/`}node_modules/${name}`;
    if (lock.packages[candidate] !== undefined) return candidate;
    if (at === '') return undefined;
    const cut = at.lastIndexOf('/node_modules/');
    at = cut === -1 ? '' : at.slice(0, cut);
  }
}

/** The names a package needs installed: its dependencies, the optional ones that were installed, and its required peers. */
function needs(entry: LockEntry): { names: string[]; optional: Set<string> } {
  const optional = new Set(Object.keys(entry.optionalDependencies ?? {}));
  const peers = Object.keys(entry.peerDependencies ?? {}).filter(
    (name) => entry.peerDependenciesMeta?.[name]?.optional !== true,
  );
  return { names: [...Object.keys(entry.dependencies ?? {}), ...optional, ...peers], optional };
}

/**
 * The consumer's lock: `consumer` depending on `mcp-live` at `tarballSpec` (a `file:` spec
 * relative to the consumer), and the closure of the manifest's dependencies as the project's
 * lock places them. Throws when a dependency the manifest needs is not in the project's lock.
 */
export function consumerLock(
  project: PackageLock,
  manifest: PackedManifest,
  tarballSpec: string,
  integrity: string,
): PackageLock {
  const { name, version, dependencies, peerDependencies, peerDependenciesMeta, engines, bin, license } = manifest;
  const packages: Record<string, LockEntry> = {
    '': { name: 'consumer', dependencies: { [name]: tarballSpec } },
    [`node_modules/${name}`]: {
      version,
      resolved: tarballSpec,
      integrity,
      ...(license !== undefined && { license }),
      ...(dependencies !== undefined && { dependencies }),
      ...(bin !== undefined && { bin }),
      ...(engines !== undefined && { engines }),
      ...(peerDependencies !== undefined && { peerDependencies }),
      ...(peerDependenciesMeta !== undefined && { peerDependenciesMeta }),
    },
  };
  // mcp-live is the project's root (path ''), so its dependencies resolve from there.
  const queue: [from: string, entry: LockEntry][] = [['', dependencies === undefined ? {} : { dependencies }]];
  for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
    const [from, entry] = item;
    const { names, optional } = needs(entry);
    for (const dependency of names) {
      const path = resolveIn(project, from, dependency);
      if (path === undefined) {
        if (optional.has(dependency)) continue;
        throw new Error(`package-lock.json has no ${dependency}, needed by ${from || name}`);
      }
      if (packages[path] !== undefined) continue;
      const found = project.packages[path]!;
      const { dev: _dev, devOptional: _devOptional, peer: _peer, ...kept } = found;
      packages[path] = kept;
      queue.push([path, found]);
    }
  }
  return { name: 'consumer', lockfileVersion: 3, requires: true, packages };
}
