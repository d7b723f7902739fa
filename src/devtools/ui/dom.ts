/**
 * The few DOM helpers the devtools views are built with. Every value goes into the page as text
 * (`textContent`, text nodes, attribute values), never as markup, so a tool description full of
 * HTML stays text. Browser code: it uses the page's `document`.
 */
import type { DevtoolsError } from '../snapshot.js';

/** What an element's attributes may be: `text` sets its text, `onclick` adds a click listener. */
export interface ElementAttributes {
  readonly text?: string | number | undefined;
  readonly onclick?: ((event: Event) => void) | undefined;
  /** Any other attribute, as text; `undefined`, `null` and `false` leave it out, `true` sets it empty. */
  readonly [name: string]: string | number | boolean | null | undefined | ((event: Event) => void);
}

/** A child: a node, or a value put in as text; `null` and `undefined` are left out. */
export type Child = Node | string | number | null | undefined;

/** A new `tag` element with `attributes` and `children`, every value as text. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: ElementAttributes = {},
  children: readonly Child[] = [],
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'text') node.textContent = String(value);
    else if (key === 'onclick') node.addEventListener('click', value as (event: Event) => void);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(asNode(child));
  return node;
}

function asNode(child: Node | string | number): Node {
  return typeof child === 'object' ? child : document.createTextNode(String(child));
}

/** A cell of {@link table}: a node, or a value as text. */
export type Cell = Node | string | number | undefined;

/** A table of `columns` and `rows`, with `name` as its class. */
export function table(columns: readonly string[], rows: readonly (readonly Cell[])[], name?: string): HTMLTableElement {
  return el('table', { class: name }, [
    el('thead', {}, [
      el(
        'tr',
        {},
        columns.map((column) => el('th', { text: column })),
      ),
    ]),
    el(
      'tbody',
      {},
      rows.map((cells) =>
        el(
          'tr',
          {},
          cells.map((cell) => el('td', {}, [cell === undefined ? '' : asNode(cell)])),
        ),
      ),
    ),
  ]);
}

/** A small rounded label whose class is its text (`open`, `error`...: the style colours them). */
export const badge = (text: string): HTMLSpanElement => el('span', { class: `badge ${text}`, text });

/** Text in a lighter shade. */
export const muted = (text: string): HTMLSpanElement => el('span', { class: 'muted', text });

/** A wall-clock time (ms since the epoch) as `HH:MM:SS.mmm`, local time. */
export function when(ms: number): string {
  const date = new Date(ms);
  return `${date.toLocaleTimeString([], { hour12: false })}.${String(date.getMilliseconds()).padStart(3, '0')}`;
}

/** An error as `Name code: message`; empty without one. */
export function errorText(error: DevtoolsError | undefined): string {
  if (error === undefined) return '';
  return `${error.name}${error.code !== undefined ? ` ${error.code}` : ''}: ${error.message}`;
}
