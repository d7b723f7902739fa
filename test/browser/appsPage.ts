/**
 * The page of the MCP Apps browser test, and the sample of docs/apps.md: a host page that
 * connects to an app server, reads its UI resource, renders it in a sandboxed `<iframe>` and
 * bridges the frame to the server, with an approval hook on every tool call the app makes.
 */
import { appFrameDocument, appPermissionsPolicy, type AppToolCall } from '../../src/index.js';
import { McpHost } from '../../src/host.js';
import { createAppBridge } from '../../src/appsBridge.js';

/** What the page lets the test read back. */
const state = {
  /** Whether the approval hook lets the app's next tool calls through (the test flips it). */
  allowAppCalls: true,
  /** Every app-initiated tool call the hook was asked about, with its answer. */
  approvals: [] as Array<{ server: string; name: string; resourceUri: string | undefined; allowed: boolean }>,
  /** Log entries and messages the app sent. */
  logs: [] as unknown[],
  messages: [] as unknown[],
  /** Whether the download hook accepts the app's next `ui/download-file` (the test flips it). */
  allowDownloads: true,
  /** The files of every `ui/download-file` the hook was asked about, as it saw them. */
  downloads: [] as Array<Array<{ kind: string; name: string; uri: string; mimeType?: string; text?: string }>>,
  closedReason: undefined as string | undefined,
};

/** Connects to the app server at `url`, renders its `get-time` app, and bridges it. */
async function showApp(url: string): Promise<{ fingerprint: string; bytes: number; sandbox: string }> {
  const host = new McpHost({
    clientInfo: { name: 'apps-sample-host', version: '1.0.0' },
    apps: true, // declares io.modelcontextprotocol/ui to every server
    servers: { time: { type: 'http', url } },
  });
  await host.connect();

  // The model's tool carries its UI; the app-only tools never reach the model.
  const tool = host.tools().find((t) => t.exposedName === 'time__get-time')!;
  const resource = await host.readAppResource('ui://get-time/mcp-app.html', { server: tool.server });

  // Rendering is the page's: an opaque-origin frame (no allow-same-origin) with the app's CSP.
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.setAttribute('allow', appPermissionsPolicy(resource.permissions));
  frame.srcdoc = appFrameDocument(resource);

  // The bridge listens before the frame loads, and ends when the frame leaves the page.
  const bridge = createAppBridge({
    host,
    server: tool.server,
    frame,
    resource,
    hostInfo: { name: 'apps-sample-host', version: '1.0.0' },
    hostContext: { theme: 'light', displayMode: 'inline', toolInfo: { tool: tool.tool } },
    approve: (call: AppToolCall) => {
      const allowed = state.allowAppCalls;
      state.approvals.push({ server: call.server, name: call.name, resourceUri: call.resourceUri, allowed });
      return allowed ? true : { allow: false, reason: 'the user said no' };
    },
    onLog: (entry) => state.logs.push(entry),
    onMessage: (message) => {
      state.messages.push(message);
    },
    // ui/download-file: the files arrive checked and named safely; a real host would ask the user.
    onDownloadFile: (files) => {
      state.downloads.push(
        files.map((file) => ({
          kind: file.kind,
          name: file.name,
          uri: file.uri,
          ...(file.mimeType !== undefined && { mimeType: file.mimeType }),
          ...(file.kind === 'embedded' && { text: new TextDecoder().decode(file.bytes) }),
        })),
      );
      return state.allowDownloads;
    },
    // The call the model made, shown in the app once it is initialized.
    toolInput: {},
    toolResult: await host.callTool('time__get-time', {}),
  });
  void bridge.closed.then(async (reason) => {
    state.closedReason = reason;
    await host.close();
  });
  document.body.append(frame);
  await bridge.initialized;
  return { fingerprint: resource.fingerprint, bytes: resource.bytes, sandbox: frame.getAttribute('sandbox')! };
}

Object.assign(globalThis, {
  appsState: state,
  showApp,
  removeApp: () => document.querySelector('iframe')?.remove(),
});
