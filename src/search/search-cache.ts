import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { DB } from '../db/schema.js';

export type VersionedData = 'posts' | 'jobs';

/** Bumps the data version inside the writing transaction: cached searches of that data are then stale. */
export async function bumpDataVersion(db: Kysely<DB>, name: VersionedData): Promise<void> {
  await db.updateTable('data_versions').set((eb) => ({ version: eb('version', '+', 1) })).where('name', '=', name).execute();
}

interface Entry { version: number; validUntil: number; total: number; ids: number[] }

/**
 * Search results (the exact total and one page of ids) cached under the data version they were read at.
 * A hit needs the version to be unchanged, so a write by any instance makes every cached page of that data
 * stale at once; `validUntil` ends an entry earlier when results depend on time (jobs open and close).
 */
export class SearchCache {
  private readonly entries = new LRUCache<string, Entry>({ max: 20_000 });
  /** Computations under way, so that concurrent misses of one search run it once. */
  private readonly inFlight = new Map<string, Promise<Entry>>();

  constructor(private readonly db: Kysely<DB>, private readonly name: VersionedData) {}

  async version(): Promise<number> {
    const row = await this.db.selectFrom('data_versions').select('version').where('name', '=', this.name).executeTakeFirst();
    return Number(row?.version ?? 0);
  }

  /** The cached result for `key`, or `compute()`'s, stored under the version read before computing. */
  async get(key: string, now: number, compute: () => Promise<{ total: number; ids: number[]; validUntil?: number }>): Promise<{ total: number; ids: number[] }> {
    const version = await this.version();
    const cached = this.entries.get(key);
    if (cached && cached.version === version && now < cached.validUntil) return cached;
    const flightKey = `${version}|${key}`;
    const joined = this.inFlight.get(flightKey);
    if (joined) {
      const entry = await joined;
      // A computation started at an earlier moment may have run out for this one: then compute anew, once.
      if (now < entry.validUntil) return entry;
    }
    const flight: Promise<Entry> = compute().then((fresh) => {
      const entry = { version, validUntil: fresh.validUntil ?? Number.POSITIVE_INFINITY, total: fresh.total, ids: fresh.ids };
      this.entries.set(key, entry);
      return entry;
    }).finally(() => {
      if (this.inFlight.get(flightKey) === flight) this.inFlight.delete(flightKey);
    });
    this.inFlight.set(flightKey, flight);
    return flight;
  }
}
