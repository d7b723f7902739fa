/**
 * How `connect()` settles on an era and a protocol version (spec 2026-07-28:
 * basic/versioning, Protocol Version Negotiation and Backward Compatibility). A pure loop over
 * two hooks: it never touches the session or the transport itself.
 *
 * 1. `era: "modern"`: `server/discover` only (with the normal timeout); -32022 leads to one
 *    retry with a version from `data.supported`.
 * 2. `era: "legacy"`: `initialize` only (then HTTP+SSE, as below, on HTTP).
 * 3. `era: "auto"`:
 *    - A server remembered as legacy gets `initialize` at once. If that fails (other than
 *      fatally), the verdict is forgotten and the server probed.
 *    - The probe is `server/discover`, with `probeTimeoutMs` (the normal timeout for a server
 *      remembered as modern). A DiscoverResult, or a recognised modern error
 *      ({@link classifyProbeFailure}), means modern: negotiate as in 1. Anything else means
 *      legacy: `initialize`. A modern -32022 whose `supported` list shares no modern version
 *      but a legacy one also leads to `initialize`.
 *    - A probe that timed out, followed by an `initialize` the server refused with a JSON-RPC
 *      error (or answered with something that is not an InitializeResult), may be a slow modern
 *      server: it is probed once more, with the normal timeout. So is a server whose probe
 *      timed out under the normal timeouts (HTTP) and that refused `initialize` with a
 *      recognised modern error (-32020 for the legacy request's headers, say).
 *    - A probe answered with a result that is not a DiscoverResult (some legacy servers answer
 *      any unknown method with `{}`) leads to `initialize` too; if that fails, the probe's
 *      `ProtocolError` is thrown (a modern server with a broken result).
 *    - Over HTTP, an `initialize` refused with 400, 404 or 405 and no recognised modern error
 *      body leads to the last fallback, the deprecated HTTP+SSE transport at the same URL
 *      (`GET` for the `endpoint` event, then `initialize` over it; {@link isSseFallbackCue}).
 *    - When the fallbacks fail too: `EraDetectionError`, naming each attempt.
 *    - The verdict (`modern`, `legacy`, `legacy-sse`) is remembered per `serverIdentity` once
 *      connected. A server remembered as `legacy-sse` goes straight to HTTP+SSE; if that
 *      fails (other than fatally), the verdict is forgotten and the server probed.
 */
import {
  type RpcError,
  UnsupportedProtocolVersionError,
  VersionNegotiationError,
  isRpcError,
  isTimeoutError,
} from '../errors/errors.js';
import { ErrorCode } from '../errors/codes.js';
import type { DiscoverResult } from '../wire/protocol.js';
import type { EraMemory, EraSetting } from './era.js';
import { EraDetectionError } from './errors.js';
import {
  classifyProbeFailure,
  isFatalConnectError,
  isMalformedAnswer,
  isSseFallbackCue,
  probeError,
  stepFailure,
} from './eraProbe.js';
import type { LegacyHandshake } from './handshake.js';
import { firstDiscover, remember, verdictOf, type FirstProbe } from './firstProbe.js';

/** What the connector asks the client to do. */
export interface EraDeps {
  /**
   * Sends `server/discover` at `version` and resolves with the checked result. `probeTimeoutMs`
   * is set for the probe (a short idle and total timeout), `undefined` for the normal timeouts.
   */
  discover(version: string, probeTimeoutMs: number | undefined): Promise<DiscoverResult>;
  /** Runs the legacy handshake (`initialize`, then `notifications/initialized`). */
  initialize(): Promise<LegacyHandshake>;
  /**
   * HTTP transports only: opens the deprecated HTTP+SSE transport at the same URL and runs the
   * legacy handshake over it. Absent elsewhere (no such fallback).
   */
  initializeOverSse?: (() => Promise<LegacyHandshake>) | undefined;
}

/** The settings the connector follows. */
export interface EraSettings {
  era: EraSetting;
  memory: EraMemory;
  serverIdentity: string;
  /** Modern versions, most preferred first. */
  modernVersions: readonly string[];
  /** Legacy versions, most preferred first. */
  legacyVersions: readonly string[];
  /**
   * The probe's idle and total timeout, in ms; `undefined` for the normal timeouts (transports
   * that answer every request, such as HTTP).
   */
  probeTimeoutMs: number | undefined;
  /**
   * True once the negotiation must stop whatever the last step failed with (the caller aborted,
   * or `connect()`'s budget is spent): that failure is thrown, no other era is tried.
   */
  stopped?: (() => boolean) | undefined;
}

/** Where the connector landed. */
export type EraOutcome =
  | { era: 'modern'; protocolVersion: string; discovery: DiscoverResult }
  | {
      era: 'legacy';
      protocolVersion: string;
      handshake: LegacyHandshake;
      /** Reached over the HTTP+SSE fallback. */ viaSse?: true | undefined;
    };

