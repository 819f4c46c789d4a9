import type { Kysely, Migration } from 'kysely';

/**
 * The changes of one resource, found by index: a deletion empties every earlier change of the deleted post, job or
 * event in its own transaction (src/change-feed/change-log.ts), which must not read the whole feed to find them.
 */
export function changeEventsByResource(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex('change_events_by_resource')
        .on('change_events')
        .columns(['resource_type', 'resource_id'])
        .execute();
    },
  };
}
