import { ErrorCode } from '../errors/codes.js';
import { LocalError } from '../errors/errors.js';

/**
 * Local error code of {@link CacheMissError}: a request made with cache mode `only-if-cached`
 * found no cached entry. Sits in the implementation-defined range of JSON-RPC 2.0
 * (-32000 to -32099), like mcp-live's other local codes.
 */
export const CACHE_MISS_CODE = ErrorCode.CacheMiss;

/** `data` of a {@link CacheMissError}: the request that found nothing. */
export interface CacheMissData {
  /** The request method, e.g. `"resources/read"`. */
  method: string;
  /** The `uri` of a `resources/read`. */
  uri?: string | undefined;
  /** The page cursor of a list request; `null` for the first page. Absent for other methods. */
  cursor?: string | null | undefined;
}

/**
 * Cache mode `only-if-cached` found no entry, fresh or stale, for the request (spec:
 * server/utilities/caching). Nothing was sent to the server. Local code -33005
 * (`ErrorCode.CacheMiss`); `data` is `{ method: string; uri?: string; cursor?: string | null }`:
 * the request that found nothing. The auth context never appears in it.
 */
export class CacheMissError extends LocalError {
  override name = 'CacheMissError';
  declare readonly data: CacheMissData;

  constructor(data: CacheMissData) {
    const what =
      data.uri !== undefined
        ? ` ${data.uri}`
        : data.cursor !== undefined
          ? ` (cursor ${JSON.stringify(data.cursor)})`
          : '';
    super(CACHE_MISS_CODE, `${data.method}${what}: not in the cache (cache mode only-if-cached)`, { data });
  }
}

/** True when `value` is a {@link CacheMissError}, whichever copy of the package made it. */
export function isCacheMissError(value: unknown): value is CacheMissError {
  return LocalError.is(value) && value.local && value.code === CACHE_MISS_CODE;
}
