/**
 * The script of the browser test's page (bundled with esbuild for the browser): mcp-live's root
 * entry, driven from the page. Each function resolves with plain data the test can read back.
 */
import { McpClient, StreamableHttpTransport, type SubscriptionEvent } from '../../src/index.js';

/** A short form of an error, for the test to read. */
function errorSummary(error: unknown): { name: string; code: unknown; message: string } {
  const e = error as { name?: unknown; code?: unknown; message?: unknown };
  return { name: String(e.name), code: e.code, message: String(e.message) };
}

/** Connects to `url`, lists tools, reads a resource, calls a tool, and hears a resourceUpdated. */
async function session(url: string): Promise<Record<string, unknown>> {
  const client = new McpClient({
    transport: new StreamableHttpTransport(url),
    clientInfo: { name: 'browser-test', version: '0.0.0' },
  });
  try {
    await client.connect();
    const { items: tools } = await client.listAllTools();
    const { contents } = await client.readResource('demo://note');
    const sum = await client.callTool('add', { a: 2, b: 40 });
    const subscription = await client.subscribe({ resourceSubscriptions: ['demo://note'] });
    const updated = new Promise<SubscriptionEvent>((resolve) => {
      subscription.on((event) => {
        if (event.type === 'resourceUpdated') resolve(event);
      });
    });
    await client.callTool('update_note', { text: 'written from a browser' });
    const event = await updated;
    const { contents: after } = await client.readResource('demo://note');
    await subscription.close();
    return {
      era: client.era,
      protocolVersion: client.protocolVersion,
      serverName: client.serverInfo?.name,
      tools: tools.map((tool) => tool.name),
      note: contents[0],
      sum: sum.structuredContent,
      event,
      noteAfter: after[0],
      userAgent: navigator.userAgent,
    };
  } finally {
    await client.close();
  }
}

/** Connects to a server that sends no CORS headers: resolves with the error. */
async function withoutCors(url: string): Promise<{ name: string; code: unknown; message: string } | 'connected'> {
  const client = new McpClient({
    transport: new StreamableHttpTransport(url),
    clientInfo: { name: 'browser-test', version: '0.0.0' },
  });
  try {
    await client.connect();
    return 'connected';
  } catch (error) {
    return errorSummary(error);
  } finally {
    await client.close();
  }
}

Object.assign(globalThis, {
  mcpSession: (url: string) => session(url).catch((error: unknown) => ({ failed: errorSummary(error) })),
  mcpWithoutCors: withoutCors,
});
