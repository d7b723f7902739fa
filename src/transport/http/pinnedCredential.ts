/**
 * The id a transport gives a credential it pins (`PinnedCredential` in requestCredential.ts): a
 * digest of the `Authorization` value, on `@noble/hashes`. Loaded with the first credential a
 * transport pins (authorization.ts), so a client that sends no `Authorization` never loads it.
 * Runtime-neutral.
 */
import { sha256Hex } from '../../util/sha256.js';

/**
 * An opaque, stable id of a credential value: `"credential:"` and the first 32 hex digits (128
 * bits) of the SHA-256 of `"mcp-live/authorization\0"` followed by `value` (UTF-8). The same
 * value always gives the same id; the value cannot be read back from it.
 */
export function credentialId(value: string): string {
  return `credential:${sha256Hex(`mcp-live/authorization\u0000${value}`).slice(0, 32)}`;
}
