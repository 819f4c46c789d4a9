import type { CreateTableBuilder, Kysely, RawBuilder } from 'kysely';
import type { SearchTerm } from '../../search/search-text.js';
import type { DB, SearchIndex } from '../schema.js';

/** A row of full-text matches: the document id and its rank, lower is better. */
export interface SearchMatch {
  doc_id: number;
  rank: number;
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
  /** Stores (replacing) the tokens of one document; `tokens` come from `documentTokens`. */
  writeSearchDocument(db: Kysely<DB>, index: SearchIndex, id: number, tokens: string): Promise<void>;
  deleteSearchDocument(db: Kysely<DB>, index: SearchIndex, id: number): Promise<void>;
  /** Stores many new documents at once (bulk loading; the ids must not be indexed yet). */
  insertSearchDocuments(db: Kysely<DB>, index: SearchIndex, documents: Array<{ id: number; tokens: string }>): Promise<void>;
  /** After rows were inserted with explicit ids, makes the next generated id follow the largest one. */
  syncIdSequence(db: Kysely<DB>, table: 'posts' | 'jobs' | 'post_images' | 'users' | 'companies'): Promise<void>;
  /** A parenthesized subquery of (doc_id, rank) for documents that match every term. */
  searchMatches(index: SearchIndex, terms: SearchTerm[]): RawBuilder<SearchMatch>;
  /** The engine's query plan for a statement, one line per plan node (used by tests and diagnostics). */
  explain(db: Kysely<DB>, sqlText: string, parameters: readonly unknown[]): Promise<string[]>;
}
