import { LRUCache } from 'lru-cache';
import { SeenBefore } from '../cache/seen-before.js';
import { ClientGoneError } from '../db/read-scope.js';
import type { FacetCounts } from './facet-counts.js';

interface Found {
  total: number;
  ids: number[];
  validFrom?: number;
  validUntil?: number;
  facets?: FacetCounts;
  didYouMean?: string;
  corrections?: string[];
}
interface Entry extends Omit<Found, 'validFrom' | 'validUntil'> {
  version: number;
  validFrom: number;
  validUntil: number;
}

/**
 * Search results (the exact total, one page of ids, facet counts when asked for) cached under the data
 * version they were read at, from the second time a search is asked for.
 * A hit needs the version to be unchanged, so a write by any instance makes every cached page of that data
 * stale at once. When results depend on time (jobs open and close), an entry holds only for the moments in
 * [`validFrom`, `validUntil`): the clock may move back as well as forward.
 */
export class SearchCache {
  private readonly entries = new LRUCache<string, Entry>({ max: 5_000 });
  /** A result is kept when its search comes a second time (seen-before.ts): most distinct searches come once. */
  private readonly offered = new SeenBefore();
  /** Computations under way, so that concurrent misses of one search run it once. */
  private readonly inFlight = new Map<string, Promise<Entry>>();

  /**
   * The cached result for `key` under the data `version` the request read before (representation-cache.ts), or
   * `compute()`'s, stored under it. `compute` gets the version, so that the index it searches is read as of it.
   */
  async get(key: string, now: number, compute: (version: number) => Promise<Found>, version: number): Promise<Entry> {
    const cached = this.entries.get(key);
    if (cached && cached.version === version && holdsAt(cached, now)) return cached;
    const flightKey = `${version}|${key}`;
    const joined = this.inFlight.get(flightKey);
    if (joined) {
      // The client that started it may have left, and its reads were then dropped: compute anew for this one.
      const entry = await joined.catch((err: unknown) => {
        if (err instanceof ClientGoneError) return null;
        throw err;
      });
      // A computation started at an earlier moment may have run out for this one: then compute anew, once.
      if (entry && holdsAt(entry, now)) return entry;
    }
    const flight: Promise<Entry> = compute(version)
      .then((fresh) => {
        const entry = {
          version,
          validFrom: fresh.validFrom ?? Number.NEGATIVE_INFINITY,
          validUntil: fresh.validUntil ?? Number.POSITIVE_INFINITY,
          total: fresh.total,
          ids: fresh.ids,
          facets: fresh.facets,
          ...(fresh.didYouMean !== undefined && { didYouMean: fresh.didYouMean }),
          ...(fresh.corrections !== undefined && { corrections: fresh.corrections }),
        };
        if (this.offered.admits(key, this.entries.has(key))) this.entries.set(key, entry);
        return entry;
      })
      .finally(() => {
        if (this.inFlight.get(flightKey) === flight) this.inFlight.delete(flightKey);
      });
    this.inFlight.set(flightKey, flight);
    return flight;
  }
}

const holdsAt = (entry: Entry, now: number): boolean => entry.validFrom <= now && now < entry.validUntil;
