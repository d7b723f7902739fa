/**
 * One message of the Streamable HTTP transport on its exchange: the POST, and what its answer
 * becomes (a JSON body or an SSE stream handed up, a refusal as the response or as an error), for
 * both eras; the legacy session's part plugs in through {@link SessionDeps}. Runtime-neutral.
 */
import { ErrorCode } from '../../errors/codes.js';
import { InvalidArgumentError, ProtocolError } from '../../errors/errors.js';
import type { JsonRpcNotification, JsonRpcRequest, RequestId } from '../../wire/messages.js';
import { sendCancelOf } from '../cancelHandle.js';
import type { CancelHandle, RequestCredential, TransportSendOptions } from '../transport.js';
import { bodyExcerpt, HttpError, StreamBrokenError } from '../transportErrors.js';
import { ERROR_BODY_BYTES, jsonRpcError, mediaType, parseJson } from './body.js';
import { acceptLanguageOf, contentLanguageMismatch } from './languageHeaders.js';
import type { HttpExchange } from './exchange.js';
import type { MessageReader } from './messageReader.js';
import type { PumpResult } from './ssePump.js';
import { BodyTooLargeError, readStart, type HttpStackResponse } from './stack.js';

/**
 * The legacy HTTP session's part in an exchange (spec 2025-11-25: basic/transports, Session
 * Management, Resumability and Redelivery); absent on the 2026-07-28 wire.
 */
export interface SessionDeps {
  /** A request's response headers arrived: keeps the session id of `initialize`'s. */
  captureSession(method: string, response: HttpStackResponse): void;
  /**
   * The error a refusal with `status` means when the session is gone (a 404 to a message that
   * carried `sentSessionId`), else `undefined`; for a request (`holdBack`), later messages wait
   * for the new session.
   */
  sessionExpired(
    method: string,
    status: number,
    sentSessionId: string | undefined,
    holdBack: boolean,
  ): Error | undefined;
  /** Resumes a response stream that ended early after an event id (GET with `Last-Event-ID`). */
  resume(method: string, id: RequestId, broken: PumpResult, signal: AbortSignal): Promise<void>;
}

/** What a {@link MessagePoster} works with. */
export interface MessagePosterOptions {
  readonly exchange: HttpExchange;
  readonly reader: MessageReader;
  /** Longest JSON response body accepted, in bytes. */
  readonly maxBodyBytes: number;
  /** The legacy session, while the transport is on the legacy wire. */
  session(): SessionDeps | undefined;
}

/** Sends the messages of one transport and reads their answers (see the file's opening comment). */
export class MessagePoster {
  constructor(private readonly options: MessagePosterOptions) {}

  /**
   * POSTs a request or notification with `headers` (the envelope, complete but for
   * `Accept-Language`, added here from the message's `_meta` on both eras). `options.cancel`
   * (else `signal`) aborts it; `options.idempotent` (default: every method but `tools/call`)
   * allows retrying it after a connection reset or a transient status.
   */
  send(
    message: JsonRpcRequest | JsonRpcNotification,
    headers: Readonly<Record<string, string>>,
    options: TransportSendOptions,
  ): Promise<void> {
    const body = JSON.stringify(message);
    // SEP-2792 (a draft): the language preference mirrored as `Accept-Language`, on both eras.
    const language = acceptLanguageOf(message.params?.['_meta']);
    if (language !== undefined) headers = { ...headers, 'accept-language': language };
    const idempotent = options.idempotent ?? message.method !== 'tools/call';
    const cancel = sendCancelOf(options);
    if ('id' in message && message.id !== undefined)
      return this.request(message.method, message.id, body, headers, idempotent, cancel, options.credential);
    return this.notification(message.method, body, headers, idempotent, cancel);
  }

  /** POSTs a request and hands its answer up; rejects with the error the request fails with. */
  async request(
    method: string,
    id: RequestId,
    body: string,
    headers: Readonly<Record<string, string>>,
    idempotent: boolean,
    cancel: CancelHandle | undefined,
    credential: RequestCredential | undefined,
  ): Promise<void> {
    const { exchange } = this.options;
    try {
      const response = await exchange.post(method, body, headers, idempotent, cancel, credential);
      this.options.session()?.captureSession(method, response);
      await this.consume(response, method, id, cancel, headers['mcp-session-id']);
    } catch (error) {
      throw exchange.finalError(error, method, id, cancel);
    }
  }

  /**
   * POSTs a notification (or a legacy response to a server request): resolves once accepted,
   * and also when refused (the refusal goes to `onError`); rejects when closed or cancelled.
   */
  async notification(
    method: string,
    body: string,
    headers: Readonly<Record<string, string>>,
    idempotent: boolean,
    cancel: CancelHandle | undefined,
  ): Promise<void> {
    const { exchange, reader } = this.options;
    try {
      const response = await exchange.post(method, body, headers, idempotent, cancel);
      if (response.status >= 200 && response.status < 300) {
        // Accepted: 202, 200 or 204, with or without a body. Never parsed.
        response.discard();
        return;
      }
      const expired = this.options.session()?.sessionExpired(method, response.status, headers['mcp-session-id'], false);
      if (expired !== undefined) {
        response.discard();
        reader.emitError(expired);
        return;
      }
      const text = await readStart(response, ERROR_BODY_BYTES);
      const parsed = parseJson(text);
      reader.emitError(new HttpError(exchange.errorData(response, method, text, 'status', jsonRpcError(parsed))));
    } catch (error) {
      const final = exchange.finalError(error, method, undefined, cancel);
      if (exchange.closeSignal.aborted || cancel?.aborted === true) throw final;
      if (final instanceof InvalidArgumentError) throw final;
      reader.emitError(final);
    }
  }

