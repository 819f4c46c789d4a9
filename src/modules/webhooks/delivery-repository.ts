/**
 * The SQL of sending webhooks: endpoints' leases and cursors, their deliveries and attempts. The dispatcher decides
 * (dispatcher.ts), the retry policy computes (retry-policy.ts); this file only reads and writes. Every write to an
 * endpoint's work is conditioned on this instance's lease (`owner`), so that a holder whose lease was taken over
 * changes nothing.
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import type { ChangeRow } from '../../change-feed/change-feed.js';
import { lastPosition } from '../../change-feed/change-log.js';
import type { DB, WebhookEndpointsTable } from '../../db/schema.js';
import { randomBase62 } from '../../shared/keys.js';
import type { DeliveryState } from './retry-policy.js';

/** `'pending'` written into the statement: SQLite uses a partial index (`WHERE state = 'pending'`) only for a literal. */
const PENDING = sql.lit('pending' as const);

export type Endpoint = Selectable<WebhookEndpointsTable>;

/** A delivery due, with its change as the round read it; the change's `data` is read as it is sent (sendable). */
export interface Due {
  id: string;
  position: number;
  attempts: number;
  step: number;
  eventId: string;
  change: Omit<ChangeRow, 'data'> | null;
  /** A ping's or a test event's own body (test-events.ts); null for a change's delivery. */
  payload: string | null;
}

/** One attempt as recorded, and the delivery after it. */
export interface AttemptRecord {
  delivery: Due;
  timestamp: number;
  durationMs: number;
  status: number | null;
  error: string | null;
  responseBody: string | null;
}
export interface DeliveryAfter {
  id: string;
  state: DeliveryState;
  step: number;
  nextAttemptAt: number | null;
  status: number | null;
  durationMs: number;
  error: string | null;
}

