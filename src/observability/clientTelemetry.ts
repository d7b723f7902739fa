/**
 * What `ClientOptions.telemetry` holds: the value {@link openTelemetry} made. The client reads
 * it through {@link telemetryOf} and never imports the OpenTelemetry code itself, so a program
 * that does not import `openTelemetry` carries none of it (docs/observability.md).
 */
import { InvalidArgumentError } from '../errors/errors.js';
import type { ResolvedTelemetry } from './telemetry.js';

/** The key the checked options live under; `Symbol.for`, so the ESM and CJS builds agree. */
export const TELEMETRY_OPTIONS: unique symbol = Symbol.for('mcp-live.telemetry') as never;

/**
 * OpenTelemetry for one client, made by `openTelemetry({ api })` (checked when it is made).
 * Opaque: pass it as `ClientOptions.telemetry`.
 */
export interface ClientTelemetry {
  /** @internal The checked options. */
  readonly [TELEMETRY_OPTIONS]: ResolvedTelemetry;
}

/**
 * `ClientOptions.telemetry`, read. @throws InvalidArgumentError (-32602, `data.value`: the
 * value's type) for anything `openTelemetry()` did not make, such as the `{ api }` object itself.
 */
export function telemetryOf(value: ClientTelemetry | undefined): ResolvedTelemetry | undefined {
  if (value === undefined) return undefined;
  const resolved = typeof value === 'object' && value !== null ? value[TELEMETRY_OPTIONS] : undefined;
  if (resolved === undefined)
    throw new InvalidArgumentError(
      'telemetry',
      typeof value,
      "expected openTelemetry({ api }) (import { openTelemetry } from 'mcp-live/telemetry')",
    );
  return resolved;
}
