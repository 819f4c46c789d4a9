import type { Kysely, Migration } from 'kysely';

/**
 * A new app key or client secret waits here, sealed, between the console form that made it and the one page
 * that shows it (Post/Redirect/Get): the page takes it out as it shows it, so a reload shows it no more and
 * makes nothing again. Rows live minutes (`expires_at`); the reading page removes expired ones.
 */
export function consoleReveals(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('console_reveals')
        .addColumn('id_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'bigint', (c) => c.notNull())
        .addColumn('app_id', 'bigint', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('sealed', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('console_reveals_expiry').on('console_reveals').column('expires_at').execute();
    },
  };
}
