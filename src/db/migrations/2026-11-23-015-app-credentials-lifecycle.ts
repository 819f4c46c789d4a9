import type { Kysely, Migration } from 'kysely';
import type { DialectAdapter } from '../dialects/dialect-adapter.js';

/**
 * The lifecycle of an app's credentials: a key or a client secret replaced by rotation keeps working
 * until the end of the overlap its owner chose (`expires_at`, `previous_secret_*`); an app describes itself to
 * the users who grant it access; a client belongs to an app; and every change to an app's credentials is
 * recorded with who made it and when.
 */
export function appCredentialsLifecycle(adapter: DialectAdapter): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('app_keys').addColumn('expires_at', 'bigint').execute();
      await db.schema
        .alterTable('apps')
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema.alterTable('apps').addColumn('homepage_url', 'text').execute();
      await db.schema.alterTable('apps').addColumn('privacy_url', 'text').execute();
      await db.schema.alterTable('apps').addColumn('deleted_at', 'bigint').execute();
      await db.schema.alterTable('oauth_clients').addColumn('app_id', 'bigint').execute();
      await db.schema.alterTable('oauth_clients').addColumn('previous_secret_hash', 'text').execute();
      await db.schema.alterTable('oauth_clients').addColumn('previous_secret_expires_at', 'bigint').execute();
      await db.schema.createIndex('oauth_clients_app').on('oauth_clients').column('app_id').execute();
      await adapter
        .autoId(db.schema.createTable('app_audit') as never)
        .addColumn('app_id', 'bigint', (c) => c.notNull())
        // null: the operator CLI
        .addColumn('actor_user_id', 'bigint')
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('detail', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('app_audit_app').on('app_audit').columns(['app_id', 'created_at']).execute();
      // Calls per app and minute, by operation and status class (the console's usage page); 429s apart.
      await db.schema
        .createTable('app_usage')
        .addColumn('app_id', 'bigint', (c) => c.notNull())
        .addColumn('minute', 'bigint', (c) => c.notNull())
        .addColumn('operation', 'text', (c) => c.notNull())
        .addColumn('status_class', 'text', (c) => c.notNull())
        .addColumn('calls', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('app_usage_pk', ['app_id', 'minute', 'operation', 'status_class'])
        .execute();
    },
  };
}
