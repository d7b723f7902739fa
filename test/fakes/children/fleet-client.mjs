// One instance of a fleet, as its own process: McpClients (one per user) on the built package
// (dist/), over Streamable HTTP to one MCP server, sharing a RedisCacheStore. Driven by JSON lines
// on stdin; answers and events are JSON lines on stdout.
//
//   node fleet-client.mjs '{"mcpUrl":..., "redisUrl":..., "prefix":..., "users":["alice"], "localTier":false, "timeoutMs":200}'
//
// Commands: {"id", "op": "read", "user", "uri"} → {"id", "source": "cache" | "network", "text"}
//           {"id", "op": "subscribe", "user", "uris": [...]} → {"id"}
//           {"id", "op": "call", "user", "name", "args"} → {"id", "text"}
//           {"id", "op": "ready"} → {"id"} once the store uses Redis
//           {"id", "op": "close"} → {"id"}, then the process exits
// Events: {"event": "cache", "user", ...CacheEvent} for invalidate events; {"event": "store-error", "code", "reason"}.
import { createInterface } from 'node:readline';
import { McpClient, StreamableHttpTransport } from '../../../dist/index.js';
import { RedisCacheStore } from '../../../dist/redis.js';

const config = JSON.parse(process.argv[2]);
const write = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);

const store = new RedisCacheStore({
  connection: config.redisUrl,
  prefix: config.prefix,
  localTier: config.localTier ?? false,
  retryMs: 100,
  timeoutMs: config.timeoutMs,
  onError: (error) =>
    write({ event: 'store-error', code: error.code, reason: error.data?.reason, message: error.message }),
});
await store.ready();

const clients = new Map();
for (const user of config.users) {
  const client = new McpClient({
    transport: new StreamableHttpTransport(config.mcpUrl),
    clientInfo: { name: `fleet-${user}`, version: '1.0.0' },
    cache: {
      store,
      authContext: user,
      onEvent: (event) => {
        if (event.type === 'invalidate') write({ event: 'cache', user, ...event });
      },
    },
    onError: () => {},
  });
  await client.connect();
  clients.set(user, client);
}
write({ event: 'started', pid: process.pid });

const textOf = (result) => {
  const first = result.contents?.[0] ?? result.content?.[0];
  return first?.text ?? null;
};

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  const command = JSON.parse(line);
  const client = clients.get(command.user);
  try {
    switch (command.op) {
      case 'read': {
        // The cache's counters tell where the answer came from (reads are sent one at a time).
        const hits = client.cacheStats().hits;
        const result = await client.readResource(command.uri);
        write({ id: command.id, text: textOf(result), source: client.cacheStats().hits > hits ? 'cache' : 'network' });
        break;
      }
      case 'subscribe':
        await client.subscribe({ resourceSubscriptions: command.uris });
        write({ id: command.id });
        break;
      case 'call':
        write({ id: command.id, text: textOf(await client.callTool(command.name, command.args ?? {})) });
        break;
      case 'ready':
        await store.ready();
        write({ id: command.id });
        break;
      case 'close':
        for (const each of clients.values()) await each.close();
        await store.close();
        write({ id: command.id });
        process.exit(0);
      // eslint-disable-next-line no-fallthrough
      default:
        write({ id: command.id, error: `unknown op ${command.op}` });
    }
  } catch (error) {
    write({ id: command.id, error: String(error?.message ?? error) });
  }
}
