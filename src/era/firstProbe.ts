/**
 * The first step of era negotiation when it is `server/discover` (see `connector.ts`): when it
 * is, and with which timeouts. A client sends that request itself, and loads the rest of the
 * negotiation (the probe's failure classes, the legacy handshake, HTTP+SSE) only when the answer
 * is not a DiscoverResult listing the version it asked for; the connector then goes on from
 * that answer ({@link FirstProbe}) as if it had sent the request itself.
 */
import type { DiscoverResult } from '../wire/protocol.js';
import type { EraMemory, EraSetting, EraVerdict } from './era.js';

/** The settings the first step depends on (a subset of the connector's `EraSettings`). */
export interface FirstStepSettings {
  era: EraSetting;
  memory: EraMemory;
  serverIdentity: string;
  probeTimeoutMs: number | undefined;
}

/** A first step that is `server/discover` at the most preferred modern version. */
export interface FirstDiscover {
  /** The probe's idle and total timeout, in ms; `undefined` for the normal timeouts. */
  probeTimeoutMs: number | undefined;
}

/** The answer to the first `server/discover`: its DiscoverResult, or what it failed with. */
export type FirstProbe = { discovery: DiscoverResult } | { error: unknown };

/** The outcome's era, and whether it was reached over HTTP+SSE. */
export interface SettledEra {
  era: 'modern' | 'legacy';
  viaSse?: true | undefined;
}

/**
 * The first step when it is `server/discover`: with `era: "modern"` (normal timeouts), or with
 * `era: "auto"` and no legacy verdict remembered (the probe's timeout, or the normal timeouts for
 * a server remembered as modern). `undefined` when the first step is `initialize` or HTTP+SSE.
 */
export function firstDiscover(settings: FirstStepSettings): FirstDiscover | undefined {
  if (settings.era === 'modern') return { probeTimeoutMs: undefined };
  if (settings.era === 'legacy') return undefined;
  const remembered = settings.memory.get(settings.serverIdentity);
  if (remembered === 'legacy' || remembered === 'legacy-sse') return undefined;
  return { probeTimeoutMs: remembered === 'modern' ? undefined : settings.probeTimeoutMs };
}

/** The verdict `eraMemory` keeps for an outcome. */
export function verdictOf(outcome: SettledEra): EraVerdict {
  return outcome.era === 'legacy' && outcome.viaSse === true ? 'legacy-sse' : outcome.era;
}

/** Remembers `verdict` for the server (written only when it changes). */
export function remember(settings: FirstStepSettings, verdict: EraVerdict): void {
  if (settings.memory.get(settings.serverIdentity) !== verdict) settings.memory.set(settings.serverIdentity, verdict);
}
