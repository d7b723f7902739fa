/**
 * What one client learned at `connect()` about its server's era, and what follows from it:
 * the wire the caller speaks, the legacy link, the subscription feed, the freshness of legacy
 * results. Keeps `McpClient` a facade.
 */
import { ConnectionClosedError } from '../errors/errors.js';
import type { JsonObject } from '../wire/messages.js';
import type { JsonRpcSession } from '../jsonrpc/session.js';
import type { CallOptions } from '../wire/callOptions.js';
import type { CallInternals } from './chain.js';
import type { Caller } from './caller.js';
import type { ResolvedClientOptions } from './options.js';
import type { FilterFlag } from '../subscriptions/filter.js';
import type { SubscriptionManager } from '../subscriptions/subscriptionManager.js';
import type { DiscoverResult } from '../wire/protocol.js';
import type { Era, EraMemory, EraVerdict } from '../era/era.js';
import type { EraDeps, EraOutcome, EraSettings } from '../era/connector.js';
import type { LegacyHandshake } from '../era/handshake.js';
import type { LegacyLink } from '../era/legacyLink.js';
import { ConnectBudget, type StepTimeouts } from '../era/connectBudget.js';
import { firstDiscover, remember, verdictOf, type FirstProbe } from '../era/firstProbe.js';
import { onDemand } from '../errors/moduleLoad.js';

/**
 * The negotiation past its first `server/discover`, the legacy handshake and link: loaded when
 * that first answer does not settle the era (or legacy is forced or remembered).
 */
const loadFallback = onDemand('era', () => import('../era/fallback.lazy.js'));
type Fallback = NonNullable<typeof loadFallback.value>;

/** The subscription flag whose notification makes each list stale (see `subscriptions/invalidation.ts`). */
const LIST_FLAG: Readonly<Record<string, FilterFlag>> = {
  'tools/list': 'toolsListChanged',
  'prompts/list': 'promptsListChanged',
  'resources/list': 'resourcesListChanged',
  'resources/templates/list': 'resourcesListChanged',
};

/** The `ttlMs` of a legacy list held until its `list_changed`: as long as the cache allows (it caps at `maxTtlMs`). */
const HELD_TTL_MS = Number.MAX_SAFE_INTEGER;

/** What the binding borrows from its client. */
export interface EraBindingDeps {
  options: ResolvedClientOptions;
  session: JsonRpcSession;
  caller: Caller;
  subscriptions: Pick<
    SubscriptionManager,
    'useLegacyFeed' | 'useModernWire' | 'resubscribeLegacy' | 'legacyWatches' | 'closeAll'
  >;
  /** The client's `server/discover` (through its cache). */
  discover(options: CallOptions, internals: CallInternals | undefined): Promise<DiscoverResult>;
  connected(): boolean;
  /**
   * The legacy HTTP session expired (`expired`, a `SessionExpiredError`) and a new one is set
   * up: `sessionRenewed()` once it is; `sessionRenewalFailed(error)` when that failed, which
   * returns the error the requests that saw the expiry reject with (see `ClientConnection`).
   */
  sessionLost?(expired: unknown): void;
  sessionRenewed?(): void;
  sessionRenewalFailed?(error: unknown): Promise<unknown>;
}

/** @internal Owned by `McpClient`. */
export class EraBinding {
  /** The era, once connected. */
  era: Era | undefined;
  /** The era, and `legacy-sse` when the server was reached over the HTTP+SSE fallback, once connected. */
  verdict: EraVerdict | undefined;
  /** The negotiated version, once connected. */
  protocolVersion: string | undefined;
  /** The DiscoverResult (modern), or the one built from the InitializeResult (legacy). */
  discovery: DiscoverResult | undefined;
  private legacy: LegacyLink | undefined;
  /** The rest of the negotiation and the legacy wire's parts, once loaded (see {@link loadFallback}). */
  private fallback: Fallback | undefined;

  constructor(private readonly deps: EraBindingDeps) {}

  /** The InitializeResult as received, on the legacy wire. */
  get initializeResult(): JsonObject | undefined {
    return this.legacy?.handshakeResult?.result;
  }

  /**
   * Settles the era and version (see `connector.ts`) and sets the client up for it. The call's
   * options bound the whole negotiation ({@link ConnectBudget}): all steps together wait at
   * most `timeoutMs` (or a shorter `maxTotalTimeoutMs`), each step what is left (a probe less),
   * and the signal ends it at once.
   */
  negotiate(options: CallOptions): Promise<DiscoverResult> {
    return this.settle(options, this.deps.options.eraMemory, undefined);
  }

