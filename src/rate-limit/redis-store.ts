import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { DatabaseRateLimitStore } from './database-store.js';
import { counterKey, stateOf, type ConsumeResult, type RateLimitStore, type Window } from './rate-limit-store.js';

/**
 * Checks every window, then counts in all of them, in one atomic step: either all have room, or nothing
 * is counted. Returns [allowed, count per window…].
 */
const CONSUME = `
local n = #KEYS
for i = 1, n do
  local count = tonumber(redis.call('GET', KEYS[i]) or '0')
  if count >= tonumber(ARGV[i]) then
    local counts = {0}
    for j = 1, n do counts[j + 1] = tonumber(redis.call('GET', KEYS[j]) or '0') end
    return counts
  end
end
local counts = {1}
for i = 1, n do
  local count = redis.call('INCR', KEYS[i])
  if count == 1 then redis.call('PEXPIRE', KEYS[i], ARGV[n + i]) end
  counts[i + 1] = count
end
return counts
`;

const REFUND = `
for i = 1, #KEYS do
  if tonumber(redis.call('GET', KEYS[i]) or '0') > 0 then redis.call('DECR', KEYS[i]) end
end
return 1
`;

const RETRY_AFTER_FAILURE_MS = 2_000;
/** How long a starting instance waits for its first connection to Redis (one connect attempt and a retry). */
const CONNECT_WAIT_MS = 2_500;

/**
 * Counters in Redis, shared by every instance. When Redis cannot be reached the service counts in the
 * database instead (shared by every instance too, and reserved ahead so a crash loses no count), logs it
 * once, reports it on /readyz, and goes back to Redis as soon as it answers again.
 */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: Redis;
  private downSince: number | null = null;
  private retryAt = 0;

  constructor(
    url: string,
    private readonly prefix: string,
    private readonly fallback: DatabaseRateLimitStore,
    private readonly log?: FastifyBaseLogger,
  ) {
    this.redis = new Redis(url, {
      lazyConnect: false,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 1_000,
      commandTimeout: 500,
      retryStrategy: () => 1_000,
    });
    this.redis.on('error', () => undefined);
    this.redis.defineCommand('svcConsume', { lua: CONSUME });
    this.redis.defineCommand('svcRefund', { lua: REFUND });
  }

  /**
   * Resolves once the connection is up, or after CONNECT_WAIT_MS when Redis does not answer (the database then
   * counts until it does). An instance must not start serving before: its requests would be counted in the
   * database while the other instances count in Redis, and together they would admit up to twice the limit.
   */
  connected(): Promise<void> {
    if (this.redis.status === 'ready') return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.redis.off('ready', done);
        resolve();
      };
      const timer = setTimeout(done, CONNECT_WAIT_MS);
      this.redis.once('ready', done);
    });
  }

  async consume(key: string, windows: Window[], now: number): Promise<ConsumeResult> {
    if (Date.now() < this.retryAt) return this.fallback.consume(key, windows, now);
    try {
      const keys = windows.map((w) => `${this.prefix}${counterKey(key, w, now)}`);
      const args = [...windows.map((w) => w.limit), ...windows.map((w) => w.ms + 1_000)];
      const result = await (
        this.redis as unknown as { svcConsume(n: number, ...a: Array<string | number>): Promise<number[]> }
      ).svcConsume(keys.length, ...keys, ...args);
      this.recovered();
      const states = windows.map((w, i) => stateOf(w, Number(result[i + 1]), now));
      if (result[0] === 1) return { allowed: true, windows: states };
      return { allowed: false, windows: states, blocking: states.find((s) => s.count >= s.window.limit) };
    } catch (err) {
      this.failed(err);
      return this.fallback.consume(key, windows, now);
    }
  }

  async refund(key: string, windows: Window[], now: number): Promise<void> {
    if (Date.now() < this.retryAt) return this.fallback.refund(key, windows, now);
    try {
      const keys = windows.map((w) => `${this.prefix}${counterKey(key, w, now)}`);
      await (this.redis as unknown as { svcRefund(n: number, ...k: string[]): Promise<number> }).svcRefund(
        keys.length,
        ...keys,
      );
    } catch (err) {
      this.failed(err);
    }
  }

  private failed(err: unknown): void {
    this.retryAt = Date.now() + RETRY_AFTER_FAILURE_MS;
    if (this.downSince === null) {
      this.downSince = Date.now();
      this.log?.error({ err }, 'Redis is unreachable: rate limits are counted in the database until it answers again');
    }
  }

  /** Pings Redis (within the command timeout): a dead Redis is reported before any request meets it, and a live one ends a fallback. */
  async check(): Promise<string | null> {
    try {
      await this.redis.ping();
      this.recovered();
      this.retryAt = 0;
    } catch (err) {
      this.failed(err);
    }
    if (this.downSince === null) return this.fallback.check();
    return `Redis unreachable since ${new Date(this.downSince).toISOString()}: rate limits are counted in the database`;
  }

  private recovered(): void {
    if (this.downSince === null) return;
    this.log?.warn({ downForMs: Date.now() - this.downSince }, 'Redis is back: rate limits are shared again');
    this.downSince = null;
  }

  async close(): Promise<void> {
    this.redis.disconnect();
    await this.fallback.close();
  }
}
