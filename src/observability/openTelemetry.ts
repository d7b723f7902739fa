/**
 * `openTelemetry()`: the options checked once and wrapped as the value `ClientOptions.telemetry`
 * takes. The one file that ties the telemetry code (telemetry.ts) to the client's option
 * (clientTelemetry.ts), so the client reads the option without importing the code.
 */
import { resolveTelemetry, type TelemetryOptions } from './telemetry.js';
import { TELEMETRY_OPTIONS, type ClientTelemetry } from './clientTelemetry.js';

/**
 * OpenTelemetry tracing and metrics for a client: pass the result as `ClientOptions.telemetry`.
 * Importing this function is what brings the telemetry code into a program (a client without
 * it carries none); each public call then gets a CLIENT span, its trace context goes into the
 * `_meta` of every request it sends (spec 2026-07-28: basic, `_meta`), and with a meter the
 * client records `mcp.client.operation.duration` and `mcp.client.session.duration` (seconds).
 *
 * ```ts
 * import * as api from '@opentelemetry/api';
 * import { McpClient } from 'mcp-live';
 * import { openTelemetry } from 'mcp-live/telemetry';
 * const client = new McpClient({ transport, telemetry: openTelemetry({ api }) });
 * ```
 *
 * @param options `{ api }` with the `@opentelemetry/api` module, and optionally `tracer`,
 *   `meter` (or `false`), `propagator`, `resourceUriInSpanName`
 * @returns an opaque {@link ClientTelemetry}; one may serve many clients
 * @throws InvalidArgumentError (-32602, `data.name`: the option, `data.value`: its type) when
 *   `api`, `tracer`, `propagator` or `meter` lacks what the client uses
 */
export function openTelemetry(options: TelemetryOptions): ClientTelemetry {
  return { [TELEMETRY_OPTIONS]: resolveTelemetry(options) };
}
