import { holdsAt, VersionedCache } from '../cache/versioned-cache.js';
import { ClientGoneError } from '../db/read-scope.js';
import type { FacetCounts } from './facet-counts.js';

/**
 * A search's answer: the exact total and one page of ids, and what else it asked for. `validFrom`, `validUntil`: for a
 * search asked at a moment, the moments around it between which no document starts or ends (in that span the result
 * cannot change without a write). `corrections`: the terms a typo-tolerant search matched by.
 */
export interface SearchResult {
  total: number;
  ids: number[];
  validFrom?: number;
  validUntil?: number;
  facets?: FacetCounts;
  didYouMean?: string;
  corrections?: string[];
}
interface Entry extends Omit<SearchResult, 'validFrom' | 'validUntil'> {
  validFrom: number;
  validUntil: number;
}

/** The memory kept results may take: a page of ids with its counts is a few hundred bytes, its facets a few kilobytes. */
const MAX_BYTES = 8 * 1024 * 1024;

/**
 * Search results (the exact total, one page of ids, facet counts when asked for) kept in the versioned cache
 * (versioned-cache.ts) under the data version they were read at: a write by any instance makes every kept page of
 * that data stale at once. When results depend on time (jobs open and close), an entry holds only for the moments
 * in [`validFrom`, `validUntil`). What it adds to that cache: concurrent misses of one search run it once.
 */
export class SearchCache {
  private readonly kept = new VersionedCache<Entry>(MAX_BYTES);
  /** Computations under way, keyed by version and search. */
  private readonly inFlight = new Map<string, Promise<Entry>>();

  /**
   * The kept result for `key` under the data `version` the request read before (representation-cache.ts), or
   * `compute()`'s, kept under it. `compute` gets the version, so that the index it searches is read as of it.
   */
  async get(
    key: string,
    now: number,
    compute: (version: number) => Promise<SearchResult>,
    version: number,
  ): Promise<Entry> {
    const cached = this.kept.get(version, key, now);
    if (cached) return cached;
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
        const entry: Entry = {
          validFrom: fresh.validFrom ?? Number.NEGATIVE_INFINITY,
          validUntil: fresh.validUntil ?? Number.POSITIVE_INFINITY,
          total: fresh.total,
          ids: fresh.ids,
          facets: fresh.facets,
          ...(fresh.didYouMean !== undefined && { didYouMean: fresh.didYouMean }),
          ...(fresh.corrections !== undefined && { corrections: fresh.corrections }),
        };
        this.kept.set(version, key, entry, entry);
        return entry;
      })
      .finally(() => {
        if (this.inFlight.get(flightKey) === flight) this.inFlight.delete(flightKey);
      });
    this.inFlight.set(flightKey, flight);
    return flight;
  }
}
