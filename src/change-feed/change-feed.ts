/**
 * The change feed's reading side (docs/changes.md): completing recorded changes with the resource as the public API
 * shows it, pages in commit order after a cursor, the hiring sweep that records `job.closed` when a recruiting
 * window ends, and the retention.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { Rerun } from '../shared/rerun.js';
import { completeWhenRecorded, lastPosition, recordChanges, type ChangeRow, type ResourceType } from './change-log.js';

export type { ChangeRow } from './change-log.js';

/** The public representation of a resource now, or null when it is no longer public. */
export type Snapshot = (id: string) => Promise<unknown>;

export interface FeedState {
  epoch: number;
  last: number;
  prunedBelow: number;
}

export interface PageOptions {
  /** The state the caller has read already. */
  known?: FeedState;
  /** Where to read (webhook deliveries read on the background pool). */
  db?: Kysely<DB>;
  /** Complete what writers left first (default); a reader that leaves it to them says false. */
  publish?: boolean;
}

export interface FeedPage {
  rows: ChangeRow[];
  /** The last position looked at, filtered out or not: the next page starts after it. */
  through: number;
  more: boolean;
  /** The position of the change still incomplete that ended this page, if one did: it is waiting for `publish()`. */
  incomplete: number | null;
}

/** How long changes are kept: an older cursor is answered 410 (CHANGES_RETENTION_DAYS). */
export const DEFAULT_RETENTION_DAYS = 30;
const FILL_BATCH = 100;

