/**
 * Bodies for trying an endpoint without making real data (docs/webhooks.md, "Trying an endpoint"): the
 * `webhook.ping` sent when an endpoint is added, and a test event of any change type, sent from the console. Both are
 * signed and recorded like every delivery and carry `"test": true`; a test event is shaped as that type's changes are,
 * its `resource` and `data` the latest such change's (public already: the feed is readable with any app key), or both
 * null when the feed has none.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { changeItem, type ChangeItem } from '../../change-feed/change-item.js';
import type { DB } from '../../db/schema.js';
import type { Links } from '../../shared/links.js';

/** What a delivery of its own body needs: its id (also `webhook-id`), type, resource key and body. */
export interface TestDelivery {
  eventId: string;
  type: string;
  resourceKey: string;
  payload: string;
}

const newEventId = () => `evt_${randomBytes(12).toString('base64url')}`;

/** The ping an endpoint receives when it is added: which endpoint, and what it will receive. */
export function pingDelivery(endpointId: string, url: string, types: string[], now: number): TestDelivery {
  const eventId = newEventId();
  const body = {
    id: eventId,
    type: 'webhook.ping',
    occurredAt: new Date(now).toISOString(),
    test: true,
    resource: { type: 'webhook_endpoint', id: endpointId, webUrl: null, companyId: null },
    data: { endpointId, url, types },
  };
  return { eventId, type: 'webhook.ping', resourceKey: `test:${eventId}`, payload: JSON.stringify(body) };
}

/** A test event of `type` (a change type), as its changes look. */
export async function testEventDelivery(
  db: Kysely<DB>,
  links: Links,
  type: string,
  now: number,
): Promise<TestDelivery> {
  const latest = await db
    .selectFrom('change_events')
    .select(['position', 'event_id', 'type', 'resource_type', 'resource_id', 'company_handle', 'occurred_at', 'data'])
    .where('type', '=', type)
    .where('ready', '=', 1)
    .where('data', 'is not', null)
    .orderBy('position', 'desc')
    .limit(1)
    .executeTakeFirst();
  const eventId = newEventId();
  // With no such change in the feed there is no real resource to name: `resource` and `data` are null, never a
  // placeholder id a receiver might look up.
  const item: Omit<ChangeItem, 'resource'> & { resource: ChangeItem['resource'] | null } = latest
    ? changeItem({ ...latest, position: Number(latest.position), occurred_at: now, event_id: eventId }, links)
    : { id: eventId, type, occurredAt: new Date(now).toISOString(), resource: null, data: null };
  return { eventId, type, resourceKey: `test:${eventId}`, payload: JSON.stringify({ ...item, test: true }) };
}
