import type { Kysely, Migration } from 'kysely';

/** Rate-limit counters of the in-process store, saved so that a restart does not reset a day's counts. */
export function rateLimitCounters(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('rate_limit_counters')
        .addColumn('counter_key', 'text', (c) => c.primaryKey())
        .addColumn('count', 'integer', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('rate_limit_counters_expiry')
        .on('rate_limit_counters')
        .column('expires_at')
        .execute();
    },
  };
}
