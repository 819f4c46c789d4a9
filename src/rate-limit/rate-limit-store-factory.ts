import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import { MemoryRateLimitStore } from './memory-store.js';
import type { RateLimitStore } from './rate-limit-store.js';
import { RedisRateLimitStore } from './redis-store.js';

/** Redis when REDIS_URL is set (with in-process counters while it is unreachable), else in-process. */
export async function rateLimitStoreFor(config: Config, database: Database, clock: () => number, log: FastifyBaseLogger): Promise<RateLimitStore> {
  const memory = new MemoryRateLimitStore(database.db, clock, log);
  if (config.redisUrl) return new RedisRateLimitStore(config.redisUrl, config.rateLimits.redisPrefix, memory, log);
  await memory.start(config.rateLimits.saveSeconds * 1000);
  return memory;
}
