import type { Kysely, Migration } from 'kysely';

/**
 * The key of hiring jobs in a second full-text table ordered by views (POPULARITY_DESC). The table, which this
 * migration filled, and the column were dropped when job search moved to the service's own index (017).
 */
export function jobPopularityIndex(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('jobs').addColumn('popularity_key', 'bigint').execute();
      await db.schema.createIndex('jobs_popularity_key').unique().on('jobs').column('popularity_key').execute();
    },
  };
}
