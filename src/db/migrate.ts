import { Migrator } from 'kysely';
import type { Database } from './database.js';
import { allMigrations } from './migrations/index.js';

/** Applies every pending migration under Kysely's migration lock; throws on the first failure. */
export async function migrateToLatest(database: Database): Promise<string[]> {
  const migrator = new Migrator({
    db: database.db,
    provider: { getMigrations: async () => allMigrations(database.adapter) },
    // Without a schema Kysely finds migration tables in any schema of the database (another deployment's,
    // a benchmark's) and then fails to use them; name the schema this database lives in.
    ...(database.schema ? { migrationTableSchema: database.schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
