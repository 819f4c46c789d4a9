import { AsyncLocalStorage } from 'node:async_hooks';
import type BetterSqlite3 from 'better-sqlite3';
import { groupBy } from '../shared/group.js';
import { TickBatch } from '../shared/tick-batch.js';
import type { ReadText } from './dialects/read-sql.js';
import { postgresAdapter } from './dialects/postgres-adapter.js';
import { sqliteAdapter } from './dialects/sqlite-adapter.js';
import { rowsAsObjects } from './sqlite-rows.js';

/** A statement prepared once and run with parameters: no query building, no compiling, one round trip. */
export interface PreparedRead<Row> {
  /**
   * The rows for `parameters`. An array parameter is a list of values (ids): SQLite's statement reads it with
   * `json_each(?N)`, PostgreSQL's as an array (`= ANY($N)`), so one statement serves any number of ids.
   */
  all(parameters: readonly unknown[]): Promise<Row[]>;
}

/** A row wanted: its id, and the language of the translation to join (null: none). */
export interface Wanted {
  id: number;
  language: string | null;
}

/** A row as a read by language returns it: with the language it was asked in. */
export type InLanguage<Row> = Row & { wanted_language: string | null };

/**
 * A read of rows by id, each in a language (posts or jobs with their translations into the language asked joined).
 * On PostgreSQL one statement reads every pair, whatever their languages (`postgres` takes the ids and their
 * languages as two arrays of pairs); SQLite runs one statement per language on this thread (`sqlite` takes `?1` the
 * ids, `?2` the language). Each row says the language it was asked in (`wanted_language`).
 */
export interface ByLanguageRead<Row extends { id: number }> {
  /** The rows of `wanted` that exist (and any others the statement adds, such as the posts they repost). */
  all(wanted: readonly Wanted[]): Promise<Array<InLanguage<Row>>>;
  /**
   * The rows of `ids` in `language` that exist, read on PostgreSQL in one statement with every other read asked
   * for in this turn of the event loop (after the turn's other requests were read, setImmediate): under load a
   * turn holds the reads of dozens of requests, and each statement sent costs the service more (a socket write
   * that wakes the database's process) than the statement's own work. SQLite reads at once.
   */
  inTurn(ids: readonly number[], language: string | null): Promise<Row[]>;
}

/**
 * The hot reads (details, the items of search pages, the data version) as statements prepared once per
 * connection, beside Kysely, which builds and compiles a query on every run. `statements` counts every
 * statement the database ran for the process, Kysely's included (tests hold reads to their design).
 */
export interface PreparedReads {
  prepare<Row>(name: string, sql: ReadText): PreparedRead<Row>;
  prepareByLanguage<Row extends { id: number }>(name: string, sql: ReadText): ByLanguageRead<Row>;
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
  const reads: PreparedReads = {
    prepareByLanguage<Row extends { id: number }>(name: string, sql: ReadText): ByLanguageRead<Row> {
      const read = reads.prepare<InLanguage<Row>>(name, sql);
      const all = async (wanted: readonly Wanted[]) => {
        const rows: Array<InLanguage<Row>> = [];
        for (const [language, group] of groupBy(wanted, (w) => w.language))
          rows.push(...(await read.all([group.map(({ id }) => id), language])));
        return rows;
      };
      return { all, inTurn: (ids, language) => read.all([ids, language]) };
    },
    prepare<Row>(_name: string, sql: ReadText): PreparedRead<Row> {
      let run: ((parameters: unknown) => Row[]) | undefined;
      return {
        all(parameters) {
          try {
            run ??= rowsAsObjects<Row>(sqlite.prepare(sql(sqliteAdapter.sql)));
            countStatement(counter);
            return Promise.resolve(run(numbered(parameters)));
          } catch (err) {
            return Promise.reject(err as Error);
          }
        },
      };
    },
  };
  return reads;
}

/** Parameters bound to `?1`, `?2`, … (better-sqlite3 binds numbered parameters by key), arrays as JSON text. */
function numbered(parameters: readonly unknown[]): Record<number, unknown> {
  const bound: Record<number, unknown> = {};
  parameters.forEach((value, i) => {
    bound[i + 1] = Array.isArray(value) ? JSON.stringify(value) : value;
  });
  return bound;
}

/** A pooled PostgreSQL connection that runs a named statement (pg parses it once per connection). */
export interface NamedStatementPool {
  run<Row>(name: string, text: string, values: readonly unknown[]): Promise<Row[]>;
}

/** PostgreSQL: named statements, parsed and planned once per connection of the main pool. */
export function postgresPreparedReads(pool: NamedStatementPool): PreparedReads {
  return {
    prepare<Row>(name: string, sql: ReadText): PreparedRead<Row> {
      const text = sql(postgresAdapter.sql);
      return { all: (parameters) => pool.run<Row>(name, text, parameters) };
    },
    prepareByLanguage<Row extends { id: number }>(name: string, sql: ReadText): ByLanguageRead<Row> {
      const text = sql(postgresAdapter.sql);
      const all = (wanted: readonly Wanted[]) =>
        pool.run<InLanguage<Row>>(name, text, [wanted.map(({ id }) => id), wanted.map(({ language }) => language)]);
      const turn = new TickBatch<Wanted, InLanguage<Row>>(
        ({ id, language }) => wantedKey(id, language),
        async (wanted) => {
          const find = rowFinder(await all(wanted));
          return wanted.map(({ id, language }) => find(id, language));
        },
      );
      return {
        all,
        inTurn: async (ids, language) =>
          (await turn.loadAll(ids.map((id) => ({ id, language })))).filter((row) => row !== undefined),
      };
    },
  };
}

/** Finds, among rows a read by language returned, the row of an id asked for in a language. */
export function rowFinder<Row extends { id: number }>(
  rows: ReadonlyArray<InLanguage<Row>>,
): (id: number, language: string | null) => InLanguage<Row> | undefined {
  const byKey = new Map(rows.map((row) => [wantedKey(row.id, row.wanted_language), row]));
  return (id, language) => byKey.get(wantedKey(id, language));
}

/** A wanted pair as one string, to find rows by (no language: an empty one, which no language is). */
function wantedKey(id: number, language: string | null): string {
  return `${language ?? ''}|${id}`;
}
