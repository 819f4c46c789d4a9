import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import { DatabaseRateLimitStore } from './database-store.js';
import type { RateLimitStore } from './rate-limit-store.js';
import { RedisRateLimitStore } from './redis-store.js';

/**
 * Redis when REDIS_URL is set (with the database's counters while it is unreachable), connected before it is
 * returned, so an instance never serves while counting apart from the others; else the database's.
 */
export async function rateLimitStoreFor(
  config: Config,
  database: Database,
  clock: () => number,
  log: FastifyBaseLogger,
): Promise<RateLimitStore> {
  const counters = new DatabaseRateLimitStore(database.db, clock, log);
  counters.start();
  if (!config.redisUrl) return counters;
  const redis = new RedisRateLimitStore(config.redisUrl, config.rateLimits.redisPrefix, counters, log);
  await redis.connected();
  return redis;
}
