import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  type Compilable,
  type DatabaseConnection,
  type Driver,
  type PostgresPool,
  type SqliteDialectConfig,
} from 'kysely';
import pg from 'pg';
import type { DialectAdapter } from './dialects/dialect-adapter.js';
import { postgresAdapter } from './dialects/postgres-adapter.js';
import { sqliteAdapter } from './dialects/sqlite-adapter.js';
import type { Config } from '../config.js';
import { databaseUnavailable, queryTimeLimit } from './database-unavailable.js';
import { ClientGoneError, readScope } from './read-scope.js';
import type { DB } from './schema.js';
import {
  countStatement,
  postgresPreparedReads,
  sqlitePreparedReads,
  type NamedStatementPool,
  type PreparedReads,
  type StatementCounter,
} from './prepared-reads.js';
import { SQLITE_CACHE_SIZE, SQLITE_MMAP_BYTES, SqliteReadPool } from './sqlite-read-pool.js';
import { withStatementCache } from './statement-cache.js';
import { holdingStatements } from './postgres-held-statements.js';
import { postgresNotices, type Notices } from './postgres-notices.js';

/** Runs a read that may take long (a search count or ranking) where it does not hold up other requests. */
export type LongReads = <R>(query: Compilable<R>) => Promise<R[]>;

export interface Database {
  db: Kysely<DB>;
  /**
   * PostgreSQL: a small pool of its own for work in the background of requests (webhook deliveries), so that it never
   * waits behind a burst of reads for a connection, nor makes them wait. SQLite: `db`.
   */
  background: Kysely<DB>;
  adapter: DialectAdapter;
  /** PostgreSQL: the pool, as for any query. SQLite: read-only connections in worker threads. */
  longReads: LongReads;
  /** The hot reads: statements prepared once, run without Kysely (prepared-reads.ts). */
  reads: PreparedReads;
  /** Every statement this process has run on the database (tests hold a read to its count). */
  statements: StatementCounter;
  /** A cheap round trip, for readiness checks. */
  ping(): Promise<void>;
  /** PostgreSQL: LISTEN/NOTIFY between the instances on this database (postgres-notices.ts). SQLite: null. */
  notices: Notices | null;
  /** Each pool of connections or read workers now: its size, how many are busy, how many reads wait (for metrics). */
  pools(): PoolStats[];
  /**
   * PostgreSQL: who hears of an idle pooled connection the server closed (a restart, `pg_terminate_backend`, a
   * pooler's idle timeout). The pool drops it and opens a new one when one is next needed; nothing else is affected.
   */
  onIdleConnectionLost(listener: (err: Error, pool: string) => void): void;
  close(): Promise<void>;
}

export interface PoolStats {
  name: string;
  size: number;
  busy: number;
  waiting: number;
}

const pgPoolStats = (name: string, pool: pg.Pool): PoolStats => ({
  name,
  size: pool.totalCount,
  busy: pool.totalCount - pool.idleCount,
  waiting: pool.waitingCount,
});

export interface DatabaseOptions {
  kind: 'sqlite' | 'postgres';
  /** SQLite file path or postgres:// URL. */
  url: string;
  /** PostgreSQL schema to use (tests give each file its own). */
  searchPath?: string;
  /** PostgreSQL: connections of the main pool (default 10). */
  poolSize?: number;
  /** PostgreSQL: connections of the pool the long reads use (default 4), so searches never take the main pool's. */
  searchPoolSize?: number;
  /** PostgreSQL: connections of the background pool (default 2). */
  backgroundPoolSize?: number;
  /** SQLite: worker threads for long reads (default 2; 0 runs them on the main connection). */
  readWorkers?: number;
  /** SQLite: a read worker with nothing to read for this long ends (default 60 s; the next read starts one). */
  readWorkerIdleMs?: number;
  /** A long read running longer is stopped (default 2,000 ms). */
  searchTimeoutMs?: number;
  /** PostgreSQL: waiting for a connection (a new one, or a free one of the pool) fails after this (default: no limit). */
  connectTimeoutMs?: number;
  /** PostgreSQL: a statement with no answer fails after this, and its connection is closed (default: no limit). */
  queryTimeoutMs?: number;
}

/** The database options the settings ask for. */
export function databaseOptions(config: Config): DatabaseOptions {
  return {
    kind: config.databaseKind,
    url: config.databaseUrl,
    readWorkers: config.sqliteReadWorkers,
    poolSize: config.databasePoolSize,
    searchPoolSize: config.searchPoolSize,
    backgroundPoolSize: config.backgroundPoolSize,
    searchTimeoutMs: config.searchTimeoutMs,
    connectTimeoutMs: config.databaseConnectTimeoutMs,
    queryTimeoutMs: config.databaseQueryTimeoutMs,
  };
}

// int8 (bigint ids, epoch-millisecond times, counts) as JS numbers: every value we store is below 2^53.
const INT8_OID = 20;
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

