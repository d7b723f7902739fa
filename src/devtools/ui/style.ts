/**
 * The devtools UI's style, scoped to its container (`.mcp-live-devtools`), so the same rules
 * serve the page a Node host serves and the panel's shadow root. Plain CSS text: the page
 * inlines it under its nonce, the panel adopts it in its shadow root.
 */
const BASE_STYLE = `
.mcp-live-devtools { color-scheme: light dark; font: 13px/1.4 system-ui, sans-serif; color: CanvasText; background: Canvas; }
.mcp-live-devtools header { display: flex; gap: 4px; align-items: center; padding: 8px 12px; border-bottom: 1px solid #8884; }
.mcp-live-devtools h1 { font-size: 14px; margin: 0 12px 0 0; }
.mcp-live-devtools nav button { font: inherit; color: inherit; padding: 4px 10px; border: 1px solid #8886; background: none; border-radius: 4px; cursor: pointer; }
.mcp-live-devtools nav button[aria-selected="true"] { background: #3b82f6; color: white; border-color: #3b82f6; }
.mcp-live-devtools #status { margin-left: auto; opacity: .7; }
.mcp-live-devtools main { padding: 8px 12px; }
.mcp-live-devtools section[hidden] { display: none; }
.mcp-live-devtools table { border-collapse: collapse; width: 100%; }
.mcp-live-devtools th, .mcp-live-devtools td { text-align: left; padding: 3px 8px; border-bottom: 1px solid #8883; vertical-align: top; }
.mcp-live-devtools th { font-weight: 600; position: sticky; top: 0; background: Canvas; }
.mcp-live-devtools .badge { display: inline-block; padding: 0 6px; border-radius: 8px; font-size: 12px; background: #8883; }
.mcp-live-devtools .open, .mcp-live-devtools .ok, .mcp-live-devtools .available { background: #16a34a33; }
.mcp-live-devtools .reconnecting, .mcp-live-devtools .pending, .mcp-live-devtools .connecting { background: #f59e0b44; }
.mcp-live-devtools .fresh, .mcp-live-devtools .completed, .mcp-live-devtools .working { background: #16a34a33; }
.mcp-live-devtools .expired, .mcp-live-devtools .input_required { background: #f59e0b44; }
.mcp-live-devtools .failed, .mcp-live-devtools .error, .mcp-live-devtools .cancelled, .mcp-live-devtools .refused, .mcp-live-devtools .unavailable, .mcp-live-devtools .closed { background: #dc262633; }
.mcp-live-devtools .muted { opacity: .6; }
.mcp-live-devtools code { font: 12px ui-monospace, monospace; white-space: pre-wrap; }
.mcp-live-devtools pre { margin: 0; font: 12px ui-monospace, monospace; white-space: pre-wrap; }
.mcp-live-devtools input[type=search] { font: inherit; margin: 0 0 8px; padding: 3px 6px; width: 240px; }
.mcp-live-devtools .ttl { white-space: nowrap; }
.mcp-live-devtools code.preview { display: block; max-width: 40em; max-height: 4.2em; overflow: hidden; word-break: break-all; }
`;

/** The waterfall's rules (positions come from the CSSOM, not from style attributes). */
const WATERFALL_STYLE = `
.mcp-live-devtools .waterfall { margin: 0 0 12px; }
.mcp-live-devtools .wf-axis { display: flex; justify-content: space-between; margin-left: 34%; margin-right: 80px; opacity: .7; font-size: 12px; }
.mcp-live-devtools .wf-name { font-weight: 600; margin: 6px 0 2px; }
.mcp-live-devtools .wf-row { display: flex; align-items: center; gap: 8px; height: 18px; }
.mcp-live-devtools .wf-label { flex: 0 0 33%; overflow: hidden; white-space: nowrap; text-overflow: ellipsis; font-size: 12px; }
.mcp-live-devtools .wf-track { flex: 1 1 auto; position: relative; height: 12px; background: #8881; border-radius: 2px; }
.mcp-live-devtools .wf-bar { position: absolute; top: 0; bottom: 0; min-width: 2px; background: #3b82f644; border-radius: 2px; }
.mcp-live-devtools .wf-bar.error, .mcp-live-devtools .wf-bar.cancelled { background: #dc262655; }
.mcp-live-devtools .wf-bar.pending { background: #f59e0b55; }
.mcp-live-devtools .wf-send { position: absolute; top: 2px; bottom: 2px; min-width: 2px; background: #3b82f6; border-radius: 2px; }
.mcp-live-devtools .wf-send.round { background: #8b5cf6; }
.mcp-live-devtools .wf-send.resend { background: #f59e0b; }
.mcp-live-devtools .wf-send.error { background: #dc2626; }
.mcp-live-devtools .wf-time { flex: 0 0 72px; text-align: right; font-size: 12px; }
.mcp-live-devtools .orders { margin: 4px 0 8px; display: flex; gap: 4px; }
.mcp-live-devtools .orders button { font: inherit; color: inherit; padding: 2px 8px; border: 1px solid #8886; background: none; border-radius: 4px; cursor: pointer; }
.mcp-live-devtools .orders button[aria-pressed="true"] { background: #3b82f633; }
`;

/** Every rule of the UI. */
export const DEVTOOLS_STYLE = BASE_STYLE + WATERFALL_STYLE;
