import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type Compilable } from 'kysely';
import pg from 'pg';
import type { DialectAdapter } from './dialects/dialect-adapter.js';
import { postgresAdapter } from './dialects/postgres-adapter.js';
import { sqliteAdapter } from './dialects/sqlite-adapter.js';
import type { DB } from './schema.js';
import { SqliteReadPool } from './sqlite-read-pool.js';
import { withStatementCache } from './statement-cache.js';

/** Runs a read that may take long (a search count or ranking) where it does not hold up other requests. */
export type LongReads = <R>(query: Compilable<R>) => Promise<R[]>;

export interface Database {
  db: Kysely<DB>;
  adapter: DialectAdapter;
  /** PostgreSQL: the pool, as for any query. SQLite: read-only connections in worker threads. */
  longReads: LongReads;
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
  /** SQLite: worker threads for long reads (default 2; 0 runs them on the main connection). */
  readWorkers?: number;
}

// int8 (bigint ids, epoch-millisecond times, counts) as JS numbers: every value we store is below 2^53.
const INT8_OID = 20;
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

function onConnection(db: Kysely<DB>): LongReads {
  return async <R>(query: Compilable<R>) => (await db.executeQuery(query.compile())).rows;
}

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
      longReads: onConnection(db),
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
  const workers = options.readWorkers ?? 2;
  const readers = workers > 0 && !sqlite.memory ? new SqliteReadPool(options.url, workers) : null;
  return {
    db,
    adapter: sqliteAdapter,
    longReads: readers ? <R>(query: Compilable<R>) => readers.execute<R>(query.compile()) : onConnection(db),
    ping: async () => { sqlite.prepare('SELECT 1').get(); },
    close: async () => {
      await readers?.close();
      await db.destroy();
    },
  };
}
