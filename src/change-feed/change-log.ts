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
import { mapLater, sendLater, type SentLater } from '../db/sent-later.js';
import { rememberTraceOf } from '../telemetry/trace-spans.js';

export const CHANGE_TYPES = [
  'post.created',
  'post.updated',
  'post.deleted',
  'job.published',
  'job.updated',
  'job.closed',
  'job.deleted',
  'event.created',
  'event.updated',
  'event.deleted',
  'company.updated',
  'profile.updated',
  'profile.deleted',
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
 * Empties the content of every change of a resource recorded so far (they keep their type, id and time), in the
 * writing transaction, and marks them complete so that none is filled later: no read, redelivery or replay sends that
 * content again. A deletion does it; so does every write of a profile (a section hidden now must not be read in an
 * older change).
 */
export async function forgetContent(db: Kysely<DB>, resourceType: ResourceType, resourceId: string): Promise<void> {
  await sendLater(
    db,
    db
      .updateTable('change_events')
      .set({ data: null, ready: 1 })
      .where('resource_type', '=', resourceType)
      .where('resource_id', '=', resourceId),
  );
}

/**
 * Records `changes` in the transaction `db` belongs to, at the next positions of the feed. Neither of its two
 * statements is waited for (sent-later.ts): the counter's update, and the insert that takes its positions from the
 * counter as updated. The answer, the changes as recorded (for the writer to complete right after its commit:
 * `ChangeFeed.publish`), comes with the transaction's next statement that is waited for. Holding the counter's
 * lock from its update to the commit then costs no turn of the event loop between them.
 */
export async function recordChanges(db: Kysely<DB>, changes: Change[], now: number): Promise<SentLater<ChangeRow[]>> {
  if (changes.length === 0) return { answer: Promise.resolve([]) };
  await sendLater(
    db,
    db
      .updateTable('change_feed_state')
      .set((eb) => ({ value: eb('value', '+', changes.length) }))
      .where('name', '=', 'last_position'),
  );
  const recorded = changes.map((change) => ({
    event_id: `evt_${randomBytes(12).toString('base64url')}`,
    type: change.type,
    resource_type: resourceOf(change.type),
    resource_id: String(change.resourceId),
    occurred_at: now,
    data: null,
  }));
  // Its deliveries from this instance join the trace of the write that made it (when traces are on).
  for (const row of recorded) rememberTraceOf(row.event_id);
  // Deleted means gone: the earlier changes of a deleted resource keep their type, id and time but lose its content,
  // in the deleting transaction, and none is filled later (ready), so no read, redelivery or replay sends it again.
  for (const change of changes.filter((c) => completeWhenRecorded(c.type)))
    await forgetContent(db, resourceOf(change.type), String(change.resourceId));
  const inserted = await sendLater(
    db,
    db
      .insertInto('change_events')
      .values(
        recorded.map((row, i) => ({
          ...row,
          // The i-th of n changes takes position last - (n - 1 - i), from the counter as this transaction's update left it.
          position: db
            .selectFrom('change_feed_state')
            .select((eb) => eb('value', '-', changes.length - 1 - i).as('position'))
            .where('name', '=', 'last_position'),
          // The company's handle is taken in the insert itself: one statement, not a read of the companies before it.
          company_handle:
            changes[i]!.companyId === null
              ? null
              : db.selectFrom('companies').select('handle').where('id', '=', changes[i]!.companyId),
          ready: completeWhenRecorded(row.type) ? 1 : 0,
        })),
      )
      .returning(['event_id', 'position', 'company_handle']),
  );
  return mapLater(inserted, (rows) => {
    const byEvent = new Map(rows.map((row) => [row.event_id, row]));
    return recorded.map((row): ChangeRow => {
      const { position, company_handle } = byEvent.get(row.event_id)!;
      return { ...row, position: Number(position), company_handle };
    });
  });
}
