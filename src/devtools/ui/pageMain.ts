/**
 * The script of the page a Node host serves (bundled into pageScript.ts, inlined in the
 * page under its nonce): it reads the token from the page's own URL, follows the page's stream,
 * posts the actions to `/actions` when the page allows them (`<body data-actions="true">`), asks
 * `/search` for the catalog view's tool search, and
 * keeps the view on screen in the URL's hash.
 */
import type { DevtoolsToolSearch } from '../snapshot.js';
import type { DevtoolsAction, DevtoolsActionResult } from './feed.js';
import { eventSourceFeed } from './eventSourceFeed.js';
import { DEVTOOLS_VIEWS, mountDevtools } from './mount.js';

const token = new URLSearchParams(location.search).get('token') ?? '';
const query = `?token=${encodeURIComponent(token)}`;

/** Posts one action; rejects with why it failed (the answer's `error`, or its status). */
async function postAction(action: DevtoolsAction): Promise<DevtoolsActionResult> {
  const response = await fetch(`/actions${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(action),
  });
  const body = (await response.json()) as DevtoolsActionResult & { error?: string | { message?: string } };
  if (response.ok) return body;
  const why = typeof body.error === 'object' ? body.error.message : body.error;
  throw new Error(why ?? String(response.status));
}

/** Asks the page's server to rank the host's tools for `q` (read-only, so with or without actions). */
async function searchTools(q: string): Promise<DevtoolsToolSearch> {
  const response = await fetch(`/search${query}&q=${encodeURIComponent(q)}`);
  const body = (await response.json()) as DevtoolsToolSearch & { error?: string | { message?: string } };
  if (response.ok) return body;
  const why = typeof body.error === 'object' ? body.error.message : body.error;
  throw new Error(why ?? String(response.status));
}

const viewOfHash = (): string => location.hash.slice(1);

const ui = mountDevtools(document.body, eventSourceFeed(`/events${query}`), {
  act: document.body.dataset['actions'] === 'true' ? postAction : undefined,
  search: searchTools,
  view: DEVTOOLS_VIEWS.includes(viewOfHash()) ? viewOfHash() : 'servers',
  onView: (view) => {
    if (location.hash !== `#${view}`) history.replaceState(null, '', `#${view}`);
  },
});
window.addEventListener('hashchange', () => ui.show(viewOfHash()));
