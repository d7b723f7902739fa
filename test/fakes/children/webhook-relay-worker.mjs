// One worker of a fleet taking webhook deliveries, as its own process, on the built package
// (dist/): a WebhookReceiver wrapped in a RedisWebhookRelay, behind a node:http server on
// 127.0.0.1. The consumer worker is given the routes it holds (subscription id and secret, as its
// webhook subscription would make them); the others hold none.
//
//   node webhook-relay-worker.mjs '{"redisUrl":..., "worker":"w1", "routes":[{"id":"sub-1","secret":"whsec_..."}]}'
//
// Lines on stdout: {"event":"listening","url"} once it takes deliveries; {"event":"delivered",
// "id","webhookId","body"} for each body its receiver verified and handed on. Ends on SIGTERM.
import { createServer } from 'node:http';
import { Redis } from 'ioredis';
import { WebhookReceiver, webhookNodeHandler } from '../../../dist/node.js';
import { RedisWebhookRelay } from '../../../dist/redis.js';

const config = JSON.parse(process.argv[2]);
const write = (message) => process.stdout.write(`${JSON.stringify({ worker: config.worker, ...message })}\n`);

const redis = new Redis(config.redisUrl);
const relay = new RedisWebhookRelay({
  client: redis,
  receiver: new WebhookReceiver(),
  worker: config.worker,
  timeoutMs: config.timeoutMs ?? 2_000,
  onError: (error) => write({ event: 'error', message: error.message }),
});
await relay.ready();
for (const { id, secret } of config.routes ?? []) {
  await relay.routeShared(id, secret, {
    deliver: async (body, webhookId) => write({ event: 'delivered', id, webhookId, body }),
  });
}
const server = createServer(webhookNodeHandler(relay));
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
write({ event: 'listening', url: `http://127.0.0.1:${server.address().port}/webhook` });
process.once('SIGTERM', () => {
  server.close();
  void relay.close().finally(() => {
    redis.disconnect();
    process.exit(0);
  });
});
