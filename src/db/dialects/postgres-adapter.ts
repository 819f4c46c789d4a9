import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import type { DialectAdapter } from './dialect-adapter.js';
import type { DB } from '../schema.js';
import { POSTGRES_SQL } from './read-sql.js';

export const postgresAdapter: DialectAdapter = {
  name: 'postgres',
  sql: POSTGRES_SQL,

  autoId(table) {
    return table.addColumn('id', 'bigint', (col) =>
      col.primaryKey().generatedByDefaultAsIdentity(),
    ) as CreateTableBuilder<never, 'id'>;
  },

  async syncIdSequence(db, table) {
    await sql`SELECT setval(pg_get_serial_sequence(${table}, 'id'), GREATEST((SELECT max(id) FROM ${sql.table(table)}), 1))`.execute(
      db,
    );
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
