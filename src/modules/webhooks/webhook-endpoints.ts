/**
 * An app's webhook endpoints as its owner manages them in the console (docs/webhooks.md): add one (its signing
 * secret returned once), change its URL or event types, rotate the secret with an overlap, disable and enable it,
 * delete it; list its deliveries with their attempts, send one again, replay the changes of a time range.
 */
import type { Kysely, Selectable } from 'kysely';
import { CHANGE_TYPES, lastPosition } from '../../change-feed/change-log.js';
import type {
  DB,
  DeliveryState,
  WebhookAttemptsTable,
  WebhookDeliveriesTable,
  WebhookEndpointsTable,
} from '../../db/schema.js';
import { randomBase62 } from '../../shared/keys.js';
import { seal } from '../../shared/sealed.js';
import { newSigningSecret } from './signature.js';
import { pingDelivery, type TestDelivery } from './test-events.js';

export type EndpointRow = Selectable<WebhookEndpointsTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
export type AttemptRow = Selectable<WebhookAttemptsTable>;

/** Deliveries one replay may queue. */
export const MAX_REPLAY = 10_000;

export class WebhookError extends Error {}

/** Deliveries with a body of their own made by this process: orders those made in one millisecond. */
let made = 0;

export const isChangeType = (type: string): boolean => (CHANGE_TYPES as readonly string[]).includes(type);

export class WebhookEndpoints {
  /** `endpointsPerApp`: how many endpoints an app may have (WEBHOOK_ENDPOINTS_PER_APP). */
  constructor(
    private readonly db: Kysely<DB>,
    private readonly kek: Buffer,
    readonly endpointsPerApp: number,
  ) {}

