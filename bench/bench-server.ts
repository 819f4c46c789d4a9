/**
 * The service for benchmarks: the real app on the database DATABASE_URL names, with BENCH_LIMITER=off
 * swapping the rate-limit store for one that admits everything (to measure what the limiter costs).
 */
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import type { RateLimitStore } from '../src/rate-limit/rate-limit-store.js';

const admitAll: RateLimitStore = {
  consume: async (_key, windows, now) => ({
    allowed: true,
    windows: windows.map((window) => ({ window, count: 0, remaining: window.limit, resetAt: now + window.ms })),
  }),
  refund: async () => undefined,
  check: async () => null,
  close: async () => undefined,
};

const config = loadConfig();
const database = openDatabase({ kind: config.databaseKind, url: config.databaseUrl });
await migrateToLatest(database);
const app = await buildApp({
  config,
  database,
  logger: false,
  ...(process.env.BENCH_LIMITER === 'off' ? { rateLimitStore: admitAll } : {}),
});
await app.listen({ port: config.port, host: config.host });
process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => database.close())
    .then(() => process.exit(0));
});
