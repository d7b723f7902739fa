import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * SHA-256 of the UTF-8 bytes of `text`, as 64 lowercase hex digits. Synchronous and
 * runtime-neutral (`@noble/hashes`), so the cache can turn an auth context into a partition id (and a transport a URL query into an identity)
 * without `node:crypto` and without making the hit path async. Called only when the auth
 * context changes (the caller memoizes).
 */
export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}
