/** The error a host state store reports when its backend fails, and what the host lost then. */
import { ErrorCode } from '../../errors/codes.js';
import { LocalError } from '../../errors/errors.js';

/** `data` of {@link HostStateError}. */
export interface HostStateErrorData {
  /** What the store was doing: `putArtifact`, `getArtifact`, `putPending`, `answer`, `wait`... */
  operation: string;
  /**
   * `unreachable`: the backend refused, dropped or failed the command; `timeout`: no answer within
   * the store's `timeoutMs`; `malformed-record`: a key held something that is no record of this
   * store (read as no record).
   */
  reason: 'unreachable' | 'timeout' | 'malformed-record';
  /**
   * What is kept on this worker only because of it, e.g. `artifact art_x` (another worker cannot
   * read it back): the host says what it lost, and keeps serving from memory.
   */
  lost?: string | undefined;
}

/**
 * A host state store could not do its work (local code -33063, `ErrorCode.HostStateFailed`).
 * Reported to the host's `onError` when a write fails (the host keeps serving from memory;
 * `data.lost` says what another worker cannot pick up), thrown by `answerApproval` when the
 * answer could not be recorded. `cause` is the backend's error, when there is one.
 */
export class HostStateError extends LocalError {
  override name = 'HostStateError';
  declare readonly data: HostStateErrorData;

  constructor(message: string, data: HostStateErrorData, cause?: unknown) {
    super(ErrorCode.HostStateFailed, message, { data, cause });
  }
}
