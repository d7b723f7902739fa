/**
 * SHA-256 in JavaScript (`@noble/hashes`), for a runtime without WebCrypto (a browser page that
 * is not a secure context): the one function `digestOf` loads there, on first use, so that the
 * skills code does not carry it where `crypto.subtle` exists. Runtime-neutral.
 */
export { sha256 } from '@noble/hashes/sha2.js';
