/**
 * What the devtools UI holds between renders: the picture (the last snapshot with the changes
 * applied), the kept requests, the view on screen, the catalog filter, and each action's result.
 * Action results are kept here, not on their buttons: a view is rebuilt every second and on each
 * change, and a result written on a replaced button is lost.
 */
import type { DevtoolsChange, DevtoolsRequest, DevtoolsSnapshot, DevtoolsToolSearch } from '../snapshot.js';
import type { DevtoolsFeedStart } from './feed.js';

/** The failed or refused requests kept besides the last `maxRequests` (as the recorder keeps them). */
export const MAX_FAILED = 100;

/** What an action button says: its result, or that it runs. */
export interface ActionState {
  readonly busy: boolean;
  readonly text: string;
}

/** The UI's state; one per mounted UI. */
export class UiState {
  snapshot: DevtoolsSnapshot | undefined;
  maxRequests = 500;
  /** The kept requests by id, oldest first (a request heard again moves to the end). */
  readonly requests = new Map<number, DevtoolsRequest>();
  /** The catalog filter, lower case. */
  filter = '';
  /** The order of the requests table: the slowest first, or by start (newest first). */
  requestOrder: 'slowest' | 'start' = 'slowest';
  /** The catalog view's tool search: the query typed, and the last answer or why it failed. */
  toolSearch: { query: string; result: DevtoolsToolSearch | undefined; error: string | undefined; busy: boolean } = {
    query: '',
    result: undefined,
    error: undefined,
    busy: false,
  };
  /** The result of each action, by `action server`. */
  readonly acting = new Map<string, ActionState>();

  /** Drops what was held and starts from `start`. */
  start(start: DevtoolsFeedStart): void {
    this.snapshot = start.snapshot;
    this.maxRequests = start.maxRequests;
    this.requests.clear();
    for (const request of start.snapshot.requests) this.keep(request);
  }

  /** Applies a batch: each change replaces the part of the picture it names; a request is kept by id. */
  apply(changes: readonly DevtoolsChange[]): void {
    if (this.snapshot === undefined) return;
    for (const change of changes) {
      if (change.type === 'request') this.keep(change.request);
      else {
        // Every other change carries the new value of snapshot fields of the same names.
        const { type: _type, ...fields } = change;
        this.snapshot = { ...this.snapshot, ...fields };
      }
    }
  }

  /** The kept requests, oldest first. */
  requestList(): DevtoolsRequest[] {
    return [...this.requests.values()];
  }

  private keep(request: DevtoolsRequest): void {
    this.requests.delete(request.id);
    this.requests.set(request.id, request);
    // The last maxRequests, and besides them the last MAX_FAILED that failed or were refused.
    let plain = 0;
    let failed = 0;
    for (const r of this.requests.values())
      if (isFailure(r)) failed++;
      else plain++;
    if (plain <= this.maxRequests && failed <= MAX_FAILED) return;
    for (const r of [...this.requests.values()]) {
      if (isFailure(r)) {
        if (failed > MAX_FAILED) {
          this.requests.delete(r.id);
          failed--;
        }
      } else if (plain > this.maxRequests) {
        this.requests.delete(r.id);
        plain--;
      }
    }
  }
}

/** A request that ended in an error or was refused. */
export function isFailure(request: DevtoolsRequest): boolean {
  return request.outcome === 'error' || request.outcome === 'refused';
}
