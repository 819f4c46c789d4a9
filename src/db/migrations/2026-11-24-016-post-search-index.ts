import { randomBytes } from 'node:crypto';
import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectAdapter } from '../dialects/dialect-adapter.js';

/**
 * Post search moves to the service's own index (docs/search.md): the engine's full-text table of posts goes,
 * and the change log comes: one row per document a write changed, written in the write's own transaction, so
 * every instance learns which documents to read again and a crash loses nothing that committed. The index
 * lives in each instance's memory and is built from the tables.
 */
export function postSearchIndex(adapter: DialectAdapter): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await adapter
        .autoId(db.schema.createTable('search_changes') as never)
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('doc_id', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      // The log's state: `epoch` names this database to the index copies instances save (a copy made from
      // another database is never loaded); below `pruned_below` the log's rows have been deleted.
      await db.schema
        .createTable('search_log_state')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();
      await db
        .insertInto('search_log_state' as never)
        .values([
          { name: 'epoch', value: randomBytes(16).toString('hex') },
          { name: 'pruned_below', value: '0' },
        ] as never)
        .execute();
      await sql`DROP TABLE IF EXISTS post_search`.execute(db);
    },
  };
}
