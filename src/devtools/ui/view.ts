/**
 * One view of the devtools UI (servers, catalog, requests, approvals...): a name for its tab and
 * a render function over the UI's state. Adding a view is one file and one line in mount.ts.
 */
import type { DevtoolsSnapshot } from '../snapshot.js';
import type { DevtoolsActionSender, DevtoolsToolSearcher } from './feed.js';
import type { UiState } from './state.js';

/** What a view renders from. */
export interface ViewContext {
  readonly state: UiState;
  /** The picture now (the last snapshot with the changes applied). */
  readonly snapshot: DevtoolsSnapshot;
  /** The wall clock of this render, in ms since the epoch. */
  readonly now: number;
  /** The action sender; `undefined` for a read-only UI (no action buttons). */
  readonly act: DevtoolsActionSender | undefined;
  /** The tool search of the catalog view; `undefined` when the UI has none. */
  readonly search: DevtoolsToolSearcher | undefined;
  /** The view's section (to find one of its own elements again after a render). */
  readonly section: HTMLElement;
  /** Renders again soon (at most once per 30 ms). */
  schedule(): void;
  /** Renders the view on screen again now. */
  renderNow(): void;
}

/** One view. */
export interface DevtoolsView {
  /** Its tab's text and its section's id. */
  readonly name: string;
  /** True when it changes with time alone (a countdown, a pending duration): rendered again every second. */
  readonly ticks: boolean;
  /** Its content. */
  render(context: ViewContext): Node[];
}
