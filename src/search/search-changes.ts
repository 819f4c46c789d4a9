/**
 * The change log that keeps every instance's search index true (docs/search.md, "Keeping the index true").
 *
 * A write records the documents it changed in its own transaction (`recordSearchChanges`), beside its data
 * version bump. An instance follows the log (`ChangeFollower`): after seeing a new data version it reads the
 * rows it has not applied and reads those documents again from the tables. Applying a change means "read the
 * document as it is now", so applying one twice, or late, is harmless.
 *
 * The trap of sequence numbers on PostgreSQL: ids are handed out when a transaction inserts, not when it
 * commits, so a row with a lower id can become visible after a higher one. The follower therefore keeps a
 * horizon below which every id is applied, remembers each missing id above it (a transaction still open,
 * or one rolled back), and reads from the horizon again until the id shows up or is older than GAP_MS, when
 * it counts as rolled back. On SQLite writers are serialized and ids commit in order.
 */
import type { Kysely } from 'kysely';
import type { DB, SearchChangesTable } from '../db/schema.js';
import { sendLater } from '../db/sent-later.js';

export type ChangeKind = SearchChangesTable['kind'];

/** A missing id older than this is a transaction that rolled back (none of ours stays open this long). */
const GAP_MS = 60_000;
const BATCH = 5_000;
/** The log keeps a week: an instance's copy older than that is rebuilt from the tables (docs/search.md). */
export const LOG_RETENTION_MS = 7 * 86_400_000;

/**
 * Deletes the log's rows older than the retention, and records below which id rows are gone, so that a
 * follower (or a saved copy) whose place is below it knows it lost changes and rebuilds. Returns rows deleted.
 */
export async function pruneSearchChanges(db: Kysely<DB>, now: number = Date.now()): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const cutoff = await trx
      .selectFrom('search_changes')
      .select((eb) => eb.fn.max('id').as('id'))
      .where('created_at', '<', now - LOG_RETENTION_MS)
      .executeTakeFirst();
    const below = Number(cutoff?.id ?? 0) + 1;
    if (below <= 1) return 0;
    const result = await trx.deleteFrom('search_changes').where('id', '<', below).executeTakeFirst();
    await trx
      .updateTable('search_log_state')
      .set({ value: String(below) })
      .where('name', '=', 'pruned_below')
      .where((eb) => eb(eb.cast('value', 'bigint'), '<', below))
      .execute();
    return Number(result.numDeletedRows);
  });
}

/** Prunes the log now and then (every hour) for as long as the instance runs; returns the stop. */
export function startPruning(db: Kysely<DB>, clock: () => number, onError: (err: unknown) => void): () => void {
  const timer = setInterval(() => {
    pruneSearchChanges(db, clock()).catch(onError);
  }, 3_600_000);
  timer.unref();
  return () => clearInterval(timer);
}

/** The log's oldest kept id: every row below it was deleted (0 when none was). */
export async function prunedBelow(db: Kysely<DB>): Promise<number> {
  const row = await db
    .selectFrom('search_log_state')
    .select('value')
    .where('name', '=', 'pruned_below')
    .executeTakeFirst();
  return Number(row?.value ?? 0);
}

/** A follower whose place in the log was pruned away: the index must be rebuilt from the tables. */
export class ChangesLostError extends Error {}

/** Records, inside the writing transaction, that these documents changed. */
export async function recordSearchChanges(
  db: Kysely<DB>,
  kind: ChangeKind,
  ids: number[],
  now: number = Date.now(),
): Promise<void> {
  if (ids.length === 0) return;
  await sendLater(db, db.insertInto('search_changes').values(ids.map((id) => ({ kind, doc_id: id, created_at: now }))));
}

/** What a follower read from the log and has not moved past yet (ChangeFollower.pending). */
export interface PendingChanges {
  /** The documents of the follower's kind to read again. */
  documents: number[];
  /** The log rows read, of every kind. */
  rows: number[];
}

export interface FollowerState {
  horizon: number;
  applied: number[];
  gaps: Array<[number, number]>;
}

