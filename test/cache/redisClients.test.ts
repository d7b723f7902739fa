/**
 * Which clients a fleet store takes (src/cache/redis/clientDriver.ts): an ioredis `Redis` or
 * `Cluster`, or a node-redis client of one node. Anything else is refused when the store is
 * built, with a typed error naming what it got, instead of being accepted and storing nothing.
 * Nothing here connects: the clients are built lazily and never used.
 */
import { describe, expect, it } from 'vitest';
import { Cluster, Redis } from 'ioredis';
import { createClient, createCluster, createSentinel } from 'redis';
import { RedisCacheStore } from '../../src/cache/redis/redisCacheStore.js';
import { RedisTaskStore } from '../../src/tasks/redis/redisTaskStore.js';
import { InvalidArgumentError } from '../../src/errors/errors.js';
import { ErrorCode } from '../../src/errors/codes.js';

/** The error `build()` throws. */
function thrown(build: () => unknown): InvalidArgumentError {
  try {
    build();
  } catch (error) {
    if (error instanceof InvalidArgumentError) return error;
    throw error;
  }
  throw new Error('accepted');
}

describe('clients a RedisCacheStore takes', () => {
  it('takes an ioredis Redis and Cluster and a node-redis client; leaves a client it was given unopened', async () => {
    const io = new Redis({ lazyConnect: true });
    const cluster = new Cluster([], { lazyConnect: true });
    const nodeRedis = createClient();
    for (const client of [io, cluster, nodeRedis]) {
      const store = new RedisCacheStore({ client });
      expect(store.state).toBe('starting');
      await store.close();
    }
    io.disconnect();
    cluster.disconnect();
    expect(nodeRedis.isOpen).toBe(false);
  });

  it('refuses a node-redis cluster, a Sentinel, a callback-era client and other objects, saying which', () => {
    const cases: Array<[unknown, RegExp, string]> = [
      [createCluster({ rootNodes: [] }), /node-redis cluster .*ioredis Cluster/, 'object'],
      [createSentinel({ name: 'mymaster', sentinelRootNodes: [] }), /Sentinel/, 'object'],
      [{ send_command: () => {}, connected: false }, /before v4/, 'object Object'],
      [{ get: async () => null }, /expected an ioredis Redis or Cluster, or a node-redis client/, 'object Object'],
      ['redis://127.0.0.1:6379', /expected an ioredis/, 'string'],
    ];
    for (const [client, reason, kind] of cases) {
      const error = thrown(() => new RedisCacheStore({ client: client as never }));
      expect(error.code).toBe(ErrorCode.InvalidParams);
      expect(error.message).toMatch(reason);
      expect(error.data.name).toBe('client');
      expect(String(error.data.value)).toContain(kind);
    }
  });

  it('the error names the kind of object, never its contents (options may hold a password)', () => {
    const error = thrown(() => new RedisCacheStore({ client: { password: 'hunter2', get: () => {} } as never }));
    expect(JSON.stringify(error.data)).not.toContain('hunter2');
    expect(error.message).not.toContain('hunter2');
  });

  it('RedisTaskStore refuses a node-redis client (its commands are ioredis calls)', () => {
    const error = thrown(() => new RedisTaskStore({ client: createClient() as never }));
    expect(error.code).toBe(ErrorCode.InvalidParams);
    expect(error.message).toMatch(/ioredis/);
  });
});
