import type { Kysely, Migration } from 'kysely';

/**
 * Who holds an unfinished Idempotency-Key claim, and until when: a claim whose process died can then be
 * recognised (its lease ran out, or its instance restarted) and taken over instead of answering 409 for a day.
 * Claims left unfinished before this migration have no owner and count as abandoned. `resource_id` is written
 * in the transaction that creates the resource, so a claim whose process died after that commit is answered
 * with the resource it created, never by creating again.
 */
export function idempotencyClaims(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('idempotency_keys').addColumn('owner', 'text').execute();
      await db.schema.alterTable('idempotency_keys').addColumn('lease_expires_at', 'bigint').execute();
      await db.schema.alterTable('idempotency_keys').addColumn('resource_id', 'text').execute();
    },
  };
}
