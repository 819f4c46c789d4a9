import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Webhooks (docs/webhooks.md): an app's endpoints, one delivery per endpoint and change of the feed it wants, and
 * every attempt to send one.
 *
 * An endpoint follows the change feed with its own `cursor`: the changes up to it have their deliveries, written in
 * the same transaction that moves the cursor, so a crash between the two loses nothing and makes nothing twice. One
 * instance at a time works an endpoint (`lease_owner` until `lease_until`); `due_at` is its earliest pending
 * attempt, for the instances looking for work. Its signing secrets are sealed under the key-encryption key (they
 * sign, so they cannot be stored hashed). A delivery's body is built from the change it points at (`position`).
 */
export function webhooks(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('webhook_endpoints')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('app_id', 'bigint', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('event_types', 'text', (c) => c.notNull())
        .addColumn('secret_sealed', 'text', (c) => c.notNull())
        .addColumn('previous_secret_sealed', 'text')
        .addColumn('previous_secret_until', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('disabled_at', 'bigint')
        .addColumn('disabled_reason', 'text')
        .addColumn('failing_since', 'bigint')
        .addColumn('cursor', 'bigint', (c) => c.notNull())
        .addColumn('due_at', 'bigint')
        .addColumn('lease_owner', 'text')
        .addColumn('lease_until', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('webhook_endpoints_app').on('webhook_endpoints').column('app_id').execute();
      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('endpoint_id', 'text', (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
        .addColumn('position', 'bigint', (c) => c.notNull())
        .addColumn('event_id', 'text', (c) => c.notNull())
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('resource_key', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('step', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_attempt_at', 'bigint')
        .addColumn('last_status', 'integer')
        .addColumn('last_duration_ms', 'integer')
        .addColumn('last_error', 'text')
        .addUniqueConstraint('webhook_deliveries_once', ['endpoint_id', 'position'])
        .execute();
      // The pending deliveries of an endpoint by resource, in order: a delivery waits for the earlier ones of its resource.
      // The only partial index on pending deliveries: the due ones are read through it, each checked against the first
      // of its resource (src/modules/webhooks/dispatcher.ts, firstOfResource).
      await db.schema
        .createIndex('webhook_deliveries_pending')
        .on('webhook_deliveries')
        .columns(['endpoint_id', 'resource_key', 'position'])
        .where(sql.ref('state'), '=', 'pending')
        .execute();
      await db.schema.createIndex('webhook_deliveries_by_time').on('webhook_deliveries').column('created_at').execute();
      await db.schema
        .createTable('webhook_attempts')
        .addColumn('delivery_id', 'text', (c) => c.notNull().references('webhook_deliveries.id').onDelete('cascade'))
        .addColumn('number', 'integer', (c) => c.notNull())
        .addColumn('attempted_at', 'bigint', (c) => c.notNull())
        .addColumn('webhook_timestamp', 'bigint', (c) => c.notNull())
        .addColumn('duration_ms', 'integer', (c) => c.notNull())
        .addColumn('status', 'integer')
        .addColumn('error', 'text')
        .addColumn('response_body', 'text')
        .addPrimaryKeyConstraint('webhook_attempts_key', ['delivery_id', 'number'])
        .execute();
    },
  };
}
