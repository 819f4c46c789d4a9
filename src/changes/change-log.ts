/**
 * Recording public changes for the change feed (docs/changes.md), inside the writing transaction.
 *
 * Positions come from one counter row that every recording transaction updates: the row's lock makes a second
 * transaction wait until the first has committed (PostgreSQL) or the writers are one at a time anyway (SQLite), so a
 * position is handed out only after every lower one has committed or rolled back. A reader that has seen position n
 * has seen everything below it: no change is skipped, however writes on several instances interleave. A rolled-back
 * transaction gives its positions back with the counter.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { ChangeEventsTable, DB } from '../db/schema.js';

export const CHANGE_TYPES = [
  'post.created', 'post.updated', 'post.deleted',
  'job.published', 'job.updated', 'job.closed', 'job.deleted',
  'event.created', 'event.updated', 'event.deleted',
] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];
export type ResourceType = ChangeEventsTable['resource_type'];

/** A recorded change as the feed keeps it; `data` is the resource as the public API showed it (null: none). */
export interface ChangeRow {
  position: number;
  event_id: string;
  type: string;
  resource_type: ResourceType;
  resource_id: string;
  company_handle: string | null;
  occurred_at: number;
  data: string | null;
}

export interface Change {
  type: ChangeType;
  resourceId: number | string;
  /** The company the resource belongs to (a job's, an event's, a company's post); null for a member's post. */
  companyId: number | null;
}

/** A new name for a copy of the data, for the feed's cursors: 48 random bits (a safe integer on both engines). */
export function newFeedEpoch(): number {
  return randomBytes(6).readUIntBE(0, 6);
}

/** The last position handed out (a query, or a subquery of another): every change up to it has committed. */
export function lastPosition(db: Kysely<DB>) {
  return db.selectFrom('change_feed_state').select('value').where('name', '=', 'last_position');
}

const resourceOf = (type: ChangeType): ResourceType => type.slice(0, type.indexOf('.')) as ResourceType;

/** A deletion carries no resource: it is complete as recorded. Every other change is completed after its commit. */
export const completeWhenRecorded = (type: string): boolean => type.endsWith('.deleted');

/**
 * Records `changes` in the transaction `db` belongs to, at the next positions of the feed; returns them as recorded
 * (for the writer to complete right after its commit: `ChangeFeed.publish`).
 */
export async function recordChanges(db: Kysely<DB>, changes: Change[], now: number): Promise<ChangeRow[]> {
  if (changes.length === 0) return [];
  const { value: last } = await db.updateTable('change_feed_state').set((eb) => ({ value: eb('value', '+', changes.length) }))
    .where('name', '=', 'last_position').returning('value').executeTakeFirstOrThrow();
  const first = Number(last) - changes.length + 1;
  const drafts = changes.map((change, i) => ({
    position: first + i,
    event_id: `evt_${randomBytes(12).toString('base64url')}`,
    type: change.type,
    resource_type: resourceOf(change.type),
    resource_id: String(change.resourceId),
    companyId: change.companyId,
    occurred_at: now,
    data: null,
  }));
  // The company's handle is taken in the insert itself: one statement, not a read of the companies before it.
  const handles = new Map((await db.insertInto('change_events')
    .values(drafts.map(({ companyId, ...row }) => ({
      ...row,
      company_handle: companyId === null ? null : db.selectFrom('companies').select('handle').where('id', '=', companyId),
      ready: completeWhenRecorded(row.type) ? 1 : 0,
    })))
    .returning(['position', 'company_handle'])
    .execute()).map((row) => [Number(row.position), row.company_handle]));
  const rows: ChangeRow[] = drafts.map(({ companyId: _, ...row }) => ({ ...row, company_handle: handles.get(row.position) ?? null }));
  return rows;
}
