/**
 * Per-request language (SEP-2792, a draft, not part of a released revision yet): the client's
 * preference in `_meta["io.modelcontextprotocol/acceptLanguage"]` with the syntax of HTTP's
 * `Accept-Language` (RFC 9110 §12.5.4), and the language a server says it answered in,
 * `_meta["io.modelcontextprotocol/contentLanguage"]` on a result (`Content-Language` syntax,
 * RFC 9110 §8.5). Pure.
 */
import { InvalidArgumentError } from '../errors/errors.js';
import { isObject } from './messages.js';
import { MetaKey } from './protocol.js';

/** One language range (RFC 4647: `*` or `en`, `en-US`, ...) with an optional weight. */
const RANGE = String.raw`(?:\*|[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*)(?:[ \t]*;[ \t]*[qQ]=(?:0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?))?`;
/** `Accept-Language`: one or more ranges, comma-separated, optional whitespace around them. */
const ACCEPT_LANGUAGE = new RegExp(`^[ \\t]*${RANGE}(?:[ \\t]*,[ \\t]*${RANGE})*[ \\t]*$`);
/** `Content-Language`: one or more BCP 47 tags, comma-separated. */
const CONTENT_LANGUAGE =
  /^[ \t]*[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*(?:[ \t]*,[ \t]*[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*)*[ \t]*$/;

/**
 * `value` when it is an `Accept-Language` value (`en`, `fr-CA,fr;q=0.9,en;q=0.5`, `*`; at
 * most 256 characters), to send as it is.
 * @throws InvalidArgumentError (-32602) naming `name` and the value otherwise.
 */
export function checkAcceptLanguage(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.length > 256 || !ACCEPT_LANGUAGE.test(value))
    throw new InvalidArgumentError(
      name,
      value,
      'expected an Accept-Language value: language ranges with optional q weights, like "fr-CA,fr;q=0.9,en;q=0.5"',
    );
  return value;
}

/**
 * The language a result says it is in: its `_meta["io.modelcontextprotocol/contentLanguage"]`
 * (SEP-2792, a draft), one or more BCP 47 tags such as `"fr-CA"`, as the server sent it;
 * `undefined` when the server said none or sent something that is not a `Content-Language`
 * value. A server that said none may still have answered in some language: assume none.
 * @example
 * const tools = await client.listTools({}, { acceptLanguage: 'fr' });
 * if (contentLanguage(tools) === 'fr') console.log('the server answered in French');
 */
export function contentLanguage(result: unknown): string | undefined {
  if (!isObject(result)) return undefined;
  const meta = result['_meta'];
  const value = isObject(meta) ? meta[MetaKey.contentLanguage] : undefined;
  return typeof value === 'string' && value.length <= 256 && CONTENT_LANGUAGE.test(value) ? value : undefined;
}
