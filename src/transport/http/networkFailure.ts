/**
 * A request that failed before any response arrived, and whether it failed before a byte of it
 * left (then it is safe to send again, whatever the method). Shared by the HTTP transports.
 * Runtime-neutral.
 */

/** Failures that happen before a byte of the request left: safe to retry for every method. */
const CONNECT_ERROR_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** A fetch (or `node:http` request) that failed before any response arrived; `cause` is the failure. */
export class NetworkFailure extends Error {
  override name = 'NetworkFailure';
  /** The system error code behind the failure (`ECONNREFUSED`...), when there is one. */
  readonly code: string | undefined;
  /** True when the request failed before a byte of it left (refused, unresolved, unreachable). */
  readonly connectPhase: boolean;

  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.code = fetchErrorCode(cause);
    this.connectPhase = this.code !== undefined && CONNECT_ERROR_CODES.has(this.code);
  }
}

/** The Node/undici error code behind a fetch failure (`error.cause.code`, or an AggregateError's), e.g. `"ECONNREFUSED"`. */
export function fetchErrorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    const errors = (current as { errors?: unknown }).errors;
    if (Array.isArray(errors)) {
      for (const inner of errors) {
        const innerCode = (inner as { code?: unknown } | null)?.code;
        if (typeof innerCode === 'string') return innerCode;
      }
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
