import type { Kysely, Migration } from 'kysely';

/**
 * Deliveries that carry a body of their own instead of a change of the feed: the `webhook.ping` an endpoint gets when
 * it is added, and the test events its owner sends from the console (docs/webhooks.md, "Trying an endpoint"). Their
 * `position` is below zero (no change has it) and their resource key their own, so they wait for nothing.
 */
export function webhookTestDeliveries(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('webhook_deliveries').addColumn('payload', 'text').execute();
    },
  };
}
