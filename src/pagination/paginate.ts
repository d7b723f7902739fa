import { abortedError, InvalidArgumentError, isRpcError, type RpcError } from '../errors/errors.js';
import { ErrorCode } from '../errors/codes.js';
import type { JsonObject } from '../wire/messages.js';
import { listKey, readNextCursor } from '../wire/results.js';
import { PaginationError, PaginationLimitError } from './errors.js';

/**
 * Cursor pagination over an injected fetch hook (spec 2026-07-28: server/utilities/pagination).
 * This module never touches a transport: the caller's {@link FetchPage} sends the request and
 * checks the result; the walk here decides which cursor comes next and when to stop.
 *
 * Cursors are opaque. `""` is a cursor like any other; only an absent (`undefined` or `null`)
 * `nextCursor` ends the walk. Page size is never assumed: an empty page with a cursor continues.
 */

/** One page of a list as the fetch hook returns it. */
export interface Page<T> {
  /** The page's items, already checked by the hook (malformed ones dropped). */
  items: T[];
  /** The cursor of the next page; `undefined` on the last page. `""` is a valid cursor. */
  nextCursor: string | undefined;
  /** The page's whole result as received (cache hints, `_meta`, ...). */
  result: JsonObject;
}

/**
 * Fetches one page. `cursor` is `undefined` for the first page, in which case the request must
 * carry no `cursor` key at all; otherwise it is sent verbatim. `signal` is the walk's signal, to
 * be passed on to the request. Errors the hook throws end the walk (see {@link pages}).
 */
export type FetchPage<T> = (cursor: string | undefined, signal: AbortSignal | undefined) => Promise<Page<T>>;

/** Options of a walk. */
export interface PaginateOptions {
  /** The list method, e.g. `"tools/list"`; used in errors. */
  method: string;
  /**
   * The most fetches the walk sends, counting every fetch including those before a restart.
   * An integer ≥ 1. @default 1000
   */
  maxPages?: number | undefined;
  /** Checked before each fetch and passed to each fetch. */
  signal?: AbortSignal | undefined;
  /**
   * Called with the server's error before the walk restarts from page one after an invalid
   * cursor (-32602), so the caller can drop that list's cached pages. Awaited; if it throws,
   * the walk ends with that error.
   */
  onRestart?: ((error: RpcError) => void | Promise<void>) | undefined;
}

/** Default of {@link PaginateOptions.maxPages}. */
export const DEFAULT_MAX_PAGES = 1000;

/**
 * Walks a list page by page, yielding each page as soon as it arrives. The first fetch gets
 * `cursor: undefined`; each next fetch gets the previous page's `nextCursor` (even `""`); the
 * walk ends after a page without `nextCursor`. Each page is awaited before the next is asked for.
 *
 * An invalid-cursor error (an `RpcError` with code -32602 on a fetch that carried a cursor)
 * calls `onRestart` and restarts from page one, once per walk: the consumer then sees page one
 * again. An error on a fetch without a cursor, or any other error, is rethrown as is.
 *
 * @throws InvalidArgumentError (-32602) at call time when `maxPages` is not an integer ≥ 1.
 * @throws PaginationLimitError (-33004, `data.reason: 'max-pages'`) when `maxPages` fetches went
 *   out and the last page still has a `nextCursor`; (`'repeated-page'`) when a page comes back
 *   with the cursor it was fetched with and the same items as the page before it.
 * @throws PaginationError (-33004, `data.reason: 'invalid-cursor'`) when a cursor is rejected a
 *   second time in the same walk; `cause` is that second `RpcError`.
 * @throws CancelledError (-32800) when `signal` is aborted before a fetch (`cause` is
 *   `signal.reason`), or when the fetch rejects with `signal.reason` itself.
 */
export function pages<T>(fetchPage: FetchPage<T>, options: PaginateOptions): AsyncIterableIterator<Page<T>> {
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  if (!Number.isInteger(maxPages) || maxPages < 1) {
    throw new InvalidArgumentError('maxPages', maxPages, 'expected an integer ≥ 1');
  }
  return walk(fetchPage, options.method, maxPages, options.signal, options.onRestart);
}

