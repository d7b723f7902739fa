/**
 * A canonical digest of a call's arguments, so that an approval binds to exactly the arguments
 * it was given for. Pure.
 */
import { sha256Hex } from '../../util/sha256.js';

/**
 * The canonical JSON text of `value`: object keys sorted (by UTF-16 code units, as RFC 8785),
 * no whitespace, numbers and strings as `JSON.stringify` writes them; `undefined` members left
 * out, as JSON does. Two values that are equal as JSON give the same text, whatever their key order.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    const members = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** SHA-256 (64 hex digits) of the canonical JSON of a call's arguments. */
export function argumentsHash(args: unknown): string {
  return sha256Hex(canonicalJson(args ?? {}));
}
