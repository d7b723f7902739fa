import { ErrorCode } from '../errors/codes.js';
import { LocalError, McpError } from '../errors/errors.js';

/**
 * Local code of every error the paginator raises itself (-33004). It sits in the JSON-RPC
 * implementation-defined range (-32000..-32099) next to the codes in `ErrorCode`; it is not yet
 * part of `ErrorCode` so that this module stays self-contained (see {@link PaginationError}).
 */
export const PAGINATION_FAILED = ErrorCode.PaginationFailed;

/**
 * Why a walk gave up:
 * - `max-pages`: `maxPages` fetches went out and the last page still had a `nextCursor`;
 * - `repeated-page`: the server returned the cursor it was sent together with a page identical to
 *   the previous one, so the next request would loop forever;
 * - `invalid-cursor`: a cursor was rejected (-32602) again after the walk had already restarted
 *   from page one once.
 */
export type PaginationFailure = 'max-pages' | 'repeated-page' | 'invalid-cursor';

/**
 * `data` of a {@link PaginationError}: the list method, how many fetches the walk made
 * (`pages`, counting every fetch including those before a restart), the cap in force and why
 * the walk stopped.
 */
export interface PaginationErrorData {
  method: string;
  pages: number;
  maxPages: number;
  reason: PaginationFailure;
}

/**
 * A list walk that could not finish (spec 2026-07-28: server/utilities/pagination). Local code
 * -33004 (`ErrorCode.PaginationFailed`); `data` is {@link PaginationErrorData}. Raised directly for
 * `reason: 'invalid-cursor'`, with `cause` set to the second `RpcError` (-32602) the server sent;
 * the first one was handed to `onRestart`. Cap and loop failures use the subclass
 * {@link PaginationLimitError}.
 */
export class PaginationError extends LocalError {
  override name = 'PaginationError';
  declare readonly data: PaginationErrorData;

  constructor(data: PaginationErrorData, cause?: unknown) {
    super(PAGINATION_FAILED, paginationMessage(data), { data, cause });
  }
}

/**
 * A walk stopped by a limit rather than by the server's end of list: `reason` is `max-pages`
 * (the `maxPages` cap, default 1000, was reached with a `nextCursor` still present) or
 * `repeated-page` (the server repeated the same cursor and the same page). Code -33004; the
 * items fetched so far are not returned: a partial list is never passed off as complete.
 */
export class PaginationLimitError extends PaginationError {
  override name = 'PaginationLimitError';

  constructor(data: PaginationErrorData & { reason: 'max-pages' | 'repeated-page' }) {
    super(data);
  }
}

/** True for any {@link PaginationError} (including {@link PaginationLimitError}), whichever copy of the package made it. */
export function isPaginationError(value: unknown): value is PaginationError {
  return McpError.is(value) && value.local && value.code === PAGINATION_FAILED;
}

function paginationMessage(data: PaginationErrorData): string {
  switch (data.reason) {
    case 'max-pages':
      return `${data.method}: still more pages after ${data.pages} pages (maxPages ${data.maxPages})`;
    case 'repeated-page':
      return `${data.method}: the server repeated the same cursor and page after ${data.pages} pages`;
    case 'invalid-cursor':
      return `${data.method}: cursor rejected again after restarting the list from page one (${data.pages} pages fetched)`;
  }
}
