/**
 * The stdio transport: the client launches the MCP server as a child process and talks
 * JSON-RPC over its stdin/stdout.
 *
 * Spec (MCP 2026-07-28, basic/transports, "stdio"): messages are newline-delimited JSON-RPC
 * encoded in UTF-8 and must not contain embedded newlines; the server may write UTF-8 logs to
 * stderr (the client may capture, forward or ignore them) and must not write anything to
 * stdout that is not a valid MCP message. To shut down, the client closes the server's stdin,
 * waits for it to exit, sends SIGTERM if it does not exit in reasonable time, then SIGKILL.
 */

import type { ChildProcess } from 'node:child_process';
import { ErrorCode } from '../../errors/codes.js';
import { ConnectionClosedError, InvalidArgumentError, LocalError } from '../../errors/errors.js';
import type { JsonRpcMessage } from '../../wire/messages.js';
import type { Closeable } from '../../util/disposable.js';
import { TimeoutSet } from '../../util/timeoutSet.js';
import type { Transport, TransportCapabilities, TransportHandlers } from '../transport.js';
import { errorCode, killOnHostExit, planServer, signalProcessGroup, spawnServer } from './childProcess.js';
import { endGroup, survivorsError, type GroupEnd } from './processGroup.js';
import { framingError, LineFramer, serializeMessage } from './lineFramer.js';
import type { SpawnPlan } from './spawnPlan.js';
import { RunReport } from './runReport.js';
import { ServerStderr } from './stderr.js';
import { WriteQueue } from './writeQueue.js';
import {
  checkSpawnOptions,
  spawnFailure,
  DEFAULT_CLOSE_TIMEOUT_MS,
  type StdioTransportOptions,
} from './stdioOptions.js';

/** After the child exits, how long to wait for its stdout/stderr pipes to close (ms). */
const MAX_EXIT_GRACE_MS = 500;

type State = 'new' | 'starting' | 'open' | 'closing' | 'closed';

/**
 * A {@link Transport} that runs an MCP server as a child process and exchanges
 * newline-delimited JSON-RPC over its stdin and stdout (MCP 2026-07-28, basic/transports,
 * stdio).
 *
 * Lifecycle:
 * - `start(handlers)` spawns the process and resolves on its `spawn` event. It rejects with
 *   {@link ConnectionClosedError} (code -32000; `cause` is the Node error, e.g. `code: 'ENOENT'`)
 *   when the process cannot be started, and with `InvalidArgumentError` (code -32602) for a
 *   command line that cannot be passed on (NUL characters...). When `start()` rejects,
 *   `handlers.onClose` is never called.
 * - Every stdout line that is JSON goes to `onMessage` (any JSON value: the session checks it is
 *   JSON-RPC); every other line goes to `onError` as a `ProtocolError` (code -32700,
 *   `data.value` is `{ kind: 'invalid-json' | 'line-too-long'; excerpt; byteLength; ... }`); the
 *   transport stays open.
 * - `onClose` is called exactly once, after the child has exited and its stdout/stderr have
 *   been read to the end (at most 500 ms after exit, in case a grandchild holds the pipes), with
 *   `{ reason, initiatedByClient, exitCode, signal, stderrTail }`. A child that closes its
 *   stdout without exiting is shut down as by `close()`, with `initiatedByClient: false`.
 * - `close()` closes stdin, waits up to `closeTimeoutMs` for the child to exit, then sends
 *   SIGTERM to the child's whole process group, waits again, then SIGKILL (Windows: `taskkill
 *   /T /F` on the process tree, then `kill()`). It is idempotent and resolves after `onClose`,
 *   once no process of the group is left (POSIX: `kill(-pgid, 0)` fails with ESRCH), whichever
 *   member exited first: members that outlive the server get SIGTERM, and SIGKILL
 *   `closeTimeoutMs` later; it rejects naming the pids that SIGKILL could not end.
 * - If the host process exits with children still running, they get SIGTERM.
 */
export class StdioTransport implements Transport, Closeable {
  /** Stdio servers are cancelled with `notifications/cancelled`; `start()` again after a close spawns the server again. */
  readonly capabilities: TransportCapabilities = { cancelsByAbortingSend: false, restartable: true };
  /**
   * `stdio:` + JSON of `[command, ...args]`, plus ` cwd=` + JSON of `cwd` when set. The
   * environment is left out (it may hold secrets).
   */
  readonly serverIdentity: string;