/**
 * Picks the era and version (see the module comment).
 * @throws VersionNegotiationError (-32022) when no version is shared; EraDetectionError
 *   (-33015) when neither era works (with `era: "legacy"`: when `initialize` and HTTP+SSE both
 *   failed); `HttpAuthError` (-33011), `ConnectionClosedError`
 *   (-32000), `CancelledError` (-32800) as they come; in a forced era, that era's error.
 */
export async function negotiateEra(settings: EraSettings, hooks: EraDeps, first?: FirstProbe): Promise<EraOutcome> {
  if (first !== undefined) {
    // Sent already, by the rules below: no verdict of legacy was remembered then. A second
    // client of the same server may have remembered one since (both probed at once): the probe
    // was still sent with the probe's timeout.
    const probeTimeoutMs = (firstDiscover(settings) ?? { probeTimeoutMs: settings.probeTimeoutMs }).probeTimeoutMs;
    const outcome = await detect(settings, hooks, probeTimeoutMs, first);
    if (settings.era !== 'modern') remember(settings, verdictOf(outcome));
    return outcome;
  }
  if (settings.era === 'modern') return detect(settings, hooks, undefined);
  if (settings.era === 'legacy') return forcedLegacy(settings, hooks);
  const remembered = settings.memory.get(settings.serverIdentity);
  if (remembered === 'legacy' || remembered === 'legacy-sse') {
    try {
      if (remembered === 'legacy-sse' && hooks.initializeOverSse !== undefined)
        return sseOutcome(await hooks.initializeOverSse());
      return legacyOutcome(await hooks.initialize());
    } catch (error) {
      if (fatal(settings, error)) throw error;
      settings.memory.delete(settings.serverIdentity);
    }
  }
  const outcome = await detect(settings, hooks, remembered === 'modern' ? undefined : settings.probeTimeoutMs);
  remember(settings, verdictOf(outcome));
  return outcome;
}

/** `era: "legacy"`: `initialize`; over HTTP, HTTP+SSE after a 400/404/405. */
async function forcedLegacy(settings: EraSettings, hooks: EraDeps): Promise<EraOutcome> {
  try {
    return legacyOutcome(await hooks.initialize());
  } catch (error) {
    if (hooks.initializeOverSse === undefined || !isSseFallbackCue(error) || fatal(settings, error)) throw error;
    const sse = await trySse(settings, hooks.initializeOverSse);
    if ('outcome' in sse) return sse.outcome;
    throw new EraDetectionError(
      {
        serverIdentity: settings.serverIdentity,
        probe: undefined,
        fallback: stepFailure('initialize', error),
        sse: stepFailure('initialize', sse.error),
      },
      sse.error,
    );
  }
}

/** The HTTP+SSE handshake; a failure that is not fatal is returned, not thrown. */
async function trySse(
  settings: EraSettings,
  initializeOverSse: () => Promise<LegacyHandshake>,
): Promise<{ outcome: EraOutcome } | { error: unknown }> {
  try {
    return { outcome: sseOutcome(await initializeOverSse()) };
  } catch (error) {
    if (fatal(settings, error) || error instanceof VersionNegotiationError) throw error;
    return { error };
  }
}

async function detect(
  settings: EraSettings,
  hooks: EraDeps,
  probeTimeoutMs: number | undefined,
  probed?: FirstProbe,
): Promise<EraOutcome> {
  const version = first(settings.modernVersions);
  let discovery: DiscoverResult;
  try {
    if (probed === undefined) discovery = await hooks.discover(version, probeTimeoutMs);
    else if ('error' in probed) throw probed.error;
    else discovery = probed.discovery;
  } catch (raw) {
    const error = probeError(raw, 'server/discover');
    const verdict = fatal(settings, error) ? 'fatal' : classifyProbeFailure(error);
    if (verdict === 'fatal' || (settings.era === 'modern' && verdict === 'legacy')) throw raw;
    if (verdict === 'modern') return negotiateAfterModernError(settings, hooks, error, version);
    return fallBack(settings, hooks, error, probeTimeoutMs !== undefined && isTimeoutError(error));
  }
  return negotiateModern(settings, hooks, discovery, version);
}

/**
 * The probe failed with a recognised modern error: -32022 leads to one version switch, others
 * are surfaced. The switch prefers a version other than `refused`, the one the server just
 * refused: the next shared modern version, else (in `auto`) the first shared legacy one through
 * `initialize`. Only when the server's `supported` list names `refused` and nothing else this
 * client speaks is `refused` sent once more (a rejection the server may not repeat); a second
 * -32022 ends in `VersionNegotiationError`, never a loop.
 */
