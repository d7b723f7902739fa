/**
 * The fleet entry: a response-cache store in Redis shared by every instance of a host, with
 * invalidation across the fleet, and a task store there so tasks outlive a host restart.
 * Node-only; needs the optional peer dependency `ioredis` installed (this entry loads it). The
 * cache store also takes a node-redis client (the optional peer `redis`); the task store takes
 * ioredis only.
 *
 * @module mcp-live/redis
 */
// Adding an export here adds public API. Never reached from ./index.ts or ./node.ts.
export {
  RedisCacheStore,
  DEFAULT_REDIS_TIMEOUT_MS,
  type RedisCacheStoreOptions,
} from './cache/redis/redisCacheStore.js';
export type { RedisClient, IoRedisClient, NodeRedisClient } from './cache/redis/clientDriver.js';
export type { Fence } from './cache/redis/generations.js';
export type { LocalTierOptions } from './cache/redis/localTier.js';
export type { SingleFlightOptions } from './cache/redis/singleFlight.js';
export { CacheStoreError, type CacheStoreErrorData } from './cache/redis/errors.js';
export { DEFAULT_PREFIX } from './cache/redis/redisKeys.js';
export {
  RedisTaskStore,
  DEFAULT_TASK_STORE_TIMEOUT_MS,
  type RedisTaskStoreOptions,
} from './tasks/redis/redisTaskStore.js';
export { TaskStoreError, type TaskStoreErrorData } from './tasks/redis/taskStoreError.js';
// The host state store of a fleet (docs/fleet.md): artifacts and approvals any worker picks up.
export {
  RedisHostStateStore,
  DEFAULT_HOST_STATE_TIMEOUT_MS,
  type RedisHostStateStoreOptions,
} from './host/state/redis/redisHostStateStore.js';
// Triggers & Events (docs/events.md, "A fleet"): cursors in Redis, and the lease that lets one
// worker consume a subscription at a time.
export { RedisCursorStore, type RedisCursorStoreOptions } from './events/redis/redisCursorStore.js';
export { RedisLease, type RedisLeaseOptions } from './events/redis/redisLease.js';
export { RedisWebhookRelay, type RedisWebhookRelayOptions } from './events/redis/webhookRelay.js';
