import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Data versions, bumped by every write of posts or jobs in the writing transaction, so cached search
 * results can be checked for freshness with one primary-key read; and the index that finds the next
 * job whose recruiting window ends.
 */
export function searchCacheVersions(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('data_versions')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('version', 'bigint', (c) => c.notNull())
        .execute();
      await sql`INSERT INTO data_versions (name, version) VALUES ('posts', 1), ('jobs', 1)`.execute(db);
      await db.schema.createIndex('jobs_status_end').on('jobs').columns(['status', 'end_at']).execute();
    },
  };
}
