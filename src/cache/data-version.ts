import type { Kysely } from 'kysely';
import { DATA_VERSION_SLOTS } from '../db/migrations/2026-11-21-008-data-version-slots.js';
import type { PreparedRead, PreparedReads } from '../db/prepared-reads.js';
import type { DB } from '../db/schema.js';
import { sendLater } from '../db/sent-later.js';

export type VersionedData = 'posts' | 'jobs' | 'events' | 'companies' | 'profiles';

/**
 * Bumps the data version inside the writing transaction (sent with its next statement: sent-later.ts): everything
 * cached from that data is then stale.
 * One of its slots, picked at random, so that concurrent writers seldom wait on each other's row lock. The
 * version grows by the number of items written (`by`), so the distance between two versions bounds how
 * many items changed in between (search-cache estimates rely on it).
 */
export async function bumpDataVersion(db: Kysely<DB>, name: VersionedData, by = 1): Promise<void> {
  const slot = Math.floor(Math.random() * DATA_VERSION_SLOTS);
  await sendLater(
    db,
    db
      .updateTable('data_version_slots')
      .set((eb) => ({ version: eb('version', '+', by) }))
      .where('name', '=', name)
      .where('slot', '=', slot),
  );
}

/**
 * The current version of one kind of data, read from the database (so a write committed by any instance is
 * seen at once). A prepared statement: it runs for every cached read.
 *
 * Callers that ask while no read has started yet share the next one: it starts after the current phase of
 * the event loop (setImmediate), so it starts after every one of them asked, and sees every write committed
 * before any of them arrived. A caller that asks once that read has started waits for the next one. Under
 * load this turns one read per request into one read per turn of the event loop.
 */
export class DataVersion {
  private readonly query: PreparedRead<{ version: number | string | null }>;
  private next: Promise<number> | null = null;

  constructor(
    reads: PreparedReads,
    readonly name: VersionedData,
  ) {
    this.query = reads.prepare(
      'data_version',
      (sql) => `SELECT sum(version) AS version FROM data_version_slots WHERE name = ${sql.param(1)}`,
    );
  }

  read(): Promise<number> {
    this.next ??= new Promise<number>((resolve, reject) => {
      setImmediate(() => {
        this.next = null;
        this.query.all([this.name]).then((rows) => resolve(Number(rows[0]?.version ?? 0)), reject);
      });
    });
    return this.next;
  }
}
