import type { Kysely, Migration } from 'kysely';

/**
 * An operator can disable an account (`users disable`): it cannot sign in, its sessions and grants end. `disabled_at`
 * says since when; null for an account in use.
 */
export function userDisabled(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('users').addColumn('disabled_at', 'bigint').execute();
    },
  };
}
