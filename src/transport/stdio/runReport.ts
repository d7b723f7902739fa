/**
 * What happened to one run of a stdio server, as its close reports it: whether the client asked
 * for the end, how the process ended (exit code, signal), whether the transport had to signal
 * it, and the server's misbehaviour that made the transport stop it. Node only.
 */
import type { TransportCloseInfo } from '../transport.js';
import { stderrHeadline } from './stderr.js';

/** See the file's opening comment. A new one per run. */
export class RunReport {
  /** True once `close()` asked for the end. */
  initiatedByClient = false;
  /** True once the process exited (or its pipes closed without an exit seen). */
  exited = false;
  exitCode: number | null = null;
  exitSignal: NodeJS.Signals | null = null;
  /** The error that ended the run, if one did. */
  cause: unknown;
  /** What the server did that made the transport stop it (closed stdout, a stdout error, stdin broken). */
  peerReason: string | undefined;
  /** True once the transport sent the process a signal. */
  signalled = false;

  /** The process ended with `code` or `signal` (a later report of the same end changes nothing unless `again`). */
  ended(code: number | null, signal: NodeJS.Signals | null, again = true): void {
    if (this.exited && !again) return;
    this.exited = true;
    this.exitCode = code;
    this.exitSignal = signal;
  }

  /**
   * The close info handed to `onClose`. `stderrTail`: the last of the server's stderr,
   * `undefined` when it is ignored (then no stderr line is quoted in the reason).
   */
  closeInfo(stderrTail: string | undefined): TransportCloseInfo {
    const info: TransportCloseInfo = {
      reason: this.reason(stderrTail),
      initiatedByClient: this.initiatedByClient,
      exitCode: this.exitCode,
      signal: this.exitSignal,
      stderrTail,
    };
    if (this.cause !== undefined) info.cause = this.cause;
    return info;
  }

  private reason(stderrTail: string | undefined): string {
    if (this.initiatedByClient) return 'closed by client';
    const exit =
      this.exitCode !== null
        ? `process exited with code ${this.exitCode}${this.exitCode !== 0 && !this.signalled ? headline(stderrTail) : ''}`
        : this.exitSignal !== null
          ? `process killed by signal ${this.exitSignal}`
          : undefined;
    if (this.peerReason !== undefined && (this.signalled || exit === undefined)) {
      // We had to stop it: the peer's misbehaviour is the reason, the exit a detail.
      return exit === undefined ? this.peerReason : `${this.peerReason}; ${exit}`;
    }
    return exit ?? 'process closed';
  }
}

/** `": <the stderr line that names the cause>"` (see {@link stderrHeadline}), or `""`. */
function headline(stderrTail: string | undefined): string {
  if (stderrTail === undefined) return '';
  const line = stderrHeadline(stderrTail);
  return line === undefined ? '' : `: ${line}`;
}
