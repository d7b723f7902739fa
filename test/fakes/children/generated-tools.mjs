// A stdio server with many generated tools, for the deferral tests against a real process:
// `node generated-tools.mjs <topic> <count>` lists `count` tools named `<topic>_<verb>_<n>`,
// each with a description and two described parameters, on the official v1 SDK.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import * as z from 'zod';

const VERBS = ['create', 'list', 'update', 'delete', 'archive', 'export', 'import', 'search', 'merge', 'sync'];
const [topic = 'gen', countText = '10'] = process.argv.slice(2);
const count = Number(countText);

const mcp = new McpServer({ name: `gen-${topic}`, version: '1.0.0' });
for (let i = 0; i < count; i++) {
  const verb = VERBS[i % VERBS.length];
  const name = `${topic}_${verb}_${i}`;
  mcp.registerTool(
    name,
    {
      description: `${verb[0].toUpperCase()}${verb.slice(1)}s ${topic} record number ${i} in the ${topic} system.`,
      inputSchema: {
        id: z.string().describe(`The ${topic} record id`),
        note: z.string().optional().describe('A free-text note kept with the change'),
      },
    },
    async ({ id }) => ({ content: [{ type: 'text', text: `${name} done for ${id}` }] }),
  );
}
await mcp.connect(new StdioServerTransport());
