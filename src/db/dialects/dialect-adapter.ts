import type { CreateTableBuilder, Kysely, RawBuilder } from 'kysely';
import type { DB, SearchIndex } from '../schema.js';

/**
 * What a search asks of a full-text index: documents holding, for every group, at least one of its tokens,
 * and none of `none`. Tokens come from search-text.ts (keyword terms and facets) and are matched exactly.
 */
export interface IndexQuery {
  all: string[][];
  none: string[];
}

/** Bounds on document ids, both inclusive. */
export interface IdRange {
  min: number;
  max: number;
}

/**
 * Everything that differs between SQLite and PostgreSQL, in one place. Repositories call these and
 * never branch on the engine themselves.
 */
export interface DialectAdapter {
  readonly name: 'sqlite' | 'postgres';
  /** Adds the auto-incrementing integer primary key `id`. */
  autoId<T extends string>(table: CreateTableBuilder<T, never>): CreateTableBuilder<T, 'id'>;
  /** Creates the full-text index table `index` (migration time). */
  createSearchIndex(db: Kysely<unknown>, index: SearchIndex): Promise<void>;
  /** Drops the full-text index table `index` (migration time, before rebuilding it). */
  dropSearchIndex(db: Kysely<unknown>, index: SearchIndex): Promise<void>;
  /** Stores (replacing) the tokens of one document; `tokens` come from search-text.ts. */
  writeSearchDocument(db: Kysely<DB>, index: SearchIndex, id: number, tokens: string): Promise<void>;
  deleteSearchDocument(db: Kysely<DB>, index: SearchIndex, id: number): Promise<void>;
  /** Stores many new documents at once (bulk loading; the ids must not be indexed yet). */
  insertSearchDocuments(db: Kysely<DB>, index: SearchIndex, documents: Array<{ id: number; tokens: string }>): Promise<void>;
  /** After rows were inserted with explicit ids, makes the next generated id follow the largest one. */
  syncIdSequence(db: Kysely<DB>, table: 'posts' | 'jobs' | 'post_images' | 'users' | 'companies'): Promise<void>;
  /**
   * Ids of matching documents within `range`, highest first (`desc`) or lowest first, `limit` of them after
   * skipping `offset`: a walk of the index in id order that stops when the page is full.
   */
  matchingIds(index: SearchIndex, query: IndexQuery, range: IdRange, order: 'desc' | 'asc', limit: number, offset: number): RawBuilder<{ doc_id: number }>;
  /**
   * How many documents match within `range`, counting no further than `cap`, and, where the engine counts
   * from the highest id down, the lowest id counted (so one walk tells how far back the newest `cap` reach).
   */
  countMatches(index: SearchIndex, query: IndexQuery, range: IdRange, cap: number): RawBuilder<{ n: number; lowest: number | null }>;
  /** How many documents match within each of `ranges`, summed (the sample of an estimate). */
  countMatchesIn(index: SearchIndex, query: IndexQuery, ranges: IdRange[]): RawBuilder<{ n: number }>;
  /** The engine's query plan for a statement, one line per plan node (used by tests and diagnostics). */
  explain(db: Kysely<DB>, sqlText: string, parameters: readonly unknown[]): Promise<string[]>;
}
