#!/usr/bin/env node
/**
 * The mcp-live demo: starts the bundled example server, connects with mcp-live, and shows what
 * a host sees. Run it with `npm start` (stdio) or `npm start -- --http` (Streamable HTTP).
 *
 *   node build/examples/demo.js                               the example server over stdio
 *   node build/examples/demo.js --http                        the example server over Streamable HTTP
 *   node build/examples/demo.js --server <command> [args...]  another stdio server
 */
import { createInterface } from 'node:readline/promises';
import { fileURLToPath } from 'node:url';
import {
  McpClient,
  StreamableHttpTransport,
  completeTemplateArgument,
  matchUriTemplate,
  parseUriTemplate,
  readTemplate,
  viewContents,
  type ElicitResult,
  type FormElicitationHandler,
  type SubscriptionEvent,
  type Transport,
} from '../src/index.js';
import { StdioTransport } from '../src/node.js';
import {
  columns,
  describeContent,
  describeEvent,
  describeFilter,
  describePrompt,
  describeTool,
  serverIdentityLines,
  styleFor,
} from '../src/cli/render.js';
import { spawnHttpServer, type HttpServerProcess } from './httpServerProcess.js';

const style = styleFor(process.stdout);
const { bold, dim } = style;
const heading = (s: string) => console.log(`\n${bold(`== ${s}`)}`);

const EXAMPLE_SERVER = fileURLToPath(new URL('./server.js', import.meta.url));

function serverCommand(argv: string[]): { command: string; args: string[] } {
  const at = argv.indexOf('--server');
  if (at >= 0 && argv[at + 1] !== undefined) return { command: argv[at + 1] as string, args: argv.slice(at + 2) };
  return { command: process.execPath, args: [EXAMPLE_SERVER] };
}

/** Resolves with the next event of `source` that `match` accepts. */
function nextEvent<E>(
  source: { on(listener: (event: E) => void): () => void },
  match: (event: E) => boolean,
): Promise<E> {
  return new Promise((resolve) => {
    const off = source.on((event) => {
      if (!match(event)) return;
      off();
      resolve(event);
    });
  });
}

/** The answers the demo gives without a terminal, by field name. */
const SCRIPTED: Record<string, string | boolean> = {
  name: 'Ada Lovelace',
  priority: 'high',
  approve: true,
  note: 'approved by the demo',
};

/**
 * Answers a form-mode elicitation: at the terminal when there is one, else with a scripted
 * answer (so `npm start` also runs unattended, e.g. in CI).
 */
const askUser: FormElicitationHandler = async (params, { signal }): Promise<ElicitResult> => {
  console.log(`  server asks: ${params.message}`);
  const properties = params.requestedSchema.properties as Record<string, { type?: unknown }>;
  const fields = Object.keys(properties);
  if (!process.stdin.isTTY) {
    const content = Object.fromEntries(fields.filter((f) => f in SCRIPTED).map((f) => [f, SCRIPTED[f] as string]));
    console.log(dim(`  (no terminal: answering ${JSON.stringify(content)})`));
    return { action: 'accept', content };
  }
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const content: Record<string, string | boolean> = {};
    for (const field of fields) {
      const boolean = properties[field]?.type === 'boolean';
      const answer = (await rl.question(`    ${field}${boolean ? ' (y/n)' : ''}: `, { signal })).trim();
      if (answer !== '') content[field] = boolean ? /^y/i.test(answer) : answer;
    }
    return { action: 'accept', content };
  } finally {
    rl.close();
  }
};

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] !== '--http') {
    const { command, args } = serverCommand(argv);
    await demo(new StdioTransport({ command, args, stderr: 'pipe' }));
    return;
  }
  // Over HTTP the client does not own the server's process: start it, and stop it at the end
  // whatever happened.
  const server: HttpServerProcess = await spawnHttpServer(EXAMPLE_SERVER);
  try {
    console.log(dim(`(example server pid ${server.child.pid} listening at ${server.url})`));
    await demo(new StreamableHttpTransport(server.url));
  } finally {
    await server.stop();
  }
}

