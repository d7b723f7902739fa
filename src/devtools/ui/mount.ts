/**
 * `mountDevtools(root, feed, options)`: the devtools UI in a browser, framework-free. It builds a
 * header with one tab per view and a section per view inside `root` (a page's element, or a
 * shadow root), follows `feed` (a snapshot, then batches of changes), and renders the view on
 * screen: on each batch (at most once per 30 ms), and every second for the views that change
 * with time. Used by the page a Node host serves and by the browser panel.
 */
import type { DevtoolsActionSender, DevtoolsFeed, DevtoolsToolSearcher } from './feed.js';
import { approvalsView } from './approvals.js';
import { cacheView } from './cache.js';
import { catalogView } from './catalog.js';
import { el } from './dom.js';
import { requestsView } from './requests.js';
import { serversView } from './servers.js';
import { subscriptionsView } from './subscriptions.js';
import { UiState } from './state.js';
import { tasksView } from './tasks.js';
import type { DevtoolsView, ViewContext } from './view.js';

/** The views, in tab order. */
const VIEWS: readonly DevtoolsView[] = [
  serversView,
  catalogView,
  cacheView,
  subscriptionsView,
  requestsView,
  tasksView,
  approvalsView,
];

/**
 * The names of the views, in tab order: `servers`, `catalog`, `cache`, `subscriptions`,
 * `requests`, `tasks`, `approvals`.
 */
export const DEVTOOLS_VIEWS: readonly string[] = VIEWS.map((view) => view.name);

/** The longest a change waits for its render, in ms. */
const RENDER_DELAY_MS = 30;
/** How often the views that change with time are rendered again, in ms. */
const TICK_MS = 1000;

/** Options of {@link mountDevtools}. */
export interface MountDevtoolsOptions {
  /** Runs the actions the UI offers (an "invalidate cache" button per server); without it the UI is read-only. */
  act?: DevtoolsActionSender | undefined;
  /** Ranks tools for the catalog view's search box; without it the box is not shown. */
  search?: DevtoolsToolSearcher | undefined;
  /** The view shown first; an unknown name shows `servers`. @default "servers" */
  view?: string | undefined;
  /** Called when a view is shown (a tab clicked, `show()`), with its name. */
  onView?: ((view: string) => void) | undefined;
}

/** A mounted devtools UI. */
export interface MountedDevtools {
  /** Shows the view of that name (`servers` for an unknown one). */
  show(view: string): void;
  /** Stops the feed and the timers and removes the UI from its root. Idempotent. */
  close(): void;
}

/**
 * Mounts the devtools UI in `root` and starts `feed`. Every value is put in as text, never as
 * markup. Once the first snapshot is on screen, the element holding the UI (`root`, or a shadow
 * root's host) gets `data-ready="true"`.
 *
 * ```ts
 * const ui = mountDevtools(document.body, feed, { act: undefined }); // read-only
 * // ...
 * ui.close();
 * ```
 */
export function mountDevtools(
  root: HTMLElement | ShadowRoot,
  feed: DevtoolsFeed,
  options: MountDevtoolsOptions = {},
): MountedDevtools {
  const state = new UiState();
  const status = el('span', { id: 'status', text: 'connecting…' });
  const tabs = new Map<string, HTMLButtonElement>();
  const sections = new Map<string, HTMLElement>();
  for (const view of VIEWS) {
    tabs.set(
      view.name,
      el('button', {
        id: `tab-${view.name}`,
        role: 'tab',
        'aria-selected': 'false',
        text: view.name,
        onclick: () => show(view.name),
      }),
    );
    sections.set(view.name, el('section', { id: view.name, role: 'tabpanel', hidden: true }));
  }
  const container = el('div', { class: 'mcp-live-devtools' }, [
    el('header', {}, [
      el('h1', { text: 'mcp-live devtools' }),
      el('nav', { role: 'tablist' }, [...tabs.values()]),
      status,
    ]),
    el('main', {}, [...sections.values()]),
  ]);
  root.append(container);
  const readyMark = root instanceof ShadowRoot ? root.host : root;

  let current = viewNamed(options.view);
  let closed = false;
  let scheduled: ReturnType<typeof setTimeout> | undefined;

  const schedule = (): void => {
    if (closed || scheduled !== undefined) return;
    scheduled = setTimeout(() => {
      scheduled = undefined;
      render();
    }, RENDER_DELAY_MS);
  };

  function render(): void {
    const snapshot = state.snapshot;
    if (closed || snapshot === undefined) return;
    for (const view of VIEWS) {
      tabs.get(view.name)!.setAttribute('aria-selected', String(view === current));
      sections.get(view.name)!.hidden = view !== current;
    }
    const section = sections.get(current.name)!;
    const context: ViewContext = {
      state,
      snapshot,
      now: Date.now(),
      act: options.act,
      search: options.search,
      section,
      schedule,
      renderNow: render,
    };
    // A render replaces the view's elements: the text field being typed in keeps its focus and
    // caret (a change arriving mid-word took the rest of the word before).
    const active = (root instanceof ShadowRoot ? root.activeElement : document.activeElement) as HTMLElement | null;
    const typing =
      active !== null && active.id !== '' && section.contains(active) && active instanceof HTMLInputElement;
    section.replaceChildren(...current.render(context));
    if (typing) {
      const again = section.querySelector<HTMLInputElement>(`#${active.id}`);
      if (again !== null && again !== active) {
        again.value = active.value;
        again.focus();
        again.setSelectionRange(again.value.length, again.value.length);
      }
    }
    readyMark.setAttribute('data-ready', 'true');
  }

  function show(name: string): void {
    current = viewNamed(name);
    options.onView?.(current.name);
    render();
  }

  const stopFeed = feed({
    snapshot: (start) => {
      state.start(start);
      render();
    },
    changes: (changes) => {
      state.apply(changes);
      schedule();
    },
    status: (text) => {
      status.textContent = text;
    },
  });
  const ticker = setInterval(() => {
    if (current.ticks) schedule();
  }, TICK_MS);

  return {
    show,
    close: () => {
      if (closed) return;
      closed = true;
      clearInterval(ticker);
      if (scheduled !== undefined) clearTimeout(scheduled);
      stopFeed();
      container.remove();
    },
  };
}

function viewNamed(name: string | undefined): DevtoolsView {
  return VIEWS.find((view) => view.name === name) ?? VIEWS[0]!;
}
