import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Migrator } from 'kysely';
import { afterEach } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { untilOthersSettle } from '../../src/db/migrate.js';
import { allMigrations } from '../../src/db/migrations/index.js';
import type { Engine } from './test-database.js';

/**
 * A fresh database of `engine` (a SQLite file, or a PostgreSQL schema of its own) migrated up to and including
 * `migration`, as a database made by an older release was, for tests that migrate it the rest of the way.
 * `cleanup` removes it after `database` is closed.
 */
export async function databaseAt(
  engine: Engine,
  migration: string,
): Promise<{ database: Database; cleanup: () => Promise<void> }> {
  let database: Database;
  let cleanup: () => Promise<void>;
  let schema: string | undefined;
  if (engine === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-at-'));
    database = openDatabase({ kind: 'sqlite', url: path.join(dir, 'old.sqlite') });
    cleanup = async () => fs.rmSync(dir, { recursive: true, force: true });
  } else {
    schema = `at_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.end();
    database = openDatabase({ kind: 'postgres', url: process.env.TEST_DATABASE_URL!, searchPath: schema, poolSize: 2 });
    cleanup = async () => {
      const c = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await c.end();
    };
  }
  const migrator = new Migrator({
    db: database.db,
    provider: { getMigrations: async () => allMigrations(database.adapter) },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error } = await untilOthersSettle(schema, () => migrator.migrateTo(migration));
  if (error) throw error;
  return { database, cleanup };
}

/**
 * For the tests of a describe block: `open()` gives a fresh database migrated up to `migration` (databaseAt),
 * closed and removed after each test.
 */
export function databasesAt(engine: Engine, migration: string): () => Promise<Database> {
  let opened: { database: Database; cleanup: () => Promise<void> } | null = null;
  afterEach(async () => {
    await opened?.database.close();
    await opened?.cleanup();
    opened = null;
  });
  return async () => (opened = await databaseAt(engine, migration)).database;
}
