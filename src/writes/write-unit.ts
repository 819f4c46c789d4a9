/**
 * What a write of a public resource tells the rest of the service, stated once (docs/architecture.md, "Writes").
 *
 * A write's own SQL lives in its area's repository; its effects go through the unit of work of its transaction:
 * the search index's change log (the instances read the documents again), the data version (cached answers go
 * stale), and the change feed (a change, completed and delivered to webhooks after the commit). Which of them a
 * resource type has is one table, `EFFECTS`: a new resource type does not compile until it says.
 */
import { sql, type Kysely } from 'kysely';
import { bumpDataVersion, type VersionedData } from '../cache/data-version.js';
import type { ChangeFeed } from '../change-feed/change-feed.js';
import { recordChanges, type ChangeRow, type ChangeType, type ResourceType } from '../change-feed/change-log.js';
import { backgroundWork } from '../db/prepared-reads.js';
import type { DB } from '../db/schema.js';
import { recordSearchChanges, type ChangeKind } from '../search/search-changes.js';
import { sendLater } from '../db/sent-later.js';

/**
 * Per resource type: the search index it is in and the data versions its cached answers follow. A company is shown
 * inside posts, jobs and events (its name, logo, industry and size), and its jobs' search documents hold its name and
 * size: its writes make all of them stale, and its jobs are read again by the job index.
 */
const EFFECTS: Record<ResourceType, { search: ChangeKind; dataVersions: readonly VersionedData[] }> = {
  post: { search: 'post', dataVersions: ['posts'] },
  job: { search: 'job', dataVersions: ['jobs'] },
  event: { search: 'event', dataVersions: ['events'] },
  company: { search: 'company', dataVersions: ['companies', 'jobs', 'posts', 'events'] },
  profile: { search: 'profile', dataVersions: ['profiles'] },
};

/** Records in the search log that the jobs of these companies changed (their documents hold the company's name and size). */
async function recordCompanyJobsSearchChanges(db: Kysely<DB>, companyIds: number[], now: number): Promise<void> {
  await sendLater(
    db,
    db
      .insertInto('search_changes')
      .columns(['kind', 'doc_id', 'created_at'])
      .expression(
        db
          .selectFrom('jobs')
          .select([sql.lit('job').as('kind'), 'id', sql.lit(now).as('created_at')])
          .where('company_id', 'in', companyIds),
      ),
  );
}

/**
 * Records in the search log that these events changed, by the numbers the database gave them (an event's id is text;
 * the index numbers its items), read in the same statement.
 */
async function recordEventSearchChanges(db: Kysely<DB>, ids: string[], now: number): Promise<void> {
  await sendLater(
    db,
    db
      .insertInto('search_changes')
      .columns(['kind', 'doc_id', 'created_at'])
      .expression(
        db
          .selectFrom('events')
          .select([sql.lit('event').as('kind'), 'search_number', sql.lit(now).as('created_at')])
          .where('id', 'in', ids),
      ),
  );
}

/** One resource written. */
export interface Write {
  resource: ResourceType;
  id: number | string;
  /** The feed's change; null when the public API does not show the write (a draft's edits). */
  change: ChangeType | null;
  /** The company the resource belongs to (null for a member's post). */
  companyId: number | null;
  /** The id the feed shows when it is not `id`: a profile is known by its member's handle. */
  publicId?: string;
}

/** The effects of one transaction's writes; `record` inside the transaction, `recorded` once it has committed. */
export class WriteUnit {
  private readonly changes: Array<Promise<ChangeRow[]>> = [];

  constructor(readonly db: Kysely<DB>) {}

  /**
   * Records the effects of `writes`, all at `now`, in the transaction: one statement for each effect, whatever the
   * number of writes. None is waited for (sent-later.ts).
   */
  async record(now: number, ...writes: Write[]): Promise<void> {
    for (const [resource, effects] of Object.entries(EFFECTS) as Array<
      [ResourceType, (typeof EFFECTS)[ResourceType]]
    >) {
      const ids = writes.filter((w) => w.resource === resource).map((w) => w.id);
      if (ids.length === 0) continue;
      // An event's id is text: the index knows it by the number the database gave it.
      if (effects.search === 'event') await recordEventSearchChanges(this.db, ids.map(String), now);
      else await recordSearchChanges(this.db, effects.search, ids.map(Number), now);
      if (resource === 'company') await recordCompanyJobsSearchChanges(this.db, ids.map(Number), now);
      for (const name of effects.dataVersions) await bumpDataVersion(this.db, name, ids.length);
    }
    const changes = writes.flatMap((w) =>
      w.change ? [{ type: w.change, resourceId: w.publicId ?? w.id, companyId: w.companyId }] : [],
    );
    if (changes.length > 0) this.changes.push((await recordChanges(this.db, changes, now)).answer);
  }

  /** The feed's changes recorded (settled with the transaction's commit). */
  async recorded(): Promise<ChangeRow[]> {
    return (await Promise.all(this.changes)).flat();
  }
}

/** The unit of a repository's transaction; a write outside `transaction()` is a mistake of ours. */
export function inTransaction(unit: WriteUnit | undefined): WriteUnit {
  if (!unit) throw new Error("a write ran outside its repository's transaction()");
  return unit;
}

/**
 * Runs `work` in one transaction, on the repository `open` makes for its unit, then hands the changes it recorded to
 * `feed`. The write is answered without waiting for that (a read of each resource and an update, several turns of a
 * busy event loop): a read of the feed completes what is still incomplete before it reads (ChangeFeed.page), and a
 * change whose writer stopped first is completed by the next look.
 */
export async function writeTransaction<R, T>(
  db: Kysely<DB>,
  feed: Pick<ChangeFeed, 'publish'> | undefined,
  open: (unit: WriteUnit) => R,
  work: (repository: R) => Promise<T>,
): Promise<T> {
  let unit: WriteUnit | undefined;
  const result = await db.transaction().execute((trx) => work(open((unit = new WriteUnit(trx)))));
  // Completing the changes is the feed's work after the answer, not the request's (its statements are not counted).
  void backgroundWork.run(true, async () => feed?.publish(await unit!.recorded()));
  return result;
}
