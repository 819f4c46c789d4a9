import type { Kysely, Migration } from 'kysely';

/**
 * Clients that registered themselves (RFC 7591): `registered_at` says when (null for every other client: the
 * console's, the operator's, a metadata document's), and `application_type` what they said they are, `native` (a
 * desktop or CLI host: loopback redirects on any port, private-use schemes) or `web` (null: as before, by its secret).
 * Only columns added, so instances of the previous release keep running beside this one.
 */
export function dynamicClients(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('oauth_clients').addColumn('registered_at', 'bigint').execute();
      await db.schema.alterTable('oauth_clients').addColumn('application_type', 'text').execute();
    },
  };
}
