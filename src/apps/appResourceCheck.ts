/**
 * The checks of a UI resource read (`appResourceFrom` in `appResource.ts`): the contents item
 * for the URI, its MIME type and size, the HTML decoded, the CSP domains and permissions it
 * declares, and the fingerprint of all of them. Loaded on the first `readAppResource`.
 */
import type { JsonObject } from '../wire/messages.js';
import type { ReadResourceResult, Resource } from '../wire/protocol.js';
import { viewContents } from '../wire/resourceContents.js';
import { sha256Hex } from '../util/sha256.js';
import { APP_MIME_TYPE, DEFAULT_MAX_APP_HTML_BYTES } from './constants.js';
import { AppResourceError } from './errors.js';
import { checkAppUri, isAppMimeType } from './uiUri.js';

/** Origins a UI declares it needs, by CSP directive (spec: McpUiResourceCsp). Only well-formed origins are kept. */
export interface AppCsp {
  /** `connect-src`: fetch, XHR, WebSocket. */
  readonly connectDomains?: readonly string[];
  /** `script-src`, `style-src`, `img-src`, `font-src`, `media-src`. */
  readonly resourceDomains?: readonly string[];
  /** `frame-src`: nested frames. */
  readonly frameDomains?: readonly string[];
  /** `base-uri`. */
  readonly baseUriDomains?: readonly string[];
}

/** Browser features a UI asks for (spec: McpUiResourcePermissions); a host MAY grant them. */
export interface AppPermissions {
  readonly camera?: JsonObject;
  readonly microphone?: JsonObject;
  readonly geolocation?: JsonObject;
  readonly clipboardWrite?: JsonObject;
}

/** A UI resource, ready to render in a sandboxed frame. Frozen. */
export interface AppResource {
  /** The `ui://` URI. */
  readonly uri: string;
  /** Always `text/html;profile=mcp-app`. */
  readonly mimeType: typeof APP_MIME_TYPE;
  /** The HTML document (a `blob` is decoded as UTF-8). */
  readonly html: string;
  /** Size of the HTML in bytes (UTF-8). */
  readonly bytes: number;
  /**
   * The CSP domains the resource declares (from the `resources/read` item's `_meta.ui.csp`, else
   * the `resources/list` entry's); `undefined` when it declares none, which means the
   * restrictive default policy (see `appContentSecurityPolicy`).
   */
  readonly csp: AppCsp | undefined;
  /** The permissions the resource asks for (same sources as `csp`); `undefined` for none. */
  readonly permissions: AppPermissions | undefined;
  /** `_meta.ui.domain`: a dedicated sandbox origin the server asks for (host-dependent). */
  readonly domain: string | undefined;
  /** `_meta.ui.prefersBorder`. */
  readonly prefersBorder: boolean | undefined;
  /** CSP entries that were dropped because they are not origins (a `;` or space could add directives). */
  readonly ignoredCspEntries: readonly string[];
  /**
   * `sha256:` and 64 hex digits over the HTML, CSP, permissions, domain and border preference:
   * equal fingerprints mean the same rendered frame; any change to what the frame gets changes it.
   */
  readonly fingerprint: string;
}

/** Options of turning a `resources/read` result into an {@link AppResource}. */
export interface AppResourceOptions {
  /** Largest HTML accepted, in bytes (UTF-8). @default 1048576 (1 MiB) */
  maxBytes?: number | undefined;
  /** The resource's `resources/list` entry: its `_meta.ui` is used when the read item has none. */
  listed?: Resource | undefined;
}

