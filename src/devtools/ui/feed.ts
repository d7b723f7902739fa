/**
 * What the devtools UI is fed with and how it acts: a feed gives a snapshot, then batches of
 * changes (the shape of the page's Server-Sent Events stream), and an optional action sender
 * runs what the user asks (read-only without one). Types only.
 */
import type { DevtoolsChange, DevtoolsSnapshot, DevtoolsToolSearch } from '../snapshot.js';

/** The start of a feed (and its restart, after a reconnect): the whole picture. */
export interface DevtoolsFeedStart {
  /** Everything at one moment. */
  readonly snapshot: DevtoolsSnapshot;
  /** How many requests the recorder keeps (the UI keeps as many, and besides them the last 100 failed). */
  readonly maxRequests: number;
}

/** What a feed calls. */
export interface DevtoolsFeedHooks {
  /** A new start: the UI drops what it had and shows this. */
  snapshot(start: DevtoolsFeedStart): void;
  /** Changes since the start or the last batch, oldest first; each carries the new value of what changed. */
  changes(changes: readonly DevtoolsChange[]): void;
  /** How the feed is doing, in a few words (`live`, `disconnected: reconnecting`), shown in the header. */
  status(text: string): void;
}

/** A feed: starts when called, and stops when the function it returns is called. */
export type DevtoolsFeed = (hooks: DevtoolsFeedHooks) => () => void;

/**
 * What the user can ask from the devtools: drop every entry of one server's response cache;
 * drop or refetch one entry (its `id` in the snapshot's `cache`); answer one approval the app
 * lets the page answer, bound to its id and the hash of its arguments.
 */
export type DevtoolsAction =
  | { readonly action: 'invalidate-cache'; readonly server: string }
  | { readonly action: 'invalidate-entry'; readonly server: string; readonly entry: string }
  | { readonly action: 'refetch-entry'; readonly server: string; readonly entry: string }
  | {
      readonly action: 'answer-approval';
      readonly server: string;
      readonly approval: number;
      readonly argumentsHash: string;
      readonly verdict: 'allow' | 'deny';
    };

/** What an action answered: the number of cache entries dropped, the method refetched, the verdict given. */
export interface DevtoolsActionResult {
  readonly invalidated?: number | undefined;
  readonly refetched?: string | undefined;
  readonly answered?: 'allow' | 'deny' | undefined;
}

/**
 * Runs one action; rejects with an `Error` whose message says why it failed (shown as `failed:
 * <message>`).
 */
export type DevtoolsActionSender = (action: DevtoolsAction) => Promise<DevtoolsActionResult>;

/**
 * Ranks the host's tools for a query as the model's tool search does (the catalog view's "try a
 * query"); rejects with an `Error` saying why. Read-only: offered with or without actions.
 */
export type DevtoolsToolSearcher = (query: string) => Promise<DevtoolsToolSearch>;
