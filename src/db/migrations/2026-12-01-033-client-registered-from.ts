import type { Kysely, Migration } from 'kysely';

/**
 * The client address a self-registered client (RFC 7591) registered from, shown to the user on consent beside the
 * date and where it sends them back; null for every other client. Only a column added, so instances of the previous
 * release keep running beside this one.
 */
export function clientRegisteredFrom(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('oauth_clients').addColumn('registered_from', 'text').execute();
    },
  };
}
