// The Debian packages that some tests drive for real, and how to find their binaries. Shared by
// ensure-system-packages.mjs (pretest) and systemBinaries.ts (the tests' skip-or-fail check).
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** @type {ReadonlyArray<{ binary: string; debianPackage: string; usedBy: string }>} */
export const SYSTEM_PACKAGES = [
  { binary: 'redis-server', debianPackage: 'redis-server', usedBy: 'the Redis cache store tests' },
  { binary: 'chromium', debianPackage: 'chromium', usedBy: 'the browser test' },
];

/** The absolute path of `binary` on PATH, or undefined. */
export function findBinary(binary) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, binary);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}
