// A scripted 2025-11-25 stdio server for the era-detection cases. argv[2] says how it answers
// the server/discover probe:
//   s1: -32601 Method not found     s2: -32602 Invalid request parameters
//   s3: -32600 Server not initialized   s4: never answers (and keeps running)
// argv[3] (optional) "list-changed": sends notifications/tools/list_changed right after
// notifications/initialized.
// Everything else: initialize (answers the asked version when it speaks it, else 2025-11-25),
// tools/list (one tool, "received"), tools/call "received" (returns every message received so
// far as JSON text), ping.
import { createInterface } from 'node:readline';

const [mode, extra] = process.argv.slice(2);
const SPOKEN = ['2025-11-25', '2025-06-18', '2025-03-26'];
const received = [];
const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const probeErrors = {
  s1: { code: -32601, message: 'Method not found' },
  s2: { code: -32602, message: 'Invalid request parameters' },
  s3: { code: -32600, message: 'Server not initialized' },
};

createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  received.push(message);
  if (message.method === 'notifications/initialized' && extra === 'list-changed') {
    send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
  }
  if (!('id' in message) || typeof message.method !== 'string') return;
  const reply = (result) => send({ jsonrpc: '2.0', id: message.id, result });
  switch (message.method) {
    case 'server/discover': {
      const error = probeErrors[mode];
      if (error !== undefined) send({ jsonrpc: '2.0', id: message.id, error });
      return;
    }
    case 'initialize': {
      const asked = message.params?.protocolVersion;
      reply({
        protocolVersion: SPOKEN.includes(asked) ? asked : '2025-11-25',
        capabilities: { tools: {} },
        serverInfo: { name: `legacy-stdio-${mode}`, version: '1.0.0' },
      });
      return;
    }
    case 'tools/list':
      reply({ tools: [{ name: 'received', inputSchema: { type: 'object' } }] });
      return;
    case 'tools/call':
      reply({ content: [{ type: 'text', text: JSON.stringify(received) }] });
      return;
    case 'ping':
      reply({});
      return;
    default:
      send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
  }
});
