/**
 * The legacy session of one Streamable HTTP transport (spec 2025-11-25: basic/transports
 * "Streamable HTTP"): the `Mcp-Session-Id`, the optional standalone GET stream, `Last-Event-ID`
 * resumption honouring the SSE `retry` field, and `DELETE` on close. The transport owns the
 * HTTP exchanges; this module owns the legacy state and policies. Loaded with the legacy wire.
 * Runtime-neutral.
 */
import { ErrorCode } from '../../../errors/codes.js';
import { LocalError } from '../../../errors/errors.js';
import type { RequestId } from '../../../wire/messages.js';
import type { Timers } from '../../../util/clock.js';
import { abortableDelay } from '../../../util/signals.js';
import { retry } from '../../../resilience/retry.js';
import type { PumpResult } from '../ssePump.js';
import type { HttpStackResponse } from '../stack.js';
import { mediaType } from '../body.js';
import { HttpError, StreamBrokenError, isHttpAuthError } from '../../transportErrors.js';
import { SessionExpiredError, type ResolvedLegacyHttpOptions } from './legacyHttp.js';

/** What the legacy channel borrows from its transport. */
export interface LegacyHttpDeps {
  /**
   * Sends `GET` to the endpoint with `Accept: text/event-stream`, the legacy headers, the
   * credential (auth retry and same-origin redirects included) and `Last-Event-ID` when given.
   * Resolves with any final response; rejects like a POST does (`HttpAuthError`, network failures).
   */
  get(lastEventId: string | undefined, signal: AbortSignal): Promise<HttpStackResponse>;
  /**
   * Reads an SSE body, handing each JSON-RPC message up (with `relatedRequestId` when given),
   * until it ends or the response to `relatedRequestId` arrived.
   */
  pump(
    response: HttpStackResponse,
    method: string,
    relatedRequestId: RequestId | undefined,
    signal: AbortSignal,
  ): Promise<PumpResult>;
  /** Sends `DELETE` with the legacy headers; resolves with the response. */
  delete(signal: AbortSignal): Promise<HttpStackResponse>;
  /** The `HttpError` for a response that is not the SSE stream asked for. */
  httpError(response: HttpStackResponse, method: string): Promise<HttpError>;
  emitError(error: Error): void;
}

/**
 * The legacy session of one transport: its id and negotiated version, the standalone GET
 * stream, resumption of broken response streams, and the `DELETE` at the end.
 */
export class LegacyHttpChannel {
  /** The `Mcp-Session-Id` the server assigned at initialization, if any. */
  sessionId: string | undefined;
  /** The version `initialize` negotiated: sent as `MCP-Protocol-Version` once known. */
  protocolVersion: string | undefined;
  private standalone: AbortController | undefined;

  constructor(
    private readonly port: LegacyHttpDeps,
    private readonly options: ResolvedLegacyHttpOptions,
    private readonly timers: Timers,
    private readonly closeSignal: AbortSignal,
  ) {}

  /** Adds `mcp-session-id` and `mcp-protocol-version` (when known) to `headers` (lower-case names). */
  applyHeaders(headers: Record<string, string>): void {
    if (this.sessionId !== undefined) headers['mcp-session-id'] = this.sessionId;
    if (this.protocolVersion !== undefined) headers['mcp-protocol-version'] = this.protocolVersion;
  }

  /**
   * Keeps the session id of the response to `initialize` (visible ASCII 0x21-0x7E only; any
   * other value is reported and ignored). Later responses never change it.
   */
  captureSession(method: string, response: HttpStackResponse): void {
    if (method !== 'initialize') return;
    const value = response.header('mcp-session-id');
    if (value === undefined) return;
    if (!/^[\x21-\x7e]+$/.test(value)) {
      this.port.emitError(
        new LocalError(
          ErrorCode.InvalidRequest,
          'the server sent an Mcp-Session-Id with characters outside 0x21-0x7E; ignored',
        ),
      );
      return;
    }
    this.sessionId = value;
  }

  /**
   * When `status` is 404 and the request carried `sentSessionId`, the session is gone: forgets
   * it (unless a new one replaced it meanwhile) and returns the {@link SessionExpiredError} to
   * throw; otherwise `undefined`.
   */
  sessionExpired(method: string, status: number, sentSessionId: string | undefined): SessionExpiredError | undefined {
    if (status !== 404 || sentSessionId === undefined) return undefined;
    if (this.sessionId === sentSessionId) this.sessionId = undefined;
    return new SessionExpiredError({ method, status });
  }

  /**
   * Starts the standalone GET stream (replacing a running one), unless turned off. Resolves
   * once the first GET got its response headers (or failed), so server messages sent right
   * after the handshake have a stream to arrive on. Never rejects.
   */
  startStandalone(): Promise<void> {
    this.stopStandalone();
    if (!this.options.standaloneStream || this.closeSignal.aborted) return Promise.resolve();
    const controller = new AbortController();
    this.standalone = controller;
    const onClose = () => controller.abort(this.closeSignal.reason);
    this.closeSignal.addEventListener('abort', onClose, { once: true });
    return new Promise<void>((resolve) => {
      void this.runStandalone(controller.signal, resolve).finally(() => {
        this.closeSignal.removeEventListener('abort', onClose);
        resolve();
      });
    });
  }

