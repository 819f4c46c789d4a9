import type { Kysely, Migration } from 'kysely';

/**
 * Links sent by e-mail to an account's address: a password reset, or the check that a console sign-up's address is
 * its owner's. Only a hash of the link's secret is stored; a link works once (`used_at`) and until `expires_at`.
 * `email` is the address it was sent to: a verification counts only while the account still has that address.
 */
export function accountLinks(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('account_links')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .execute();
      await db.schema.createIndex('account_links_user').on('account_links').columns(['user_id', 'purpose']).execute();
    },
  };
}
