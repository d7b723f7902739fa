/**
 * The devtools page: one HTML document, framework-free, with its style and script inline (run
 * under a nonce, nothing loaded from anywhere). The script reads the token from its own URL,
 * follows `/events?token=` (Server-Sent Events: a `snapshot`, then batches of `changes`) and renders four
 * views: servers, catalog, requests (slowest first), approvals. Every value is put in the page
 * as text (`textContent`), never as markup.
 */

const STYLE = `
:root { color-scheme: light dark; font: 13px/1.4 system-ui, sans-serif; }
body { margin: 0; }
header { display: flex; gap: 4px; align-items: center; padding: 8px 12px; border-bottom: 1px solid #8884; }
header h1 { font-size: 14px; margin: 0 12px 0 0; }
nav button { font: inherit; padding: 4px 10px; border: 1px solid #8886; background: none; border-radius: 4px; cursor: pointer; }
nav button[aria-selected="true"] { background: #3b82f6; color: white; border-color: #3b82f6; }
#status { margin-left: auto; opacity: .7; }
main { padding: 8px 12px; }
section[hidden] { display: none; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 3px 8px; border-bottom: 1px solid #8883; vertical-align: top; }
th { font-weight: 600; position: sticky; top: 0; background: Canvas; }
.badge { display: inline-block; padding: 0 6px; border-radius: 8px; font-size: 12px; background: #8883; }
.open, .ok, .available { background: #16a34a33; }
.reconnecting, .pending, .connecting { background: #f59e0b44; }
.failed, .error, .refused, .unavailable, .closed { background: #dc262633; }
.muted { opacity: .6; }
code { font: 12px ui-monospace, monospace; white-space: pre-wrap; }
pre { margin: 0; font: 12px ui-monospace, monospace; white-space: pre-wrap; }
input[type=search] { font: inherit; margin: 0 0 8px; padding: 3px 6px; width: 240px; }
`;

