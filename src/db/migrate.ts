import { Migrator, sql } from 'kysely';
import type { Database } from './database.js';
import { withoutQueryTimeLimit } from './database-unavailable.js';
import { allMigrations } from './migrations/index.js';

/**
 * Applies every pending migration under Kysely's migration lock; throws on the first failure. Its statements
 * have no time limit (DATABASE_QUERY_TIMEOUT_MS): a migration may rewrite a table of millions of rows.
 */
export function migrateToLatest(database: Database): Promise<string[]> {
  return withoutQueryTimeLimit(() => migrate(database));
}

async function migrate(database: Database): Promise<string[]> {
  // Without a schema Kysely finds migration tables in any schema of the database (another deployment's, a
  // benchmark's) and then fails to use them; name the schema this connection works in, however it was set
  // (search_path in the URL, the role's default, or our own option).
  const schema = database.adapter.name === 'postgres'
    ? (await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(database.db)).rows[0]?.schema
    : undefined;
  const migrator = new Migrator({
    db: database.db,
    provider: { getMigrations: async () => allMigrations(database.adapter) },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
