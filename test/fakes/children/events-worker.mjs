// One worker of a fleet consuming `demo.tick` under a RedisLease, as its own process, on the built
// package (dist/): an McpClient over Streamable HTTP, cursors in a RedisCursorStore, the lease in
// the same redis-server. Everything it sees is a JSON line on stdout:
//
//   node events-worker.mjs '{"mcpUrl":..., "redisUrl":..., "worker":"w1", "ttlMs":1500, "mode":"poll"}'
//
// Lines: {"event":"state","state"} on every state; {"event":"tick","n"} for each occurrence handed
// on; {"event":"persisted","cursor"} once a cursor is in Redis; {"event":"subscribed","state"} when
// subscribe() resolved; {"event":"closed","reason","code"} when the subscription ends.
// It runs until killed (the test kills it with SIGKILL, or SIGTERM to end it).
import { Redis } from 'ioredis';
import { McpClient, StreamableHttpTransport, cursorKey } from '../../../dist/index.js';
import { RedisCursorStore, RedisLease } from '../../../dist/redis.js';

const config = JSON.parse(process.argv[2]);
const write = (message) => process.stdout.write(`${JSON.stringify({ worker: config.worker, ...message })}\n`);

const redis = new Redis(config.redisUrl);
const cursors = new RedisCursorStore({ client: redis });
const store = {
  get: (key) => cursors.get(key),
  set: async (key, cursor) => {
    await cursors.set(key, cursor);
    write({ event: 'persisted', cursor });
  },
  delete: (key) => cursors.delete(key),
};
const client = new McpClient({
  transport: new StreamableHttpTransport(config.mcpUrl),
  clientInfo: { name: `events-worker-${config.worker}`, version: '0.0.0' },
});
await client.connect();
const lease = new RedisLease({
  client: redis,
  name: cursorKey(config.mcpUrl, 'demo.tick', {}),
  ttlMs: config.ttlMs,
  owner: config.worker,
});
const subscription = await client.events.subscribe(
  'demo.tick',
  {},
  { delivery: config.mode, cursorStore: store, lease, poll: { floorMs: 100 } },
);
write({ event: 'subscribed', state: subscription.state });
subscription.on((event) => {
  if (event.type === 'state') write({ event: 'state', state: event.state });
  if (event.type === 'occurrence') write({ event: 'tick', n: event.occurrence.data.n });
  if (event.type === 'truncated') write({ event: 'truncated' });
  if (event.type === 'closed') write({ event: 'closed', reason: event.reason, code: event.error?.data?.reason });
});
process.once('SIGTERM', () => {
  void subscription
    .close()
    .then(() => client.close())
    .finally(() => {
      redis.disconnect();
      process.exit(0);
    });
});
