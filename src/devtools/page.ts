/**
 * The devtools page: one HTML document with its style and script inline (run under a nonce,
 * nothing loaded from anywhere). The script is the UI of ui/ bundled into a string at build time
 * (ui/pageScript.ts, from ui/pageMain.ts): it reads the token from its own URL, follows
 * `/events?token=` and mounts the views in the page's body.
 */
import { DEVTOOLS_PAGE_SCRIPT } from './ui/pageScript.js';
import { DEVTOOLS_STYLE } from './ui/style.js';

/** What the page adds to the UI's own style: the document's colours and margins. */
const PAGE_STYLE = `:root { color-scheme: light dark; } body { margin: 0; }`;

/**
 * The devtools page, its inline style and script marked with `nonce` (the CSP names the same
 * nonce). With `actions`, the page offers the actions (`<body data-actions="true">`).
 */
export function devtoolsPage(nonce: string, actions: boolean): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>mcp-live devtools</title>` +
    `<meta name="referrer" content="no-referrer"><style nonce="${nonce}">${PAGE_STYLE}${DEVTOOLS_STYLE}</style></head>` +
    `<body data-actions="${String(actions)}"><script nonce="${nonce}">${DEVTOOLS_PAGE_SCRIPT}</script></body></html>`
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