async function negotiateAfterModernError(
  settings: EraSettings,
  hooks: EraDeps,
  error: unknown,
  refused: string,
): Promise<EraOutcome> {
  if (!isRpcError(error) || error.code !== ErrorCode.UnsupportedProtocolVersion) throw error;
  const theirs = supportedOf(error);
  const modern = settings.modernVersions.find((v) => v !== refused && theirs.includes(v));
  if (modern !== undefined) return negotiateModern(settings, hooks, await hooks.discover(modern, undefined), modern);
  if (settings.era !== 'modern' && settings.legacyVersions.some((v) => theirs.includes(v)))
    return legacyOutcome(await hooks.initialize());
  const noShared = (cause: RpcError) =>
    new VersionNegotiationError(
      { clientSupported: [...settings.modernVersions], serverSupported: theirs },
      asUnsupported(cause),
    );
  if (!theirs.includes(refused)) throw noShared(error);
  let discovery: DiscoverResult;
  try {
    discovery = await hooks.discover(refused, undefined);
  } catch (again) {
    const refusedAgain = probeError(again, 'server/discover');
    if (isRpcError(refusedAgain) && refusedAgain.code === ErrorCode.UnsupportedProtocolVersion)
      throw noShared(refusedAgain);
    throw again;
  }
  return negotiateModern(settings, hooks, discovery, refused);
}

/**
 * The modern path once a DiscoverResult arrived for `asked`: a result that does not list
 * `asked` switches to the first shared version (the result already says what the server has).
 */
async function negotiateModern(
  settings: EraSettings,
  hooks: EraDeps,
  discovery: DiscoverResult,
  asked: string,
): Promise<EraOutcome> {
  if (discovery.supportedVersions.includes(asked)) return { era: 'modern', protocolVersion: asked, discovery };
  const pick = settings.modernVersions.find((v) => discovery.supportedVersions.includes(v));
  if (pick === undefined) {
    if (settings.era !== 'modern' && settings.legacyVersions.some((v) => discovery.supportedVersions.includes(v)))
      return legacyOutcome(await hooks.initialize());
    throw new VersionNegotiationError({
      clientSupported: [...settings.modernVersions],
      serverSupported: discovery.supportedVersions,
    });
  }
  return { era: 'modern', protocolVersion: pick, discovery };
}

/**
 * The probe says legacy: `initialize`; then, over HTTP after a 400/404/405, HTTP+SSE. See the
 * module comment for the slow-modern-server retry.
 */
async function fallBack(
  settings: EraSettings,
  hooks: EraDeps,
  probe: unknown,
  probeTimedOut: boolean,
): Promise<EraOutcome> {
  let error: unknown;
  try {
    return legacyOutcome(await hooks.initialize());
  } catch (caught) {
    if (fatal(settings, caught) || caught instanceof VersionNegotiationError) throw caught;
    error = caught;
  }
  // A probe that timed out (under any timeout: HTTP's normal ones too), then an initialize
  // refused with an error only a 2026-07-28 server sends (-32020 for the legacy request's
  // headers, say): a modern server whose answer was late. Probe it once more.
  const lateModern = isTimeoutError(probe) && classifyProbeFailure(probeError(error, 'initialize')) === 'modern';
  if (lateModern || (probeTimedOut && (isRpcError(error) || isMalformedAnswer(error)))) {
    const version = first(settings.modernVersions);
    try {
      return negotiateModern(settings, hooks, await hooks.discover(version, undefined), version);
    } catch (again) {
      if (fatal(settings, again)) throw again;
    }
  }
  let sseError: unknown;
  if (hooks.initializeOverSse !== undefined && isSseFallbackCue(error)) {
    const sse = await trySse(settings, hooks.initializeOverSse);
    if ('outcome' in sse) return sse.outcome;
    sseError = sse.error;
  }
  // It answered server/discover with a result, just not a valid one, and refused initialize:
  // a modern server with a broken result. Its ProtocolError says more than "no era".
  if (isMalformedAnswer(probe)) throw probe;
  throw new EraDetectionError(
    {
      serverIdentity: settings.serverIdentity,
      probe: stepFailure('server/discover', probe),
      fallback: stepFailure('initialize', error),
      sse: sseError === undefined ? undefined : stepFailure('initialize', sseError),
    },
    sseError ?? error,
  );
}

/** A failure after which no other step is tried: see {@link isFatalConnectError} and `EraSettings.stopped`. */
function fatal(settings: EraSettings, error: unknown): boolean {
  return isFatalConnectError(error) || settings.stopped?.() === true;
}

function legacyOutcome(handshake: LegacyHandshake): EraOutcome {
  return { era: 'legacy', protocolVersion: handshake.protocolVersion, handshake };
}

function sseOutcome(handshake: LegacyHandshake): EraOutcome {
  return { era: 'legacy', protocolVersion: handshake.protocolVersion, handshake, viaSse: true };
}

function first(versions: readonly string[]): string {
  return versions[0] as string;
}

function supportedOf(error: { data: unknown }): string[] {
  const data = error.data as { supported?: unknown } | undefined;
  return Array.isArray(data?.supported) ? data.supported.filter((v): v is string => typeof v === 'string') : [];
}

function asUnsupported(error: {
  code: number;
  message: string;
  data: unknown;
  method?: string;
}): UnsupportedProtocolVersionError {
  return error instanceof UnsupportedProtocolVersionError
    ? error
    : new UnsupportedProtocolVersionError(
        { code: error.code, message: error.message, data: error.data },
        error.method ?? 'server/discover',
      );
}
