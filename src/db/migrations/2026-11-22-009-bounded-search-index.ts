import type { Kysely, Migration } from 'kysely';

/**
 * Search keys for the engines' full-text tables, in posting order for posts and recruiting-start order for
 * jobs, and the state of the jobs' hiring sweep. The full-text tables this migration rebuilt, and everything
 * here, were dropped when search moved to the service's own index (migrations 016 and 017); what remains makes
 * the columns and the table that 017 drops, so every database passes through the same shapes.
 */
export function boundedSearchIndex(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('posts').addColumn('search_key', 'bigint').execute();
      await db.schema.createIndex('posts_search_key').unique().on('posts').column('search_key').execute();
      await db.schema.alterTable('jobs').addColumn('search_key', 'bigint').execute();
      await db.schema.createIndex('jobs_search_key').unique().on('jobs').column('search_key').execute();
      await db.schema
        .createTable('search_sweeps')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('swept_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  };
}
