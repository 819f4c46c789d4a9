import type { CreateTableBuilder, Kysely } from 'kysely';
import type { DB } from '../schema.js';
import type { ReadSql } from './read-sql.js';

/**
 * Everything that differs between SQLite and PostgreSQL, in one place. Repositories call these and
 * never branch on the engine themselves.
 */
export interface DialectAdapter {
  readonly name: 'sqlite' | 'postgres';
  /** The pieces of SQL text the hand-written reads are made of (JSON aggregation, array parameters, rows wanted by language). */
  readonly sql: ReadSql;
  /** Adds the auto-incrementing integer primary key `id`. */
  autoId<T extends string>(table: CreateTableBuilder<T, never>): CreateTableBuilder<T, 'id'>;
  /** After rows were inserted with explicit ids, makes the next generated id follow the largest one. */
  syncIdSequence(db: Kysely<DB>, table: 'posts' | 'jobs' | 'post_images' | 'users' | 'companies'): Promise<void>;
  /** The engine's query plan for a statement, one line per plan node (used by tests and diagnostics). */
  explain(db: Kysely<DB>, sqlText: string, parameters: readonly unknown[]): Promise<string[]>;
}
