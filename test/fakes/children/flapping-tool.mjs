// A stdio server whose `deploy` tool keeps leaving its tool list and coming back (the planted
// problem of docs/devtools.md): `node flapping-tool.mjs [periodMs]` disables it, then enables it,
// every `periodMs` (default 700), each time with notifications/tools/list_changed; `status`
// stays. On the official v1 SDK.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const periodMs = Number(process.argv[2] ?? '700');
const mcp = new McpServer({ name: 'flapping', version: '1.0.0' });
mcp.registerTool('status', { description: 'Says the deployment status.' }, async () => ({
  content: [{ type: 'text', text: 'green' }],
}));
const deploy = mcp.registerTool('deploy', { description: 'Deploys the current build.' }, async () => ({
  content: [{ type: 'text', text: 'deployed' }],
}));
await mcp.connect(new StdioServerTransport());
const flap = setInterval(() => (deploy.enabled ? deploy.disable() : deploy.enable()), periodMs);
process.stdin.once('end', () => clearInterval(flap));
