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

export type ChangeKind = SearchChangesTable['kind'];

/** A missing id older than this is a transaction that rolled back (none of ours stays open this long). */
const GAP_MS = 60_000;
const BATCH = 5_000;

/** Records, inside the writing transaction, that these documents changed. */
export async function recordSearchChanges(db: Kysely<DB>, kind: ChangeKind, ids: number[], now: number = Date.now()): Promise<void> {
  if (ids.length === 0) return;
  await db.insertInto('search_changes').values(ids.map((id) => ({ kind, doc_id: id, created_at: now }))).execute();
}

export interface FollowerState { horizon: number; applied: number[]; gaps: Array<[number, number]> }

export class ChangeFollower {
  /** Every change with an id up to this is applied. */
  private horizon = 0;
  /** Ids above the horizon already applied. */
  private readonly applied = new Set<number>();
  /** Ids above the horizon not seen yet, with when they were first missed. */
  private readonly gaps = new Map<number, number>();

  constructor(private readonly db: Kysely<DB>, private readonly kind: ChangeKind, private readonly clock: () => number = Date.now) {}

  /** Starts following from the log's end: call before reading the tables the index is built from. */
  async start(): Promise<void> {
    const row = await this.db.selectFrom('search_changes').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst();
    this.horizon = Number(row?.id ?? 0);
    this.applied.clear();
    this.gaps.clear();
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

  /** The ids of the documents of this kind changed since the last call. */
  async next(): Promise<number[]> {
    const changed = new Set<number>();
    for (let after = this.horizon; ;) {
      const rows = await this.db.selectFrom('search_changes').select(['id', 'kind', 'doc_id'])
        .where('id', '>', after).orderBy('id').limit(BATCH).execute();
      for (const row of rows) {
        const id = Number(row.id);
        if (this.applied.has(id)) continue;
        this.applied.add(id);
        this.gaps.delete(id);
        if (row.kind === this.kind) changed.add(Number(row.doc_id));
      }
      if (rows.length < BATCH) break;
      after = Number(rows[rows.length - 1]!.id);
    }
    this.advance();
    return [...changed];
  }

  private advance(): void {
    const now = this.clock();
    const highest = Math.max(this.horizon, ...this.applied);
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
