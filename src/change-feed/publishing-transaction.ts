/**
 * The transaction of a write that records changes for the feed (docs/changes.md): its changes are handed to the
 * feed once it has committed, so that they are completed, and webhook deliveries start, without anyone looking.
 * The write is answered without waiting for that (a read of each resource and an update, several turns of a busy
 * event loop): a read of the feed completes what is still incomplete before it reads (ChangeFeed.page), and a change
 * whose writer stopped first is completed by the next look.
 */
import type { Kysely, Transaction } from 'kysely';
import { backgroundWork } from '../db/prepared-reads.js';
import type { DB } from '../db/schema.js';
import type { ChangeFeed } from './change-feed.js';
import type { ChangeRow } from './change-log.js';

/**
 * A write repository bound to one transaction: the changes its writes recorded there (`recordChanges`), known once the
 * statements that recorded them are answered (at the latest with the commit).
 */
export interface RecordsChanges {
  readonly recorded: Array<Promise<ChangeRow[]>>;
}

/** Runs `work` in one transaction on the repository `open` makes for it, then hands its recorded changes to `changes`. */
export async function publishingTransaction<R extends RecordsChanges, T>(
  db: Kysely<DB>,
  changes: Pick<ChangeFeed, 'publish'> | undefined,
  open: (trx: Transaction<DB>) => R,
  work: (repository: R) => Promise<T>,
): Promise<T> {
  let repository: R | undefined;
  const result = await db.transaction().execute((trx) => work(repository = open(trx)));
  // Completing the changes is the feed's work after the answer, not the request's (its statements are not counted).
  void backgroundWork.run(true, async () => changes?.publish((await Promise.all(repository!.recorded)).flat()));
  return result;
}
