/**
 * The mcp-live example server's tools, resources and prompts: a server factory on the official
 * @modelcontextprotocol/server v2, shared by the stdio and the Streamable HTTP entry
 * (examples/server.ts). It answers both the 2026-07-28 revision (`server/discover`, per-request
 * `_meta` envelope, `subscriptions/listen`) and the 2025-11-25 `initialize` handshake.
 *
 * The factory builds a fresh `McpServer` per serving unit: once per connection under
 * `serveStdio`, once per HTTP request under `createMcpHandler`. Everything the tools change lives
 * in one {@link ExampleState} per process, so every instance serves the same note, items and
 * prompts.
 */
import {
  McpServer,
  ProtocolError,
  ProtocolErrorCode,
  ResourceTemplate,
  acceptedContent,
  completable,
  inputRequired,
} from '@modelcontextprotocol/server';
import type {
  CallToolResult,
  McpRequestContext,
  McpServerFactory,
  ReadResourceResult,
  RegisteredPrompt,
  Resource,
  ServerContext,
  ServerNotifier,
} from '@modelcontextprotocol/server';
import * as z from 'zod';
import {
  ReportTasks,
  approvalRequest,
  approvalSchema,
  declaresTasks,
  rejectedReport,
  reportText,
  serveTaskMethods,
} from './exampleTasks.js';
import { EVENTS_EXTENSION } from './exampleEvents.js';

export const SERVER_NAME = 'mcp-live-example';
export const SERVER_VERSION = '0.1.0';

const ITEM_COUNT = 250;
const PAGE_SIZE = 50;

const README_URI = 'demo://readme';
const LOGO_URI = 'demo://logo.png';
const NOTE_URI = 'demo://note';
const PROFILE_URI = 'demo://me/profile';
const GREETING_TEMPLATE = 'demo://greeting/{name}';
const MENU_TEMPLATE = 'demo://menu/{cuisine}/{dish}';
const ITEM_TEMPLATE = 'demo://items/{n}';

/** A valid 1x1 RGBA PNG. */
const LOGO_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

const GREETING_NAMES = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi', 'ivan', 'judy'];
const LANGUAGES = ['typescript', 'javascript', 'python', 'rust', 'go', 'java', 'kotlin', 'swift', 'c', 'cpp'];
const STYLES = ['formal', 'casual', 'pirate'];
/** Dishes by cuisine: the `dish` completions of {@link MENU_TEMPLATE} depend on the `cuisine` chosen. */
const MENU: Record<string, string[]> = {
  italian: ['lasagna', 'risotto', 'ravioli', 'tiramisu'],
  japanese: ['ramen', 'sushi', 'tempura', 'udon'],
  mexican: ['tacos', 'tamales', 'tostadas', 'mole'],
  indian: ['dal', 'dosa', 'korma', 'tandoori'],
};

const INSTRUCTIONS = [
  'mcp-live example server.',
  `Resources: ${ITEM_COUNT} text items at demo://items/{n} (n = 1..${ITEM_COUNT}, listed ${PAGE_SIZE} per page),`,
  `${README_URI} (markdown), ${LOGO_URI} (PNG blob), ${NOTE_URI} (mutable via update_note),`,
  `${PROFILE_URI} (per-client, cacheScope private) and the templates ${GREETING_TEMPLATE}, ${MENU_TEMPLATE}`,
  `(dish completions depend on the cuisine) and ${ITEM_TEMPLATE} (n completes to more than 100 values).`,
  'Tools: echo, add, slow (progress), get_item_link (resource_link), create_ticket (asks for input), update_note, add_item, add_prompt, toggle_prompt,',
  'generate_report (long; a task with an approval step for clients that declare io.modelcontextprotocol/tasks).',
  'Prompts: greet, summarize_item, code_review, plus any added with add_prompt.',
].join(' ');

function itemUri(n: number): string {
  return `demo://items/${n}`;
}

function itemText(n: number): string {
  return `Item ${n} of the mcp-live example catalog.\nIts square is ${n * n}; it is ${n % 2 === 0 ? 'even' : 'odd'}.\n`;
}

function byPrefix(values: readonly string[], prefix: string): string[] {
  const p = prefix.toLowerCase();
  return values.filter((v) => v.toLowerCase().startsWith(p));
}

/** Opaque resources/list cursor: base64url of a small JSON object holding the next offset. */
function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset }), 'utf8').toString('base64url');
}

