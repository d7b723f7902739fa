/**
 * The devtools panel for a host running in a browser: a framework-free custom element
 * (`<mcp-live-devtools>`) that shows a `DevtoolsRecorder` of the same page, with the UI of ui/
 * in a shadow root of its own (the page's style does not reach in, the panel's does not leak
 * out). Read-only unless the app turns actions on. Defined only when the app asks
 * (`defineDevtoolsPanel()`, `mountDevtoolsPanel()`): importing this module defines nothing.
 */
import { InvalidArgumentError } from '../../errors/errors.js';
import type { DevtoolsRecorder } from '../recorder.js';
import { mountDevtools, type MountedDevtools } from '../ui/mount.js';
import { DEVTOOLS_STYLE } from '../ui/style.js';
import { recorderActions } from './recorderActions.js';
import { recorderFeed } from './recorderFeed.js';

/** The panel's tag name unless the app names another. */
export const DEVTOOLS_PANEL_TAG = 'mcp-live-devtools';

/** What the panel resets and sets on its own element, before the UI's style. */
const HOST_STYLE = ':host { all: initial; display: block; contain: content; }';

/** How the panel shows its recorder. */
export interface DevtoolsPanelOptions {
  /**
   * Lets the panel act on the recorder's host: an "invalidate cache" button per server (drops
   * every entry of that server's response cache). Off, the panel only shows.
   * @default false
   */
  actions?: boolean | undefined;
  /** The view shown first: `servers`, `catalog`, `requests` or `approvals`. @default "servers" */
  view?: string | undefined;
}

/** The `<mcp-live-devtools>` element. */
export interface DevtoolsPanelElement extends HTMLElement {
  /**
   * The recorder it shows; set it (with {@link DevtoolsPanelElement.options}) before or after the
   * element is in the page. While the element is in the page, it listens to the recorder; once
   * removed, it stops (no listener, no timer left).
   */
  recorder: DevtoolsRecorder | undefined;
  /** How it shows the recorder; setting it shows the recorder again with the new options. */
  options: DevtoolsPanelOptions;
  /** Shows the view of that name (`servers` for an unknown one). */
  show(view: string): void;
}

/** What `defineDevtoolsPanel` returns: the element's class. */
export type DevtoolsPanelConstructor = new () => DevtoolsPanelElement;

/** Marks the class this module defines, to tell it from another element of the same name. */
const PANEL = Symbol.for('mcp-live.devtoolsPanel');

/**
 * Defines the panel's custom element under `name` (once: a second call returns the same class).
 *
 * ```ts
 * defineDevtoolsPanel();
 * const panel = document.createElement('mcp-live-devtools') as DevtoolsPanelElement;
 * panel.recorder = recorder;
 * document.body.append(panel);
 * ```
 * @throws InvalidArgumentError (-32602, `data: { name: 'name', value }`) when another element is
 *   already defined under `name`; the DOM's `SyntaxError` for a name that is no valid custom
 *   element name (it needs a hyphen).
 */
export function defineDevtoolsPanel(name: string = DEVTOOLS_PANEL_TAG): DevtoolsPanelConstructor {
  const defined = customElements.get(name) as (CustomElementConstructor & { [PANEL]?: true }) | undefined;
  if (defined !== undefined) {
    if (defined[PANEL] === true) return defined as unknown as DevtoolsPanelConstructor;
    throw new InvalidArgumentError('name', name, 'another custom element is defined under this name');
  }
  const panel = panelClass();
  customElements.define(name, panel);
  return panel;
}

/**
 * Mounts a panel showing `recorder`: defines the element if needed (`<mcp-live-devtools>`),
 * appends one to `parent`, and returns it; `element.remove()` stops it.
 *
 * ```ts
 * const recorder = new DevtoolsRecorder();
 * recorder.attach(host);
 * const panel = mountDevtoolsPanel(recorder, { parent: document.querySelector('#devtools')! });
 * // ...
 * panel.remove();
 * ```
 * @throws as {@link defineDevtoolsPanel}.
 */
export function mountDevtoolsPanel(
  recorder: DevtoolsRecorder,
  options: DevtoolsPanelOptions & {
    /** Where the panel goes. @default document.body */
    parent?: Element | undefined;
  } = {},
): DevtoolsPanelElement {
  const { parent = document.body, ...shown } = options;
  const panel = new (defineDevtoolsPanel())();
  panel.options = shown;
  panel.recorder = recorder;
  parent.append(panel);
  return panel;
}

/** The element's class, made on first definition (HTMLElement exists only in a browser). */
function panelClass(): DevtoolsPanelConstructor {
  class Panel extends HTMLElement implements DevtoolsPanelElement {
    static readonly [PANEL] = true;
    private readonly shadow: ShadowRoot;
    private mounted: MountedDevtools | undefined;
    private shown: DevtoolsRecorder | undefined;
    private shownOptions: DevtoolsPanelOptions = {};

    constructor() {
      super();
      this.shadow = this.attachShadow({ mode: 'open' });
      adoptStyle(this.shadow, HOST_STYLE + DEVTOOLS_STYLE);
    }

    get recorder(): DevtoolsRecorder | undefined {
      return this.shown;
    }

    set recorder(recorder: DevtoolsRecorder | undefined) {
      this.shown = recorder;
      this.remount();
    }

    get options(): DevtoolsPanelOptions {
      return this.shownOptions;
    }

    set options(options: DevtoolsPanelOptions) {
      this.shownOptions = { ...options };
      this.remount();
    }

    show(view: string): void {
      this.shownOptions = { ...this.shownOptions, view };
      this.mounted?.show(view);
    }

    connectedCallback(): void {
      this.remount();
    }

    disconnectedCallback(): void {
      this.mounted?.close();
      this.mounted = undefined;
    }

    private remount(): void {
      this.mounted?.close();
      this.mounted = undefined;
      const recorder = this.shown;
      if (recorder === undefined || !this.isConnected) return;
      this.mounted = mountDevtools(this.shadow, recorderFeed(recorder), {
        act: this.shownOptions.actions === true ? recorderActions(recorder) : undefined,
        // A promise that rejects (never a throw) for a query the search refuses.
        search: (query) => new Promise((resolve) => resolve(recorder.searchTools(query))),
        view: this.shownOptions.view,
        onView: (view) => {
          this.shownOptions = { ...this.shownOptions, view };
        },
      });
    }
  }
  return Panel;
}

/** Puts `css` in `root`: as an adopted style sheet (allowed under a page's CSP), else a `<style>`. */
function adoptStyle(root: ShadowRoot, css: string): void {
  if ('adoptedStyleSheets' in root && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
    return;
  }
  const style = document.createElement('style');
  style.textContent = css;
  root.append(style);
}
