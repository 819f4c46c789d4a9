import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import { LRUCache } from 'lru-cache';
import { countStatement, type StatementCounter } from './prepared-reads.js';

/**
 * The SQLite connection as Kysely sees it, with prepared statements kept by their SQL text. Kysely
 * prepares every statement it runs; preparing costs more than running the small indexed reads that
 * make up most requests, so each distinct statement is prepared once and reused. Statements differ
 * only by SQL text (parameters are bound at each run), so the cache holds one per query shape.
 */
export function withStatementCache(
  sqlite: BetterSqlite3.Database,
  counter: StatementCounter,
  max = 2_000,
): SqliteDatabase {
  const statements = new LRUCache<string, BetterSqlite3.Statement>({ max });
  return {
    close: () => {
      statements.clear();
      sqlite.close();
    },
    prepare(sql: string): SqliteStatement {
      // Kysely prepares each statement it runs, once per run: this counts the runs.
      countStatement(counter);
      const cached = statements.get(sql);
      // A statement still being iterated (Kysely's stream()) cannot run again until it finishes.
      if (cached && !cached.busy) return cached as unknown as SqliteStatement;
      const statement = sqlite.prepare(sql);
      if (!cached) statements.set(sql, statement);
      return statement as unknown as SqliteStatement;
    },
  };
}