/** Returns the offset a cursor encodes, or undefined when the cursor is malformed or out of range for the current catalog. */
function decodeCursor(cursor: string, catalogSize: number): number | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const offset = (parsed as { o?: unknown }).o;
  if (typeof offset !== 'number' || !Number.isSafeInteger(offset)) return undefined;
  if (offset <= 0 || offset >= catalogSize) return undefined;
  return offset;
}

function text(value: string): { type: 'text'; text: string } {
  return { type: 'text', text: value };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

/** Client identity as seen by one request: the 2026-07-28 envelope, or the 2025-era initialize values. */
function clientIdentity(server: McpServer, ctx: ServerContext): { clientInfo: unknown; protocolEra: string } {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const fromEnvelope = envelope?.['io.modelcontextprotocol/clientInfo'];
  if (fromEnvelope !== undefined) return { clientInfo: fromEnvelope, protocolEra: 'modern' };
  return { clientInfo: server.server.getClientVersion() ?? null, protocolEra: 'legacy' };
}

/** What the tools change, shared by every instance the factory builds in one process. */
export interface ExampleState {
  /** The text of demo://note, replaced by update_note. */
  note: string;
  /** Starts at 1; update_note adds one. Sent as `_meta.revision` of the read. */
  noteRevision: number;
  /** Items demo://items/1..itemCount exist; add_item adds one. */
  itemCount: number;
  /** Prompts registered by add_prompt, in the order they were added. */
  readonly addedPrompts: Array<{ name: string; text: string; description: string | undefined }>;
  /** Names of the prompts toggle_prompt has disabled. */
  readonly disabledPrompts: Set<string>;
  /**
   * URIs subscribed with the 2025-era resources/subscribe, over stdio (2026-07-28 clients use
   * subscriptions/listen; over stateless HTTP a 2025-era subscribe is acknowledged, but
   * nothing can be pushed to the client).
   */
  readonly legacySubscriptions: Set<string>;
  /** Reports generate_report is writing as tasks (Tasks extension); they outlive connections. */
  readonly reports: ReportTasks;
}

export function createExampleState(): ExampleState {
  return {
    note: 'Initial note. Change it with the update_note tool.',
    noteRevision: 1,
    itemCount: ITEM_COUNT,
    addedPrompts: [],
    disabledPrompts: new Set(),
    legacySubscriptions: new Set(),
    reports: new ReportTasks(),
  };
}

export interface ExampleServerOptions {
  /**
   * Where change notifications are published, for entries whose instances do not outlive a
   * request: under `createMcpHandler` pass `() => handler.notify`, since notifications an
   * instance sends itself never reach `subscriptions/listen` streams there. Without it (stdio),
   * the connection's instance sends them and the stdio listen router delivers them.
   */
  notifier?: () => ServerNotifier;
}

/**
 * Returns the factory that builds one server instance over `state`. `serveStdio` calls it once
 * per connection (and once for a `server/discover` probe, discarded when the client falls back
 * to `initialize`); `createMcpHandler` calls it once per HTTP request.
 */
export function createExampleServerFactory(state: ExampleState, options: ExampleServerOptions = {}): McpServerFactory {
  return (context) => createServer(state, context, options.notifier);
}

function createServer(
  state: ExampleState,
  context: McpRequestContext,
  notifier: (() => ServerNotifier) | undefined,
): McpServer {
  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION, title: 'mcp-live example server' },
    {
      instructions: INSTRUCTIONS,
      capabilities: {
        tools: { listChanged: true },
        prompts: { listChanged: true },
        resources: { listChanged: true, subscribe: true },
      },
      cacheHints: {
        'server/discover': { ttlMs: 300_000, cacheScope: 'public' },
        'tools/list': { ttlMs: 300_000, cacheScope: 'public' },
        'prompts/list': { ttlMs: 60_000, cacheScope: 'public' },
        'resources/list': { ttlMs: 60_000, cacheScope: 'public' },
        'resources/templates/list': { ttlMs: 300_000, cacheScope: 'public' },
        'resources/read': { ttlMs: 30_000, cacheScope: 'public' },
      },
    },
  );

  // Every static resource, in resources/list order. Kept alongside the SDK registry because
  // resources/list is served by the paginating handler installed below.
  const catalog: Resource[] = [];

  function addStaticResource(
    resource: Resource,
    cacheHint: { ttlMs: number; cacheScope: 'public' | 'private' } | undefined,
    read: (uri: URL, ctx: ServerContext) => ReadResourceResult,
  ): void {
    const { uri, name, ...metadata } = resource;
    server.registerResource(name, uri, cacheHint === undefined ? metadata : { ...metadata, cacheHint }, read);
    catalog.push(resource);
  }

  // Change notifications. Under stdio this instance is the connection's for its whole life: it
  // sends them itself (registerResource, registerPrompt, enable and disable send the list_changed
  // ones on their own) and the 2026-07-28 listen router filters them per subscriptions/listen
  // request. Under HTTP the instance serves one request: its own notifications are dropped,
  // and the handler's notifier publishes to every open listen stream instead.
  async function notifyResourceUpdated(uri: string): Promise<void> {
    if (notifier !== undefined) {
      notifier().resourceUpdated(uri);
      return;
    }
    if (context.era === 'legacy' && !state.legacySubscriptions.has(uri)) return;
    if (!server.isConnected()) return;
    await server.server.sendResourceUpdated({ uri });
  }

  // ---- resources -------------------------------------------------------------------------

  const readme = [
    '# mcp-live example server',
    '',
    `This server exposes ${ITEM_COUNT} item resources, a PNG, a mutable note and a per-client profile.`,
    '',
  ].join('\n');
  addStaticResource(
    {
      uri: README_URI,
      name: 'readme',
      title: 'README',
      description: 'What this server offers (markdown).',
      mimeType: 'text/markdown',
      size: Buffer.byteLength(readme, 'utf8'),
    },
    undefined,
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text: readme }] }),
  );

  addStaticResource(
    {
      uri: LOGO_URI,
      name: 'logo',
      title: 'Logo',
      description: 'A 1x1 PNG image (binary resource).',
      mimeType: 'image/png',
      size: Buffer.from(LOGO_PNG_BASE64, 'base64').length,
    },
    { ttlMs: 3_600_000, cacheScope: 'public' },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'image/png', blob: LOGO_PNG_BASE64 }] }),
  );

  addStaticResource(
    {
      uri: NOTE_URI,
      name: 'note',
      title: 'Note',
      description: 'A text note whose content the update_note tool replaces.',
      mimeType: 'text/plain',
    },
    undefined,
    (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/plain', text: state.note, _meta: { revision: state.noteRevision } }],
    }),
  );

  addStaticResource(
    {
      uri: PROFILE_URI,
      name: 'profile',
      title: 'Client profile',
      description: 'What the server knows about the requesting client (per-client; cacheScope private).',
      mimeType: 'application/json',
    },
    { ttlMs: 30_000, cacheScope: 'private' },
    (uri, ctx) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: 'application/json',
          text: JSON.stringify(clientIdentity(server, ctx)),
        },
      ],
    }),
  );

  function addItem(n: number): void {
    const body = itemText(n);
    addStaticResource(
      {
        uri: itemUri(n),
        name: `item-${n}`,
        title: `Item ${n}`,
        description: `Catalog item number ${n}.`,
        mimeType: 'text/plain',
        size: Buffer.byteLength(body, 'utf8'),
      },
      undefined,
      (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: body }] }),
    );
  }
  for (let n = 1; n <= state.itemCount; n++) addItem(n);

  server.registerResource(
    'greeting',
    new ResourceTemplate(GREETING_TEMPLATE, {
      list: undefined,
      complete: { name: (value) => byPrefix(GREETING_NAMES, value) },
    }),
    {
      title: 'Greeting',
      description: 'A greeting for {name}.',
      mimeType: 'text/plain',
    },
    (uri, variables) => {
      const raw = variables['name'];
      const name = Array.isArray(raw) ? raw.join(',') : (raw ?? '');
      return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: `Hello, ${decodeURIComponent(name)}!` }] };
    },
  );

  // Two variables whose completions depend on each other: `dish` completes from the dishes of the
  // `cuisine` already chosen (context.arguments), or of every cuisine when none is.
  server.registerResource(
    'menu',
    new ResourceTemplate(MENU_TEMPLATE, {
      list: undefined,
      complete: {
        cuisine: (value) => byPrefix(Object.keys(MENU), value),
        dish: (value, context) => {
          const cuisine = context?.arguments?.['cuisine'];
          const dishes = cuisine === undefined ? Object.values(MENU).flat() : (MENU[cuisine] ?? []);
          return byPrefix(dishes, value);
        },
      },
    }),
    { title: 'Menu', description: 'One dish of one cuisine.', mimeType: 'text/plain' },
    (uri, variables) => {
      const cuisine = decodeURIComponent(String(variables['cuisine']));
      const dish = decodeURIComponent(String(variables['dish']));
      if (!MENU[cuisine]?.includes(dish))
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Resource not found: ${uri.href}`, { uri: uri.href });
      return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: `${dish}, from the ${cuisine} menu.` }] };
    },
  );

  // The catalog items as a template too: `n` completes to every item number that starts with
  // the value typed, which for "" or "1" is more than the 100 a completion result may carry.
  server.registerResource(
    'item',
    new ResourceTemplate(ITEM_TEMPLATE, {
      list: undefined,
      complete: {
        n: (value) =>
          Array.from({ length: state.itemCount }, (_, i) => String(i + 1)).filter((n) => n.startsWith(value)),
      },
    }),
    { title: 'Catalog item', description: `Item n of the catalog, 1..${ITEM_COUNT}.`, mimeType: 'text/plain' },
    (uri, variables) => {
      const n = Number(variables['n']);
      if (!Number.isInteger(n) || n < 1 || n > state.itemCount)
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Resource not found: ${uri.href}`, { uri: uri.href });
      return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: itemText(n) }] };
    },
  );

  // resources/list in pages of PAGE_SIZE; replaces the SDK's unpaginated list handler.
  server.server.setRequestHandler('resources/list', (request) => {
    const cursor = request.params?.cursor;
    let offset = 0;
    if (cursor !== undefined) {
      const decoded = decodeCursor(cursor, catalog.length);
      if (decoded === undefined) {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid cursor', { cursor });
      }
      offset = decoded;
    }
    const end = offset + PAGE_SIZE;
    const resources = catalog.slice(offset, end);
    return end < catalog.length ? { resources, nextCursor: encodeCursor(end) } : { resources };
  });

  if (context.era === 'legacy') {
    server.server.setRequestHandler('resources/subscribe', (request) => {
      state.legacySubscriptions.add(request.params.uri);
      return {};
    });
    server.server.setRequestHandler('resources/unsubscribe', (request) => {
      state.legacySubscriptions.delete(request.params.uri);
      return {};
    });
  }

  // ---- prompts ---------------------------------------------------------------------------

  const prompts = new Map<string, RegisteredPrompt>();

  prompts.set(
    'greet',
    server.registerPrompt(
      'greet',
      {
        title: 'Greet someone',
        description: 'Writes a greeting for a person in a given style.',
        argsSchema: z.object({
          name: completable(z.string().describe('Who to greet'), (value) => byPrefix(GREETING_NAMES, value)),
          style: completable(z.string().describe('formal, casual or pirate'), (value) =>
            byPrefix(STYLES, value),
          ).optional(),
        }),
      },
      ({ name, style }) => ({
        description: `Greeting for ${name}`,
        messages: [
          {
            role: 'user',
            content: text(`Write a ${style ?? 'casual'} greeting for ${name}.`),
          },
        ],
      }),
    ),
  );

  prompts.set(
    'summarize_item',
    server.registerPrompt(
      'summarize_item',
      {
        title: 'Summarize an item',
        description: 'Asks for a summary of one catalog item, embedding the item resource.',
        argsSchema: z.object({
          item: completable(z.string().describe(`Item number, 1..${ITEM_COUNT}`), (value) =>
            Array.from({ length: state.itemCount }, (_, i) => String(i + 1)).filter((n) => n.startsWith(value)),
          ),
          words: z.string().describe('Maximum summary length in words').optional(),
        }),
      },
      ({ item, words }) => {
        const n = Number(item);
        if (!Number.isInteger(n) || n < 1 || n > state.itemCount) {
          throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown item: ${item}`);
        }
        return {
          messages: [
            {
              role: 'user',
              content: text(`Summarize item ${n} in at most ${words ?? '20'} words.`),
            },
            {
              role: 'user',
              content: {
                type: 'resource',
                resource: { uri: itemUri(n), mimeType: 'text/plain', text: itemText(n) },
              },
            },
          ],
        };
      },
    ),
  );

  prompts.set(
    'code_review',
    server.registerPrompt(
      'code_review',
      {
        title: 'Code review',
        description: 'Asks for a review of a code snippet.',
        argsSchema: z.object({
          language: completable(z.string().describe('Programming language'), (value) => byPrefix(LANGUAGES, value)),
          code: z.string().describe('The code to review'),
        }),
      },
      ({ language, code }) => ({
        messages: [
          {
            role: 'user',
            content: text(`Review this ${language} code:\n\n${code}`),
          },
        ],
      }),
    ),
  );

  function registerAddedPrompt(added: ExampleState['addedPrompts'][number]): void {
    const registered = server.registerPrompt(
      added.name,
      {
        description: added.description ?? `Prompt added at runtime: ${added.name}`,
        argsSchema: z.object({ topic: z.string().describe('Replaces {topic} in the text').optional() }),
      },
      ({ topic }) => ({
        messages: [{ role: 'user', content: text(added.text.replaceAll('{topic}', topic ?? '')) }],
      }),
    );
    prompts.set(added.name, registered);
  }
  for (const added of state.addedPrompts) registerAddedPrompt(added);
  for (const name of state.disabledPrompts) prompts.get(name)?.disable();

  // ---- tools -----------------------------------------------------------------------------

  // The Tasks extension (examples/exampleTasks.ts): generate_report becomes a task for requests
  // that declare it; others get the same work inline, with the approval asked first (MRTR).
  if (context.era !== 'legacy') serveTaskMethods(server, state.reports);
  // The Triggers & Events extension: its requests are answered before the SDK (examples/exampleEvents.ts).
  if (context.era !== 'legacy')
    server.server.registerCapabilities({ extensions: { [EVENTS_EXTENSION]: { listChanged: false } } });
  server.registerTool(
    'generate_report',
    {
      title: 'Generate report',
      description:
        'Writes a report in `steps` sections of `stepMs` ms each (defaults 4 and 500), asking for approval ' +
        '(elicitation, form mode) on the way. Runs as a task (io.modelcontextprotocol/tasks) when the request ' +
        'declares the extension; otherwise inline, asking first.',
      inputSchema: z.object({
        topic: z.string(),
        steps: z.number().int().min(1).max(50).optional(),
        stepMs: z.number().int().min(0).max(60_000).optional(),
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ topic, steps, stepMs }, ctx) => {
      const total = steps ?? 4;
      const ms = stepMs ?? 500;
      // A CreateTaskResult (resultType "task"): the SDK passes it through; its types do not know it.
      if (context.era !== 'legacy' && declaresTasks(ctx))
        return state.reports.create(topic, total, ms) as unknown as CallToolResult;
      const responses = ctx.mcpReq.inputResponses;
      if (responses?.['approval'] === undefined)
        return inputRequired({ inputRequests: { approval: approvalRequest(topic) } });
      const approval = acceptedContent(responses, 'approval', approvalSchema);
      if (approval?.approve !== true) return rejectedReport(topic);
      const progressToken = ctx.mcpReq._meta?.progressToken;
      for (let done = 1; done <= total && !ctx.mcpReq.signal.aborted; done++) {
        await sleep(ms, ctx.mcpReq.signal);
        if (progressToken !== undefined)
          await ctx.mcpReq.notify({
            method: 'notifications/progress',
            params: { progressToken, progress: done, total, message: `section ${done} of ${total}` },
          });
      }
      return { content: [text(reportText(topic, total, approval.note))] };
    },
  );

  // Multi round-trip (input_required): asks the client, through an elicitation, who is
  // creating the ticket, then completes. Nothing is kept between rounds on the server.
  const ticketOwner = z.object({ name: z.string(), priority: z.enum(['low', 'normal', 'high']).optional() });
  server.registerTool(
    'create_ticket',
    {
      title: 'Create ticket',
      description: 'Creates a ticket; asks the user (elicitation, form mode) for their name and a priority first.',
      inputSchema: z.object({ title: z.string() }),
      annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: false },
    },
    ({ title }, ctx) => {
      const owner = acceptedContent(ctx.mcpReq.inputResponses, 'owner', ticketOwner);
      if (owner === undefined) {
        return inputRequired({
          inputRequests: {
            owner: inputRequired.elicit({ message: `Who is filing "${title}"?`, requestedSchema: ticketOwner }),
          },
        });
      }
      return { content: [text(`Ticket "${title}" filed by ${owner.name} (priority ${owner.priority ?? 'normal'}).`)] };
    },
  );

  server.registerTool(
    'echo',
    {
      title: 'Echo',
      description: 'Returns its message unchanged.',
      inputSchema: z.object({ message: z.string() }),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ message }) => ({ content: [text(message)] }),
  );

  server.registerTool(
    'add',
    {
      title: 'Add',
      description: 'Adds two numbers.',
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      outputSchema: z.object({ sum: z.number() }),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ a, b }) => ({ content: [text(String(a + b))], structuredContent: { sum: a + b } }),
  );

  server.registerTool(
    'slow',
    {
      title: 'Slow',
      description:
        'Works for about durationMs (default 1000) in `steps` steps, sending notifications/progress ' +
        'after each step when the request carries a progressToken. Stops early when cancelled.',
      inputSchema: z.object({
        steps: z.number().int().min(1).max(100).optional(),
        durationMs: z.number().int().min(0).max(60_000).optional(),
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ steps, durationMs }, ctx) => {
      const total = steps ?? 5;
      const stepMs = (durationMs ?? 1000) / total;
      const progressToken = ctx.mcpReq._meta?.progressToken;
      let done = 0;
      while (done < total && !ctx.mcpReq.signal.aborted) {
        await sleep(stepMs, ctx.mcpReq.signal);
        if (ctx.mcpReq.signal.aborted) break;
        done++;
        if (progressToken !== undefined) {
          await ctx.mcpReq.notify({
            method: 'notifications/progress',
            params: { progressToken, progress: done, total, message: `step ${done}/${total}` },
          });
        }
      }
      return { content: [text(`completed ${done}/${total} steps`)] };
    },
  );

  server.registerTool(
    'get_item_link',
    {
      title: 'Get item link',
      description: 'Returns a resource_link content item pointing at demo://items/{n}.',
      inputSchema: z.object({ n: z.number().int().min(1).max(1_000_000) }),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ n }) => {
      if (n > state.itemCount)
        return { content: [text(`No item ${n}; items run 1..${state.itemCount}.`)], isError: true };
      return {
        content: [
          text(`Item ${n} is available as a resource.`),
          {
            type: 'resource_link',
            uri: itemUri(n),
            name: `item-${n}`,
            title: `Item ${n}`,
            description: `Catalog item number ${n}.`,
            mimeType: 'text/plain',
          },
        ],
      };
    },
  );

  server.registerTool(
    'update_note',
    {
      title: 'Update note',
      description: `Replaces the content of ${NOTE_URI} and sends notifications/resources/updated for it.`,
      inputSchema: z.object({ text: z.string() }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (args) => {
      state.note = args.text;
      state.noteRevision++;
      await notifyResourceUpdated(NOTE_URI);
      return { content: [text(`${NOTE_URI} is now at revision ${state.noteRevision}`)] };
    },
  );

  server.registerTool(
    'add_item',
    {
      title: 'Add item',
      description:
        'Appends the next demo://items/{n} resource to the list and sends notifications/resources/list_changed.',
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    () => {
      addItem(++state.itemCount);
      notifier?.().resourcesChanged();
      return { content: [text(`added ${itemUri(state.itemCount)}`)] };
    },
  );

  server.registerTool(
    'add_prompt',
    {
      title: 'Add prompt',
      description:
        'Registers a new prompt whose single message is `text` ({topic} is replaced by the optional topic ' +
        'argument). Sends notifications/prompts/list_changed.',
      inputSchema: z.object({
        name: z.string().regex(/^[a-z][a-z0-9_-]{0,63}$/, 'lowercase letters, digits, _ and -; starting with a letter'),
        text: z.string(),
        description: z.string().optional(),
      }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args) => {
      if (prompts.has(args.name)) return { content: [text(`prompt ${args.name} already exists`)], isError: true };
      const added = { name: args.name, text: args.text, description: args.description };
      state.addedPrompts.push(added);
      registerAddedPrompt(added);
      notifier?.().promptsChanged();
      return { content: [text(`added prompt ${args.name}`)] };
    },
  );

  server.registerTool(
    'toggle_prompt',
    {
      title: 'Toggle prompt',
      description: 'Disables an enabled prompt or re-enables a disabled one. Sends notifications/prompts/list_changed.',
      inputSchema: z.object({ name: z.string() }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    ({ name }) => {
      const prompt = prompts.get(name);
      if (prompt === undefined) return { content: [text(`no prompt named ${name}`)], isError: true };
      if (prompt.enabled) {
        state.disabledPrompts.add(name);
        prompt.disable();
      } else {
        state.disabledPrompts.delete(name);
        prompt.enable();
      }
      notifier?.().promptsChanged();
      return { content: [text(`prompt ${name} is now ${prompt.enabled ? 'enabled' : 'disabled'}`)] };
    },
  );

  return server;
}
