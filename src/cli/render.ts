/**
 * Text rendering shared by the `mcp-live` CLI and the `npm start` demo (examples/demo.ts):
 * content blocks, uri columns, prompt signatures, subscription filters and events, and the
 * server's identity. Node-only by location (src/cli), but these helpers touch no Node API.
 * Imports the SDK only through ../index.js (the CLI build keeps that import external).
 */
import {
  viewContents,
  type ClientEvent,
  type ContentBlock,
  type ContentsView,
  type McpClient,
  type Prompt,
  type SubscriptionEvent,
  type SubscriptionFilter,
  type Tool,
} from '../index.js';
import { shorten } from '../util/text.js';

/** Bold and dim, as ANSI escapes when the stream is a terminal, else the text unchanged. */
export interface Style {
  readonly bold: (text: string) => string;
  readonly dim: (text: string) => string;
}

/** Environment variables, as `process.env` holds them. */
export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * Whether to colour `stream`: `FORCE_COLOR` decides when set (`0` or `false`: no; anything else,
 * even empty: yes), then a non-empty `NO_COLOR` says no (no-color.org), else colour a terminal.
 * Node's own precedence.
 */
export function colourWanted(stream: { isTTY?: boolean | undefined }, env: Environment): boolean {
  const force = env['FORCE_COLOR'];
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  if ((env['NO_COLOR'] ?? '') !== '') return false;
  // A terminal that says it cannot show escapes (Emacs shell, some CI logs).
  if (env['TERM'] === 'dumb') return false;
  return stream.isTTY === true;
}

/** `process.env` where there is one (Node, Deno, Bun), else nothing. */
function processEnvironment(): Environment {
  return (globalThis as { process?: { env?: Environment } }).process?.env ?? {};
}

/**
 * The {@link Style} for a stream: escapes when {@link colourWanted} (read at each call, so a
 * stream that stops being a terminal stops getting them).
 */
export function styleFor(stream: { isTTY?: boolean | undefined }, env: Environment = processEnvironment()): Style {
  return {
    bold: (s) => (colourWanted(stream, env) ? `\x1b[1m${s}\x1b[0m` : s),
    dim: (s) => (colourWanted(stream, env) ? `\x1b[2m${s}\x1b[0m` : s),
  };
}

/** Media types whose bytes are text (UTF-8 unless they say otherwise, which the CLI does not decode). */
const TEXTUAL =
  /^(text\/[^;]+|application\/(json|xml|javascript|ecmascript|x-ndjson|yaml|toml|[^;]*\+(json|xml)))(;.*)?$/i;

/**
 * The text of a resource's contents: `text` as is, a blob whose media type is textual
 * (`text/*`, JSON, XML...) decoded as UTF-8; `undefined` for binary data or bytes that are not
 * UTF-8.
 */
export function contentsText(view: ContentsView): string | undefined {
  if (view.kind === 'text') return view.text;
  if (view.kind !== 'blob' || view.mimeType === undefined || !TEXTUAL.test(view.mimeType)) return undefined;
  if (/;\s*charset=(?!"?utf-?8"?\s*(;|$))/i.test(view.mimeType)) return undefined;
  try {
    return view.text();
  } catch {
    return undefined;
  }
}

/** One line (or, for text and embedded text resources, the text itself) describing a content block. */
export function describeContent(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'resource_link':
      return `resource_link ${block.uri} (${block.name})`;
    case 'resource': {
      const view = viewContents(block.resource);
      const text = contentsText(view);
      const type = block.resource.mimeType === undefined ? '' : ` (${block.resource.mimeType})`;
      if (text !== undefined) return `embedded resource ${block.resource.uri}${type}:\n${text.trimEnd()}`;
      if (view.kind === 'blob') return `embedded resource ${view.uri}${type}: ${view.bytes().length} bytes`;
      return `embedded resource ${block.resource.uri}${type}`;
    }
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
      return `subscriptionLost (${event.reason})${!event.willReopen ? '' : event.retryInMs === undefined ? ', reopening once reconnected' : `, reopening in ${event.retryInMs} ms`}`;
    case 'resync':
      return `resync after reopen ${event.reopens}`;
    default:
      return event.type;
  }
}

/**
 * A reconnect event of the client as one line (`state` events give none): why the connection
 * went, the attempt and its wait; the version negotiated again; or the last cause when it gave up.
 */
export function describeClientEvent(event: ClientEvent): string | undefined {
  const why = (cause: Extract<ClientEvent, { type: 'gaveUp' }>['cause']): string =>
    [
      cause.reason,
      ...(cause.exitCode != null ? [`exit code ${cause.exitCode}`] : []),
      ...(cause.signal != null ? [`signal ${cause.signal}`] : []),
      ...(cause.closeCode !== undefined ? [`close code ${cause.closeCode}`] : []),
      ...(cause.httpStatus !== undefined ? [`HTTP ${cause.httpStatus}`] : []),
    ].join(', ');
  switch (event.type) {
    case 'reconnecting':
      return `connection lost (${why(event.cause)}); reconnecting in ${event.delayMs} ms (attempt ${event.attempt})`;
    case 'reconnected':
      return `reconnected (${event.era} wire, protocol ${event.protocolVersion})`;
    case 'gaveUp':
      return `gave up reconnecting after ${event.attempts} attempt(s) (${why(event.cause)})`;
    default:
      return undefined;
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
 * capabilities it offers, and its instructions (dimmed) when it sent any, unless
 * `options.instructions` is false. Indented two spaces.
 */
export function serverIdentityLines(
  client: McpClient,
  style: Style,
  options: { instructions?: boolean } = {},
): string[] {
  const info = client.serverInfo;
  const discovery = client.serverDiscovery;
  const lines = [
    `  identity:   ${info ? `${info.title ?? info.name} ${info.version}` : '(not reported)'}`,
    `  started as: ${client.serverIdentity}`,
    `  protocol:   ${client.protocolVersion} (server supports ${(discovery?.supportedVersions ?? []).join(', ')})`,
    `  offers:     ${Object.keys(discovery?.capabilities ?? {}).join(', ')}`,
  ];
  // Multi-line instructions keep the block's indentation on every line.
  if (client.instructions !== undefined && options.instructions !== false)
    lines.push(`  instructions: ${style.dim(client.instructions.trimEnd().replace(/\n/g, '\n                '))}`);
  return lines;
}

/**
 * The first `maxLines` lines of `text`, each cut at `width` characters and indented two spaces,
 * then how much was left out; `text` whole when it fits.
 */
export function foldText(text: string, maxLines: number, width: number): string[] {
  const all = text.trimEnd().split('\n');
  const shown = all.slice(0, maxLines).map((line) => `  ${shorten(line, width)}`);
  const cut = all.length > maxLines || all.some((line, i) => i < maxLines && line.length > width);
  if (cut)
    shown.push(
      `  … (${text.length} characters in ${all.length} line${all.length === 1 ? '' : 's'}; --json shows them all)`,
    );
  return shown;
}