/**
 * The pool as Kysely (and the long reads) use it, with every statement bounded by `queryTimeoutMs` (pg's client-side timer: a paused
 * or unreachable server enforces nothing itself). A connection whose statement timed out or broke is closed on
 * release, never handed to the next request: its statement may still be running, or its transaction still open.
 */
function boundedPool(
  pool: pg.Pool,
  queryTimeoutMs: number | undefined,
  counter: StatementCounter,
): PostgresPool & NamedStatementPool {
  const connect = async () => {
    const client = await pool.connect();
    let broken: Error | undefined;
    // In pipeline mode a statement that times out closes its connection at once (the statements behind it on the
    // wire would wait for it), and the client reports the closed connection as an error event. The pool listens
    // only while the client is idle: while it is checked out, the error is this connection's, and it is not reused.
    const onError = (err: Error) => {
      broken = err;
    };
    client.on('error', onError);
    const run = (config: pg.QueryConfig) => {
      countStatement(counter);
      return client.query(config).catch((err: unknown) => {
        if (databaseUnavailable(err) !== null) broken = err as Error;
        throw err;
      });
    };
    return {
      query: holdingStatements((text, values) => run(timed(text, values, queryTimeLimit(queryTimeoutMs)))),
      run,
      release: () => {
        client.off('error', onError);
        client.release(broken);
      },
    };
  };
  return {
    connect: connect as unknown as PostgresPool['connect'],
    end: () => pool.end(),
    // A named statement: pg parses and plans it once per connection, then only binds and runs it.
    run: async <Row>(name: string, text: string, values: readonly unknown[]) => {
      const client = await connect();
      try {
        return (await client.run({ ...timed(text, values, queryTimeLimit(queryTimeoutMs)), name })).rows as Row[];
      } finally {
        client.release();
      }
    },
  };
}

/** A statement with pg's client-side time limit (`query_timeout`, which its typings do not declare per query). */
function timed(text: string, values: readonly unknown[] | undefined, limitMs: number | undefined): pg.QueryConfig {
  return {
    text,
    values: values as unknown[],
    ...(limitMs === undefined ? {} : { query_timeout: limitMs }),
  } as pg.QueryConfig;
}

/** A readiness check answers within about this long (plus the wait for a connection). */
const PING_TIMEOUT_MS = 2_000;

function onConnection(db: Kysely<DB>): LongReads {
  return async <R>(query: Compilable<R>) => (await db.executeQuery(query.compile())).rows;
}

/** The long reads, counted with every other statement. */
function counted(longReads: LongReads, counter: StatementCounter): LongReads {
  return <R>(query: Compilable<R>) => {
    countStatement(counter);
    return longReads(query);
  };
}