  private readonly options: StdioTransportOptions;
  private readonly closeTimeoutMs: number;
  private state: State = 'new';
  private handlers: TransportHandlers | undefined;
  private child: ChildProcess | undefined;
  /** How the current run is ending, for its close report. */
  private run = new RunReport();

  private framer: LineFramer | undefined;
  private readonly stderr: ServerStderr;
  private readonly writes = new WriteQueue({
    stdin: () => this.child?.stdin,
    open: () => this.state === 'open',
    closedError: (cause) => this.closedError('send', cause),
    broken: (error) => this.stdinBroken(error),
  });
  /** Unregisters the SIGTERM sent to the child if the host exits while it runs. */
  private untrackHostExit: (() => void) | undefined;

  /** The steps of the close sequence under way. */
  private readonly timers = new TimeoutSet();
  private closePromise: Promise<void> | undefined;
  private resolveClosePromise: (() => void) | undefined;
  /** What `close()` returns: {@link closePromise}, then the end of the process group. */
  private closedForGood: Promise<void> | undefined;
  /** `performance.now()` when the group was last sent SIGTERM. */
  private groupTermAt: number | undefined;
  private rejectStart: ((error: Error) => void) | undefined;
  /** How many times `start()` ran: a closed transport that started before may start again. */
  private runs = 0;
  /** The ends of earlier runs' process groups still under way (a restart does not wait for them; `close()` does). */
  private readonly earlierGroups = new Set<Promise<GroupEnd | undefined>>();

  /**
   * @throws InvalidArgumentError (code -32602) when `options` is not an object (a command line
   *   as one string, say: the error suggests `{ command, args }`), `command` is not a non-empty
   *   string, or `closeTimeoutMs` is negative or not finite.
   */
  constructor(options: StdioTransportOptions) {
    checkSpawnOptions(options);
    const timeout = options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS;
    if (!Number.isFinite(timeout) || timeout < 0) {
      throw new InvalidArgumentError('closeTimeoutMs', timeout, 'must be a finite number >= 0');
    }
    this.options = { ...options, args: [...(options.args ?? [])] };
    this.closeTimeoutMs = timeout;
    const forward = options.stderr;
    this.stderr = new ServerStderr(forward === 'ignore' || forward === undefined ? 'pipe' : forward, (error) =>
      this.emitError(error),
    );
    const identity = JSON.stringify([options.command, ...(options.args ?? [])]);
    this.serverIdentity =
      options.cwd === undefined ? `stdio:${identity}` : `stdio:${identity} cwd=${JSON.stringify(options.cwd)}`;
  }

  /** Process id of the running child (also after it exited); `undefined` before it started. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** The last bytes (at most 4 KiB) the server wrote to stderr so far, decoded as UTF-8. */
  get stderrTail(): string {
    return this.stderr.tail;
  }

  /**
   * Spawns the server (see {@link planSpawn}) and resolves once the OS has started it (the
   * child's `spawn` event); the server may still be loading. Once the transport has closed
   * (the process exited, or after `close()`), `start()` may be called again: it spawns the
   * command again, with the new `handlers` (`capabilities.restartable`; `McpClient` reconnects
   * this way). Each run reports its own `onClose`, exit code and stderr tail.
   *
   * @throws ConnectionClosedError (code -32000) when the process cannot be started (`cause` is
   *   the Node error: ENOENT for a missing command or cwd, EACCES...), or when `close()` was
   *   called before or during start. `handlers.onClose` is not called in these cases.
   * @throws InvalidArgumentError (code -32602) for an empty command or NUL characters in it.
   * @throws LocalError (code -32603) when called while starting or open.
   */
  start(handlers: TransportHandlers): Promise<void> {
    if (this.state === 'closed' && this.runs > 0 && this.resolveClosePromise === undefined) this.restart();
    if (this.state !== 'new') {
      return Promise.reject(
        this.state === 'closed'
          ? new ConnectionClosedError('stdio transport was closed before it started', { reason: 'closed by client' })
          : new LocalError(ErrorCode.InternalError, 'StdioTransport.start() called twice'),
      );
    }
    this.handlers = handlers;
    this.state = 'starting';
    this.runs++;

    let plan: SpawnPlan;
    try {
      plan = planServer(
        { command: this.options.command, args: this.options.args, env: this.options.env, cwd: this.options.cwd },
        this.options.stderr === 'ignore' ? 'ignore' : 'pipe',
      );
    } catch (error) {
      this.state = 'closed';
      return Promise.reject(error);
    }

    return new Promise<void>((resolve, reject) => {
      this.rejectStart = reject;
      let child: ChildProcess;
      try {
        child = spawnServer(plan);
      } catch (error) {
        this.failStart(error);
        return;
      }
      this.child = child;
      this.attach(child);
      child.once('spawn', () => {
        if (this.state !== 'starting' || this.child !== child) {
          return;
        }
        this.rejectStart = undefined;
        if (this.closePromise !== undefined) {
          // close() was called while starting: start fails, the child is shut down.
          reject(
            new ConnectionClosedError('stdio transport was closed while starting', { reason: 'closed by client' }),
          );
          this.handlers = undefined; // start() failed: no onClose.
          this.state = 'open';
          this.beginShutdown();
          return;
        }
        this.state = 'open';
        this.untrackHostExit = killOnHostExit(() => {
          if (!this.run.exited) this.signalGroup('SIGTERM');
        });
        resolve();
      });
    });
  }

