/**
 * The fleet parts against a real redis-server: cursors in Redis outlive the process that wrote
 * them, and the lease lets one worker consume a subscription while a second waits, taking over
 * within the lease (plus a third of it) once the first dies without releasing it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { RedisCursorStore, RedisLease } from '../../src/redis.js';
import { cursorKey } from '../../src/index.js';
import { sha256Hex } from '../../src/cache/sha256.js';
import { systemBinary } from '../setup/systemBinaries.js';
import { startRedisServer, type RedisServer } from '../fakes/redisServer.js';

const redisBinary = systemBinary('redis-server');
let redis: RedisServer;
let client: Redis;

beforeAll(async () => {
  redis = await startRedisServer(redisBinary.path!);
  client = new Redis(redis.url);
});
afterAll(async () => {
  client?.disconnect();
  await redis?.stop();
});

describe.skipIf(redisBinary.path === undefined)('events in a fleet (Redis)', () => {
  it('keeps cursors by a digest of the key, readable by another connection', async () => {
    const key = cursorKey('http://127.0.0.1:1/mcp', 'demo.tick', { b: 1, a: 2 });
    await new RedisCursorStore({ client }).set(key, 'epoch:7');
    const other = new Redis(redis.url);
    expect(
      await new RedisCursorStore({ client: other }).get(
        cursorKey('http://127.0.0.1:1/mcp', 'demo.tick', { a: 2, b: 1 }),
      ),
    ).toBe('epoch:7');
    const keys = await other.keys('mcp-live:events:cursor:*');
    expect(keys).toHaveLength(1);
    expect(keys[0]).not.toContain('demo.tick');
    other.disconnect();
  });

  it('lets one worker hold a subscription; a second takes over within the lease when the first dies', async () => {
    const name = cursorKey('http://127.0.0.1:1/mcp', 'demo.tick', {});
    const first = new RedisLease({ client, name, ttlMs: 600, owner: 'worker-1' });
    const second = new RedisLease({ client, name, ttlMs: 600, owner: 'worker-2' });
    expect(await first.acquire()).toBe(true);
    expect(await second.acquire()).toBe(false);
    // worker-1 "dies": it never renews nor releases. worker-2 waits for the lease.
    const diedAt = Date.now();
    const tookOverAt = await second.hold(async () => Date.now());
    expect(tookOverAt - diedAt).toBeLessThanOrEqual(600 + 200 + 100);
    expect(await first.renew()).toBe(false); // the lapsed owner cannot take it back by renewing
    expect(await client.get(`mcp-live:events:lease:${sha256Hex(name)}`)).toBeNull(); // released after work
  });

  it('renews while work runs, so a waiting worker does not take over a live one', async () => {
    const name = 'lease-renewal';
    const live = new RedisLease({ client, name, ttlMs: 300 });
    const waiting = new RedisLease({ client, name, ttlMs: 300 });
    const work = live.hold(async (signal) => {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      return signal.aborted;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const attempts: boolean[] = [];
    for (let i = 0; i < 5; i++) {
      attempts.push(await waiting.acquire());
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    expect(attempts).toEqual([false, false, false, false, false]);
    expect(await work).toBe(false);
    expect(await waiting.acquire()).toBe(true);
    await waiting.release();
  });
});
