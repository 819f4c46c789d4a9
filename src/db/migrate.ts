import { Migrator, sql, type MigrationResultSet } from 'kysely';
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

/** The migrator of this database, with the schema it works in (PostgreSQL). */
async function migratorOf(database: Database): Promise<{ migrator: Migrator; schema: string | undefined }> {
  // Without a schema Kysely finds migration tables in any schema of the database (another deployment's, a
  // benchmark's) and then fails to use them; name the schema this connection works in, however it was set
  // (search_path in the URL, the role's default, or our own option).
  const schema =
    database.adapter.name === 'postgres'
      ? (await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(database.db)).rows[0]?.schema
      : undefined;
  const migrator = new Migrator({
    db: database.db,
    provider: { getMigrations: async () => allMigrations(database.adapter) },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  return { migrator, schema };
}

/** Each migration this release has, in order, with when it was applied here (null: pending). */
export async function migrationStatus(database: Database): Promise<{ name: string; appliedAt: Date | null }[]> {
  const { migrator } = await migratorOf(database);
  return (await migrator.getMigrations()).map((m) => ({ name: m.name, appliedAt: m.executedAt ?? null }));
}

async function migrate(database: Database): Promise<string[]> {
  const { migrator, schema } = await migratorOf(database);
  const { error, results } = await untilOthersSettle(schema, () => migrator.migrateToLatest());
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * Runs a migrator step again when it failed only because another schema of the database, or a table in one, was
 * dropped while Kysely looked at every table of the database (its introspection reads them all, and a schema dropped
 * in the middle makes that read fail): nothing of ours ran, and the next look succeeds. Several deployments (or test
 * runs) sharing one PostgreSQL database meet this; our own schema missing is a real error and is not retried.
 */
export async function untilOthersSettle(
  schema: string | undefined,
  step: () => Promise<MigrationResultSet>,
): Promise<MigrationResultSet> {
  for (let attempt = 1; ; attempt++) {
    const result = await step();
    const gone =
      result.error instanceof Error
        ? /(?:schema|relation) "([^".]+)(?:\.[^"]*)?" does not exist/.exec(result.error.message)
        : null;
    if (!gone || gone[1] === schema || attempt >= 5 || (result.results ?? []).some((r) => r.status !== 'NotExecuted'))
      return result;
    await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
  }
}
