import type { ResourceContents } from './protocol.js';

/**
 * One entry of `ReadResourceResult.contents`, classified without guessing:
 * - `text`: a `text` field (an empty string is valid text);
 * - `blob`: a `blob` field; `bytes()` decodes it with a strict base64 check (RFC 4648 §4);
 * - `invalid`: both or neither field, or a field of the wrong type. `reason` says which.
 *
 * A blob is never turned into a string unless the caller asks with `text()`; a missing
 * `mimeType` stays `undefined`.
 */
export type ContentsView =
  | { kind: 'text'; uri: string; mimeType: string | undefined; text: string }
  | {
      kind: 'blob';
      uri: string;
      mimeType: string | undefined;
      /** Decodes `blob` to bytes (already checked as strict base64, so it does not throw). */
      bytes(): Uint8Array;
      /** Decodes `blob`, then the bytes as UTF-8; throws `TypeError` when they are not valid UTF-8. */
      text(): string;
    }
  | { kind: 'invalid'; uri: string | undefined; reason: string };

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Decodes standard base64 strictly: no whitespace, no URL-safe alphabet, correct padding.
 * Throws `TypeError` naming the problem for anything else.
 */
export function decodeBase64(value: string): Uint8Array {
  if (!BASE64.test(value)) throw new TypeError('not strict base64 (RFC 4648 §4)');
  const binary = atob(value);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Classifies one contents item; see {@link ContentsView}. Never throws. */
export function viewContents(item: ResourceContents | Record<string, unknown>): ContentsView {
  const record = item as Record<string, unknown>;
  const uri = typeof record['uri'] === 'string' ? record['uri'] : undefined;
  const mimeType = typeof record['mimeType'] === 'string' ? record['mimeType'] : undefined;
  const hasText = 'text' in record;
  const hasBlob = 'blob' in record;
  if (uri === undefined) return { kind: 'invalid', uri, reason: 'missing uri' };
  if (hasText && hasBlob) return { kind: 'invalid', uri, reason: 'has both text and blob' };
  if (!hasText && !hasBlob) return { kind: 'invalid', uri, reason: 'has neither text nor blob' };
  if (hasText) {
    const text = record['text'];
    return typeof text === 'string'
      ? { kind: 'text', uri, mimeType, text }
      : { kind: 'invalid', uri, reason: 'text is not a string' };
  }
  const blob = record['blob'];
  if (typeof blob !== 'string') return { kind: 'invalid', uri, reason: 'blob is not a string' };
  if (!BASE64.test(blob)) return { kind: 'invalid', uri, reason: 'blob is not valid base64' };
  return {
    kind: 'blob',
    uri,
    mimeType,
    bytes: () => decodeBase64(blob),
    text: () => new TextDecoder('utf-8', { fatal: true }).decode(decodeBase64(blob)),
  };
}
