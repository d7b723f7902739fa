/**
 * The two eras of MCP a dual-era client speaks (spec 2026-07-28: basic/versioning,
 * Terminology and Backward Compatibility), and where the client remembers which one a server
 * speaks.
 */

/**
 * `modern`: 2026-07-28 and later, stateless, per-request `_meta`, `server/discover`.
 * `legacy`: 2025-11-25 and earlier, the `initialize` handshake (and HTTP sessions).
 */
export type Era = 'modern' | 'legacy';

/**
 * How `connect()` picks the era: `auto` probes with `server/discover` and falls back to
 * `initialize` when the answer is not a recognised modern one; `modern` and `legacy` skip the
 * detection and speak that era only.
 */
export type EraSetting = 'auto' | Era;

/**
 * What era detection settled on for a server, as `eraMemory` keeps it and
 * `McpClient.eraVerdict` reports it: `modern`, `legacy`, or `legacy-sse` for a legacy server
 * reached only through the deprecated HTTP+SSE transport (2024-11-05) at its URL, the last
 * fallback over HTTP (spec 2026-07-28: basic/transports/streamable-http, Backward
 * Compatibility). Its era is `legacy`.
 */
export type EraVerdict = Era | 'legacy-sse';

/**
 * Where era verdicts are remembered, keyed by the transport's `serverIdentity` (the command
 * line for stdio, the endpoint's origin and path for HTTP). A `Map<string, EraVerdict>` is one. The
 * client reads it before probing, writes it after a successful connect, and deletes a verdict
 * that failed (then probes again). Share one between clients (or persist it) to skip the probe
 * when reconnecting to the same server; each client has its own empty one by default, so
 * nothing is remembered across clients unless the host shares it.
 */
export interface EraMemory {
  /** The verdict remembered for a server, or `undefined` to probe. */
  get(serverIdentity: string): EraVerdict | undefined;
  /** Remembers the verdict a connect settled on; the return value is ignored. */
  set(serverIdentity: string, verdict: EraVerdict): unknown;
  /** Forgets a verdict that failed; the return value is ignored. */
  delete(serverIdentity: string): unknown;
}

/** Legacy revisions this client speaks, most preferred first (the first is sent in `initialize`). */
export const LEGACY_PROTOCOL_VERSIONS: readonly string[] = Object.freeze(['2025-11-25', '2025-06-18', '2025-03-26']);

/** How long the `server/discover` probe waits before calling the server legacy, in ms. */
export const DEFAULT_PROBE_TIMEOUT_MS = 5000;
