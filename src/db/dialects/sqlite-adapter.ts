import type { CreateTableBuilder, Kysely } from 'kysely';
import type { DialectAdapter } from './dialect-adapter.js';
import type { DB } from '../schema.js';
import { SQLITE_SQL } from './read-sql.js';

export const sqliteAdapter: DialectAdapter = {
  name: 'sqlite',
  sql: SQLITE_SQL,

  autoId(table) {
    return table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement()) as CreateTableBuilder<
      never,
      'id'
    >;
  },

  async syncIdSequence() {
    // INTEGER PRIMARY KEY AUTOINCREMENT already continues after the largest id.
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