async function* walk<T>(
  fetchPage: FetchPage<T>,
  method: string,
  maxPages: number,
  signal: AbortSignal | undefined,
  onRestart: PaginateOptions['onRestart'],
): AsyncGenerator<Page<T>, void, undefined> {
  let fetches = 0;
  let restarted = false;
  let cursor: string | undefined = undefined;
  let previous: Page<T> | undefined = undefined;
  for (;;) {
    if (signal?.aborted) throw abortedError(method, signal.reason);
    fetches++;
    let page: Page<T>;
    try {
      page = await fetchPage(cursor, signal);
    } catch (error) {
      if (signal?.aborted && error === signal.reason) throw abortedError(method, signal.reason);
      if (cursor === undefined || !isRpcError(error) || error.code !== ErrorCode.InvalidParams) throw error;
      if (restarted) throw new PaginationError({ method, pages: fetches, maxPages, reason: 'invalid-cursor' }, error);
      restarted = true;
      await onRestart?.(error);
      cursor = undefined;
      previous = undefined;
      if (fetches >= maxPages)
        throw new PaginationLimitError({ method, pages: fetches, maxPages, reason: 'max-pages' });
      continue;
    }
    // `null` is not in the type, but a hook that passes the wire value through must still end here.
    const next: string | null | undefined = page.nextCursor;
    if (next === undefined || next === null) {
      yield page;
      return;
    }
    // Only when the server hands back the cursor it was sent: is this the same page again?
    if (next === cursor && previous !== undefined && sameItems(previous.items, page.items)) {
      throw new PaginationLimitError({ method, pages: fetches, maxPages, reason: 'repeated-page' });
    }
    yield page;
    if (fetches >= maxPages) throw new PaginationLimitError({ method, pages: fetches, maxPages, reason: 'max-pages' });
    previous = page;
    cursor = next;
  }
}

/** Cheap identity first, then one JSON comparison; only reached when a cursor repeated. */
function sameItems(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  let identical = true;
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) {
      identical = false;
      break;
    }
  }
  return identical || JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The items of {@link pages}, one at a time, fetching the next page only when the current one
 * is used up. Same options, errors and defaults as {@link pages}. After a restart
 * (`onRestart`) the items of page one come again: a consumer that must not see an item twice
 * should use {@link listAll}, which discards what it collected before the restart.
 */
export function items<T>(fetchPage: FetchPage<T>, options: PaginateOptions): AsyncIterableIterator<T> {
  const source = pages(fetchPage, options);
  return (async function* () {
    for await (const page of source) yield* page.items;
  })();
}

/** What a whole-list walk (`McpClient.listAll*`) returns: every item in order, the number of pages and each page's result. */
export interface ListAllResult<T> {
  items: T[];
  /** Pages in the final list (after a restart, only those fetched since). */
  pages: number;
  /** The result of each of those pages, in order. */
  results: JsonObject[];
}

/**
 * Walks the whole list and collects it. After an invalid-cursor restart, the items and results
 * collected so far are discarded (after `onRestart` ran) and collection starts again from page
 * one, so the list never holds an item twice because of a restart. A partial list is never
 * returned: every failure rejects. Same options, errors and defaults as {@link pages}.
 */
export async function listAll<T>(fetchPage: FetchPage<T>, options: PaginateOptions): Promise<ListAllResult<T>> {
  const all: T[] = [];
  const results: JsonObject[] = [];
  const userRestart = options.onRestart;
  const walkOptions: PaginateOptions = {
    ...options,
    onRestart: async (error) => {
      await userRestart?.(error);
      all.length = 0;
      results.length = 0;
    },
  };
  for await (const page of pages(fetchPage, walkOptions)) {
    const list = page.items;
    for (let i = 0; i < list.length; i++) all.push(list[i] as T);
    results.push(page.result);
  }
  return { items: all, pages: results.length, results };
}

/**
 * Builds a {@link Page} from a list result already checked by `checkListPage`: the items are
 * `result[key]` for the method (`tools`, `prompts`, `resources`, `resourceTemplates`) and
 * `nextCursor` is read as the paginator needs it (`null` → `undefined`, `""` kept).
 * @throws ProtocolError (-32600) when `nextCursor` is neither a string, `null` nor absent.
 * @throws Error when `method` is not one of the four list methods.
 */
export function pageFromResult<T>(method: string, result: JsonObject): Page<T> {
  const list = result[listKey(method)];
  return { items: Array.isArray(list) ? (list as T[]) : [], nextCursor: readNextCursor(method, result), result };
}
