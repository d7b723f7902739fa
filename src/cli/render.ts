/**
 * Text rendering shared by the `mcp-live` CLI and the `npm start` demo (examples/demo.ts):
 * content blocks, uri columns, prompt signatures, subscription filters and events, and the
 * server's identity. Node-only by location (src/cli), but these helpers touch no Node API.
 * Imports the SDK only through ../index.js (the CLI build keeps that import external).
 */
import type { ContentBlock, McpClient, Prompt, SubscriptionEvent, SubscriptionFilter, Tool } from '../index.js';

/** Bold and dim, as ANSI escapes when the stream is a terminal, else the text unchanged. */
export interface Style {
  bold(text: string): string;
  dim(text: string): string;
}

/** The {@link Style} for a stream: escapes only when `stream.isTTY` (read at each call). */
export function styleFor(stream: { isTTY?: boolean | undefined }): Style {
  return {
    bold: (s) => (stream.isTTY ? `\x1b[1m${s}\x1b[0m` : s),
    dim: (s) => (stream.isTTY ? `\x1b[2m${s}\x1b[0m` : s),
  };
}

/** One line (or, for text, the text itself) describing a content block. */
export function describeContent(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'resource_link':
      return `resource_link ${block.uri} (${block.name})`;
    case 'resource':
      return `embedded resource ${block.resource.uri}`;
    default:
      return `${block.type} (${block.mimeType})`;
  }
}

/** `values` laid out `perRow` to a row, each padded to `width`, every row indented two spaces. */
export function columns(values: string[], width: number, perRow: number): string {
  const rows: string[] = [];
  for (let i = 0; i < values.length; i += perRow) {
    rows.push(
      '  ' +
        values
          .slice(i, i + perRow)
          .map((v) => v.padEnd(width))
          .join(' ')
          .trimEnd(),
    );
  }
  return rows.join('\n');
}

/** `toolsListChanged, resourceSubscriptions [a, b]`, or `(none)`. */
export function describeFilter(filter: SubscriptionFilter): string {
  const parts = Object.entries(filter).map(([key, value]) =>
    Array.isArray(value) ? `${key} [${value.join(', ')}]` : key,
  );
  return parts.length === 0 ? '(none)' : parts.join(', ');
}

/** One line for a subscription event. */
export function describeEvent(event: SubscriptionEvent): string {
  switch (event.type) {
    case 'resourceUpdated':
      return `resourceUpdated ${event.uri}`;
    case 'subscriptionLost':
      return `subscriptionLost (${event.reason})${event.willReopen ? `, reopening in ${event.retryInMs} ms` : ''}`;
    case 'resync':
      return `resync after reopen ${event.reopens}`;
    default:
      return event.type;
  }
}

/** `greet(name, style?) — description` (the description dimmed). */
export function describePrompt(prompt: Prompt, style: Style): string {
  const params = (prompt.arguments ?? []).map((a) => (a.required ? a.name : `${a.name}?`)).join(', ');
  return `${prompt.name}(${params})${prompt.description ? style.dim(` — ${prompt.description}`) : ''}`;
}

/** `add(a, b) — description`: the parameters are the input schema's properties, optional ones marked `?`. */
export function describeTool(tool: Tool, style: Style): string {
  const schema = tool.inputSchema as { properties?: unknown; required?: unknown };
  const properties =
    typeof schema.properties === 'object' && schema.properties !== null ? Object.keys(schema.properties) : [];
  const required = new Set(Array.isArray(schema.required) ? (schema.required as unknown[]) : []);
  const params = properties.map((name) => (required.has(name) ? name : `${name}?`)).join(', ');
  return `${tool.name}(${params})${tool.description ? style.dim(` — ${tool.description}`) : ''}`;
}

/**
 * The server's identity as a connected client sees it, one line each: identity, how it was
 * started (command line or URL), protocol version and the versions it supports, the
 * capabilities it offers, and its instructions (dimmed) when it sent any. Indented two spaces.
 */
export function serverIdentityLines(client: McpClient, style: Style): string[] {
  const info = client.serverInfo;
  const discovery = client.serverDiscovery;
  const lines = [
    `  identity:   ${info ? `${info.title ?? info.name} ${info.version}` : '(not reported)'}`,
    `  started as: ${client.serverIdentity}`,
    `  protocol:   ${client.protocolVersion} (server supports ${(discovery?.supportedVersions ?? []).join(', ')})`,
    `  offers:     ${Object.keys(discovery?.capabilities ?? {}).join(', ')}`,
  ];
  // Multi-line instructions keep the block's indentation on every line.
  if (client.instructions !== undefined)
    lines.push(`  instructions: ${style.dim(client.instructions.trimEnd().replace(/\n/g, '\n                '))}`);
  return lines;
}
