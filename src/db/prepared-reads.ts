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
 * A read of rows by id in one language (the posts or jobs of a page or of details, their translations into the
 * language joined; null: none). On PostgreSQL the reads asked for in one turn of the event loop, whatever their
 * languages, go as one statement (`postgres` takes the ids and their languages as two arrays of pairs, and returns
 * each row with the language it was asked in, `wanted_language`): under load a turn holds the reads of dozens of
 * requests, and each statement sent costs the service more (a socket write that wakes the database's process)
 * than the statement's own work. The statement goes when the turn's other requests have been read (setImmediate),
 * not at once: each read waits for the rest of its turn, and the turn costs less. Each caller gets the rows of its
 * language, possibly with rows of other ids asked in the same turn. SQLite's statements run on this thread at once
 * (`sqlite` takes `?1` the ids, `?2` the language).
 */
export interface ByLanguageRead<Row> {
  all(ids: readonly number[], language: string | null): Promise<Row[]>;
}

export interface ByLanguageSql {
  sqlite: string;
  postgres: string;
}

/**
 * The hot reads (details, the items of search pages, the data version) as statements prepared once per
 * connection, beside Kysely, which builds and compiles a query on every run. `statements` counts every
 * statement the database ran for the process, Kysely's included (tests hold reads to their design).
 */
export interface PreparedReads {
  prepare<Row>(name: string, sql: EngineSql): PreparedRead<Row>;
  prepareByLanguage<Row>(name: string, sql: ByLanguageSql): ByLanguageRead<Row>;
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
    prepareByLanguage<Row>(name: string, sql: ByLanguageSql): ByLanguageRead<Row> {
      const read = reads.prepare<Row>(name, { sqlite: sql.sqlite, postgres: sql.postgres });
      return { all: (ids, language) => read.all([ids, language]) };
    },
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
  return reads;
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
    prepareByLanguage<Row>(name: string, sql: ByLanguageSql): ByLanguageRead<Row> {
      return new TurnBatchedRead<Row>((ids, languages) => pool.run<Row & { wanted_language: string | null }>(name, sql.postgres, [ids, languages]));
    },
  };
}

interface Asked<Row> { ids: readonly number[]; language: string | null; resolve(rows: Row[]): void; reject(err: unknown): void }

/** PostgreSQL's `ByLanguageRead`: the reads asked for in one turn, sent as one statement of (id, language) pairs. */
class TurnBatchedRead<Row> implements ByLanguageRead<Row> {
  private pending: Asked<Row>[] | null = null;

  constructor(private readonly run: (ids: number[], languages: Array<string | null>) => Promise<Array<Row & { wanted_language: string | null }>>) {}

  all(ids: readonly number[], language: string | null): Promise<Row[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      if (this.pending === null) {
        this.pending = [];
        // setImmediate runs after the poll phase: every request read in this turn has asked by then.
        setImmediate(() => this.flush());
      }
      this.pending.push({ ids, language, resolve, reject });
    });
  }

  private flush(): void {
    const asked = this.pending!;
    this.pending = null;
    const pairs = new Map<string, [number, string | null]>();
    for (const { ids, language } of asked) for (const id of ids) pairs.set(`${language}|${id}`, [id, language]);
    const ids = [...pairs.values()].map(([id]) => id);
    const languages = [...pairs.values()].map(([, language]) => language);
    this.run(ids, languages).then((rows) => {
      const byLanguage = new Map<string | null, Row[]>();
      for (const { wanted_language: language, ...row } of rows) {
        const list = byLanguage.get(language);
        if (list) list.push(row as Row);
        else byLanguage.set(language, [row as Row]);
      }
      for (const { language, resolve } of asked) resolve(byLanguage.get(language) ?? []);
    }, (err: unknown) => {
      for (const { reject } of asked) reject(err);
    });
  }
}