  /**
   * Negotiates again on a new connection (a reconnect): the server may have been upgraded or
   * downgraded meanwhile. The wire goes back to modern until the era is known again. A server
   * remembered as legacy is probed again (it may speak 2026-07-28 now); one remembered as
   * modern gets `server/discover` with the normal timeouts (a legacy answer still means
   * legacy). The new verdict is remembered. Subscriptions of an era left behind are closed
   * (`transport-closed`); legacy ones are subscribed again by the client once open. Bounded as
   * {@link negotiate} with the client's default timeouts; `signal` ends it at once.
   * @throws as {@link negotiate}.
   */
  async renegotiate(signal: AbortSignal): Promise<void> {
    const { session, caller, options } = this.deps;
    const previous = this.era;
    session.setInboundRequestHandlers(undefined);
    if (this.legacy !== undefined) options.transport.legacyWire?.leave();
    this.legacy = undefined;
    caller.renewSession = undefined;
    const memory = options.eraMemory;
    const probeLegacyAgain: EraMemory = {
      get: (identity) => (memory.get(identity) === 'modern' ? 'modern' : undefined),
      set: (identity, verdict) => memory.set(identity, verdict),
      delete: (identity) => memory.delete(identity),
    };
    await this.settle({ signal }, probeLegacyAgain, previous);
  }

  /**
   * Another attempt at a new legacy HTTP session, after one failed (the client's reconnect
   * loop). Resolves once it is ready (its subscriptions are subscribed again).
   * @throws what `initialize` throws; `ConnectionClosedError` when the client is not on the legacy wire.
   */
  async renewSession(signal: AbortSignal): Promise<void> {
    const link = this.legacy;
    if (link === undefined)
      throw new ConnectionClosedError('no legacy session to renew', { reason: 'not on the legacy wire' });
    await link.renew(signal);
  }

  /**
   * No new legacy HTTP session will be set up: what the transport held for one rejects with
   * `error`. Resolves once it has (never rejects).
   */
  abandonSession(error: unknown): Promise<void> {
    return this.legacy?.abandon(error) ?? Promise.resolve();
  }

  private async settle(options: CallOptions, memory: EraMemory, previous: Era | undefined): Promise<DiscoverResult> {
    const resolved = this.deps.options;
    const { era, protocolVersions, legacyProtocolVersions, probeTimeoutMs, transport } = resolved;
    const budget = new ConnectBudget(
      options.timeoutMs ?? resolved.timeoutMs,
      options.maxTotalTimeoutMs ?? resolved.maxTotalTimeoutMs,
      options.signal,
      resolved.clock,
      resolved.timers,
    );
    // Over HTTP every request is answered (and may run an authorization flow): no short probe there.
    const probe = transport.capabilities.answersEveryRequest === true ? undefined : probeTimeoutMs;
    const settings: EraSettings = {
      era,
      memory,
      serverIdentity: transport.serverIdentity,
      modernVersions: protocolVersions,
      legacyVersions: legacyProtocolVersions,
      probeTimeoutMs: probe,
      stopped: () => budget.ended(),
    };
    const hooks: EraDeps = {
      discover: (version, probeMs) =>
        budget.step(() => {
          this.deps.caller.useWire('modern', version);
          // The probe never sends notifications/cancelled: a legacy server has not been initialized yet.
          // A handshake request never waits for a reconnect: it is part of one.
          const internals =
            probeMs === undefined
              ? { handshake: true }
              : { handshake: true, cancellable: transport.capabilities.cancelsByAbortingSend };
          return this.deps.discover(
            {
              ...options,
              ...budget.timeouts(probeMs),
              signal: budget.signal,
              cacheMode: options.cacheMode ?? 'no-cache',
            },
            internals,
          );
        }),
      initialize: () => budget.step(() => this.connectLegacy(budget.signal, false, budget.timeouts())),
      // Only HTTP transports can fall back to the deprecated HTTP+SSE transport.
      initializeOverSse:
        transport.legacyWire?.openSse === undefined
          ? undefined
          : () => budget.step(() => this.connectLegacy(budget.signal, true, budget.timeouts())),
    };
    try {
      // A modern server answers the first server/discover with a DiscoverResult listing the
      // version asked for: settled, without loading the rest of the negotiation.
      const step = firstDiscover(settings);
      let first: FirstProbe | undefined;
      if (step !== undefined) {
        const version = protocolVersions[0] as string;
        try {
          const discovery = await hooks.discover(version, step.probeTimeoutMs);
          if (discovery.supportedVersions.includes(version)) {
            if (era !== 'modern') remember(settings, 'modern');
            this.adopt({ era: 'modern', protocolVersion: version, discovery }, previous);
            return this.discovery as DiscoverResult;
          }
          first = { discovery };
        } catch (error) {
          first = { error };
        }
      }
      // Aborted, or out of time: no other step would run, so nothing more is loaded.
      if (first !== undefined && 'error' in first && budget.ended()) throw first.error;
      const fallback = await loadFallback();
      this.fallback = fallback;
      this.adopt(await fallback.negotiateEra(settings, hooks, first), previous);
      return this.discovery as DiscoverResult;
    } finally {
      budget.dispose();
    }
  }

