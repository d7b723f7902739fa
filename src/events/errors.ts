/**
 * The errors of the Triggers & Events extension: the five wire codes the design mints
 * (-32011…-32015, design: Error Codes), each an `RpcError` subclass that reads its typed `data`,
 * and the local ones (-33080…-33082).
 */
import { ErrorCode, type JsonRpcErrorObject } from '../errors/codes.js';
import { LocalError, RpcError, isRpcError } from '../errors/errors.js';
import { isObject } from '../wire/messages.js';
import type { DeliveryMode } from '../wire/events.js';

/** The extension's wire codes (design: Error Codes); general-purpose names, pending the base registry. */
export const EventsErrorCode = {
  /** An unknown event name (`data.kind: "event"`), or no such subscription on `events/unsubscribe` (`"subscription"`). */
  NotFound: -32011,
  /** The principal may not subscribe to this event with these arguments, or lost access. */
  Forbidden: -32012,
  /** A server limit was reached: `data.limit` names it, `data.max` may give the ceiling. */
  ResourceExhausted: -32013,
  /** A well-formed request for something not offered here: `data.feature`, `data.value`. */
  Unsupported: -32014,
  /** The webhook callback failed verification or could not be reached: `data.reason`. */
  CallbackEndpointError: -32015,
} as const;

function dataString(data: unknown, key: string): string | undefined {
  if (!isObject(data)) return undefined;
  const value = data[key];
  return typeof value === 'string' ? value.slice(0, 200) : undefined;
}

/** -32011: an unknown event name or subscription. {@link kind} reads `data.kind`. */
export class EventNotFoundError extends RpcError {
  override name = 'EventNotFoundError';
  /** `data.kind`: `event` (an unknown event name) or `subscription` (no such key on `events/unsubscribe`). */
  get kind(): 'event' | 'subscription' | undefined {
    const kind = dataString(this.data, 'kind');
    return kind === 'event' || kind === 'subscription' ? kind : undefined;
  }
}

/** -32012: not permitted, or access revoked. */
export class EventForbiddenError extends RpcError {
  override name = 'EventForbiddenError';
}

/** -32013: a server limit; {@link limit} and {@link max} read `data.limit` and `data.max`. */
export class EventResourceExhaustedError extends RpcError {
  override name = 'EventResourceExhaustedError';
  /** `data.limit`: which limit was reached (e.g. `subscriptions`). */
  get limit(): string | undefined {
    return dataString(this.data, 'limit');
  }
  /** `data.max`: the ceiling, when the server gave it. */
  get max(): number | undefined {
    const max = isObject(this.data) ? this.data['max'] : undefined;
    return typeof max === 'number' && Number.isFinite(max) ? max : undefined;
  }
}

/** -32014: an option or capability not supported here; {@link feature} and {@link value} read `data`. */
export class EventUnsupportedError extends RpcError {
  override name = 'EventUnsupportedError';
  /** `data.feature`: what is not supported (e.g. `deliveryMode`). */
  get feature(): string | undefined {
    return dataString(this.data, 'feature');
  }
  /** `data.value`: the value asked for (e.g. `push`). */
  get value(): string | undefined {
    return dataString(this.data, 'value');
  }
}

/** -32015 (webhook only): the callback failed; {@link reason} is a `lastError` category. */
export class CallbackEndpointError extends RpcError {
  override name = 'CallbackEndpointError';
  /** `data.reason`: a `lastError` category (`connection_refused`, `timeout`, `tls_error`, `http_4xx`, `http_5xx`, `challenge_failed`). */
  get reason(): string | undefined {
    return dataString(this.data, 'reason');
  }
}

const WIRE_CLASSES: Record<number, typeof RpcError> = {
  [EventsErrorCode.NotFound]: EventNotFoundError,
  [EventsErrorCode.Forbidden]: EventForbiddenError,
  [EventsErrorCode.ResourceExhausted]: EventResourceExhaustedError,
  [EventsErrorCode.Unsupported]: EventUnsupportedError,
  [EventsErrorCode.CallbackEndpointError]: CallbackEndpointError,
};

/** `error` as its typed class when it is one of the extension's wire codes, else `error` itself. */
export function typedEventsError(error: unknown): unknown {
  if (!isRpcError(error)) return error;
  const wire: RpcError = error;
  const Class = WIRE_CLASSES[wire.code];
  if (Class === undefined || wire.constructor === Class) return wire;
  return new Class({ code: wire.code, message: wire.message, data: wire.data }, wire.method, wire.httpStatus);
}

/** The typed error of a wire error object (a `terminated` body, `notifications/events/terminated`). */
export function eventsErrorOf(error: JsonRpcErrorObject, method: string): RpcError {
  const Class = WIRE_CLASSES[error.code] ?? RpcError;
  return new Class(error, method);
}

/**
 * True for a server error that ends a subscription (a retry cannot mend it): -32011, -32012,
 * -32014, -32015, -32602 (invalid params) and -32601 (no such method).
 */
export function endsSubscription(error: unknown): boolean {
  if (!isRpcError(error)) return false;
  return (
    error.code === EventsErrorCode.NotFound ||
    error.code === EventsErrorCode.Forbidden ||
    error.code === EventsErrorCode.Unsupported ||
    error.code === EventsErrorCode.CallbackEndpointError ||
    error.code === ErrorCode.InvalidParams ||
    error.code === ErrorCode.MethodNotFound
  );
}

/** An `events/*` call to a server without the extension (-33080); nothing was sent. `data.method`. */
export class EventsUnsupportedError extends LocalError {
  override name = 'EventsUnsupportedError';
  declare readonly data: { method: string };
  constructor(method: string) {
    super(
      ErrorCode.EventsUnsupported,
      `${method}: the server does not declare the io.modelcontextprotocol/events extension`,
      {
        data: { method },
      },
    );
  }
}

/** No offered delivery mode is usable here (-33081); nothing was sent. */
export class NoCompatibleDeliveryModeError extends LocalError {
  override name = 'NoCompatibleDeliveryModeError';
  declare readonly data: { name: string; offered: DeliveryMode[]; usable: DeliveryMode[] };
  constructor(name: string, offered: DeliveryMode[], usable: DeliveryMode[]) {
    super(
      ErrorCode.NoCompatibleDeliveryMode,
      `${name}: no usable delivery mode (offered ${offered.join(', ') || 'none'}; usable here ${usable.join(', ') || 'none'})`,
      { data: { name, offered, usable } },
    );
  }
}

/** Why a subscription ended for good (`lease-lost`: its lease lapsed or was taken, so another worker may consume it). */
export type EventSubscriptionEndReason = 'terminated' | 'rejected' | 'connection-lost' | 'lease-lost';

/** An event subscription ended for good (-33082); the server's error, when there is one, is `cause`. */
export class EventSubscriptionEndedError extends LocalError {
  override name = 'EventSubscriptionEndedError';
  declare readonly data: { name: string; mode: DeliveryMode; reason: EventSubscriptionEndReason };
  constructor(name: string, mode: DeliveryMode, reason: EventSubscriptionEndReason, cause?: unknown) {
    const detail = cause instanceof Error ? `: ${cause.message}` : '';
    super(ErrorCode.EventSubscriptionEnded, `event subscription ${name} (${mode}) ended: ${reason}${detail}`, {
      data: { name, mode, reason },
      cause,
    });
  }
}
