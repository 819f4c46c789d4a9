import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Job search moves to the service's own index too (docs/search.md), so the engines' full-text tables go, with
 * what only they needed: the search keys of posts and jobs and the hiring sweep's state. Hiring is now worked
 * out at the moment of each search from the index's own time cursors. Databases created since this change
 * never had the full-text tables (the migrations that made them no longer do), hence `IF EXISTS`.
 */
export function jobSearchIndex(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      for (const table of ['post_search', 'job_search', 'job_search_popular', 'search_sweeps']) {
        await sql`DROP TABLE IF EXISTS ${sql.table(table)}`.execute(db);
      }
      for (const index of ['jobs_search_key', 'jobs_popularity_key', 'posts_search_key'])
        await db.schema.dropIndex(index).ifExists().execute();
      await db.schema.alterTable('jobs').dropColumn('search_key').execute();
      await db.schema.alterTable('jobs').dropColumn('popularity_key').execute();
      await db.schema.alterTable('posts').dropColumn('search_key').execute();
    },
  };
}