const SCRIPT = `
'use strict';
const token = new URLSearchParams(location.search).get('token') || '';
const VIEWS = ['servers', 'catalog', 'requests', 'approvals'];
const MAX_FAILED = 100;
const state = { snapshot: null, requests: new Map(), maxRequests: 500, actions: false, view: 'servers', filter: '' };
const $ = (id) => document.getElementById(id);

function el(tag, attrs, children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'text') node.textContent = String(value);
    else if (key === 'onclick') node.addEventListener('click', value);
    else node.setAttribute(key, String(value));
  }
  for (const child of children || []) if (child !== null && child !== undefined) node.append(child);
  return node;
}
const badge = (text) => el('span', { class: 'badge ' + text, text: text });
const muted = (text) => el('span', { class: 'muted', text: text });
const when = (ms) => { const d = new Date(ms); return d.toLocaleTimeString([], { hour12: false }) + '.' + String(d.getMilliseconds()).padStart(3, '0'); };
const errorText = (e) => (e ? e.name + (e.code !== undefined ? ' ' + e.code : '') + ': ' + e.message : '');

function table(columns, rows, name) {
  return el('table', { class: name }, [
    el('thead', {}, [el('tr', {}, columns.map((c) => el('th', { text: c })))]),
    el('tbody', {}, rows.map((cells) => el('tr', {}, cells.map((c) => el('td', {}, [typeof c === 'object' && c !== null ? c : document.createTextNode(c === undefined ? '' : String(c))]))))),
  ]);
}

// What each action button says (its result, or that it runs), kept apart from the buttons: the
// view is rebuilt every second and on every change, and a result written on the old button was lost.
const acting = new Map();
async function act(action, server) {
  const key = action + ' ' + server;
  acting.set(key, { busy: true, text: 'working…' });
  schedule();
  let text;
  try {
    const response = await fetch('/actions?token=' + encodeURIComponent(token), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: action, server: server }),
    });
    const body = await response.json();
    text = response.ok ? 'done (' + body.invalidated + ')' : 'failed: ' + (body.error || response.status);
  } catch (error) {
    text = 'failed: ' + error;
  }
  acting.set(key, { busy: false, text: text });
  schedule();
}
function actionButton(action, server, label) {
  const now = acting.get(action + ' ' + server);
  const button = el('button', { text: now ? now.text : label, 'data-server': server, disabled: now !== undefined && now.busy });
  button.addEventListener('click', () => act(action, server));
  return button;
}

function reconnectText(s) {
  const r = s.reconnect;
  if (!r) return s.reconnectAttempts > 0 ? muted(s.reconnectAttempts + ' attempts so far') : '';
  const wait = Math.max(0, Math.round((r.retryAt - Date.now()) / 1000));
  return 'attempt ' + r.attempt + (r.coolDown ? ' (cool-down)' : '') + ', ' + (wait > 0 ? 'in ' + wait + ' s' : 'running') + ' after ' + r.cause + ' (' + s.reconnectAttempts + ' in all)';
}

function renderServers(snapshot) {
  const columns = ['server', 'state', 'transport', 'era', 'server info', 'capabilities', 'updates', 'reconnect', 'cache', 'last error'];
  if (state.actions) columns.push('actions');
  const rows = snapshot.servers.map((s) => {
    const row = [
      el('b', { text: s.name }),
      badge(s.state),
      s.type || '',
      s.era ? s.era + ' ' + s.protocolVersion : '',
      s.serverInfo || '',
      s.capabilities.join(', '),
      s.updates === 'polling' ? 'polling every ' + s.pollIntervalMs + ' ms (' + s.pollReason + ')' : 'listen',
      reconnectText(s),
      s.cache ? s.cache.hits + ' hits / ' + s.cache.misses + ' misses' : muted('no cache'),
      s.lastError ? el('code', { text: errorText(s.lastError) }) : '',
    ];
    if (state.actions) {
      row.push(s.cache ? actionButton('invalidate-cache', s.name, 'invalidate cache') : '');
    }
    return row;
  });
  return [el('h2', { text: 'Servers (' + snapshot.servers.length + ')' }), table(columns, rows)];
}

function renderCatalog(snapshot) {
  const items = snapshot.catalog.items.filter((i) => {
    const text = (i.exposedName + ' ' + i.server + ' ' + (i.description || '')).toLowerCase();
    return state.filter === '' || text.includes(state.filter);
  });
  const search = el('input', { type: 'search', id: 'filter', placeholder: 'filter', value: state.filter });
  search.addEventListener('input', () => {
    state.filter = search.value.toLowerCase();
    render();
    const again = $('filter');
    again.focus();
    again.setSelectionRange(again.value.length, again.value.length);
  });
  const changes = snapshot.catalogChanges.slice(-10).reverse();
  const names = (list) =>
    list.length === 0 ? '' : el('code', { text: list.slice(0, 6).join('\\n') + (list.length > 6 ? '\\n… ' + (list.length - 6) + ' more' : '') });
  const out = [el('h2', { text: 'Catalog (' + snapshot.catalog.items.length + ' items)' })];
  if (changes.length > 0)
    out.push(
      el('h3', { text: 'Last changes (' + snapshot.catalogChanges.length + ' kept, newest first)' }),
      table(['at', 'servers (state then)', 'added', 'removed', 'unavailable', 'available again', 'more items'], changes.map((c) => [
        when(c.at), c.servers.map((s) => s.name + ' (' + s.state + ')').join(', '),
        names(c.added), names(c.removed), names(c.unavailable), names(c.available), c.more > 0 ? c.more + ' more' : '',
      ]), 'changes'),
      el('h3', { text: 'Items' }),
    );
  out.push(
    search,
    table(['kind', 'exposed name', 'server', 'name', 'availability', 'description'], items.map((i) => [i.kind, el('code', { text: i.exposedName }), i.server, i.name, badge(i.availability), i.description || '']), 'items'),
  );
  if (snapshot.catalog.leftOut.length > 0)
    out.push(el('h3', { text: 'Left out' }), table(['kind', 'server', 'name', 'reason'], snapshot.catalog.leftOut.map((l) => [l.kind, l.server, l.name, l.reason])));
  if (snapshot.catalog.collisions.length > 0)
    out.push(el('h3', { text: 'Collisions' }), table(['exposed name', 'resolution', 'servers'], snapshot.catalog.collisions.map((c) => [c.exposedName, c.resolution, c.servers.join(', ')])));
  return out;
}

function renderRequests() {
  const now = Date.now();
  const length = (r) => (r.durationMs === undefined ? now - r.startedAt : r.durationMs);
  const list = [...state.requests.values()].sort((a, b) => length(b) - length(a));
  return [
    el('h2', { text: 'Requests (' + list.length + ', slowest first; ' + list.filter((r) => r.outcome === 'error' || r.outcome === 'refused').length + ' failed or refused, the last ' + MAX_FAILED + ' failed kept)' }),
    table(['server', 'method', 'target', 'started', 'duration', 'outcome', 'bytes', 'error'], list.map((r) => [
      r.server || '', el('code', { text: r.method }), r.target || '', when(r.startedAt),
      r.durationMs === undefined ? muted(Math.round(now - r.startedAt) + ' ms so far') : r.durationMs.toFixed(1) + ' ms',
      badge(r.outcome), r.bytes === undefined ? '' : r.bytes, r.error ? el('code', { text: errorText(r.error) }) : '',
    ])),
  ];
}

function renderApprovals(snapshot) {
  return [
    el('h2', { text: 'Approvals waiting (' + snapshot.approvals.length + ')' }),
    snapshot.approvals.length === 0
      ? muted('No tool call is waiting for an approval.')
      : table(['tool', 'server', 'name', 'waiting since', 'arguments'], snapshot.approvals.map((a) => [el('code', { text: a.exposedName }), a.server, a.name, when(a.since), el('pre', { text: JSON.stringify(a.arguments, null, 2) })])),
  ];
}

function render() {
  const snapshot = state.snapshot;
  if (!snapshot) return;
  for (const view of VIEWS) {
    $('tab-' + view).setAttribute('aria-selected', String(view === state.view));
    $(view).hidden = view !== state.view;
  }
  const parts = { servers: renderServers, catalog: renderCatalog, requests: renderRequests, approvals: renderApprovals }[state.view](snapshot);
  $(state.view).replaceChildren(...parts);
  document.body.dataset.ready = 'true';
}

let scheduled = false;
function schedule() {
  if (scheduled) return;
  scheduled = true;
  setTimeout(() => { scheduled = false; render(); }, 30);
}

function keep(request) {
  state.requests.delete(request.id);
  state.requests.set(request.id, request);
  // The last maxRequests, and besides them the last MAX_FAILED that failed (as the recorder keeps them).
  const all = [...state.requests.values()];
  const isFailure = (r) => r.outcome === 'error' || r.outcome === 'refused';
  const plain = all.filter((r) => !isFailure(r));
  const failed = all.filter(isFailure);
  for (const r of plain.slice(0, Math.max(0, plain.length - state.maxRequests))) state.requests.delete(r.id);
  for (const r of failed.slice(0, Math.max(0, failed.length - MAX_FAILED))) state.requests.delete(r.id);
}

function show(view) {
  state.view = VIEWS.includes(view) ? view : 'servers';
  if (location.hash !== '#' + state.view) history.replaceState(null, '', '#' + state.view);
  render();
}

for (const view of VIEWS) $('tab-' + view).addEventListener('click', () => show(view));
window.addEventListener('hashchange', () => show(location.hash.slice(1)));
state.view = VIEWS.includes(location.hash.slice(1)) ? location.hash.slice(1) : 'servers';

const events = new EventSource('/events?token=' + encodeURIComponent(token));
events.addEventListener('snapshot', (message) => {
  const data = JSON.parse(message.data);
  state.snapshot = data.snapshot;
  state.maxRequests = data.maxRequests;
  state.actions = data.actions;
  state.requests = new Map();
  for (const request of data.snapshot.requests) keep(request);
  $('status').textContent = 'live';
  render();
});
events.addEventListener('changes', (message) => {
  const snapshot = state.snapshot;
  if (!snapshot) return;
  for (const change of JSON.parse(message.data)) {
    if (change.type === 'servers') snapshot.servers = change.servers;
    else if (change.type === 'catalog') { snapshot.catalog = change.catalog; snapshot.catalogChanges = change.catalogChanges; }
    else if (change.type === 'approvals') snapshot.approvals = change.approvals;
    else if (change.type === 'request') keep(change.request);
  }
  schedule();
});
events.addEventListener('error', () => { $('status').textContent = 'disconnected: reconnecting'; });
setInterval(() => { if (state.view === 'servers' || state.view === 'requests') schedule(); }, 1000);
`;

/** The devtools page, its inline style and script marked with `nonce` (the CSP names the same nonce). */
export function devtoolsPage(nonce: string): string {
  const tabs = ['servers', 'catalog', 'requests', 'approvals']
    .map((view) => `<button id="tab-${view}" role="tab" aria-selected="false">${view}</button>`)
    .join('');
  const sections = ['servers', 'catalog', 'requests', 'approvals']
    .map((view) => `<section id="${view}" role="tabpanel" hidden></section>`)
    .join('');
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>mcp-live devtools</title>` +
    `<meta name="referrer" content="no-referrer"><style nonce="${nonce}">${STYLE}</style></head>` +
    `<body><header><h1>mcp-live devtools</h1><nav role="tablist">${tabs}</nav><span id="status">connecting…</span></header>` +
    `<main>${sections}</main><script nonce="${nonce}">${SCRIPT}</script></body></html>`
  );
}

/** The Content-Security-Policy of the page: nothing but its own inline style and script, and its own origin for the stream. */
export function devtoolsPagePolicy(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "connect-src 'self'",
    "img-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