export class ChangeFollower {
  /** Every change with an id up to this is applied. */
  private horizon = 0;
  /** Ids above the horizon already applied. */
  private readonly applied = new Set<number>();
  /** Ids above the horizon not seen yet, with when they were first missed. */
  private readonly gaps = new Map<number, number>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly kind: ChangeKind,
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * Starts following from the log's end: call before reading the tables the index is built from. What is in
   * the log now is in those tables already; but a transaction that took a lower id may still be open and
   * commit after the build read them, so the ids of the last GAP_MS that are not there yet are waited for.
   */
  async start(): Promise<void> {
    const settled = await this.db
      .selectFrom('search_changes')
      .select((eb) => eb.fn.max('id').as('id'))
      .where('created_at', '<', this.clock() - GAP_MS)
      .executeTakeFirst();
    // Rows below the pruned mark are gone, and what they said is in the tables the build reads after this.
    this.horizon = Math.max(Number(settled?.id ?? 0), (await prunedBelow(this.db)) - 1);
    this.applied.clear();
    this.gaps.clear();
    const recent = await this.db.selectFrom('search_changes').select('id').where('id', '>', this.horizon).execute();
    for (const row of recent) this.applied.add(Number(row.id));
    this.advance();
  }

  /** Where the follower is, for a saved copy of the index it feeds. */
  state(): FollowerState {
    return { horizon: this.horizon, applied: [...this.applied], gaps: [...this.gaps] };
  }

  restore(state: FollowerState): void {
    this.horizon = state.horizon;
    this.applied.clear();
    for (const id of state.applied) this.applied.add(id);
    this.gaps.clear();
    for (const [id, at] of state.gaps) this.gaps.set(id, at);
  }

  /** Whether an id is still missing above the horizon (the next search reads the log again). */
  get waiting(): boolean {
    return this.gaps.size > 0;
  }

  /**
   * The changes not applied yet: the ids of the documents of this kind they name, and the log rows that said so.
   * Nothing moves until `accept` is called with them, once the documents are in the index: a read of the tables that
   * fails leaves them to be read again, never skipped. ChangesLostError when the log no longer reaches back to its place.
   */
  async pending(): Promise<PendingChanges> {
    if (this.horizon + 1 < (await prunedBelow(this.db)))
      throw new ChangesLostError('The change log was pruned past this index; it must be rebuilt');
    const changed = new Set<number>();
    const rowIds: number[] = [];
    for (let after = this.horizon; ; ) {
      const rows = await this.db
        .selectFrom('search_changes')
        .select(['id', 'kind', 'doc_id'])
        .where('id', '>', after)
        .orderBy('id')
        .limit(BATCH)
        .execute();
      for (const row of rows) {
        const id = Number(row.id);
        if (this.applied.has(id)) continue;
        rowIds.push(id);
        if (row.kind === this.kind) changed.add(Number(row.doc_id));
      }
      if (rows.length < BATCH) break;
      after = Number(rows[rows.length - 1]!.id);
    }
    return { documents: [...changed], rows: rowIds };
  }

  /** Moves past the changes of `pending`, whose documents the index now holds as the tables have them. */
  accept(pending: PendingChanges): void {
    for (const id of pending.rows) {
      this.applied.add(id);
      this.gaps.delete(id);
    }
    this.advance();
  }

  private advance(): void {
    const now = this.clock();
    let highest = this.horizon;
    for (const id of this.applied) if (id > highest) highest = id;
    for (let id = this.horizon + 1; id < highest; id++) {
      if (!this.applied.has(id) && !this.gaps.has(id)) this.gaps.set(id, now);
    }
    for (;;) {
      const next = this.horizon + 1;
      const missedSince = this.gaps.get(next);
      if (this.applied.delete(next)) this.horizon = next;
      else if (missedSince !== undefined && now - missedSince > GAP_MS) {
        this.gaps.delete(next);
        this.horizon = next;
      } else break;
    }
  }
}
