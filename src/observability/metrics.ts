/**
 * The client's metrics, as the OpenTelemetry semantic conventions for MCP name them
 * (open-telemetry/semantic-conventions, docs/gen-ai/mcp.md, "Metrics"): two histograms in
 * seconds, with the bucket boundaries the conventions give as advice.
 */

/** Options of {@link TelemetryMeter.createHistogram}, as the OpenTelemetry metrics API takes them. */
export interface TelemetryHistogramOptions {
  description?: string;
  unit?: string;
  /** Advisory parameters: the SDK uses these bucket boundaries unless a view says otherwise. */
  advice?: { explicitBucketBoundaries?: number[] };
}

/** The member of an OpenTelemetry `Histogram` the client uses. */
export interface TelemetryHistogram {
  /** Records one value with its attributes. */
  record(value: number, attributes?: Record<string, string | number | boolean>): void;
}

/** The member of an OpenTelemetry `Meter` the client uses. */
export interface TelemetryMeter {
  /** Creates (or returns the existing) histogram `name`. */
  createHistogram(name: string, options?: TelemetryHistogramOptions): TelemetryHistogram;
}

/** Metric names (semantic conventions for MCP, client side). */
export const MetricName = {
  /** One request, from the time it was sent until its response arrived. */
  operationDuration: 'mcp.client.operation.duration',
  /** One session: from connect (or a reconnect) until the connection dropped or the client closed. */
  sessionDuration: 'mcp.client.session.duration',
} as const;

/** The explicit bucket boundaries, in seconds, the conventions advise for both histograms. */
export const DURATION_BUCKETS_S: readonly number[] = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/** The histograms one client records on. */
export interface ClientInstruments {
  readonly operationDuration: TelemetryHistogram;
  readonly sessionDuration: TelemetryHistogram;
}

/** Creates the client's histograms on `meter` (a meter returns the same instrument for the same name). */
export function createInstruments(meter: TelemetryMeter): ClientInstruments {
  const histogram = (name: string, description: string) =>
    meter.createHistogram(name, {
      description,
      unit: 's',
      advice: { explicitBucketBoundaries: [...DURATION_BUCKETS_S] },
    });
  return {
    operationDuration: histogram(
      MetricName.operationDuration,
      'The duration of the MCP request as observed on the client, from the time it was sent until the response arrived.',
    ),
    sessionDuration: histogram(
      MetricName.sessionDuration,
      'The duration of the MCP session as observed on the client.',
    ),
  };
}