  /**
   * Writes `message` as one line to the server's stdin. Writes go out in call order. Lines
   * sent in the same turn are coalesced into one `stdin.write` (from a microtask), and when
   * the pipe is full, later lines wait for it to drain. Resolves once the bytes are handed to
   * the OS (the promise may be shared by the sends of one batch). `close()` still writes the
   * lines sent before it. `options.signal` is ignored: stdio requests are cancelled by
   * notification.
   *
   * @throws ConnectionClosedError (code -32000) at once, without writing, when the transport is
   *   not started, closing or closed (`data.outcome: "not-sent"`); later if the write fails
   *   (EPIPE: the server is gone; `data.outcome: "unknown"`), and then the transport closes,
   *   as when the server closes stdout: `onClose` follows.
   * @throws InvalidArgumentError (code -32602) when the message cannot be serialized as JSON.
   */
  send(message: JsonRpcMessage): Promise<void> {
    if (this.state !== 'open') {
      return Promise.reject(this.closedError('send'));
    }
    let data: string;
    try {
      data = serializeMessage(message);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.writes.push(data);
  }

  /**
   * Shuts the server down: closes its stdin, waits up to `closeTimeoutMs` ms for it to exit,
   * then SIGTERM to its process group, waits again, then SIGKILL. Idempotent: every call
   * returns the same promise, which resolves after `handlers.onClose` was called (or at once if
   * the transport never started) and no process of the server's group is left (POSIX): members
   * still there when the server is gone get SIGTERM, then SIGKILL `closeTimeoutMs` later, also
   * when the server had exited by itself before. Never rejects.
   */
  close(): Promise<void> {
    this.closedForGood ??= this.shutDown()
      .then(() => this.endGroup())
      .then(async (ended) =>
        survivorsError([...(ended === undefined ? [] : [ended]), ...(await Promise.all(this.earlierGroups))]),
      );
    return this.closedForGood;
  }

  /** Ends the process group once the server is gone (see {@link close}). */
  private async endGroup(): Promise<GroupEnd | undefined> {
    const pid = this.child?.pid;
    if (pid === undefined || process.platform === 'win32') return undefined;
    return endGroup(pid, this.closeTimeoutMs, this.groupTermAt);
  }

  private shutDown(): Promise<void> {
    if (this.closePromise !== undefined) {
      return this.closePromise;
    }
    this.closePromise = new Promise<void>((resolve) => {
      this.resolveClosePromise = resolve;
    });
    switch (this.state) {
      case 'new':
      case 'closed':
        this.state = 'closed';
        this.resolveClose();
        break;
      case 'starting':
        // Settled by the 'spawn' or 'error' event.
        this.run.initiatedByClient = true;
        break;
      case 'open':
        this.run.initiatedByClient = true;
        this.beginShutdown();
        break;
      case 'closing':
        // The peer started it (stdout closed); onClose will say so.
        break;
    }
    return this.closePromise;
  }

  /** Closes it, as `close()` does: `await using x = …` closes `x` when the block ends. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /**
   * Forgets the run that ended, so that `start()` spawns the server again. What is left of its
   * process group (members that outlived the server) is ended meanwhile, as `close()` would:
   * SIGTERM, then SIGKILL `closeTimeoutMs` later; the next `close()` waits for that too.
   */
  private restart(): void {
    const pid = this.child?.pid;
    // A run that close() ended was waited for there; its survivors, if any, were reported then.
    const ended =
      this.closedForGood !== undefined
        ? this.closedForGood.then(
            () => undefined,
            () => undefined,
          )
        : pid === undefined || process.platform === 'win32'
          ? undefined
          : endGroup(pid, this.closeTimeoutMs, this.groupTermAt);
    if (ended !== undefined) {
      this.earlierGroups.add(ended);
      void ended.then(() => this.earlierGroups.delete(ended));
    }
    this.state = 'new';
    this.closedForGood = undefined;
    this.groupTermAt = undefined;
    this.child = undefined;
    this.run = new RunReport();
    this.framer = undefined;
    this.closePromise = undefined;
    this.rejectStart = undefined;
    this.stderr.clear();
  }

  private attach(child: ChildProcess): void {
    // Events of a process from an earlier run (after a restart) are not this run's.
    const current = (): boolean => this.child === child;
    // 'error' listeners on every stream, for good: a late EPIPE must never crash the host.
    for (const stream of ['stdin', 'stdout', 'stderr'] as const)
      child[stream]?.on('error', (error) => {
        if (current()) this.onStreamError(stream, error);
      });
    child.on('error', (error) => {
      if (current()) this.onChildError(error);
    });

    const framer = new LineFramer(
      {
        onValue: (value) => {
          if (this.handlers === undefined || this.state === 'closed' || !current()) {
            return;
          }
          try {
            this.handlers.onMessage(value);
          } catch (error) {
            this.emitError(error instanceof Error ? error : new Error(String(error)));
          }
        },
        onProblem: (problem) => this.emitError(framingError(problem)),
      },
      { maxLineBytes: this.options.maxLineBytes },
    );
    this.framer = framer;
    child.stdout?.on('data', (chunk: Buffer) => {
      if (this.state !== 'closed' && current()) {
        framer.push(chunk);
      }
    });
    child.stdout?.on('end', () => {
      if (this.state === 'open' && current()) {
        this.run.peerReason = 'server closed stdout';
        this.beginShutdown();
      }
    });

    if (child.stderr) this.stderr.drain(child.stderr);

    child.on('exit', (code, signal) => {
      if (!current()) return;
      this.run.ended(code, signal);
      this.untrack();
      this.timers.clear();
      if (this.state === 'starting' || this.state === 'closed') {
        return;
      }
      // No more writes: stdin leads nowhere now.
      this.beginShutdown();
      // Wait for stdout/stderr to be read to the end ('close'), but not forever: a grandchild
      // may hold the pipes open. When the client is closing, the group is signalled at once.
      if (this.run.initiatedByClient) {
        this.signalGroup('SIGTERM');
      }
      this.timers.after(
        Math.min(this.closeTimeoutMs, MAX_EXIT_GRACE_MS),
        () => {
          this.signalGroup(this.run.initiatedByClient ? 'SIGKILL' : 'SIGTERM');
          child.stdout?.destroy();
          child.stderr?.destroy();
          this.finish();
        },
        true,
      );
    });
    child.on('close', (code, signal) => {
      if (!current()) return;
      this.run.ended(code, signal, false);
      this.untrack();
      this.finish();
    });
  }

  private failStart(error: unknown): void {
    const reject = this.rejectStart;
    this.rejectStart = undefined;
    this.state = 'closed';
    this.timers.clear();
    this.writes.rejectQueued();
    reject?.(spawnFailure(this.options, error));
    this.resolveClose();
  }

  private onChildError(error: Error): void {
    if (this.state === 'starting') {
      this.failStart(error);
      return;
    }
    // After spawn: a failed kill() or similar. Not fatal by itself.
    this.emitError(error);
  }

  private onStreamError(stream: 'stdin' | 'stdout' | 'stderr', error: Error): void {
    const code = errorCode(error);
    // EPIPE / reset / destroyed: the child is going away; its exit will close the transport.
    if (code === 'EPIPE' || code === 'ECONNRESET' || code === 'ERR_STREAM_DESTROYED' || code === 'EOF') {
      return;
    }
    if (stream === 'stdout' && this.state === 'open') {
      this.run.cause = error;
      this.run.peerReason = `stdout error: ${error.message}`;
      this.beginShutdown();
    }
    this.emitError(error);
  }

  /**
   * A write to stdin failed (EPIPE: the server died or closed its stdin): nothing more can be
   * sent, so the connection ends as when the server closes stdout. The failed send's caller
   * (the session) waits for that close.
   */
  private stdinBroken(error: Error): void {
    if (this.state !== 'open') return;
    this.run.peerReason ??= `stdin write failed: ${error.message}`;
    this.beginShutdown();
  }

  /** Closes stdin, then escalates: SIGTERM to the group, then SIGKILL, then give up waiting. */
  private beginShutdown(): void {
    if (this.state !== 'open') {
      return;
    }
    // Lines sent before close() in this turn go out before stdin ends, as if written at once.
    this.writes.writePending();
    this.state = 'closing';
    this.writes.rejectQueued();
    const child = this.child;
    try {
      child?.stdin?.end();
    } catch {
      // Already destroyed.
    }
    if (this.run.exited) {
      return; // The exit handler already waits for the pipes.
    }
    const step = this.closeTimeoutMs;
    this.timers.after(step, () => {
      this.signalGroup('SIGTERM');
      this.timers.after(step, () => {
        this.signalGroup('SIGKILL');
        // SIGKILL cannot be ignored; this only guards against a process stuck in the kernel.
        this.timers.after(Math.max(step, MAX_EXIT_GRACE_MS), () => {
          child?.stdout?.destroy();
          child?.stderr?.destroy();
          this.run.cause ??= new Error('process did not exit after SIGKILL');
          this.finish();
        });
      });
    });
  }

  /** Signals the child's process group (see {@link signalProcessGroup}), noting that it was signalled. */
  private signalGroup(signal: 'SIGTERM' | 'SIGKILL'): void {
    const child = this.child;
    if (child?.pid === undefined) return;
    this.run.signalled = true;
    signalProcessGroup(child, signal, this.run.exited);
    if (signal === 'SIGTERM') this.groupTermAt = performance.now();
  }

  private untrack(): void {
    this.untrackHostExit?.();
    this.untrackHostExit = undefined;
  }

  /** Delivers onClose once, after everything the child wrote has been handed up. */
  private finish(): void {
    if (this.state === 'closed') {
      return;
    }
    if (this.state === 'starting') {
      this.failStart(this.run.cause ?? new Error('process closed before it started'));
      return;
    }
    // A last line without "\n" is still handed up, before the state says closed.
    this.framer?.end();
    this.state = 'closed';
    this.timers.clear();
    this.untrack();
    this.writes.rejectQueued();

    const info = this.run.closeInfo(this.options.stderr === 'ignore' ? undefined : this.stderrTail);
    const handlers = this.handlers;
    this.handlers = undefined;
    this.framer = undefined;
    try {
      handlers?.onClose(info);
    } finally {
      this.resolveClose();
    }
  }

  private resolveClose(): void {
    const resolve = this.resolveClosePromise;
    this.resolveClosePromise = undefined;
    if (this.closePromise === undefined) {
      this.closePromise = Promise.resolve();
    }
    resolve?.();
  }

  private closedError(action: string, cause?: unknown): ConnectionClosedError {
    const reason =
      this.state === 'new' || this.state === 'starting'
        ? 'transport not started'
        : this.state === 'closed'
          ? 'transport closed'
          : 'transport closing';
    const data = {
      reason,
      exitCode: this.run.exited ? this.run.exitCode : undefined,
      signal: this.run.exited ? this.run.exitSignal : undefined,
      // A write that failed may have been read in part; one refused at once never left.
      outcome: cause === undefined ? ('not-sent' as const) : ('unknown' as const),
    };
    const detail = cause instanceof Error ? `: ${cause.message}` : '';
    return new ConnectionClosedError(`cannot ${action}: ${reason}${detail}`, data, cause);
  }

  private emitError(error: Error): void {
    if (this.handlers === undefined || this.state === 'closed') {
      return;
    }
    try {
      this.handlers.onError(error);
    } catch {
      // A throwing onError has nowhere left to report to.
    }
  }
}
