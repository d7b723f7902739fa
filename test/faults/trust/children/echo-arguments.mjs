// A 2026-07-28 stdio server whose tools answer with the arguments they received: the text of a
// tools/call result is the JSON of `params.arguments` exactly as parsed from the wire. Lists
// two tools: `record` (nested arguments) and `delete_repo`. Answers other list methods empty.
import { createInterface } from 'node:readline';

const send = (message) => process.stdout.write(JSON.stringify(message) + '\n');
const complete = (extra) => ({ resultType: 'complete', ttlMs: 0, cacheScope: 'private', ...extra });
const tools = [
  {
    name: 'record',
    description: 'Stores a note with its tags and owner.',
    inputSchema: {
      type: 'object',
      properties: {
        note: { type: 'string', description: 'The note.' },
        owner: { type: 'object', properties: { name: { type: 'string' }, role: { type: 'string' } } },
        tags: { type: 'array', items: { type: 'string' } },
      },
    },
  },
  {
    name: 'delete_repo',
    description: 'Deletes a repository.',
    inputSchema: { type: 'object', properties: { repo: { type: 'string' } }, required: ['repo'] },
  },
];

createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (!('id' in message)) return;
  const reply = (result) => send({ jsonrpc: '2.0', id: message.id, result });
  switch (message.method) {
    case 'server/discover':
      return reply({
        resultType: 'complete',
        supportedVersions: ['2026-07-28'],
        capabilities: { tools: {} },
        serverInfo: { name: 'echo-arguments', version: '1.0.0' },
        ttlMs: 0,
        cacheScope: 'public',
      });
    case 'tools/list':
      return reply(complete({ tools }));
    case 'tools/call':
      return reply({
        resultType: 'complete',
        content: [{ type: 'text', text: JSON.stringify(message.params?.arguments ?? null) }],
      });
    default:
      return send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
  }
});
