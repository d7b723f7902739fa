/**
 * What a reconnect reports about a dropped connection or a failed attempt, and which failures a
 * new attempt may mend. Pure.
 */
import { ConnectionClosedError, McpError, isTimeoutError } from '../errors/errors.js';
import { ErrorCode } from '../errors/codes.js';
import type { TransportCloseInfo } from '../transport/transport.js';
import {
  isHttpAuthError,
  isHttpError,
  isStreamBrokenError,
  isWebSocketCloseError,
} from '../transport/transportErrors.js';
import type { ReconnectCause } from './types.js';

/** The cause of a drop: the transport's close info, with the error pending requests got. */
export function causeOfClose(info: TransportCloseInfo, error: ConnectionClosedError): ReconnectCause {
  if (isWebSocketCloseError(info.cause)) return { reason: 'websocket-close', closeCode: info.cause.data.code, error };
  if (info.exitCode !== undefined || info.signal !== undefined || info.stderrTail !== undefined)
    return {
      reason: 'process-exit',
      exitCode: info.exitCode,
      signal: info.signal,
      ...(info.stderrTail !== undefined && { stderrTail: info.stderrTail }),
      error,
    };
  return { reason: 'connection-lost', error };
}

/** The cause of a failed attempt: what its error says (a process that exited, a closed socket, an HTTP status). */
export function causeOfFailure(error: unknown): ReconnectCause {
  if (error instanceof ConnectionClosedError || (McpError.is(error) && error.code === ErrorCode.ConnectionClosed)) {
    const data = error.data as ConnectionClosedError['data'] | undefined;
    const cause = (error as { cause?: unknown }).cause;
    if (isWebSocketCloseError(cause)) return { reason: 'websocket-close', closeCode: cause.data.code, error };
    if (data?.exitCode !== undefined || data?.signal !== undefined)
      return {
        reason: 'process-exit',
        exitCode: data.exitCode,
        signal: data.signal,
        ...(data.stderrTail !== undefined && { stderrTail: data.stderrTail }),
        error,
      };
  }
  if (isHttpError(error)) return { reason: 'connect-failed', httpStatus: error.data.status, error };
  return { reason: 'connect-failed', error };
}

/** Spawn errors a new attempt would meet again: no such command or cwd, not executable. */
const PERMANENT_SPAWN_CODES: ReadonlySet<string> = new Set(['ENOENT', 'EACCES', 'ENOTDIR']);

/** A stdio command that cannot be started at all (`connectFailure: "spawn"` with ENOENT, EACCES or ENOTDIR). */
function isPermanentSpawnFailure(error: McpError): boolean {
  if (error.code !== ErrorCode.ConnectionClosed) return false;
  const data = error.data as ConnectionClosedError['data'] | undefined;
  return data?.connectFailure === 'spawn' && data.errorCode !== undefined && PERMANENT_SPAWN_CODES.has(data.errorCode);
}

/**
 * Whether a failure to connect may be mended by another attempt: the connection could not be
 * made or was lost (`ConnectionClosedError`: a process that exited, a refused or closed
 * socket; never a command that does not exist or may not be run, ENOENT or EACCES), the server did not answer in time (`TimeoutError`), an HTTP exchange broke or got
 * 408, 429 or a 5xx. Never an authorization failure, a version no longer shared, an answer that
 * breaks the protocol, or the caller's abort: those would fail the same way again.
 */
export function isRetryableConnectFailure(error: unknown): boolean {
  if (!McpError.is(error) || !error.local) return false;
  if (isPermanentSpawnFailure(error)) return false;
  if (error.code === ErrorCode.ConnectionClosed || isTimeoutError(error) || isStreamBrokenError(error)) return true;
  if (isHttpAuthError(error)) return false;
  if (isHttpError(error)) {
    const status = error.data.status;
    return status === 408 || status === 429 || status >= 500;
  }
  return false;
}

/** One line for a cause: its reason and what the transport said. */
export function describeCause(cause: ReconnectCause): string {
  const parts: string[] = [cause.reason];
  if (cause.exitCode !== undefined && cause.exitCode !== null) parts.push(`exit code ${cause.exitCode}`);
  if (cause.signal !== undefined && cause.signal !== null) parts.push(`signal ${cause.signal}`);
  if (cause.closeCode !== undefined) parts.push(`close code ${cause.closeCode}`);
  if (cause.httpStatus !== undefined) parts.push(`HTTP ${cause.httpStatus}`);
  if (cause.error instanceof Error) parts.push(cause.error.message);
  return parts.join(', ');
}