  /** Reads the final response of a request and hands its messages up. */
  private async consume(
    response: HttpStackResponse,
    method: string,
    id: RequestId,
    cancel: CancelHandle | undefined,
    sentSessionId: string | undefined,
  ): Promise<void> {
    const { exchange, reader } = this.options;
    const status = response.status;
    const type = mediaType(response.header('content-type'));
    if (status < 200 || status >= 300) {
      const expired = this.options.session()?.sessionExpired(method, status, sentSessionId, true);
      if (expired !== undefined) {
        response.discard();
        throw expired;
      }
      const text = await readStart(response, ERROR_BODY_BYTES);
      const parsed = parseJson(text);
      const rpcError = type === 'application/json' ? jsonRpcError(parsed) : undefined;
      if (rpcError !== undefined && status >= 400 && status < 500) {
        // A modern server's refusal (-32020, -32021, -32022, -32602, -32601...): it is the response.
        checkContentLanguage(response, parsed, method);
        if (reader.deliver(parsed, id, status)) return;
      }
      throw new HttpError(exchange.errorData(response, method, text, 'status', jsonRpcError(parsed)));
    }
    if (type === 'text/event-stream') return this.readEventStream(response, method, id, cancel);
    if (type === 'application/json') return this.readJson(response, method, id, cancel);
    const text = await readStart(response, ERROR_BODY_BYTES);
    throw new HttpError(exchange.errorData(response, method, text, text === '' ? 'empty-body' : 'content-type'));
  }

  /** A 2xx `application/json` body: the response, read whole (within `maxBodyBytes`). */
  private async readJson(
    response: HttpStackResponse,
    method: string,
    id: RequestId,
    cancel: CancelHandle | undefined,
  ): Promise<void> {
    const { exchange, reader } = this.options;
    let text: string;
    try {
      text = await response.text(this.options.maxBodyBytes);
    } catch (error) {
      if (exchange.isAborted(cancel)) throw exchange.abortReason(cancel);
      if (error instanceof BodyTooLargeError) {
        throw new ProtocolError(
          `response body longer than ${error.limit} bytes; dropped`,
          { method, value: { maxBodyBytes: error.limit, received: error.received } },
          ErrorCode.ParseError,
        );
      }
      throw new StreamBrokenError(
        {
          method,
          requestId: id,
          phase: 'mid-stream',
          reason: 'the response body failed before it was complete',
          eventsReceived: 0,
          outcome: 'unknown',
        },
        error,
      );
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text) as unknown;
    } catch {
      if (text.trim() === '') throw new HttpError(exchange.errorData(response, method, '', 'empty-body'));
      throw new ProtocolError('response body is not JSON', { method, value: bodyExcerpt(text) }, ErrorCode.ParseError);
    }
    checkContentLanguage(response, parsed, method);
    if (!reader.deliver(parsed, id, response.status))
      throw new ProtocolError('response body is not the JSON-RPC response to this request', {
        method,
        value: parsed,
      });
  }

  /** A 2xx `text/event-stream` body: its messages until the response (a legacy stream may be resumed). */
  private async readEventStream(
    response: HttpStackResponse,
    method: string,
    id: RequestId,
    cancel: CancelHandle | undefined,
  ): Promise<void> {
    const { exchange, reader } = this.options;
    const pumped = await reader.pump(response, method, id, cancel);
    if (pumped.responded) return;
    // Legacy wire: a stream that gave an event id can be resumed with GET + Last-Event-ID.
    const session = this.options.session();
    if (session !== undefined && pumped.lastEventId !== undefined) {
      const link = exchange.link(cancel);
      try {
        await session.resume(method, id, pumped, link.signal);
      } finally {
        link.dispose();
      }
      return;
    }
    const failed = pumped.failure !== undefined;
    throw new StreamBrokenError(
      {
        method,
        requestId: id,
        phase: 'mid-stream',
        reason: failed
          ? 'the response stream failed before the response'
          : 'the response stream ended before the response',
        eventsReceived: pumped.events,
        outcome: 'unknown',
      },
      pumped.failure,
    );
  }
}

/**
 * A JSON response whose `Content-Language` header and language `_meta` disagree is malformed
 * (SEP-2792, a draft): it is not delivered.
 * @throws ProtocolError (-32600) with `data.value` `{ header, meta }`.
 */
function checkContentLanguage(response: HttpStackResponse, parsed: unknown, method: string): void {
  const mismatch = contentLanguageMismatch(response.header('content-language'), parsed);
  if (mismatch !== undefined)
    throw new ProtocolError('the Content-Language header and the _meta contentLanguage of the response differ', {
      method,
      value: mismatch,
    });
}
