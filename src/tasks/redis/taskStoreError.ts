/**
 * The error a shared task store throws when its backend fails.
 */
import { ErrorCode } from '../../errors/codes.js';
import { LocalError } from '../../errors/errors.js';

/** `data` of {@link TaskStoreError}. */
export interface TaskStoreErrorData {
  /** The Redis operation that failed, e.g. `"GET"`, `"SET"`, `"SCAN"`. */
  operation: string;
  /**
   * `unreachable`: Redis refused or dropped the connection, or answered with an error;
   * `timeout`: no answer within the store's `timeoutMs`; `malformed-record`: the key of a task
   * held text that is not an mcp-live task record (reported to `onError`, read as no record).
   */
  reason: 'unreachable' | 'timeout' | 'malformed-record';
}

/**
 * A task store could not do its work (local code -33032, `ErrorCode.TaskStoreFailed`). Thrown
 * from the store's `get`, `set`, `delete` and `keys` for `unreachable` and `timeout`, so
 * `McpClient.resumeTask` rejects with it and a running task reports its record writes to the
 * client's `onError`. `cause` is the client library's error, when there is one.
 */
export class TaskStoreError extends LocalError {
  override name = 'TaskStoreError';
  declare readonly data: TaskStoreErrorData;

  constructor(message: string, data: TaskStoreErrorData, cause?: unknown) {
    super(ErrorCode.TaskStoreFailed, message, { data, cause });
  }
}
