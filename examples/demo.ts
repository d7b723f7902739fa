#!/usr/bin/env node
/**
 * The mcp-live demo: starts the bundled example server over stdio, connects with mcp-live,
 * and shows what a host sees. Run it with `npm start`.
 *
 *   node build/examples/demo.js [--server <command> [args...]]
 */
import { fileURLToPath } from 'node:url';
import { McpClient, viewContents, type ContentBlock, type Resource } from '../src/index.js';
import { StdioTransport } from '../src/node.js';

const bold = (s: string) => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[0m` : s);
const dim = (s: string) => (process.stdout.isTTY ? `\x1b[2m${s}\x1b[0m` : s);
const heading = (s: string) => console.log(`\n${bold(`== ${s}`)}`);

function serverCommand(argv: string[]): { command: string; args: string[] } {
  const at = argv.indexOf('--server');
  if (at >= 0 && argv[at + 1] !== undefined) return { command: argv[at + 1] as string, args: argv.slice(at + 2) };
  return { command: process.execPath, args: [fileURLToPath(new URL('./server.js', import.meta.url))] };
}

function describeContent(block: ContentBlock): string {
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

function columns(values: string[], width: number, perRow: number): string {
  const rows: string[] = [];
  for (let i = 0; i < values.length; i += perRow) {
    rows.push('  ' + values.slice(i, i + perRow).map((v) => v.padEnd(width)).join(' ').trimEnd());
  }
  return rows.join('\n');
}

async function main(): Promise<void> {
  const { command, args } = serverCommand(process.argv.slice(2));
  const client = new McpClient({
    transport: new StdioTransport({ command, args, stderr: 'pipe' }),
    clientInfo: { name: 'mcp-live-demo', version: '0.1.0' },
    onError: (error) => console.error(dim(`(client) ${error.message}`)),
  });

  try {
    const discovery = await client.connect();
    heading('Server');
    const info = client.serverInfo;
    console.log(`  identity:   ${info ? `${info.title ?? info.name} ${info.version}` : '(not reported)'}`);
    console.log(`  started as: ${client.serverIdentity}`);
    console.log(`  protocol:   ${client.protocolVersion} (server supports ${discovery.supportedVersions.join(', ')})`);
    console.log(`  offers:     ${Object.keys(discovery.capabilities).join(', ')}`);
    if (client.instructions !== undefined) console.log(`  instructions: ${dim(client.instructions)}`);

    heading('Prompts');
    let cursor: string | undefined;
    do {
      const page = await client.listPrompts(cursor === undefined ? {} : { cursor });
      for (const prompt of page.prompts) {
        const params = (prompt.arguments ?? []).map((a) => (a.required ? a.name : `${a.name}?`)).join(', ');
        console.log(`  ${prompt.name}(${params})${prompt.description ? dim(` — ${prompt.description}`) : ''}`);
      }
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);

    heading('Resources');
    const resources: Resource[] = [];
    let pages = 0;
    cursor = undefined;
    do {
      const page = await client.listResources(cursor === undefined ? {} : { cursor });
      pages++;
      resources.push(...page.resources);
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    console.log(`  ${resources.length} resources in ${pages} pages:`);
    console.log(columns(resources.map((r) => r.uri), 22, 4));
    const templates = await client.listResourceTemplates();
    for (const t of templates.resourceTemplates) console.log(`  template ${t.uriTemplate}${dim(` — ${t.name}`)}`);

    heading('Read demo://readme');
    const readme = await client.readResource('demo://readme');
    for (const item of readme.contents) {
      const view = viewContents(item);
      if (view.kind === 'text') console.log(view.text.replace(/^/gm, '  ').trimEnd());
      else if (view.kind === 'blob') console.log(`  ${view.bytes().length} bytes of ${view.mimeType ?? 'binary data'}`);
      else console.log(`  invalid item: ${view.reason}`);
    }
    console.log(dim(`  (cache hint: ttlMs ${String(readme.ttlMs)}, cacheScope ${String(readme.cacheScope)})`));

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

    heading('Tool calls');
    const sum = await client.callTool('add', { a: 2, b: 40 });
    console.log(`  add(2, 40) → ${sum.content.map(describeContent).join(' ')}  structured: ${JSON.stringify(sum.structuredContent)}`);
    const link = await client.callTool('get_item_link', { n: 7 });
    console.log(`  get_item_link(7) → ${link.content.map(describeContent).join(' | ')}`);
    const slow = await client.callTool(
      'slow',
      { steps: 4, durationMs: 400 },
      { onProgress: (p) => console.log(dim(`    progress ${p.progress}/${p.total ?? '?'} ${p.message ?? ''}`)) },
    );
    console.log(`  slow → ${slow.content.map(describeContent).join(' ')}`);
  } finally {
    await client.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? `${error.name}: ${error.message}` : error);
  process.exitCode = 1;
});