async function demo(transport: Transport): Promise<void> {
  const client = new McpClient({
    transport,
    clientInfo: { name: 'mcp-live-demo', version: '0.1.0' },
    handlers: { elicitation: { form: askUser } },
    tasks: true, // the Tasks extension: a long tool call may become a task the client follows
    onError: (error) => console.error(dim(`(client) ${error.message}`)),
  });

  try {
    await client.connect();
    heading('Server');
    for (const line of serverIdentityLines(client, style)) console.log(line);

    heading('Tools');
    for (const tool of (await client.listAllTools()).items) console.log(`  ${describeTool(tool, style)}`);

    heading('Prompts');
    for await (const prompt of client.prompts()) {
      console.log(`  ${describePrompt(prompt, style)}`);
    }

    heading('Resources (every page of resources/list)');
    const resources = await client.listAllResources();
    console.log(`  ${resources.items.length} resources in ${resources.pages} pages:`);
    const uris = resources.items.map((r) => r.uri);
    const shown = uris.length > 12 ? [...uris.slice(0, 8), '…', ...uris.slice(-3)] : uris;
    console.log(columns(shown, 22, 4));
    const hitsBefore = client.cacheStats().hits;
    const again = await client.listAllResources();
    const pageHits = client.cacheStats().hits - hitsBefore;
    console.log(
      dim(`  walked again: ${again.items.length} resources; ${pageHits} of ${again.pages} pages served from the cache`),
    );
    for await (const t of client.resourceTemplates()) console.log(`  template ${t.uriTemplate}${dim(` — ${t.name}`)}`);

    heading('Read demo://readme');
    const readme = await client.readResource('demo://readme');
    for (const item of readme.contents) {
      const view = viewContents(item);
      if (view.kind === 'text') console.log(view.text.replace(/^/gm, '  ').trimEnd());
      else if (view.kind === 'blob') console.log(`  ${view.bytes().length} bytes of ${view.mimeType ?? 'binary data'}`);
      else console.log(`  invalid item: ${view.reason}`);
    }
    console.log(dim(`  (cache hint: ttlMs ${String(readme.ttlMs)}, cacheScope ${String(readme.cacheScope)})`));
    const before = client.cacheStats();
    const second = await client.readResource('demo://readme');
    const after = client.cacheStats();
    console.log(
      `  read again: ${second === readme ? 'the same object, ' : ''}served from the cache ` +
        `(hits ${before.hits} → ${after.hits}, misses ${before.misses} → ${after.misses})`,
    );

    heading('Read demo://logo.png');
    const logo = await client.readResource('demo://logo.png');
    for (const item of logo.contents) {
      const view = viewContents(item);
      if (view.kind === 'blob') console.log(`  ${view.bytes().length} bytes of ${view.mimeType ?? 'binary data'}`);
    }

    heading('Prompt greet(name: "Ada", style: "pirate")');
    const prompt = await client.getPrompt('greet', { name: 'Ada', style: 'pirate' });
    for (const message of prompt.messages) console.log(`  ${message.role}: ${describeContent(message.content)}`);

    heading('Completion for greet.name starting with "a"');
    const completion = await client.complete({ type: 'ref/prompt', name: 'greet' }, { name: 'name', value: 'a' });
    console.log(`  ${completion.completion.values.join(', ')}`);

    heading('A resource template, completed as a user types');
    const templates = (await client.listAllResourceTemplates()).items;
    const menu = templates.find((t) => t.uriTemplate === 'demo://menu/{cuisine}/{dish}');
    if (menu !== undefined) {
      const form = parseUriTemplate(menu).variables.map((v) => `${v.name}${v.operator ? ` (${v.operator})` : ''}`);
      console.log(`  ${menu.uriTemplate}: a form with ${form.join(', ')}`);
      const completer = client.completer({ type: 'ref/resource', uri: menu.uriTemplate }, { debounceMs: 100 });
      // Three keystrokes 30 ms apart: one request, for the last value; the first two are superseded.
      const keystrokes = ['j', 'ja', 'jap'].map(async (value, i) => {
        await new Promise((resolve) => setTimeout(resolve, i * 30));
        const outcome = await completer.complete('cuisine', value);
        console.log(
          `  cuisine "${value}" → ${outcome.status === 'completed' ? `${outcome.values.join(', ')} (${outcome.source})` : outcome.status}`,
        );
      });
      await Promise.all(keystrokes);
      const dishes = await completer.complete('dish', '', { cuisine: 'japanese' });
      if (dishes.status === 'completed') console.log(`  dish "" with cuisine=japanese → ${dishes.values.join(', ')}`);
      const again = await completer.complete('dish', '', { cuisine: 'japanese' });
      console.log(dim(`  the same again: ${again.status === 'completed' ? again.source : again.status}`));
      completer.close();
      const dish = await readTemplate(client, menu, { cuisine: 'japanese', dish: 'ramen' });
      const [first] = dish.contents;
      console.log(
        `  readTemplate({ cuisine: 'japanese', dish: 'ramen' }) → ${first?.uri}: ${first && 'text' in first ? first.text : ''}`,
      );
    }
    const items = await completeTemplateArgument(client, 'demo://items/{n}', 'n', '');
    const { values, total, hasMore } = items.completion;
    console.log(`  items n "" → ${values.length} values (total ${String(total)}, hasMore ${String(hasMore)})`);

    heading('Tool calls');
    const sum = await client.callTool('add', { a: 2, b: 40 });
    console.log(
      `  add(2, 40) → ${sum.content.map(describeContent).join(' ')}  structured: ${JSON.stringify(sum.structuredContent)}`,
    );
    const link = await client.callTool('get_item_link', { n: 7 });
    console.log(`  get_item_link(7) → ${link.content.map(describeContent).join(' | ')}`);
    for (const read of await client.readResourceLinks(link)) {
      const template = matchUriTemplate(read.link.uri, templates);
      const label =
        template === undefined ? '' : ` (template ${template.uriTemplate}, n = ${String(template.variables['n'])})`;
      const first = read.result?.contents[0];
      const text = first !== undefined && 'text' in first ? first.text.split('\n')[0] : read.error?.message;
      console.log(`    link ${read.link.uri}${dim(label)} → ${text ?? ''}`);
    }
    const slow = await client.callTool(
      'slow',
      { steps: 4, durationMs: 400 },
      { onProgress: (p) => console.log(dim(`    progress ${p.progress}/${p.total ?? '?'} ${p.message ?? ''}`)) },
    );
    console.log(`  slow → ${slow.content.map(describeContent).join(' ')}`);

    heading('A tool that needs input (input_required, one elicitation round)');
    const ticket = await client.callTool('create_ticket', { title: 'Printer on fire' });
    console.log(`  create_ticket → ${ticket.content.map(describeContent).join(' ')}`);

    heading('A long tool call that becomes a task (io.modelcontextprotocol/tasks)');
    const report = await client.callTool(
      'generate_report',
      { topic: 'mcp-live', steps: 4, stepMs: 250 },
      {
        onTask: (task) =>
          console.log(
            dim(
              `    task ${task.taskId.slice(0, 8)}… ${task.status}${task.statusMessage ? `: ${task.statusMessage}` : ''}`,
            ),
          ),
      },
    );
    console.log(`  generate_report → ${report.content.map(describeContent).join(' ')}`);

    heading('Cache');
    const stats = client.cacheStats();
    console.log(
      `  hits ${stats.hits}, misses ${stats.misses}, stores ${stats.stores}, stale serves ${stats.staleServes}`,
    );

    heading('Subscriptions (subscriptions/listen) and a live prompt list');
    const subscription = await client.subscribe(
      { toolsListChanged: true, promptsListChanged: true, resourceSubscriptions: ['demo://note'] },
      { onEvent: (event) => console.log(dim(`    event: ${describeEvent(event)}`)) },
    );
    console.log(
      `  subscription ${String(subscription.subscriptionId)} acknowledged: ${describeFilter(subscription.honoured)}`,
    );
    console.log(`  not honoured: ${describeFilter(subscription.notHonoured)}`);
    const prompts = await client.live('prompts', {
      onEvent: (event) => {
        if (event.type === 'updated' && event.changed)
          console.log(`  live prompts (v${event.version}): ${event.items.map((p) => p.name).join(', ')}`);
        if (event.type === 'refreshFailed')
          console.log(`  live prompts: refresh failed (${event.error.message}); keeping ${event.items.length}`);
      },
    });
    console.log(dim(`  (the live list is ${prompts.watching ? 'watching prompts/list_changed' : 'not watched'})`));

    const noteText = (result: { contents: unknown[] }) => {
      const view = viewContents(result.contents[0] as Parameters<typeof viewContents>[0]);
      return view.kind === 'text' ? JSON.stringify(view.text) : view.kind;
    };
    console.log(`  demo://note: ${noteText(await client.readResource('demo://note'))}`);
    const noteUpdated = nextEvent<SubscriptionEvent>(subscription, (e) => e.type === 'resourceUpdated');
    await client.callTool('update_note', { text: 'Edited by the demo.' });
    await noteUpdated;
    console.log(
      `  demo://note after update_note: ${noteText(await client.readResource('demo://note'))} ${dim('(the cached read was dropped)')}`,
    );

    const added = nextEvent(prompts, (e) => e.type === 'updated' && e.items.some((p) => p.name === 'standup'));
    await client.callTool('add_prompt', { name: 'standup', text: 'Summarize yesterday for {topic}.' });
    await added;
    const hidden = nextEvent(prompts, (e) => e.type === 'updated' && !e.items.some((p) => p.name === 'code_review'));
    await client.callTool('toggle_prompt', { name: 'code_review' });
    await hidden;
    await prompts.close();
    await subscription.close();
    console.log(dim(`  closed: ${(await subscription.closed).reason}`));
  } finally {
    await client.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? `${error.name}: ${error.message}` : error);
  process.exitCode = 1;
});
