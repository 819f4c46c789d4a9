import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import type { DialectAdapter } from './dialect-adapter.js';
import type { SearchTerm } from '../../search/search-text.js';
import type { DB, SearchIndex } from '../schema.js';

/** FTS5 MATCH expression: every term quoted (implicit AND), one-character CJK terms as prefixes. */
function matchExpression(terms: SearchTerm[]): string {
  return terms.map((t) => `"${t.text.replace(/"/g, '""')}"${t.prefix ? '*' : ''}`).join(' ');
}

export const sqliteAdapter: DialectAdapter = {
  name: 'sqlite',

  autoId(table) {
    return table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement()) as CreateTableBuilder<never, 'id'>;
  },

  async createSearchIndex(db, index) {
    // Contentless: the tokens live only in the index. Token characters match search-text.ts exactly.
    await sql`CREATE VIRTUAL TABLE ${sql.raw(index)} USING fts5(
      document, content='', contentless_delete=1,
      tokenize="unicode61 remove_diacritics 0 categories 'L* N* Co M*'"
    )`.execute(db);
  },

  async writeSearchDocument(db, index, id, tokens) {
    await sql`DELETE FROM ${sql.raw(index)} WHERE rowid = ${id}`.execute(db);
    await sql`INSERT INTO ${sql.raw(index)} (rowid, document) VALUES (${id}, ${tokens})`.execute(db);
  },

  async deleteSearchDocument(db, index, id) {
    await sql`DELETE FROM ${sql.raw(index)} WHERE rowid = ${id}`.execute(db);
  },

  async insertSearchDocuments(db, index, documents) {
    if (documents.length === 0) return;
    await sql`INSERT INTO ${sql.raw(index)} (rowid, document) VALUES ${sql.join(documents.map((d) => sql`(${d.id}, ${d.tokens})`))}`.execute(db);
  },

  async syncIdSequence() {
    // INTEGER PRIMARY KEY AUTOINCREMENT already continues after the largest id.
  },

  searchMatches(index: SearchIndex, terms: SearchTerm[]) {
    const table = sql.raw(index);
    return sql`(SELECT rowid AS doc_id, bm25(${table}) AS rank FROM ${table} WHERE ${table} MATCH ${matchExpression(terms)})`;
  },

  async explain(db: Kysely<DB>, sqlText: string, parameters: readonly unknown[]) {
    const result = await db.executeQuery<{ detail: string }>({
      sql: `EXPLAIN QUERY PLAN ${sqlText}`,
      parameters,
      query: { kind: 'RawNode' } as never,
      queryId: { queryId: 'explain' },
    });
    return result.rows.map((row) => row.detail);
  },
};
