// A 2025-11-25 stdio server that offers tools/list_changed, then, 300 ms after the client's
// notifications/initialized, writes a last line to stderr and exits with code 3: a server that
// dies while `mcp-live watch` listens to it.
import { createInterface } from 'node:readline';

const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);

createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.method === 'notifications/initialized') {
    setTimeout(() => {
      process.stderr.write('fatal: the widget store is corrupt\n');
      process.exit(3);
    }, 300);
    return;
  }
  if (!('id' in message)) return;
  if (message.method === 'initialize') {
    send({
      jsonrpc: '2.0',
      id: message.id,
      result: {
        protocolVersion: '2025-11-25',
        capabilities: { tools: { listChanged: true } },
        serverInfo: { name: 'dies-while-watched', version: '1.0.0' },
      },
    });
    return;
  }
  send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
});
