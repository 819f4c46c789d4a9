import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, type Database, type DatabaseOptions } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';

export type Engine = 'sqlite' | 'postgres';

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL is set (CI sets it). */
export const ENGINES: Engine[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

if (!process.env.TEST_DATABASE_URL && !process.env.VITEST_WORKER_ID?.startsWith('quiet')) {
  console.warn('TEST_DATABASE_URL is not set: PostgreSQL cases are skipped; SQLite cases run.');
}

export interface TestDatabase {
  database: Database;
  engine: Engine;
  /** Where the SQLite file lives (sqlite only), for restart tests. */
  file?: string;
  /** The PostgreSQL schema of its own (postgres only). */
  schema?: string;
  /** Reopens the same data with a new connection (a "restart"); PostgreSQL: through another URL or with other bounds. */
  reopen(
    options?: Partial<Pick<DatabaseOptions, 'url' | 'connectTimeoutMs' | 'queryTimeoutMs' | 'searchTimeoutMs'>>,
  ): Database;
  drop(): Promise<void>;
}

/** A SQLite database of its own in a temp dir: a copy of `template`, a closed SQLite file. */
export function copyOfSqliteFile(template: string): TestDatabase {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-test-'));
  const file = path.join(dir, 'test.sqlite');
  fs.copyFileSync(template, file);
  const open = () => openDatabase({ kind: 'sqlite', url: file });
  return {
    database: open(),
    engine: 'sqlite',
    file,
    reopen: open,
    drop: async () => {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A fresh, migrated database: a real SQLite file in a temp dir, or a PostgreSQL schema of its own. */
export async function createTestDatabase(engine: Engine): Promise<TestDatabase> {
  if (engine === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-test-'));
    const file = path.join(dir, 'test.sqlite');
    const open = () => openDatabase({ kind: 'sqlite', url: file });
    const database = open();
    await migrateToLatest(database);
    return {
      database,
      engine,
      file,
      reopen: open,
      drop: async () => {
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const url = process.env.TEST_DATABASE_URL!;
  const schema = `t_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const open = (
    options: Partial<Pick<DatabaseOptions, 'url' | 'connectTimeoutMs' | 'queryTimeoutMs' | 'searchTimeoutMs'>> = {},
  ) => openDatabase({ kind: 'postgres', searchPath: schema, poolSize: 4, ...options, url: options.url ?? url });
  const database = open();
  await migrateToLatest(database);
  return {
    database,
    engine,
    schema,
    reopen: open,
    drop: async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    },
  };
}
