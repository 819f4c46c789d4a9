import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator } from 'kysely';
import { afterEach } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { allMigrations } from '../../src/db/migrations/index.js';
import { scratchStorage } from './scratch-storage.js';
import type { Engine } from './test-database.js';

/**
 * A fresh database of `engine` (a SQLite file, or a PostgreSQL database of its own) migrated up to and including
 * `migration`, as a database made by an older release was, for tests that migrate it the rest of the way.
 * `cleanup` removes it after `database` is closed.
 */
export async function databaseAt(
  engine: Engine,
  migration: string,
): Promise<{ database: Database; cleanup: () => Promise<void> }> {
  let database: Database;
  let cleanup: () => Promise<void>;
  if (engine === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-at-'));
    database = openDatabase({ kind: 'sqlite', url: path.join(dir, 'old.sqlite') });
    cleanup = async () => fs.rmSync(dir, { recursive: true, force: true });
  } else {
    // A database of its own, not a schema: migrations take a lock of the whole database, which other files' must not
    // wait on.
    const storage = await scratchStorage('postgres', os.tmpdir(), 'at');
    database = storage.open();
    cleanup = storage.drop;
  }
  const migrator = new Migrator({
    db: database.db,
    provider: { getMigrations: async () => allMigrations(database.adapter) },
  });
  const { error } = await migrator.migrateTo(migration);
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
