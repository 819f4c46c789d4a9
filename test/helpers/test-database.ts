import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type Database, type DatabaseOptions } from '../../src/db/database.js';
import { newFeedEpoch } from '../../src/change-feed/change-log.js';
import type { DemoManifest } from '../../src/demo/demo-generator.js';

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
  /** The PostgreSQL database of its own (postgres only); connections to it name `schema` in their search path. */
  url?: string;
  /** Reopens the same data with a new connection (a "restart"); PostgreSQL: through another URL or with other bounds. */
  reopen(
    options?: Partial<Pick<DatabaseOptions, 'url' | 'connectTimeoutMs' | 'queryTimeoutMs' | 'searchTimeoutMs'>>,
  ): Database;
  drop(): Promise<void>;
}

/**
 * A SQLite database of its own in a temp dir: a copy of `template`, a closed SQLite file, with epochs of its own
 * (withEpochsOfItsOwn).
 */
export async function copyOfSqliteFile(template: string): Promise<TestDatabase> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-test-'));
  const file = path.join(dir, 'test.sqlite');
  fs.copyFileSync(template, file);
  const open = () => openDatabase({ kind: 'sqlite', url: file });
  const database = open();
  await withEpochsOfItsOwn(database);
  return {
    database,
    engine: 'sqlite',
    file,
    reopen: open,
    drop: async () => {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A copy of a template starts as a database migrated on its own would: the epochs a migration draws at random (the
 * search log's, which a saved index copy must match, and the change feed's, which every cursor names) drawn again,
 * so that two copies are two databases to the service, not one restored twice.
 */
async function withEpochsOfItsOwn(database: Database): Promise<void> {
  await database.db
    .updateTable('search_log_state')
    .set({ value: randomBytes(16).toString('hex') })
    .where('name', '=', 'epoch')
    .execute();
  await database.db
    .updateTable('change_feed_state')
    .set({ value: newFeedEpoch() })
    .where('name', '=', 'epoch')
    .execute();
}

/** A fresh, migrated database: a real SQLite file in a temp dir, or a PostgreSQL database of its own. */
export async function createTestDatabase(engine: Engine): Promise<TestDatabase> {
  if (engine === 'sqlite') return await copyOfSqliteFile(inject('sqliteMigratedTemplate'));
  return copyOfPostgresTemplate(inject('postgresTemplates').migrated);
}

/** The database templates of a run on PostgreSQL (postgres-templates.ts), given to every test file. */
export interface PostgresTemplates {
  /** Migrated, empty. */
  migrated: string;
  /** Migrated, with the demo data at TEST_NOW. */
  demo: string;
  demoManifest: DemoManifest;
}

declare module 'vitest' {
  export interface ProvidedContext {
    postgresTemplates: PostgresTemplates;
  }
}

/** The schema every template keeps its tables in; each copy renames it to a name of its own. */
export const TEMPLATE_SCHEMA = 'svc_template';

/** `name` on the server of TEST_DATABASE_URL. */
export function databaseUrl(name: string): string {
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs `statements` on the server's default database (TEST_DATABASE_URL). */
export async function onServer(...statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * A PostgreSQL database of its own, copied from `template` (a file copy on the server: tens of milliseconds, where
 * migrating and seeding take a second), its schema renamed to a name of its own: the search path, the listening
 * connection's name and every query that names the schema are then this database's alone.
 */
export async function copyOfPostgresTemplate(template: string): Promise<TestDatabase> {
  const suffix = `${process.pid}_${randomBytes(4).toString('hex')}`;
  const name = `t_${suffix}`;
  const schema = `s_${suffix}`;
  await onServer(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  const url = databaseUrl(name);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`ALTER SCHEMA ${TEMPLATE_SCHEMA} RENAME TO ${schema}`);
  await client.end();
  const open = (
    options: Partial<Pick<DatabaseOptions, 'url' | 'connectTimeoutMs' | 'queryTimeoutMs' | 'searchTimeoutMs'>> = {},
  ) => openDatabase({ kind: 'postgres', searchPath: schema, poolSize: 4, ...options, url: options.url ?? url });
  const database = open();
  await withEpochsOfItsOwn(database);
  return {
    database,
    engine: 'postgres',
    schema,
    url,
    reopen: open,
    drop: () => onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
