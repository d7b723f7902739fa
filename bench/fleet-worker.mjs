// One worker of bench/fleet.mjs, part 2: an McpHost on the built package with the bench's five
// servers, its cache and state in one Redis (the fleet's). Each stdin line { id, user, tool }
// calls `tool` for `user` (a new scope the first time the user lands here: a cold call) and
// answers { id, ms, cold }.
import { createInterface } from 'node:readline';
import { Redis } from 'ioredis';
import { McpHost } from '../dist/host.js';
import { RedisCacheStore, RedisHostStateStore } from '../dist/redis.js';

const config = JSON.parse(process.argv[2]);
const redis = new Redis(config.redisUrl);
const host = new McpHost({
  clientInfo: { name: 'fleet-bench-worker', version: '0.0.0' },
  servers: Object.fromEntries(
    config.urls.map((url, i) => [
      `s${i}`,
      { type: 'http', url, perUser: config.kinds[i] === 'perUser', client: { reconnect: false } },
    ]),
  ),
  cacheStore: new RedisCacheStore({ client: redis }),
  state: new RedisHostStateStore({ client: redis }),
});
await host.connect();
const scopes = new Map();
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
for await (const line of createInterface({ input: process.stdin })) {
  const { id, user, tool } = JSON.parse(line);
  const started = performance.now();
  let scope = scopes.get(user);
  const cold = scope === undefined;
  if (cold) {
    const credentials = Object.fromEntries(
      config.kinds.flatMap((kind, i) =>
        kind === 'perUser' ? [[`s${i}`, { headers: { Authorization: `Bearer tok-${user}` } }]] : [],
      ),
    );
    scope = host.forUser(user, { credentials });
    scopes.set(user, scope);
    await scope.connect();
  }
  await scope.callTool(tool, { n: id });
  process.stdout.write(`${JSON.stringify({ id, ms: performance.now() - started, cold })}\n`);
}
