/**
 * The telemetry entry: OpenTelemetry spans and metrics for a client, opted into by importing
 * {@link openTelemetry} (a program that does not import this entry carries none of it). Pass
 * `openTelemetry({ api })` as `ClientOptions.telemetry`; `@opentelemetry/api` is an optional
 * peer dependency the program passes in. Runtime-neutral. See docs/observability.md.
 *
 * @module mcp-live/telemetry
 */
// Public API of the telemetry entry. Adding an export here adds public API: keep it explicit.
export { openTelemetry } from './observability/openTelemetry.js';
export {
  TelemetryAttribute,
  type TelemetryOptions,
  type OpenTelemetryApi,
  type TelemetryTracer,
  type TelemetrySpan,
  type TelemetrySpanOptions,
  type TelemetryPropagator,
  type TelemetrySetter,
  type TelemetryContext,
  type TelemetryAttributeValue,
} from './observability/telemetry.js';
export {
  MetricName,
  DURATION_BUCKETS_S,
  type TelemetryMeter,
  type TelemetryHistogram,
  type TelemetryHistogramOptions,
} from './observability/metrics.js';