export function openDatabase(options: DatabaseOptions): Database {
  const timeoutMs = options.searchTimeoutMs ?? 2_000;
  const statements: StatementCounter = { count: 0 };
  if (options.kind === 'postgres') {
    const poolOf = (max: number, settings: string) =>
      new pg.Pool({
        connectionString: options.url,
        max,
        ...(options.connectTimeoutMs === undefined ? {} : { connectionTimeoutMillis: options.connectTimeoutMs }),
        // A server that vanished without closing the connection is noticed by the operating system.
        keepAlive: true,
        // Statements given at once are written at once, and answered in order (postgres-held-statements.ts).
        pipeline: true,
        types: pgTypes as pg.CustomTypesConfig,
        options: `${options.searchPath ? `-c search_path=${options.searchPath} ` : ''}${settings}`.trim(),
      });
    // The hot reads are named statements (prepared-reads.ts) that read a few rows by primary key: their generic
    // plan is the plan. With the default (auto), PostgreSQL plans the first five runs for their parameters, then
    // keeps planning every run whenever the generic plan's estimate looks worse, which for a detail of seven joins
    // costs several times more than running it (docs/performance.md). Kysely's statements are unnamed: planned per run anyway.
    const pool = poolOf(options.poolSize ?? 10, '-c plan_cache_mode=force_generic_plan');
    // Searches have their own connections and a statement time limit: a slow search never holds up a detail
    // read or the data-version read that even a kept response needs, and a pathological one is stopped.
    // Memory enough that the bitmap of a broad term stays exact (with the default work_mem it turns lossy and every
    // row of its pages is checked again, which made a broad count take more than twice as long).
    const searchPool = poolOf(options.searchPoolSize ?? 4, `-c statement_timeout=${timeoutMs} -c work_mem=64MB`);
    const mainPool = boundedPool(pool, options.queryTimeoutMs, statements);
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: mainPool }) });
    // The server stops a search at statement_timeout; the client's own timer, a second later, for a server that cannot.
    const searchReads = boundedPool(searchPool, timeoutMs + 1_000, statements);
    const backgroundPool = poolOf(options.backgroundPoolSize ?? 2, '');
    // pg emits 'error' on the pool when an idle connection breaks; with no listener that is an uncaught exception
    // that ends the process. The pool has already let go of the connection: hearing of it is all that is needed.
    let idleLost: (err: Error, pool: string) => void = () => undefined;
    for (const [name, each] of [
      ['main', pool],
      ['search', searchPool],
      ['background', backgroundPool],
    ] as const) {
      each.on('error', (err) => idleLost(err, name));
    }
    const background = new Kysely<DB>({
      dialect: new PostgresDialect({ pool: boundedPool(backgroundPool, options.queryTimeoutMs, statements) }),
    });
    // Its statements are counted by the main pool, as every other statement of `db`.
    const unboundedReads = onConnection(db);
    const notices = postgresNotices(
      options.url,
      `svc-notices${options.searchPath ? ` ${options.searchPath}` : ''}`.slice(0, 63),
      async (channel, payload) => {
        await pool.query(timed('SELECT pg_notify($1, $2)', [channel, payload], options.queryTimeoutMs));
      },
    );
    return {
      db,
      background,
      adapter: postgresAdapter,
      reads: postgresPreparedReads(mainPool),
      statements,
      longReads: async <R>(query: Compilable<R>) => {
        // Work no client waits for (an index build) reads on the main pool, which has no statement_timeout: the
        // search pool's is a request's limit, and a slow machine would make it fatal to a start.
        if (queryTimeLimit(timeoutMs) === undefined) return unboundedReads(query);
        const signal = readScope.getStore()?.signal;
        // Nothing is run for a client that has left, not even a wait for a connection (at shutdown, none comes).
        if (signal?.aborted) throw new ClientGoneError();
        const client = await searchReads.connect();
        try {
          // The connection came free: a client that has left since gets nothing run for it.
          if (signal?.aborted) throw new ClientGoneError();
          const compiled = query.compile();
          return (await client.query<R>(compiled.sql, compiled.parameters)).rows;
        } finally {
          client.release();
        }
      },
      ping: async () => {
        await pool.query(timed('SELECT 1', [], PING_TIMEOUT_MS));
      },
      pools: () => [
        pgPoolStats('main', pool),
        pgPoolStats('search', searchPool),
        pgPoolStats('background', backgroundPool),
      ],
      onIdleConnectionLost: (listener) => {
        idleLost = listener;
      },
      notices,
      close: async () => {
        await notices.close();
        await searchPool.end();
        await background.destroy();
        await db.destroy();
      },
    };
  }

  keepPrivate(options.url);
  const sqlite = new BetterSqlite3(options.url);
  sqlite.pragma('journal_mode = WAL');
  // FULL: a write that returned success is on disk even if the machine loses power.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma(`cache_size = ${SQLITE_CACHE_SIZE}`);
  sqlite.pragma(`mmap_size = ${SQLITE_MMAP_BYTES}`);
  const db = new Kysely<DB>({
    dialect: new ImmediateSqliteDialect({ database: withStatementCache(sqlite, statements) }),
  });
  const workers = options.readWorkers ?? 2;
  const readers =
    workers > 0 && !sqlite.memory
      ? new SqliteReadPool(options.url, workers, timeoutMs, options.readWorkerIdleMs)
      : null;
  return {
    db,
    background: db,
    adapter: sqliteAdapter,
    reads: sqlitePreparedReads(sqlite, statements),
    statements,
    longReads: readers
      ? counted(<R>(query: Compilable<R>) => readers.execute<R>(query.compile()), statements)
      : onConnection(db),
    ping: async () => {
      sqlite.prepare('SELECT 1').get();
    },
    pools: () => (readers ? [readers.stats()] : []),
    onIdleConnectionLost: () => undefined,
    notices: null,
    close: async () => {
      await readers?.close();
      await db.destroy();
    },
  };
}

/**
 * Transactions begin with SQLite's write lock (BEGIN IMMEDIATE). A deferred transaction that reads and then
 * writes fails at once with SQLITE_BUSY when another process (a second instance, the operator's CLI) wrote in
 * between; an immediate one waits for that writer (busy_timeout) instead. Inside one process the connection
 * is used by one transaction at a time anyway, so nothing waits longer than before.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  /**
   * SQLite rolls a transaction back by itself after some errors (a full disk, an I/O error): the ROLLBACK that
   * follows then fails, and its error would replace the one that says what happened. Nothing is left to undo.
   */
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await super.rollbackTransaction(connection);
    } catch (err) {
      if (!/no transaction is active/.test((err as Error).message)) throw err;
    }
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly settings: SqliteDialectConfig) {
    super(settings);
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.settings);
  }
}

/**
 * The database file and its write-ahead log are its owner's alone (0600; SQLite gives the log the file's mode), in a
 * folder made 0700 when it is made here: they hold password hashes, key hashes and sealed secrets. An existing folder
 * keeps its mode (it may be a shared one, such as a temporary directory).
 */
function keepPrivate(file: string): void {
  if (file === ':memory:' || file === '') return;
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  for (const each of [file, `${file}-wal`, `${file}-shm`]) if (fs.existsSync(each)) fs.chmodSync(each, 0o600);
}