  list(appId: number): Promise<EndpointRow[]> {
    return this.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('app_id', '=', appId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  find(appId: number, id: string): Promise<EndpointRow | undefined> {
    return this.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('app_id', '=', appId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** Adds an endpoint that receives the changes committed from now on; returns it with its secret, once. */
  async create(appId: number, url: string, types: string[], now: number): Promise<{ id: string; secret: string }> {
    const secret = newSigningSecret();
    const id = `ep_${randomBase62(20)}`;
    await this.db.transaction().execute(async (trx) => {
      // The app's row first: its lock orders two additions at once (PostgreSQL; SQLite's write lock does already).
      await trx
        .updateTable('apps')
        .set((eb) => ({ name: eb.ref('name') }))
        .where('id', '=', appId)
        .execute();
      const count = await trx
        .selectFrom('webhook_endpoints')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('app_id', '=', appId)
        .executeTakeFirstOrThrow();
      if (Number(count.n) >= this.endpointsPerApp)
        throw new WebhookError(`an app has at most ${this.endpointsPerApp} endpoints: delete one first`);
      await trx
        .insertInto('webhook_endpoints')
        .values({
          id,
          app_id: appId,
          url,
          event_types: JSON.stringify(types),
          secret_sealed: seal(this.kek, secret),
          previous_secret_sealed: null,
          previous_secret_until: null,
          created_at: now,
          disabled_at: null,
          disabled_reason: null,
          failing_since: null,
          cursor: await this.latest(trx),
          due_at: null,
          lease_owner: null,
        })
        .execute();
      // Its first delivery: a ping, so the builder sees one arrive (and verifies it) without making real data.
      await this.queue(trx, id, pingDelivery(id, url, types, now), now);
    });
    return { id, secret };
  }

  /** Sends a test event (test-events.ts) to the endpoint now, recorded like any delivery. */
  async sendTest(endpoint: EndpointRow, delivery: TestDelivery, now: number): Promise<void> {
    if (endpoint.disabled_at !== null) throw new WebhookError('enable the endpoint first');
    await this.db.transaction().execute((trx) => this.queue(trx, endpoint.id, delivery, now));
  }

  /**
   * A delivery with a body of its own, due now. Its position is below zero (no change has one there), in the order
   * they were made, and its resource key its own: it waits for no other delivery.
   */
  private async queue(trx: Kysely<DB>, endpointId: string, delivery: TestDelivery, now: number): Promise<void> {
    await trx
      .insertInto('webhook_deliveries')
      .values({
        id: `dlv_${randomBase62(20)}`,
        endpoint_id: endpointId,
        position: Number.MIN_SAFE_INTEGER + now * 1_000 + (made++ % 1_000),
        event_id: delivery.eventId,
        event_type: delivery.type,
        resource_key: delivery.resourceKey,
        state: 'pending',
        next_attempt_at: now,
        created_at: now,
        payload: delivery.payload,
      })
      .execute();
    await trx.updateTable('webhook_endpoints').set({ due_at: now }).where('id', '=', endpointId).execute();
  }

  async update(appId: number, id: string, url: string, types: string[]): Promise<void> {
    await this.db
      .updateTable('webhook_endpoints')
      .set({ url, event_types: JSON.stringify(types) })
      .where('app_id', '=', appId)
      .where('id', '=', id)
      .execute();
  }

  /** A new secret; the current one keeps signing beside it for `overlapMs` (none: it stops now). Returns the new one, once. */
  async rotateSecret(appId: number, id: string, overlapMs: number, now: number): Promise<string> {
    const endpoint = await this.find(appId, id);
    if (!endpoint) throw new WebhookError('no such endpoint');
    const secret = newSigningSecret();
    await this.db
      .updateTable('webhook_endpoints')
      .set({
        secret_sealed: seal(this.kek, secret),
        previous_secret_sealed: overlapMs > 0 ? endpoint.secret_sealed : null,
        previous_secret_until: overlapMs > 0 ? now + overlapMs : null,
      })
      .where('id', '=', id)
      .execute();
    return secret;
  }

  /**
   * Disabling stops its deliveries (the pending ones are given up); enabling starts again from the changes
   * committed from now on: the time in between is sent by a replay, when the owner wants it.
   */
  async setEnabled(
    appId: number,
    id: string,
    enabled: boolean,
    now: number,
    reason = 'disabled in the console',
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      if (enabled) {
        await trx
          .updateTable('webhook_endpoints')
          .set({
            disabled_at: null,
            disabled_reason: null,
            failing_since: null,
            cursor: await this.latest(trx),
            due_at: null,
          })
          .where('app_id', '=', appId)
          .where('id', '=', id)
          .where('disabled_at', 'is not', null)
          .execute();
        return;
      }
      const changed = await trx
        .updateTable('webhook_endpoints')
        .set({ disabled_at: now, disabled_reason: reason, due_at: null })
        .where('app_id', '=', appId)
        .where('id', '=', id)
        .where('disabled_at', 'is', null)
        .executeTakeFirst();
      if (Number(changed.numUpdatedRows) === 1) {
        await trx
          .updateTable('webhook_deliveries')
          .set({ state: 'failed', next_attempt_at: null, last_error: 'the endpoint was disabled' })
          .where('endpoint_id', '=', id)
          .where('state', '=', 'pending')
          .execute();
      }
    });
  }

  async delete(appId: number, id: string): Promise<void> {
    await this.db.deleteFrom('webhook_endpoints').where('app_id', '=', appId).where('id', '=', id).execute();
  }

  /** The latest deliveries first, `limit` of them, of one state when given. */
  deliveries(endpointId: string, options: { state?: DeliveryState; limit: number }): Promise<DeliveryRow[]> {
    let query = this.db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId);
    if (options.state) query = query.where('state', '=', options.state);
    return query.orderBy('position', 'desc').orderBy('created_at', 'desc').limit(options.limit).execute();
  }

  /** One delivery with its attempts, and the change it sends (the body, as the next attempt sends it). */
  async delivery(endpointId: string, deliveryId: string) {
    const delivery = await this.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('endpoint_id', '=', endpointId)
      .where('id', '=', deliveryId)
      .executeTakeFirst();
    if (!delivery) return undefined;
    const attempts = await this.db
      .selectFrom('webhook_attempts')
      .selectAll()
      .where('delivery_id', '=', deliveryId)
      .orderBy('number', 'desc')
      .execute();
    const change = await this.db
      .selectFrom('change_events')
      .select(['position', 'event_id', 'type', 'resource_type', 'resource_id', 'company_handle', 'occurred_at', 'data'])
      .where('position', '=', Number(delivery.position))
      .executeTakeFirst();
    return {
      delivery,
      attempts,
      change: change && { ...change, position: Number(change.position), occurred_at: Number(change.occurred_at) },
    };
  }

  /** Sends a delivery again now, with a fresh retry schedule (same `webhook-id`). */
  async redeliver(endpoint: EndpointRow, deliveryId: string, now: number): Promise<boolean> {
    if (endpoint.disabled_at !== null) throw new WebhookError('enable the endpoint first');
    return this.db.transaction().execute(async (trx) => {
      const queued = await trx
        .updateTable('webhook_deliveries')
        .set({ state: 'pending', step: 0, next_attempt_at: now })
        .where('endpoint_id', '=', endpoint.id)
        .where('id', '=', deliveryId)
        .executeTakeFirst();
      if (Number(queued.numUpdatedRows) !== 1) return false;
      await trx.updateTable('webhook_endpoints').set({ due_at: now }).where('id', '=', endpoint.id).execute();
      return true;
    });
  }

  /**
   * Sends again every change of the endpoint's types committed in [from, to] that the feed still keeps and the
   * endpoint has reached (later ones are on their way anyway): those delivered before are queued again, the others
   * (before the endpoint existed, or while it was disabled) get deliveries. Returns how many were queued.
   */
  async replay(endpoint: EndpointRow, from: number, to: number, now: number): Promise<number> {
    if (endpoint.disabled_at !== null) throw new WebhookError('enable the endpoint first');
    const types = JSON.parse(endpoint.event_types) as string[];
    return this.db.transaction().execute(async (trx) => {
      let query = trx
        .selectFrom('change_events')
        .select(['position', 'event_id', 'type', 'resource_type', 'resource_id'])
        .where('occurred_at', '>=', from)
        .where('occurred_at', '<=', to)
        .where('position', '<=', Number(endpoint.cursor))
        .where('ready', '=', 1);
      if (types.length > 0) query = query.where('type', 'in', types);
      const changes = await query
        .orderBy('position')
        .limit(MAX_REPLAY + 1)
        .execute();
      if (changes.length > MAX_REPLAY)
        throw new WebhookError(`at most ${MAX_REPLAY.toLocaleString('en')} changes a replay: choose a shorter range`);
      for (let i = 0; i < changes.length; i += 500) {
        await trx
          .insertInto('webhook_deliveries')
          .values(
            changes.slice(i, i + 500).map((row) => ({
              id: `dlv_${randomBase62(20)}`,
              endpoint_id: endpoint.id,
              position: Number(row.position),
              event_id: row.event_id,
              event_type: row.type,
              resource_key: `${row.resource_type}:${row.resource_id}`,
              state: 'pending' as const,
              next_attempt_at: now,
              created_at: now,
            })),
          )
          .onConflict((oc) =>
            oc.columns(['endpoint_id', 'position']).doUpdateSet({ state: 'pending', step: 0, next_attempt_at: now }),
          )
          .execute();
      }
      if (changes.length > 0)
        await trx.updateTable('webhook_endpoints').set({ due_at: now }).where('id', '=', endpoint.id).execute();
      return changes.length;
    });
  }

  /** Deliveries older than the feed's retention go with the changes they sent. */
  async prune(before: number): Promise<number> {
    const result = await this.db
      .deleteFrom('webhook_deliveries')
      .where('created_at', '<', before)
      .where('state', '<>', 'pending')
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  private async latest(db: Kysely<DB>): Promise<number> {
    return Number((await lastPosition(db).executeTakeFirstOrThrow()).value);
  }
}
