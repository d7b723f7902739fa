/**
 * What one client learned at `connect()` about its server's era, and what follows from it:
 * the wire the caller speaks, the legacy link, the subscription feed, the freshness of legacy
 * results. Keeps `McpClient` a facade.
 */
import type { JsonObject } from '../jsonrpc/messages.js';
import type { JsonRpcSession } from '../jsonrpc/session.js';
import type { CallOptions } from '../client/callOptions.js';
import type { CallInternals, Caller } from '../client/caller.js';
import type { ResolvedClientOptions } from '../client/options.js';
import type { FilterFlag } from '../subscriptions/filter.js';
import type { SubscriptionManager } from '../subscriptions/subscriptionManager.js';
import type { DiscoverResult } from '../types/protocol.js';
import type { Era, EraVerdict } from './era.js';
import { negotiateEra, verdictOf, type EraOutcome } from './connector.js';
import { discoveryFromHandshake, withLegacyTtl, type LegacyHandshake } from './handshake.js';
import { LegacyLink } from './legacyLink.js';
import { ConnectBudget, type StepTimeouts } from './connectBudget.js';

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
  subscriptions: Pick<SubscriptionManager, 'useLegacyFeed' | 'resubscribeLegacy' | 'legacyWatches'>;
  /** The client's `server/discover` (through its cache). */
  discover(options: CallOptions, internals: CallInternals | undefined): Promise<DiscoverResult>;
  connected(): boolean;
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

  constructor(private readonly deps: EraBindingDeps) {}

  /** The InitializeResult as received, on the legacy wire. */
  get initializeResult(): JsonObject | undefined {
    return this.legacy?.handshakeResult?.result;
  }

  /**
   * Settles the era and version (see `connector.ts`) and sets the client up for it. The call's
   * options bound the whole negotiation ({@link ConnectBudget}): each step waits at most
   * `timeoutMs` for an answer (a probe less), all steps together at most `maxTotalTimeoutMs`,
   * and the signal ends it at once.
   */
  async negotiate(options: CallOptions): Promise<DiscoverResult> {
    const resolved = this.deps.options;
    const { era, eraMemory, protocolVersions, legacyProtocolVersions, probeTimeoutMs, transport } = resolved;
    const budget = new ConnectBudget(
      options.timeoutMs ?? resolved.timeoutMs,
      options.maxTotalTimeoutMs ?? resolved.maxTotalTimeoutMs,
      options.signal,
      resolved.clock,
      resolved.timers,
    );
    // Over HTTP every request is answered (and may run an authorization flow): no short probe there.
    const probe = transport.capabilities.answersEveryRequest === true ? undefined : probeTimeoutMs;
    try {
      const outcome = await negotiateEra(
        {
          era,
          memory: eraMemory,
          serverIdentity: transport.serverIdentity,
          modernVersions: protocolVersions,
          legacyVersions: legacyProtocolVersions,
          probeTimeoutMs: probe,
          stopped: () => budget.ended(),
        },
        {
          discover: (version, probeMs) =>
            budget.step(() => {
              this.deps.caller.useWire('modern', version);
              // The probe never sends notifications/cancelled: a legacy server has not been initialized yet.
              const internals =
                probeMs === undefined ? undefined : { cancellable: transport.capabilities.cancelsByAbortingSend };
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
        },
      );
      this.adopt(outcome);
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
    const flag = LIST_FLAG[method];
    if (flag !== undefined && this.deps.subscriptions.legacyWatches(flag)) return withLegacyTtl(result, HELD_TTL_MS);
    return withLegacyTtl(result, this.deps.options.legacyTtlMs);
  }

  private adopt(outcome: EraOutcome): void {
    const { caller } = this.deps;
    this.era = outcome.era;
    this.verdict = verdictOf(outcome);
    this.protocolVersion = outcome.protocolVersion;
    caller.useWire(outcome.era, outcome.protocolVersion);
    if (outcome.era === 'modern') {
      this.discovery = outcome.discovery;
      return;
    }
    this.discovery = discoveryFromHandshake(outcome.handshake);
    const link = this.legacy as LegacyLink;
    caller.renewSession = () => link.renew();
    this.deps.subscriptions.useLegacyFeed({
      capabilities: () => this.discovery?.capabilities,
      connected: () => this.deps.connected(),
      subscribe: (uri, { signal, timeoutMs }) => caller.call('resources/subscribe', { uri }, { signal, timeoutMs }),
      unsubscribe: (uri) => caller.call('resources/unsubscribe', { uri }, {}),
    });
  }

  /** A new legacy HTTP session is ready: its version, and the resource subscriptions again. */
  private renewed(handshake: LegacyHandshake): void {
    this.protocolVersion = handshake.protocolVersion;
    this.deps.caller.useWire('legacy', handshake.protocolVersion);
    this.discovery = discoveryFromHandshake(handshake);
    this.deps.subscriptions
      .resubscribeLegacy()
      .catch((error: unknown) => this.deps.options.onError(error instanceof Error ? error : new Error(String(error))));
  }
}
