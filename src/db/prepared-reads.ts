import { AsyncLocalStorage } from 'node:async_hooks';
import type BetterSqlite3 from 'better-sqlite3';

/** A read's SQL on each engine: parameters are `?1`, `?2`… on SQLite and `$1`, `$2`… on PostgreSQL, and each has its own JSON functions. */
export interface EngineSql {
  sqlite: string;
  postgres: string;
}

/** A statement prepared once and run with parameters: no query building, no compiling, one round trip. */
export interface PreparedRead<Row> {
  /**
   * The rows for `parameters`. An array parameter is a list of values (ids): SQLite's statement reads it with
   * `json_each(?N)`, PostgreSQL's as an array (`= ANY($N)`), so one statement serves any number of ids.
   */
  all(parameters: readonly unknown[]): Promise<Row[]>;
}

/**
 * The hot reads (details, the items of search pages, the data version) as statements prepared once per
 * connection, beside Kysely, which builds and compiles a query on every run. `statements` counts every
 * statement the database ran for the process, Kysely's included (tests hold reads to their design).
 */
export interface PreparedReads {
  prepare<Row>(name: string, sql: EngineSql): PreparedRead<Row>;
}

/** How many statements the process has sent to the database for requests (what a request costs: tests assert it). */
export interface StatementCounter {
  count: number;
}

/**
 * Work in the background of requests (webhook deliveries polling and sending) runs inside this scope: its statements
 * are not counted, so that a request's count is the request's own whenever a poll falls inside it.
 */
export const backgroundWork = new AsyncLocalStorage<true>();

/** Counts one statement, unless it runs in the background. */
export function countStatement(counter: StatementCounter): void {
  if (backgroundWork.getStore() === undefined) counter.count++;
}

/** SQLite: the statement prepared at its first run on the main connection, then reused; JSON text for arrays. */
export function sqlitePreparedReads(sqlite: BetterSqlite3.Database, counter: StatementCounter): PreparedReads {
  return {
    prepare<Row>(_name: string, sql: EngineSql): PreparedRead<Row> {
      let statement: BetterSqlite3.Statement | undefined;
      return {
        all(parameters) {
          try {
            statement ??= sqlite.prepare(sql.sqlite);
            countStatement(counter);
            return Promise.resolve(statement.all(numbered(parameters)) as Row[]);
          } catch (err) {
            return Promise.reject(err as Error);
          }
        },
      };
    },
  };
}

/** Parameters bound to `?1`, `?2`, … (better-sqlite3 binds numbered parameters by key), arrays as JSON text. */
function numbered(parameters: readonly unknown[]): Record<number, unknown> {
  const bound: Record<number, unknown> = {};
  parameters.forEach((value, i) => { bound[i + 1] = Array.isArray(value) ? JSON.stringify(value) : value; });
  return bound;
}

/** A pooled PostgreSQL connection that runs a named statement (pg parses it once per connection). */
export interface NamedStatementPool {
  run<Row>(name: string, text: string, values: readonly unknown[]): Promise<Row[]>;
}

/** PostgreSQL: named statements, parsed and planned once per connection of the main pool. */
export function postgresPreparedReads(pool: NamedStatementPool): PreparedReads {
  return {
    prepare<Row>(name: string, sql: EngineSql): PreparedRead<Row> {
      return { all: (parameters) => pool.run<Row>(name, sql.postgres, parameters) };
    },
  };
}
