/**
 * What a client loads when the first `server/discover` does not settle the era at once (a
 * legacy server, a version to switch, a probe that failed) or when `era: "legacy"` is set: the
 * rest of the negotiation (`connector.ts`), the legacy handshake and its results
 * (`handshake.ts`), the legacy link that runs it (`legacyLink.ts`), and the subscriptions of
 * that wire (`subscriptions/legacyFeed.ts`, handed to the subscription manager with it).
 */
export { negotiateEra } from './connector.js';
export { discoveryFromHandshake, withLegacyTtl } from './handshake.js';
export { LegacyLink } from './legacyLink.js';
export { LegacyFeed } from '../subscriptions/legacyFeed.js';
