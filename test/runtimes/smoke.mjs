// The packed package's smoke run, the same file on Node, Deno and Bun: connects to the example
// server over stdio (`mcp-live/node`'s StdioTransport, the server under Node) or over Streamable
// HTTP (the root entry's fetch transport), lists tools, reads a resource, calls a tool, closes,
// and prints one JSON line, with the files the two entries resolve to (the bundled build of the
// `node` export condition, which all three runtimes honour).
// Usage: <runtime> smoke.mjs stdio <node> <server.js> | http <url>
import { McpClient, StreamableHttpTransport } from 'mcp-live';
import { StdioTransport } from 'mcp-live/node';

const args = globalThis.Deno?.args ?? globalThis.process.argv.slice(2);
const [mode, ...rest] = args;
const transport =
  mode === 'stdio'
    ? new StdioTransport({ command: rest[0], args: [rest[1]], stderr: 'pipe' })
    : new StreamableHttpTransport(rest[0]);
const client = new McpClient({ transport, clientInfo: { name: 'runtime-smoke', version: '0.0.0' } });
try {
  await client.connect();
  const { items } = await client.listAllTools();
  const { contents } = await client.readResource('demo://readme');
  const sum = await client.callTool('add', { a: 2, b: 40 });
  console.log(
    JSON.stringify({
      era: client.era,
      tools: items.length > 0,
      add: items.some((tool) => tool.name === 'add'),
      readme: contents[0]?.text?.split('\n')[0],
      sum: sum.structuredContent,
      builds: ['mcp-live', 'mcp-live/node'].map((entry) => import.meta.resolve(entry).replace(/^.*\/mcp-live\//, '')),
    }),
  );
} finally {
  await client.close();
}