  private async connectLegacy(
    signal: AbortSignal | undefined,
    overSse: boolean,
    timeouts: StepTimeouts,
  ): Promise<LegacyHandshake> {
    const { LegacyLink } = this.fallback as Fallback;
    const link = new LegacyLink({
      ...this.deps.options,
      versions: this.deps.options.legacyProtocolVersions,
      session: this.deps.session,
      onRenewed: (handshake) => this.renewed(handshake),
    });
    const handshake = await link.connect(signal, overSse, timeouts);
    this.legacy = link;
    return handshake;
  }

  /**
   * The freshness a result of `method` is stored with. Modern results: their own `ttlMs`.
   * Legacy servers send no cache hints: a list whose changes an open subscription hears (the
   * server declared `listChanged` for it) is kept until its `list_changed` arrives, at most the
   * cache's `maxTtlMs`; any other legacy result gets the host's `legacyTtlMs` (default 0).
   */
  freshness(method: string, result: JsonObject): JsonObject {
    if (this.era !== 'legacy') return result;
    const { withLegacyTtl } = this.fallback as Fallback;
    const flag = LIST_FLAG[method];
    if (flag !== undefined && this.deps.subscriptions.legacyWatches(flag)) return withLegacyTtl(result, HELD_TTL_MS);
    return withLegacyTtl(result, this.deps.options.legacyTtlMs);
  }

  /** Sets the client up for `outcome`; `previous` is the era of the connection before (a reconnect). */
  private adopt(outcome: EraOutcome, previous: Era | undefined): void {
    const { caller, subscriptions } = this.deps;
    this.era = outcome.era;
    this.verdict = verdictOf(outcome);
    this.protocolVersion = outcome.protocolVersion;
    caller.useWire(outcome.era, outcome.protocolVersion);
    if (previous !== undefined && previous !== outcome.era) {
      // Subscriptions of the other era cannot carry over: they end as with a lost connection.
      subscriptions.closeAll('transport-closed');
      if (outcome.era === 'modern') subscriptions.useModernWire();
    }
    if (outcome.era === 'modern') {
      this.discovery = outcome.discovery;
      return;
    }
    this.discovery = (this.fallback as Fallback).discoveryFromHandshake(outcome.handshake);
    const link = this.legacy as LegacyLink;
    caller.renewSession = (expired) => {
      this.deps.sessionLost?.(expired);
      return link.renew().then(
        (handshake) => {
          this.deps.sessionRenewed?.();
          return handshake;
        },
        async (error: unknown) => {
          throw this.deps.sessionRenewalFailed === undefined ? error : await this.deps.sessionRenewalFailed(error);
        },
      );
    };
    // Still on the legacy wire after a reconnect: the feed and its subscriptions stay.
    if (previous === 'legacy') return;
    const { LegacyFeed } = this.fallback as Fallback;
    subscriptions.useLegacyFeed(
      {
        capabilities: () => this.discovery?.capabilities,
        connected: () => this.deps.connected(),
        subscribe: (uri, { signal, timeoutMs }) =>
          caller.call({ method: 'resources/subscribe', params: { uri }, options: { signal, timeoutMs } }),
        unsubscribe: (uri) => caller.call({ method: 'resources/unsubscribe', params: { uri }, options: {} }),
      },
      LegacyFeed,
    );
  }

  /** A new legacy HTTP session is ready: its version, and the resource subscriptions again. */
  private renewed(handshake: LegacyHandshake): void {
    this.protocolVersion = handshake.protocolVersion;
    this.deps.caller.useWire('legacy', handshake.protocolVersion);
    this.discovery = (this.fallback as Fallback).discoveryFromHandshake(handshake);
    this.deps.subscriptions
      .resubscribeLegacy()
      .catch((error: unknown) => this.deps.options.onError(error instanceof Error ? error : new Error(String(error))));
  }
}