  /** Stops the standalone GET stream, if one runs. */
  stopStandalone(): void {
    this.standalone?.abort();
    this.standalone = undefined;
  }

  /**
   * Resumes a request's response stream that ended before the response (spec 2025-11-25:
   * basic/transports, Resumability and Redelivery): waits the server's `retry` (or
   * `defaultRetryMs`), then `GET` with `Last-Event-ID` (the last event id seen), handing up
   * what that stream carries, up to `maxResumptions` times: a resumed stream that closes
   * without an event is resumed again from the same id, while the HTTP session is alive (a
   * refused GET, such as 404 for an expired session, ends the resumptions).
   * @throws StreamBrokenError (-33012) when no resumption delivers the response; HttpError
   *   (-33010) when a GET is refused; the abort reason when `signal` aborts.
   */
  async resume(method: string, requestId: RequestId, broken: PumpResult, signal: AbortSignal): Promise<void> {
    let lastEventId = broken.lastEventId;
    let retryMs = broken.retryMs;
    let events = broken.events;
    for (let attempt = 0; attempt < this.options.maxResumptions && lastEventId !== undefined; attempt++) {
      await abortableDelay(retryMs ?? this.options.defaultRetryMs, this.timers, signal);
      const response = await this.port.get(lastEventId, signal);
      if (!isEventStream(response)) throw await this.port.httpError(response, method);
      const pumped = await this.port.pump(response, method, requestId, signal);
      if (pumped.responded) return;
      events += pumped.events;
      retryMs = pumped.retryMs ?? retryMs;
      // A stream that closed with nothing new is resumed again from the same event, within the budget.
      lastEventId = pumped.lastEventId ?? lastEventId;
    }
    throw new StreamBrokenError({
      method,
      requestId,
      phase: 'mid-stream',
      reason: 'the response stream ended before the response, and resuming it did not deliver it',
      eventsReceived: events,
      outcome: 'unknown',
    });
  }

  /**
   * Ends the session with `DELETE` (spec 2025-11-25: Session Management), waiting at most
   * `deleteTimeoutMs`. A 405 (the server keeps sessions) or any failure is ignored.
   */
  async terminate(): Promise<void> {
    if (this.sessionId === undefined || !this.options.deleteSessionOnClose) return;
    const controller = new AbortController();
    const timer = this.timers.setTimeout(() => controller.abort(), this.options.deleteTimeoutMs);
    try {
      (await this.port.delete(controller.signal)).discard();
    } catch {
      // Best effort: the session expires on the server anyway.
    } finally {
      this.timers.clearTimeout(timer);
      this.sessionId = undefined;
    }
  }

  /**
   * The standalone GET stream (spec 2025-11-25: Listening for Messages from the Server): 405
   * means the server offers none, and it is never asked again. Other refusals (400, 404...),
   * network failures and streams that end without an event count as failures: retried with
   * backoff (the retry loop of `resilience/retry.ts`) up to `standaloneMaxAttempts` in a row, then
   * given up with one report to `onError`; an auth refusal is given up at once. A stream that
   * carried events is reopened after the server's `retry` (with `Last-Event-ID`). Nothing here
   * ever closes the transport.
   */
  private async runStandalone(signal: AbortSignal, onFirstResponse: () => void): Promise<void> {
    let lastEventId: string | undefined;
    let retryMs: number | undefined;
    // One GET and its stream: true when the stream carried events, false for a 405; else throws.
    const openOnce = async (): Promise<boolean> => {
      const response = await this.port.get(lastEventId, signal).finally(onFirstResponse);
      if (response.status === 405) {
        response.discard();
        return false;
      }
      if (!isEventStream(response)) throw await this.port.httpError(response, 'GET');
      const pumped = await this.port.pump(response, 'GET', undefined, signal);
      lastEventId = pumped.lastEventId ?? lastEventId;
      retryMs = pumped.retryMs ?? retryMs;
      if (pumped.events === 0) throw new Error('GET: the standalone SSE stream ended without an event');
      return true;
    };
    const backoff = {
      minDelayMs: this.options.standaloneRetryDelayMs,
      maxDelayMs: Number.POSITIVE_INFINITY,
      factor: 2,
      jitter: true,
    };
    while (!signal.aborted) {
      try {
        const reopen = await retry(openOnce, {
          retries: this.options.standaloneMaxAttempts - 1,
          signal,
          backoff,
          next: (error) => (isHttpAuthError(error) ? undefined : 'backoff'),
        });
        if (!reopen) return;
      } catch (error) {
        // Given up: its last failure goes to onError (never thrown).
        if (!signal.aborted) this.report(error);
        return;
      }
      try {
        await abortableDelay(retryMs ?? this.options.defaultRetryMs, this.timers, signal);
      } catch {
        return;
      }
    }
  }

  /** The standalone stream was given up: its last failure goes to `onError` (never thrown). */
  private report(problem: unknown): void {
    this.port.emitError(problem instanceof Error ? problem : new Error(String(problem)));
  }
}

/** A 2xx `text/event-stream` response. */
function isEventStream(response: HttpStackResponse): boolean {
  return (
    response.status >= 200 &&
    response.status < 300 &&
    mediaType(response.header('content-type')) === 'text/event-stream'
  );
}
