import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { DialectAdapter } from './dialects/dialect-adapter.js';
import { postgresAdapter } from './dialects/postgres-adapter.js';
import { sqliteAdapter } from './dialects/sqlite-adapter.js';
import type { DB } from './schema.js';
import { withStatementCache } from './statement-cache.js';

export interface Database {
  db: Kysely<DB>;
  adapter: DialectAdapter;
  /** A cheap round trip, for readiness checks. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  kind: 'sqlite' | 'postgres';
  /** SQLite file path or postgres:// URL. */
  url: string;
  /** PostgreSQL schema to use (tests give each file its own). */
  searchPath?: string;
  poolSize?: number;
}

// int8 (bigint ids, epoch-millisecond times, counts) as JS numbers: every value we store is below 2^53.
const INT8_OID = 20;
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

export function openDatabase(options: DatabaseOptions): Database {
  if (options.kind === 'postgres') {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      types: pgTypes as pg.CustomTypesConfig,
      ...(options.searchPath ? { options: `-c search_path=${options.searchPath}` } : {}),
    });
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return {
      db,
      adapter: postgresAdapter,
      ping: async () => { await pool.query('SELECT 1'); },
      close: () => db.destroy(),
    };
  }

  fs.mkdirSync(path.dirname(options.url), { recursive: true });
  const sqlite = new BetterSqlite3(options.url);
  sqlite.pragma('journal_mode = WAL');
  // FULL: a write that returned success is on disk even if the machine loses power.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return {
    db,
    adapter: sqliteAdapter,
    ping: async () => { sqlite.prepare('SELECT 1').get(); },
    close: () => db.destroy(),
  };
}
