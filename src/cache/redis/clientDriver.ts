/**
 * Which client library a connection handed to a fleet store belongs to: ioredis or node-redis,
 * each behind its {@link RedisDriver}. A client of any other kind is refused when the store is
 * built, never accepted and left idle.
 */
import { InvalidArgumentError } from '../../errors/errors.js';
import { IoRedisDriver, isIoRedisClient, type IoRedisClient } from './ioredisDriver.js';
import { NodeRedisDriver, isNodeRedisClient, type NodeRedisClient } from './nodeRedisDriver.js';
import type { RedisDriver } from './redisDriver.js';

/**
 * A connection a fleet store can use: an ioredis `Redis` (standalone, Sentinel, TLS) or
 * `Cluster`, or a node-redis client of one node (`createClient()` of the `redis` package,
 * v4 and later; v6 is the tested one).
 */
export type RedisClient = IoRedisClient | NodeRedisClient;

export type { IoRedisClient, NodeRedisClient };

/**
 * The driver of `client`.
 * @throws InvalidArgumentError (-32602), `data.name` `"client"` and `data.value` the kind of
 *   object found (never the object: its options may hold a password), for anything that is
 *   neither an ioredis client nor a node-redis client of one node.
 */
export function driverFor(client: unknown): RedisDriver {
  if (isIoRedisClient(client)) return new IoRedisDriver(client);
  if (isNodeRedisClient(client)) return new NodeRedisDriver(client);
  throw new InvalidArgumentError('client', kindOf(client), unsupported(client));
}

function unsupported(client: unknown): string {
  const has = (name: string): boolean => typeof client === 'object' && client !== null && name in client;
  if (has('masters') && has('sendCommand'))
    return 'a node-redis cluster (createCluster) is not supported: pass an ioredis Cluster, or a node-redis client of one node';
  if (has('getMasterNode'))
    return 'a node-redis Sentinel (createSentinel) is not supported: pass an ioredis Redis with sentinels';
  if (has('send_command'))
    return 'node-redis before v4 (callback API) is not supported: use redis v4 or later (v6 is tested)';
  return 'expected an ioredis Redis or Cluster, or a node-redis client (createClient of the redis package)';
}

/** `"object RedisCluster"`, `"string"`…: what was passed, without its contents. */
function kindOf(value: unknown): string {
  if (typeof value !== 'object' || value === null) return value === null ? 'null' : typeof value;
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name !== '' ? `object ${name}` : 'object';
}
