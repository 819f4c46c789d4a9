/**
 * What the metrics say of webhooks and the change feed at a scrape (docs/webhooks.md, "Monitoring"): the deliveries
 * waiting (due now, or waiting for a retry) and how long the oldest due one has waited, the endpoints by state, and how
 * far the feed's completion is behind its writes. Three small queries, by index.
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { WebhookStats } from '../../plugins/metrics.js';

export async function webhookStats(db: Kysely<DB>, now: number): Promise<WebhookStats> {
  const [pending, endpoints, feed] = await Promise.all([
    db
      .selectFrom('webhook_deliveries')
      .where('state', '=', sql.lit('pending'))
      .select([
        sql<number>`COALESCE(SUM(CASE WHEN next_attempt_at <= ${now} THEN 1 ELSE 0 END), 0)`.as('due'),
        sql<number>`COALESCE(SUM(CASE WHEN next_attempt_at > ${now} THEN 1 ELSE 0 END), 0)`.as('retrying'),
        sql<number | null>`MIN(CASE WHEN next_attempt_at <= ${now} THEN next_attempt_at END)`.as('oldest'),
      ])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('webhook_endpoints')
      .select([
        sql<number>`COALESCE(SUM(CASE WHEN disabled_at IS NULL AND failing_since IS NULL THEN 1 ELSE 0 END), 0)`.as(
          'active',
        ),
        sql<number>`COALESCE(SUM(CASE WHEN disabled_at IS NULL AND failing_since IS NOT NULL THEN 1 ELSE 0 END), 0)`.as(
          'failing',
        ),
        sql<number>`COALESCE(SUM(CASE WHEN disabled_at IS NOT NULL THEN 1 ELSE 0 END), 0)`.as('disabled'),
      ])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('change_events')
      .where('ready', '=', 0)
      .select((eb) => eb.fn.min('occurred_at').as('oldest'))
      .executeTakeFirstOrThrow(),
  ]);
  const since = (at: number | null | undefined) =>
    at === null || at === undefined ? 0 : Math.max(0, (now - Number(at)) / 1000);
  return {
    due: Number(pending.due),
    retrying: Number(pending.retrying),
    oldestDueSeconds: since(pending.oldest),
    endpoints: {
      active: Number(endpoints.active),
      failing: Number(endpoints.failing),
      disabled: Number(endpoints.disabled),
    },
    feedLagSeconds: since(feed.oldest as number | null),
  };
}
