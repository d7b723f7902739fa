/**
 * The script of the devtools panel's test page (bundled with esbuild for the browser): an
 * `McpHost` of the runtime-neutral entry running in the page over Streamable HTTP, a
 * `DevtoolsRecorder` attached to it, and the panel of `mcp-live/devtools/panel` mounted in the
 * page. The host answers elicitations itself (`create_ticket` asks for an owner: two rounds).
 */
import { McpHost } from '../../src/host.js';
import { DevtoolsRecorder, mountDevtoolsPanel, type DevtoolsPanelElement } from '../../src/devtoolsPanel.js';

let host: McpHost | undefined;
let panel: DevtoolsPanelElement | undefined;

/** Connects a host to the example server at `url`, attaches a recorder and mounts the panel. */
async function startPanel(url: string, actions: boolean): Promise<string[]> {
  const recorder = new DevtoolsRecorder();
  host = new McpHost({
    clientInfo: { name: 'mcp-live-devtools-panel', version: '0.0.0' },
    client: {
      handlers: { elicitation: { form: () => ({ action: 'accept', content: { name: 'Ada', priority: 'high' } }) } },
    },
    servers: { example: { type: 'http', url } },
  });
  recorder.attach(host);
  await host.connect();
  // The host page's own style, which must not reach into the panel.
  const style = document.createElement('style');
  style.textContent = 'td { color: rgb(255, 0, 0) !important; } table { display: none; }';
  document.head.append(style);
  panel = mountDevtoolsPanel(recorder, { actions });
  return host.tools().map((tool) => tool.exposedName);
}

/** Calls a tool through the host; resolves with its first text. */
async function callTool(name: string, args: Record<string, unknown>): Promise<string> {
  const result = await host!.callTool(name, args);
  const first = result.content[0];
  return first?.type === 'text' ? first.text : JSON.stringify(first);
}

/** Removes the panel and closes the host. */
async function stopPanel(): Promise<void> {
  panel?.remove();
  await host?.close();
}

Object.assign(globalThis, { startPanel, callTool, stopPanel });