/** `appResourceFrom` (see `appResource.ts`). */
export function checkedAppResource(
  result: ReadResourceResult,
  uri: string,
  options: AppResourceOptions = {},
): AppResource {
  checkAppUri(uri);
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_APP_HTML_BYTES;
  const contents = Array.isArray(result?.contents) ? result.contents : [];
  const item = contents.find((c) => c?.uri === uri) ?? (contents.length === 1 ? contents[0] : undefined);
  if (item === undefined)
    throw new AppResourceError('the result has no contents for the URI', { uri, reason: 'no-contents' });
  if (!isAppMimeType(item.mimeType))
    throw new AppResourceError(`expected MIME type ${APP_MIME_TYPE}`, {
      uri,
      reason: 'mime-type',
      value: item.mimeType,
    });
  const view = viewContents(item);
  let html: string;
  let bytes: number;
  if (view.kind === 'text') {
    bytes = utf8Length(view.text);
    tooLarge(uri, bytes, maxBytes);
    html = view.text;
  } else if (view.kind === 'blob') {
    // Three bytes per four characters, checked before decoding a huge blob.
    tooLarge(uri, Math.floor(((item as { blob: string }).blob.length * 3) / 4) - 2, maxBytes);
    const raw = view.bytes();
    bytes = raw.length;
    tooLarge(uri, bytes, maxBytes);
    try {
      html = new TextDecoder('utf-8', { fatal: true }).decode(raw);
    } catch {
      throw new AppResourceError('the blob is not UTF-8 text', { uri, reason: 'not-utf8' });
    }
  } else throw new AppResourceError(`unusable contents: ${view.reason}`, { uri, reason: 'no-contents' });

  const ui = uiMetaOf(item._meta) ?? uiMetaOf(options.listed?._meta) ?? {};
  const ignored: string[] = [];
  const csp = cspOf(ui['csp'], ignored);
  const permissions = permissionsOf(ui['permissions']);
  const domain = typeof ui['domain'] === 'string' ? ui['domain'] : undefined;
  const prefersBorder = typeof ui['prefersBorder'] === 'boolean' ? ui['prefersBorder'] : undefined;
  const fingerprint = `sha256:${sha256Hex(
    JSON.stringify([html, csp ?? null, permissions ?? null, domain ?? null, prefersBorder ?? null]),
  )}`;
  return Object.freeze({
    uri,
    mimeType: APP_MIME_TYPE,
    html,
    bytes,
    csp,
    permissions,
    domain,
    prefersBorder,
    ignoredCspEntries: Object.freeze(ignored),
    fingerprint,
  });
}

const CSP_KEYS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;
const PERMISSION_KEYS = ['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const;
/** An origin as a CSP source: scheme, host (optionally `*.`-prefixed), optional port. */
const ORIGIN = /^(?:https?|wss?):\/\/(?:\*\.)?[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})(?::(?:\d{1,5}|\*))?$/;
const MAX_DOMAINS = 64;

function tooLarge(uri: string, bytes: number, limit: number): void {
  if (bytes > limit)
    throw new AppResourceError(`the HTML is larger than ${limit} bytes`, {
      uri,
      reason: 'too-large',
      value: bytes,
      limit,
    });
}

function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code < 0xdc00 && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function uiMetaOf(meta: unknown): Record<string, unknown> | undefined {
  return record(record(meta)?.['ui']);
}

/** The declared domains, sorted keys, only origins kept (at most 64 per directive). */
function cspOf(value: unknown, ignored: string[]): AppCsp | undefined {
  const declared = record(value);
  if (declared === undefined) return undefined;
  const csp: Record<string, readonly string[]> = {};
  for (const key of CSP_KEYS) {
    const list = declared[key];
    if (!Array.isArray(list)) continue;
    const kept: string[] = [];
    for (const entry of list) {
      if (typeof entry === 'string' && ORIGIN.test(entry) && kept.length < MAX_DOMAINS) {
        if (!kept.includes(entry)) kept.push(entry);
      } else ignored.push(typeof entry === 'string' ? entry : JSON.stringify(entry));
    }
    csp[key] = Object.freeze(kept);
  }
  return Object.freeze(csp);
}

function permissionsOf(value: unknown): AppPermissions | undefined {
  const declared = record(value);
  if (declared === undefined) return undefined;
  const permissions: Record<string, JsonObject> = {};
  for (const key of PERMISSION_KEYS) if (record(declared[key]) !== undefined) permissions[key] = {};
  return Object.keys(permissions).length === 0 ? undefined : Object.freeze(permissions);
}