export class ChangeFeed {
  private readonly snapshots = new Map<ResourceType, Snapshot>();
  private readonly published: Array<(completed: ChangeRow[]) => void> = [];
  /** Changes their writers handed over to complete, and whether a caller asked for a look for any left incomplete. */
  private readonly handedOver: ChangeRow[] = [];
  private lookWanted = false;
  /** Completing changes, one run at a time (see publish). */
  private readonly filling = new Rerun(() => this.fillPass());

  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: () => number,
    private readonly log: FastifyBaseLogger,
    readonly retentionMs: number = DEFAULT_RETENTION_DAYS * 86_400_000,
    /** Where completing changes reads and writes (the background pool on PostgreSQL: it runs after a request's commit). */
    private readonly fillDb: Kysely<DB> = db,
  ) {}

  /** How the area that owns a resource type shows it publicly (each area registers its own). */
  provide(resourceType: ResourceType, snapshot: Snapshot): void {
    this.snapshots.set(resourceType, snapshot);
  }

  /** The completion this instance is running now, if any (a reader that found an incomplete change may wait for it). */
  get publishing(): Promise<void> | null {
    return this.filling.running;
  }

  /**
   * Calls `listener` whenever this instance has completed changes, with those it completed from their writers' hands
   * (exactly as stored; empty after a look for leftovers): webhook deliveries start at once, without reading them back.
   */
  onPublished(listener: (completed: ChangeRow[]) => void): void {
    this.published.push(listener);
  }

  /**
   * Completes recorded changes with their resource. A writer calls it right after its commit with the changes it
   * recorded (`recordChanges`), without waiting: those are completed without looking for them. Called without, it looks for every
   * change still incomplete: the feed does so before it reads, and webhooks when a change stays incomplete (a writer
   * that stopped between its commit and its call leaves work for them). Never throws: a change left incomplete is
   * completed by a later look.
   */
  publish(recorded?: ChangeRow[]): Promise<void> {
    if (recorded) this.handedOver.push(...recorded);
    else this.lookWanted = true;
    return this.filling.run();
  }

  private async fillPass(): Promise<void> {
    const handed = this.handedOver.splice(0);
    const look = this.lookWanted;
    this.lookWanted = false;
    let completed: ChangeRow[] = [];
    try {
      if (handed.length > 0) completed = await this.complete(handed);
      if (look) await this.fillPending();
    } catch (err) {
      this.log.error({ err }, 'change feed: completing recorded changes failed; the next read or write retries');
    }
    for (const listener of this.published) {
      try {
        listener(completed);
      } catch (err) {
        this.log.error({ err }, 'change feed: a listener of completed changes failed');
      }
    }
  }

  /**
   * Completes the writers' changes in one round of reads and one of writes; returns those now stored as held here
   * (a change another instance's look completed first is left out: its stored resource may differ from this read).
   */
  private async complete(rows: ChangeRow[]): Promise<ChangeRow[]> {
    const stored = await Promise.all(
      rows.map(async (row): Promise<ChangeRow | null> => {
        if (completeWhenRecorded(row.type)) return row;
        const data = await this.snapshotOf(row.resource_type, row.resource_id);
        const result = await this.fillDb
          .updateTable('change_events')
          .set({ data, ready: 1 })
          .where('position', '=', row.position)
          .where('ready', '=', 0)
          .executeTakeFirst();
        return Number(result.numUpdatedRows) === 1 ? { ...row, data } : null;
      }),
    );
    return stored.filter((row) => row !== null).sort((a, b) => a.position - b.position);
  }

  /** The resource as the public API shows it now, as stored in a change (null: not public). */
  private async snapshotOf(resourceType: ResourceType, resourceId: string): Promise<string | null> {
    const snapshot = this.snapshots.get(resourceType);
    if (!snapshot) throw new Error(`no snapshot for ${resourceType}`);
    const data = await snapshot(resourceId);
    return data === null ? null : JSON.stringify(data);
  }

  private async fillPending(): Promise<void> {
    for (;;) {
      const pending = await this.fillDb
        .selectFrom('change_events')
        .select(['position', 'resource_type', 'resource_id'])
        .where('ready', '=', 0)
        .orderBy('position')
        .limit(FILL_BATCH)
        .execute();
      for (const row of pending) {
        const data = await this.snapshotOf(row.resource_type, row.resource_id);
        await this.fillDb
          .updateTable('change_events')
          .set({ data, ready: 1 })
          .where('position', '=', Number(row.position))
          .where('ready', '=', 0)
          .execute();
      }
      if (pending.length < FILL_BATCH) return;
    }
  }

  /**
   * The feed's state in one read: `epoch` names this copy of the data (every cursor carries it), `last` is the
   * position of the latest change recorded, `prunedBelow` the lowest position still kept (a cursor below it may
   * have missed changes).
   */
  async state(db: Kysely<DB> = this.db): Promise<FeedState> {
    const rows = await db.selectFrom('change_feed_state').select(['name', 'value']).execute();
    const value = (name: string) => Number(rows.find((r) => r.name === name)?.value ?? Number.NaN);
    return { epoch: value('epoch'), last: value('last_position'), prunedBelow: value('pruned_below') };
  }

  /**
   * Up to `limit` changes after `after`, in commit order, of `types` and `company` when given. `through` is the last
   * position looked at (filtered out or not): the next page starts after it.
   */
  async page(
    after: number,
    limit: number,
    filter: { types: string[] | null; company: string | null },
    options: PageOptions = {},
  ): Promise<FeedPage> {
    const db = options.db ?? this.db;
    if (options.publish !== false) await this.publish();
    // In this order: every position up to `last` has committed (a state read earlier says less, never wrong); a change
    // still incomplete ends the stretch before it (it completes only once, from 0 to 1); the rows are read within what
    // both said.
    const last = options.known?.last ?? (await this.state(db)).last;
    const pending = await db
      .selectFrom('change_events')
      .select('position')
      .where('position', '>', after)
      .where('ready', '=', 0)
      .orderBy('position')
      .limit(1)
      .executeTakeFirst();
    // A bounded stretch of positions per request, so that a filter matching little cannot make one read long.
    const end = Math.max(
      after,
      Math.min(last, after + Math.max(limit * 20, 1_000), pending ? Number(pending.position) - 1 : Infinity),
    );
    let query = db
      .selectFrom('change_events')
      .select(['position', 'event_id', 'type', 'resource_type', 'resource_id', 'company_handle', 'occurred_at', 'data'])
      .where('position', '>', after)
      .where('position', '<=', end);
    if (filter.types) query = query.where('type', 'in', filter.types);
    if (filter.company) query = query.where('company_handle', '=', filter.company);
    const rows = (
      await query
        .orderBy('position')
        .limit(limit + 1)
        .execute()
    ).map((r) => ({ ...r, position: Number(r.position), occurred_at: Number(r.occurred_at) }));
    const incomplete = pending && Number(pending.position) - 1 === end ? Number(pending.position) : null;
    if (rows.length > limit)
      return { rows: rows.slice(0, limit), through: rows[limit - 1]!.position, more: true, incomplete: null };
    return { rows, through: end, more: end < last, incomplete };
  }

  /**
   * For a follower that keeps its own cursor (a webhook endpoint): up to `limit` changes after `after` in commit
   * order, of any type, in one statement that also reads the last position handed out. One statement sees one
   * snapshot, and a position is handed out only after every lower one has committed (change-log.ts), so no change up
   * to it is missing. The stretch is cut before the first change still incomplete (`incomplete`, for `publish()`).
   * `through`: the last position covered, where the follower's cursor goes.
   */
  async stretch(after: number, limit: number, db: Kysely<DB> = this.db): Promise<FeedPage> {
    const read = await db
      .selectFrom('change_events')
      .select([
        'position',
        'event_id',
        'type',
        'resource_type',
        'resource_id',
        'company_handle',
        'occurred_at',
        'data',
        'ready',
      ])
      .where('position', '>', after)
      .where('position', '<=', lastPosition(db))
      .orderBy('position')
      .limit(limit + 1)
      .execute();
    const cut = read.findIndex((r) => Number(r.ready) === 0);
    const usable = (cut === -1 ? read : read.slice(0, cut)).slice(0, limit);
    const rows = usable.map(({ ready: _ready, ...r }) => ({
      ...r,
      position: Number(r.position),
      occurred_at: Number(r.occurred_at),
    }));
    return {
      rows,
      through: rows.at(-1)?.position ?? after,
      more: cut === -1 && read.length > limit,
      incomplete: cut !== -1 && cut <= limit ? Number(read[cut]!.position) : null,
    };
  }

  /**
   * Records `job.closed` for every published job whose recruiting window has ended since the last sweep, once per
   * end (a job published again with a new window closes again). Safe on several instances at once: a job is claimed
   * by the update that sets its `closed_event_for`, which only one transaction can make.
   */
  async sweepClosedJobs(): Promise<number> {
    const now = this.clock();
    const ended = await this.db
      .selectFrom('jobs')
      .select(['id', 'company_id', 'end_at'])
      .where('status', '=', 'published')
      .where('deleted_at', 'is', null)
      .where('end_at', 'is not', null)
      .where('end_at', '<=', now)
      .where((eb) => eb.or([eb('closed_event_for', 'is', null), eb('closed_event_for', '<>', eb.ref('end_at'))]))
      .orderBy('end_at')
      .limit(500)
      .execute();
    const recorded: ChangeRow[] = [];
    for (const job of ended) {
      const claimed = await this.db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('jobs')
          .set({ closed_event_for: job.end_at })
          .where('id', '=', job.id)
          .where('status', '=', 'published')
          .where('end_at', '=', job.end_at)
          .where((eb) => eb.or([eb('closed_event_for', 'is', null), eb('closed_event_for', '<>', job.end_at)]))
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) !== 1) return null;
        return recordChanges(trx, [{ type: 'job.closed', resourceId: job.id, companyId: job.company_id }], now);
      });
      if (claimed) recorded.push(...(await claimed.answer));
    }
    if (recorded.length > 0) await this.publish(recorded);
    return recorded.length;
  }

  /** Deletes changes older than the retention; a cursor below what is left is answered 410. */
  async prune(): Promise<number> {
    const cutoff = this.clock() - this.retentionMs;
    return this.db.transaction().execute(async (trx) => {
      const newest = await trx
        .selectFrom('change_events')
        .select((eb) => eb.fn.max('position').as('position'))
        .where('occurred_at', '<', cutoff)
        .executeTakeFirst();
      const below = Number(newest?.position ?? 0) + 1;
      if (below <= 1) return 0;
      const result = await trx.deleteFrom('change_events').where('position', '<', below).executeTakeFirst();
      await trx
        .updateTable('change_feed_state')
        .set({ value: below })
        .where('name', '=', 'pruned_below')
        .where('value', '<', below)
        .execute();
      return Number(result.numDeletedRows);
    });
  }

  /** The sweep every minute and the retention every hour, for as long as the instance runs; returns the stop. */
  start(): () => Promise<void> {
    const report = (what: string) => (err: unknown) => this.log.error({ err }, `change feed: ${what} failed`);
    const running = new Set<Promise<unknown>>();
    const run = (work: () => Promise<unknown>, what: string) => {
      const done = work()
        .catch(report(what))
        .finally(() => running.delete(done));
      running.add(done);
    };
    const sweep = setInterval(() => run(() => this.sweepClosedJobs(), 'the hiring sweep'), 60_000);
    const prune = setInterval(() => run(() => this.prune(), 'pruning'), 3_600_000);
    sweep.unref();
    prune.unref();
    // Stopping waits for a sweep or a pruning under way: the database closes after it.
    return async () => {
      clearInterval(sweep);
      clearInterval(prune);
      await Promise.allSettled([...running]);
    };
  }
}
