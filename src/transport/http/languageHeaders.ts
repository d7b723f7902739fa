/**
 * The language headers of SEP-2792 (a draft) on HTTP, for both eras' wires: the
 * `Accept-Language` a request carries (its `_meta` preference, byte for byte), and the client's
 * check of an answer: a JSON response that carries both a `Content-Language` header and
 * `_meta["io.modelcontextprotocol/contentLanguage"]` (on its `result`, or on its `error.data`)
 * is malformed unless the two are the same string once leading and trailing whitespace is
 * removed from each: no other normalisation (case, order, spacing inside). Pure and
 * runtime-neutral.
 */
import { isObject } from '../../wire/messages.js';
import { MetaKey } from '../../wire/protocol.js';
import { isPlainHeaderValue } from './headerValue.js';

/**
 * The language preference in a request's `_meta` (`io.modelcontextprotocol/acceptLanguage`), to
 * send as `Accept-Language`; `undefined` when there is none or it cannot be sent as a header value.
 */
export function acceptLanguageOf(meta: unknown): string | undefined {
  const language = isObject(meta) ? meta[MetaKey.acceptLanguage] : undefined;
  return typeof language === 'string' && isPlainHeaderValue(language) ? language : undefined;
}

/** Both values, as received, when they disagree. */
export interface ContentLanguageMismatch {
  /** The `Content-Language` header (repeated field lines combined with `, `). */
  readonly header: string;
  /** The `_meta` value of the result or of the error's `data`. */
  readonly meta: string;
}

/** Optional whitespace (RFC 9110 §5.6.3): spaces and tabs. */
const OWS = /^[ \t]+|[ \t]+$/g;

/**
 * The disagreement between `header` and the language `_meta` of `message` (a parsed JSON-RPC
 * response), or `undefined` when they agree or either is absent.
 */
export function contentLanguageMismatch(
  header: string | undefined,
  message: unknown,
): ContentLanguageMismatch | undefined {
  if (header === undefined || !isObject(message)) return undefined;
  const carrier = isObject(message['result'])
    ? message['result']
    : isObject(message['error']) && isObject(message['error']['data'])
      ? message['error']['data']
      : undefined;
  const meta = isObject(carrier?.['_meta']) ? carrier['_meta'][MetaKey.contentLanguage] : undefined;
  if (typeof meta !== 'string') return undefined;
  return header.replace(OWS, '') === meta.replace(OWS, '') ? undefined : { header, meta };
}
