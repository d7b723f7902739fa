// Skip-or-fail for tests that drive a Debian package for real. A missing binary skips the suite
// with a loud reason, unless MCP_LIVE_REQUIRE_SYSTEM_PACKAGES=1 (CI), where the suite fails.
import { SYSTEM_PACKAGES, findBinary } from './systemPackages.mjs';

export interface SystemBinary {
  /** Absolute path of the binary, when found. */
  path: string | undefined;
  /** Why the suite is skipped; undefined when the binary is there. */
  skipReason: string | undefined;
}

/**
 * Finds `binary` (one of SYSTEM_PACKAGES). When it is missing: throws under
 * MCP_LIVE_REQUIRE_SYSTEM_PACKAGES=1, otherwise prints a loud line and returns a skip reason for
 * `describe.skipIf(...)`.
 */
export function systemBinary(binary: string): SystemBinary {
  const entry = SYSTEM_PACKAGES.find((candidate) => candidate.binary === binary);
  if (entry === undefined) throw new Error(`systemBinary: ${binary} is not listed in test/setup/systemPackages.mjs`);
  const path = findBinary(binary);
  if (path !== undefined) return { path, skipReason: undefined };
  const reason = `${binary} not found (Debian package ${entry.debianPackage}): ${entry.usedBy} are SKIPPED; install it with apt-get install ${entry.debianPackage}`;
  if (process.env.MCP_LIVE_REQUIRE_SYSTEM_PACKAGES === '1')
    throw new Error(`${reason}, but MCP_LIVE_REQUIRE_SYSTEM_PACKAGES=1 requires it`);
  process.stderr.write(`\n!!! ${reason}\n\n`);
  return { path: undefined, skipReason: reason };
}
