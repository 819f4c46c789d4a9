import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import type { DialectAdapter } from './dialect-adapter.js';
import type { SearchTerm } from '../../search/search-text.js';
import type { DB, SearchIndex } from '../schema.js';

/** tsquery literal: quoted lexemes joined by AND; one-character CJK terms as prefixes. */
function tsqueryLiteral(terms: SearchTerm[]): string {
  return terms.map((t) => `'${t.text.replace(/['\\]/g, '')}'${t.prefix ? ':*' : ''}`).join(' & ');
}

export const postgresAdapter: DialectAdapter = {
  name: 'postgres',

  autoId(table) {
    return table.addColumn('id', 'bigint', (col) => col.primaryKey().generatedByDefaultAsIdentity()) as CreateTableBuilder<never, 'id'>;
  },

  async createSearchIndex(db, index) {
    // Tokens come from search-text.ts and become lexemes as they are (no parser, no stemming), so both
    // engines match exactly the same documents.
    await sql`CREATE TABLE ${sql.table(index)} (doc_id bigint PRIMARY KEY, document tsvector NOT NULL)`.execute(db);
    await sql`CREATE INDEX ${sql.raw(`${index}_document_gin`)} ON ${sql.table(index)} USING gin (document)`.execute(db);
  },

  async writeSearchDocument(db, index, id, tokens) {
    await sql`INSERT INTO ${sql.table(index)} (doc_id, document)
      VALUES (${id}, array_to_tsvector(string_to_array(${tokens}, ' ')))
      ON CONFLICT (doc_id) DO UPDATE SET document = excluded.document`.execute(db);
  },

  async deleteSearchDocument(db, index, id) {
    await sql`DELETE FROM ${sql.table(index)} WHERE doc_id = ${id}`.execute(db);
  },

  async insertSearchDocuments(db, index, documents) {
    if (documents.length === 0) return;
    await sql`INSERT INTO ${sql.table(index)} (doc_id, document) VALUES ${sql.join(documents.map((d) => sql`(${d.id}, array_to_tsvector(string_to_array(${d.tokens}, ' ')))`))}`.execute(db);
  },

  async syncIdSequence(db, table) {
    await sql`SELECT setval(pg_get_serial_sequence(${table}, 'id'), GREATEST((SELECT max(id) FROM ${sql.table(table)}), 1))`.execute(db);
  },

  searchMatches(index: SearchIndex, terms: SearchTerm[]) {
    const query = tsqueryLiteral(terms);
    return sql`(SELECT doc_id, -ts_rank(document, ${query}::tsquery) AS rank FROM ${sql.table(index)} WHERE document @@ ${query}::tsquery)`;
  },

  async explain(db: Kysely<DB>, sqlText: string, parameters: readonly unknown[]) {
    const result = await db.executeQuery<{ 'QUERY PLAN': string }>({
      sql: `EXPLAIN ${sqlText}`,
      parameters,
      query: { kind: 'RawNode' } as never,
      queryId: { queryId: 'explain' },
    });
    return result.rows.map((row) => row['QUERY PLAN']);
  },
};
