import { randomBytes } from 'node:crypto';
import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The change feed (docs/changes.md): one row per public change, written in the change's own transaction. Its
 * `position` comes from the `last_position` row of `change_feed_state`, which each writing transaction updates:
 * the row's lock orders the transactions, so positions are handed out in commit order on both engines, without
 * gaps (a rolled-back transaction takes its positions back). `data` is the resource as the public API shows it,
 * filled right after the commit (`ready`), or later by the feed when the writer stopped first.
 * `jobs.closed_event_for` remembers the recruiting end a `job.closed` was recorded for (the hiring sweep).
 * `clock`: the moment of migrating, given by the migrator.
 */
export function changeEvents(clock: () => number): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('change_events')
        .addColumn('position', 'bigint', (c) => c.primaryKey())
        .addColumn('event_id', 'text', (c) => c.notNull().unique())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('resource_type', 'text', (c) => c.notNull())
        .addColumn('resource_id', 'text', (c) => c.notNull())
        .addColumn('company_handle', 'text')
        .addColumn('occurred_at', 'bigint', (c) => c.notNull())
        .addColumn('data', 'text')
        .addColumn('ready', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('change_events_by_time').on('change_events').column('occurred_at').execute();
      // The changes still without their resource: looked for after every write and before every read of the feed.
      await db.schema
        .createIndex('change_events_pending')
        .on('change_events')
        .column('position')
        .where(sql.ref('ready'), '=', 0)
        .execute();
      await db.schema
        .createTable('change_feed_state')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'bigint', (c) => c.notNull())
        .execute();
      // `epoch` names this copy of the data in every cursor: a restored copy gets a new one (db restore, changes new-epoch).
      await db
        .insertInto('change_feed_state' as never)
        .values([
          { name: 'last_position', value: 0 },
          { name: 'pruned_below', value: 0 },
          { name: 'epoch', value: randomBytes(6).readUIntBE(0, 6) /* the feed's first epoch: 48 random bits */ },
        ] as never)
        .execute();
      await db.schema.alterTable('jobs').addColumn('closed_event_for', 'bigint').execute();
      // Windows that ended before the feed existed are not news: the sweep reports the ones that end from now on.
      await db
        .updateTable('jobs' as never)
        .set({ closed_event_for: sql`end_at` } as never)
        .where(sql`end_at`, 'is not', null)
        .where(sql`end_at`, '<=', clock())
        .execute();
    },
  };
}
