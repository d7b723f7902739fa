/**
 * `ui/download-file` (MCP Apps, ext-apps 2.0.4): the files an app asks the host to download,
 * checked and sanitised before the host's hook sees them, as resource contents are: each item an
 * embedded resource (`{ type: "resource", resource }`, text or strict base64 blob) or a resource
 * link (`{ type: "resource_link", uri, name }`, which the host fetches if it agrees). Pure.
 */
import { McpError } from '../errors/errors.js';
import { ErrorCode } from '../errors/codes.js';
import { headOf } from '../util/text.js';
import { isObject } from '../wire/messages.js';
import { viewContents } from '../wire/resourceContents.js';

/** One file of a `ui/download-file` request, as the host's `onDownloadFile` hook receives it. */
export type AppDownloadFile =
  | {
      kind: 'embedded';
      uri: string;
      /** A file name safe to save under: the URI's last segment (or `download`), no path, no control characters, at most 255 characters. */
      name: string;
      mimeType: string | undefined;
      /** The content: the text as UTF-8, or the decoded blob. */
      bytes: Uint8Array;
    }
  | {
      kind: 'link';
      uri: string;
      /** The link's `name`, made safe as {@link AppDownloadFile} `name` is. */
      name: string;
      mimeType: string | undefined;
    };

/** At most this many files in one request. */
export const MAX_DOWNLOAD_FILES = 16;
/** At most this many bytes of embedded content in one request (16 MiB). */
export const MAX_DOWNLOAD_BYTES = 16 * 1024 * 1024;

/**
 * The files of `params` (`{ contents: (EmbeddedResource | ResourceLink)[] }`).
 * @throws McpError -32602 (invalid params) naming the item and why: not an array, empty, over
 *   {@link MAX_DOWNLOAD_FILES} or {@link MAX_DOWNLOAD_BYTES}, an item of another type, contents
 *   with both or neither of `text` and `blob`, a blob that is not strict base64, a missing URI.
 */
export function downloadFiles(params: Record<string, unknown>): AppDownloadFile[] {
  const contents = params['contents'];
  if (!Array.isArray(contents) || contents.length === 0)
    throw invalid('ui/download-file needs contents: a non-empty array of embedded resources or resource links');
  if (contents.length > MAX_DOWNLOAD_FILES)
    throw invalid(`ui/download-file: ${contents.length} files, at most ${MAX_DOWNLOAD_FILES}`);
  let total = 0;
  return contents.map((item: unknown, index): AppDownloadFile => {
    if (!isObject(item)) throw invalid(`ui/download-file: contents[${index}] is not an object`);
    if (item['type'] === 'resource_link') {
      const { uri, name, mimeType } = item;
      if (typeof uri !== 'string' || uri === '') throw invalid(`ui/download-file: contents[${index}] has no uri`);
      return {
        kind: 'link',
        uri,
        name: safeName(typeof name === 'string' ? name : lastSegment(uri)),
        mimeType: typeof mimeType === 'string' ? mimeType : undefined,
      };
    }
    if (item['type'] !== 'resource' || !isObject(item['resource']))
      throw invalid(`ui/download-file: contents[${index}] is neither an embedded resource nor a resource link`);
    const view = viewContents(item['resource']);
    if (view.kind === 'invalid') throw invalid(`ui/download-file: contents[${index}]: ${view.reason}`);
    const bytes = view.kind === 'text' ? new TextEncoder().encode(view.text) : view.bytes();
    total += bytes.byteLength;
    if (total > MAX_DOWNLOAD_BYTES)
      throw invalid(`ui/download-file: over ${MAX_DOWNLOAD_BYTES} bytes of embedded content`);
    return { kind: 'embedded', uri: view.uri, name: safeName(lastSegment(view.uri)), mimeType: view.mimeType, bytes };
  });
}

function lastSegment(uri: string): string {
  const path = uri.replace(/[?#].*$/, '');
  const segment = path.slice(path.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** No path separators, no control or bidi characters, no leading dots, at most 255 UTF-16 code units; `download` when nothing is left. */
function safeName(name: string): string {
  const cleaned = name
    // eslint-disable-next-line no-control-regex -- removing control characters is the point
    .replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069/\\:*?"<>|]/g, '_')
    .replace(/^[.\s]+/, '')
    .trim();
  const cut = headOf(cleaned, 255); // whole characters, at most 255 UTF-16 code units
  return cut === '' ? 'download' : cut;
}

function invalid(message: string): McpError {
  return new McpError(ErrorCode.InvalidParams, message, { local: true });
}
