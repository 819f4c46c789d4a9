import { sql, type CreateTableBuilder, type Kysely, type RawBuilder } from 'kysely';
import type { DialectAdapter, IdRange, IndexQuery } from './dialect-adapter.js';
import type { DB, SearchIndex } from '../schema.js';

const lexeme = (token: string) => `'${token.replace(/['\\]/g, '')}'`;

/** tsquery literal: the groups ANDed (each an OR of exact lexemes), and NOT each excluded token. */
function tsqueryLiteral(query: IndexQuery): string {
  const all = query.all.map((group) => (group.length === 1 ? lexeme(group[0]!) : `(${group.map(lexeme).join(' | ')})`));
  return [...all, ...query.none.map((token) => `!${lexeme(token)}`)].join(' & ');
}

function matching(index: SearchIndex, query: IndexQuery, range: IdRange): RawBuilder<unknown> {
  return sql`${sql.table(index)}.document @@ ${tsqueryLiteral(query)}::tsquery AND doc_id BETWEEN ${range.min} AND ${range.max}`;
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

  async dropSearchIndex(db, index) {
    await sql`DROP TABLE IF EXISTS ${sql.table(index)}`.execute(db);
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

  matchingIds(index, query, range, order, limit, offset) {
    const direction = sql.raw(order === 'desc' ? 'DESC' : 'ASC');
    return sql`SELECT doc_id FROM ${sql.table(index)} WHERE ${matching(index, query, range)} ORDER BY doc_id ${direction} LIMIT ${limit} OFFSET ${offset}`;
  },

  countMatches(index, query, range, cap) {
    // Without an order the planner is free to stop at the first `cap` matches of whatever plan is cheapest;
    // the lowest of the newest is then asked for separately, only when the count reaches the cap.
    return sql`SELECT count(*) AS n, NULL::bigint AS lowest FROM (SELECT 1 FROM ${sql.table(index)} WHERE ${matching(index, query, range)} LIMIT ${cap}) AS capped`;
  },

  countMatchesIn(index, query, ranges) {
    // One scan over the union of the ranges: the full-text index is read once, not once per range.
    const within = sql.join(ranges.map((r) => sql`doc_id BETWEEN ${r.min} AND ${r.max}`), sql` OR `);
    return sql`SELECT count(*) AS n FROM ${sql.table(index)} WHERE document @@ ${tsqueryLiteral(query)}::tsquery AND (${within})`;
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