export class DeliveryRepository {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly owner: string,
  ) {}

  /** Frees the leases held under `prefix` by another run than this one; how many. */
  async releaseLeasesOf(prefix: string): Promise<number> {
    const result = await this.db
      .updateTable('webhook_endpoints')
      .set({ lease_owner: null, lease_until: 0 })
      .where(sql<string>`substr(lease_owner, 1, ${prefix.length})`, '=', prefix)
      .where('lease_owner', '<>', this.owner)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /**
   * Enabled endpoints with work (changes after their cursor, or a retry due) whose lease is free or ours, each with
   * its builder (the app's owner; an app without one is its own builder) and its turn among that builder's
   * endpoints (earliest due first); at most `perBuilder` turns each, in turn order, `limit` in all.
   */
  endpointsWithWork(now: number, perBuilder: number, limit: number): Promise<Array<{ id: string; builder: number }>> {
    const builder = sql<number>`COALESCE(a.owner_user_id, -a.id)`;
    const withWork = this.db
      .selectFrom('webhook_endpoints as e')
      .innerJoin('apps as a', 'a.id', 'e.app_id')
      .select([
        'e.id',
        builder.as('builder'),
        sql<number>`ROW_NUMBER() OVER (PARTITION BY ${builder} ORDER BY COALESCE(e.due_at, 0), e.id)`.as('turn'),
      ])
      .where('e.disabled_at', 'is', null)
      .where((eb) => eb.or([eb('e.lease_until', '<=', now), eb('e.lease_owner', '=', this.owner)]))
      .where((eb) => eb.or([eb('e.cursor', '<', lastPosition(this.db)), eb('e.due_at', '<=', now)]));
    return this.db
      .selectFrom(withWork.as('w'))
      .select(['w.id', 'w.builder'])
      .where('w.turn', '<=', perBuilder)
      .orderBy('w.turn')
      .orderBy('w.id')
      .limit(limit)
      .execute();
  }

  /** Takes the endpoint's lease until `until` when it is free or ours already; its row, or undefined. */
  claim(id: string, now: number, until: number): Promise<Endpoint | undefined> {
    return this.db
      .updateTable('webhook_endpoints')
      .set({ lease_owner: this.owner, lease_until: until })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('lease_until', '<=', now), eb('lease_owner', '=', this.owner)]))
      .returningAll()
      .executeTakeFirst();
  }

  /** Extends our lease until `until`; the endpoint's row, or undefined when it is gone or taken over. */
  renewLease(id: string, until: number): Promise<Endpoint | undefined> {
    return this.db
      .updateTable('webhook_endpoints')
      .set({ lease_until: until })
      .where('id', '=', id)
      .where('lease_owner', '=', this.owner)
      .returningAll()
      .executeTakeFirst();
  }

  /**
   * One pending delivery per change, due at `now`; a change that has one already for the endpoint is left alone.
   * False when the endpoint was deleted meanwhile (its deliveries' key fails).
   */
  async insertDeliveries(endpointId: string, changes: ChangeRow[], now: number): Promise<boolean> {
    if (changes.length === 0) return true;
    try {
      await this.db
        .insertInto('webhook_deliveries')
        .values(
          changes.map((row) => ({
            id: `dlv_${randomBase62(20)}`,
            endpoint_id: endpointId,
            position: row.position,
            event_id: row.event_id,
            event_type: row.type,
            resource_key: `${row.resource_type}:${row.resource_id}`,
            state: 'pending' as const,
            next_attempt_at: now,
            created_at: now,
          })),
        )
        .onConflict((oc) => oc.columns(['endpoint_id', 'position']).doNothing())
        .execute();
      return true;
    } catch (err) {
      const still = await this.db
        .selectFrom('webhook_endpoints')
        .select('id')
        .where('id', '=', endpointId)
        .executeTakeFirst();
      if (still) throw err;
      return false;
    }
  }

  /** Moves the endpoint's cursor from `from` to `to` under our lease; false when it was not there or not ours. */
  async moveCursor(id: string, from: number, to: number): Promise<boolean> {
    const moved = await this.db
      .updateTable('webhook_endpoints')
      .set({ cursor: to })
      .where('id', '=', id)
      .where('lease_owner', '=', this.owner)
      .where('cursor', '=', from)
      .executeTakeFirst();
    return Number(moved.numUpdatedRows) === 1;
  }

  /** The first pending delivery of each resource, among those due at `now`, in feed order (at most `limit`), with the change each sends. */
  async due(endpointId: string, now: number, limit: number): Promise<Due[]> {
    const rows = await this.db
      .selectFrom('webhook_deliveries as d')
      .leftJoin('change_events as c', 'c.position', 'd.position')
      .select([
        'd.id',
        'd.position',
        'd.attempts',
        'd.step',
        'd.event_id as delivery_event_id',
        'd.payload',
        'c.event_id',
        'c.type',
        'c.resource_type',
        'c.resource_id',
        'c.company_handle',
        'c.occurred_at',
      ])
      .where('d.endpoint_id', '=', endpointId)
      .where('d.state', '=', PENDING)
      .where('d.next_attempt_at', '<=', now)
      .where('d.position', '=', this.firstOfResource(endpointId))
      .orderBy('d.position')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      id: r.id,
      position: Number(r.position),
      attempts: Number(r.attempts),
      step: Number(r.step),
      eventId: r.delivery_event_id,
      payload: r.payload,
      change:
        r.event_id === null
          ? null
          : {
              position: Number(r.position),
              event_id: r.event_id,
              type: r.type!,
              resource_type: r.resource_type!,
              resource_id: r.resource_id!,
              company_handle: r.company_handle,
              occurred_at: Number(r.occurred_at),
            },
    }));
  }

  /**
   * The position of the first pending delivery of the outer row's resource (`d.resource_key`). A correlated
   * subquery, not an anti-join: PostgreSQL runs it per row through the (endpoint, resource, position) index whatever
   * its statistics say; as NOT EXISTS it scanned every pending delivery for each one (docs/performance.md).
   */
  private firstOfResource(endpointId: string, db: Kysely<DB> = this.db) {
    return db
      .selectFrom('webhook_deliveries as e')
      .select((eb) => eb.fn.min('e.position').as('first'))
      .where('e.endpoint_id', '=', endpointId)
      .where('e.state', '=', PENDING)
      .whereRef('e.resource_key', '=', sql.ref('d.resource_key'));
  }

  /**
   * The endpoint as it is now, with the data the feed holds of the change (null once its resource is deleted, or the
   * change pruned); undefined when it is no longer ours to send to: deleted, disabled, or its lease taken over. One
   * indexed read per send.
   */
  sendable(endpointId: string, position: number) {
    return this.db
      .selectFrom('webhook_endpoints as e')
      .leftJoin('change_events as c', (join) => join.on('c.position', '=', position))
      .select(['e.url', 'e.secret_sealed', 'e.previous_secret_sealed', 'e.previous_secret_until', 'c.data'])
      .where('e.id', '=', endpointId)
      .where('e.lease_owner', '=', this.owner)
      .where('e.disabled_at', 'is', null)
      .executeTakeFirst();
  }

  /**
   * Records a round in one transaction: the endpoint first (proving the lease; its row lock orders this against the
   * console's changes), then every attempt, then every delivery's new state, computed by `after` from whether the
   * endpoint was disabled in the console while the round was on the wire. With `endpoint.disable`, its pending
   * deliveries fail too. False, with nothing written, when the lease is no longer ours.
   */
  async recordRound(
    endpointId: string,
    now: number,
    endpoint: { failingSince: number | null; disable: boolean },
    attempts: AttemptRecord[],
    after: (disabledMeanwhile: boolean) => DeliveryAfter[],
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const held = await trx
        .updateTable('webhook_endpoints')
        .set(
          endpoint.disable
            ? {
                failing_since: endpoint.failingSince,
                disabled_at: now,
                disabled_reason: 'every attempt failed for 3 days',
                due_at: null,
              }
            : { failing_since: endpoint.failingSince },
        )
        .where('id', '=', endpointId)
        .where('lease_owner', '=', this.owner)
        .returning('disabled_at')
        .executeTakeFirst();
      if (!held) return false;
      await trx
        .insertInto('webhook_attempts')
        .values(
          attempts.map((a) => ({
            delivery_id: a.delivery.id,
            number: a.delivery.attempts + 1,
            attempted_at: now,
            webhook_timestamp: a.timestamp,
            duration_ms: a.durationMs,
            status: a.status,
            error: a.error,
            response_body: a.responseBody,
          })),
        )
        .execute();
      const next = after(!endpoint.disable && held.disabled_at !== null);
      // Every delivery of the round in one statement: one column's new value for each, chosen by its id.
      const byId = <T>(value: (row: DeliveryAfter) => T, type: 'integer' | 'bigint' | 'text') =>
        sql<T>`CASE id ${sql.join(
          next.map((row) => sql`WHEN ${row.id} THEN CAST(${value(row)} AS ${sql.raw(type)})`),
          sql` `,
        )} END`;
      await trx
        .updateTable('webhook_deliveries')
        .set({
          state: byId((row) => row.state, 'text'),
          attempts: (eb) => eb('attempts', '+', 1),
          step: byId((row) => row.step, 'integer'),
          next_attempt_at: byId((row) => row.nextAttemptAt, 'bigint'),
          last_attempt_at: now,
          last_status: byId((row) => row.status, 'integer'),
          last_duration_ms: byId((row) => row.durationMs, 'integer'),
          last_error: byId((row) => row.error, 'text'),
        })
        .where(
          'id',
          'in',
          next.map((row) => row.id),
        )
        .execute();
      if (endpoint.disable) {
        await trx
          .updateTable('webhook_deliveries')
          .set({ state: 'failed', next_attempt_at: null, last_error: 'the endpoint was disabled' })
          .where('endpoint_id', '=', endpointId)
          .where('state', '=', 'pending')
          .execute();
      }
      return true;
    });
  }

  /** Gives our lease up, leaving the earliest sendable retry in `due_at` for whichever instance polls next. */
  async release(id: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      // The row lock first: a console redelivery committed before it is seen by the look-up below.
      const held = await trx
        .updateTable('webhook_endpoints')
        .set({ lease_until: 0 })
        .where('id', '=', id)
        .where('lease_owner', '=', this.owner)
        .executeTakeFirst();
      if (Number(held.numUpdatedRows) !== 1) return;
      const head = await trx
        .selectFrom('webhook_deliveries as d')
        .select((eb) => eb.fn.min('d.next_attempt_at').as('at'))
        .where('d.endpoint_id', '=', id)
        .where('d.state', '=', PENDING)
        .where('d.position', '=', this.firstOfResource(id, trx))
        .executeTakeFirst();
      await trx
        .updateTable('webhook_endpoints')
        .set({ lease_owner: null, due_at: head?.at === null || head?.at === undefined ? null : Number(head.at) })
        .where('id', '=', id)
        .execute();
    });
  }
}
