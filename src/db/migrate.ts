import { Migrator, sql, type MigrationResultSet } from 'kysely';
import type { Database } from './database.js';
import { withoutQueryTimeLimit } from './database-unavailable.js';
import { allMigrations } from './migrations/index.js';

/**
 * Applies every pending migration under Kysely's migration lock; throws on the first failure. Its statements
 * have no time limit (DATABASE_QUERY_TIMEOUT_MS): a migration may rewrite a table of millions of rows.
 *
 * A database a newer release already migrated further (a rollback, or this release's instance restarting in the
 * middle of a rolling upgrade) is served as it is: every migration is expand-only, so what a later one added does not
 * stop this release. Those migrations are given to `onNewer` (the server logs them). Migrations this release does not
 * know that sort before its own latest are another lineage, and refused as before.
 */
export function migrateToLatest(database: Database, onNewer?: (names: string[]) => void): Promise<string[]> {
  return withoutQueryTimeLimit(() => migrate(database, onNewer));
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

async function migrate(database: Database, onNewer?: (names: string[]) => void): Promise<string[]> {
  const { migrator, schema } = await migratorOf(database);
  const known = Object.keys(allMigrations(database.adapter)).sort();
  const executed = await executedMigrations(database, schema);
  const newer = executed.filter((name) => !known.includes(name));
  if (newer.length && newer.every((name) => name > known.at(-1)!)) {
    const missing = known.filter((name) => !executed.includes(name));
    if (missing.length)
      throw new Error(
        `The database holds migrations of a newer release (${newer.join(', ')}) but not this release's ${missing.join(', ')}`,
      );
    onNewer?.(newer);
    return [];
  }
  const { error, results } = await untilOthersSettle(schema, () => migrator.migrateToLatest());
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** The names of the migrations applied to this database, whichever release applied them (none on a new one). */
async function executedMigrations(database: Database, schema: string | undefined): Promise<string[]> {
  const table = sql.table(schema ? `${schema}.kysely_migration` : 'kysely_migration');
  try {
    return (await sql<{ name: string }>`SELECT name FROM ${table}`.execute(database.db)).rows.map((r) => r.name);
  } catch {
    return [];
  }
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
