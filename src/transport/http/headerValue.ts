/**
 * Header value encoding for the Streamable HTTP request metadata headers (spec 2026-07-28,
 * basic/transports/streamable-http, "Value Encoding"). Runtime-neutral: TextEncoder and btoa.
 */

const SENTINEL_PREFIX = '=?base64?';
const SENTINEL_SUFFIX = '?=';

/**
 * True when `value` can go into an HTTP header as it is: only visible ASCII and space
 * (0x20-0x7E), no leading or trailing space, and not shaped like the Base64 sentinel
 * (starts with `=?base64?` and ends with `?=`). Tabs and other control characters are not
 * plain: the spec names control characters among the values to encode.
 */
export function isPlainHeaderValue(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code > 0x7e) return false;
  }
  if (value.startsWith(' ') || value.endsWith(' ')) return false;
  return !(value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX));
}

/**
 * The header form of `value` for `Mcp-Name` and `Mcp-Param-{Name}`: the value itself when it is
 * plain (visible ASCII and inner spaces only, and not shaped like the sentinel), else
 * `=?base64?{Base64 of its UTF-8 bytes}?=`.
 * The empty string stays empty. Never throws.
 *
 * @example encodeHeaderValue('Hello, 世界') === '=?base64?SGVsbG8sIOS4lueVjA==?='
 */
export function encodeHeaderValue(value: string): string {
  return isPlainHeaderValue(value) ? value : `${SENTINEL_PREFIX}${base64Utf8(value)}${SENTINEL_SUFFIX}`;
}

/** Standard Base64 (with padding) of the UTF-8 bytes of `text`. Lone surrogates become U+FFFD. */
export function base64Utf8(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  const CHUNK = 0x8000;
  for (let i = 0; i < bytes.length; i += CHUNK) {
    binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  }
  return btoa(binary);
}

/** RFC 9110 `tchar`: the characters of a header field name (`token`). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** True when `name` is a valid HTTP field name (RFC 9110 §5.1: `1*tchar`). */
export function isHeaderToken(name: string): boolean {
  return TOKEN.test(name);
}
