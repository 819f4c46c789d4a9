import type { Kysely, RawBuilder } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { LongReads } from '../db/database.js';
import type { DialectAdapter, IdRange, IndexQuery } from '../db/dialects/dialect-adapter.js';
import type { DB, SearchIndex } from '../db/schema.js';

/** Totals up to this are exact (DECISIONS.md, "Search results"). */
export const EXACT_COUNT_LIMIT = 10_000;
/** RELEVANCE ranks the newest this many matches; the matches after them follow newest first. */
export const RELEVANCE_CANDIDATES = 200;
/**
 * An estimate counts about this many matches below the newest 10,001 (at least half of it), spread over their
 * whole id range: a standard error of at most 1% of the estimated part, which is less than the total.
 */
const SAMPLE_TARGET = 20_000;
const SLICES = 16;
/**
 * A kept estimate stays in use while fewer writes than this share of it happened since it was made: each
 * write moves a count by at most one, so it stays within 0.5% of the truth on top of the sample's error.
 */
const ESTIMATE_DRIFT = 0.005;

export const ALL_IDS: IdRange = { min: 0, max: Number.MAX_SAFE_INTEGER };

/** The ids of `rows` (each an item's id and its key in an index) in the order of `keys`; a key with no row is skipped. */
export function idsInKeyOrder(keys: number[], rows: Array<{ id: number; key: number | null }>): number[] {
  const byKey = new Map(rows.map((r) => [Number(r.key), r.id]));
  return keys.flatMap((key) => (byKey.has(key) ? [byKey.get(key)!] : []));
}

/** The data version of the index's data: every write adds at least one (cache/data-version.ts). */
export interface IndexVersion { read(): Promise<number> }

/**
 * Search over one full-text index whose cost does not grow with the matches it does not return
 * (docs/search.md). Every read walks the index in document-id order and stops when it has what it needs:
 * a page, at most 10,001 matches for a count, or a sample of about 20,000 for an estimate.
 *
 * Counts and ranked candidates are kept under the data version they were read at: a count up to 10,000 and
 * a ranking only while the version holds, an estimate while few writes happened since (ESTIMATE_DRIFT).
 */
export class BoundedSearch {
  private readonly counts = new LRUCache<string, { version: number; total: number }>({ max: 20_000 });
  private readonly rankings = new LRUCache<string, { version: number; keys: number[] }>({ max: 2_000 });

  constructor(
    private readonly db: Kysely<DB>,
    private readonly adapter: DialectAdapter,
    private readonly longReads: LongReads,
    private readonly index: SearchIndex,
    private readonly version: IndexVersion = { read: async () => Number.NaN },
  ) {}

  private run<R>(query: RawBuilder<R>): Promise<R[]> {
    return this.longReads({ compile: () => query.compile(this.db) });
  }

  /** Matching ids within `range`, highest first, `limit` after skipping `offset`. */
  async newest(query: IndexQuery, range: IdRange, limit: number, offset: number, order: 'desc' | 'asc' = 'desc'): Promise<number[]> {
    if (limit <= 0) return [];
    const rows = await this.run(this.adapter.matchingIds(this.index, query, range, order, limit, offset));
    return rows.map((r) => Number(r.doc_id));
  }

  /** Exact up to EXACT_COUNT_LIMIT; above it an estimate from a sample spread evenly over the matching ids. */
  async count(query: IndexQuery, range: IdRange): Promise<number> {
    const key = JSON.stringify([query, range]);
    const version = await this.version.read();
    const kept = this.counts.get(key);
    if (kept && (kept.version === version
      || (kept.total > EXACT_COUNT_LIMIT && version > kept.version && version - kept.version <= kept.total * ESTIMATE_DRIFT))) {
      return kept.total;
    }
    const total = await this.countNow(query, range);
    if (!Number.isNaN(version)) this.counts.set(key, { version, total });
    return total;
  }

  private async countNow(query: IndexQuery, range: IdRange): Promise<number> {
    const [capped] = await this.run(this.adapter.countMatches(this.index, query, range, EXACT_COUNT_LIMIT + 1));
    const total = Number(capped?.n ?? 0);
    if (total <= EXACT_COUNT_LIMIT) return total;
    const [[hi], [lo], kth] = await Promise.all([
      this.newest(query, range, 1, 0),
      this.newest(query, range, 1, 0, 'asc'),
      capped!.lowest !== null ? Number(capped!.lowest) : this.newest(query, range, 1, EXACT_COUNT_LIMIT).then(([k]) => k!),
    ]);
    return this.estimate(query, range, hi!, lo!, kth);
  }

  /**
   * The newest 10,001 matches, in [kth, hi], are counted already; the matches below kth are estimated from
   * SLICES slices spread evenly over [lo, kth) and scaled up.
   */
  private async estimate(query: IndexQuery, range: IdRange, hi: number, lo: number, kth: number): Promise<number> {
    const known = EXACT_COUNT_LIMIT + 1;
    const span = kth - lo;
    if (span <= 0) return known;
    // The density of the newest matches says roughly how many are below them, hence how much to sample.
    let fraction = (SAMPLE_TARGET * (hi - kth + 1)) / (known * span);
    for (let attempt = 0; attempt < 3 && fraction < 0.5; attempt++) {
      const stratum = span / SLICES;
      const width = Math.max(1, Math.floor(stratum * fraction));
      const slices = Array.from({ length: SLICES }, (_, i) => {
        const min = lo + Math.floor(i * stratum + (stratum - width) / 2);
        return { min, max: Math.min(kth - 1, min + width - 1) };
      });
      const [sample] = await this.run(this.adapter.countMatchesIn(this.index, query, slices));
      const sampled = Number(sample?.n ?? 0);
      const sampledFraction = (width * SLICES) / span;
      // Too small a sample (the matches thin out with age): sample more, up to counting them all.
      if (sampled >= SAMPLE_TARGET / 2) return known + Math.round(sampled / sampledFraction);
      fraction = sampledFraction * Math.min(16, SAMPLE_TARGET / Math.max(sampled, 1));
    }
    const [all] = await this.run(this.adapter.countMatches(this.index, query, { min: range.min, max: kth - 1 }, Number.MAX_SAFE_INTEGER));
    return known + Number(all?.n ?? 0);
  }

  /**
   * One page in RELEVANCE order: the newest RELEVANCE_CANDIDATES matches by `score` (higher first, newer
   * first among equals), then the older matches newest first.
   */
  async rankedPage(query: IndexQuery, range: IdRange, limit: number, offset: number, score: (ids: number[]) => Promise<Map<number, number>>): Promise<number[]> {
    if (offset >= RELEVANCE_CANDIDATES) {
      const [boundary] = await this.newest(query, range, 1, RELEVANCE_CANDIDATES - 1);
      if (boundary === undefined) return [];
      return this.newest(query, { min: range.min, max: boundary - 1 }, limit, offset - RELEVANCE_CANDIDATES);
    }
    const ranked = await this.ranking(query, range, score);
    const page = ranked.slice(offset, offset + limit);
    if (page.length === limit || ranked.length < RELEVANCE_CANDIDATES) return page;
    // The page runs past the candidates: the older matches follow, newest first, below the oldest candidate.
    const boundary = Math.min(...ranked);
    return [...page, ...await this.newest(query, { min: range.min, max: boundary - 1 }, limit - page.length, 0)];
  }

  /** The candidates in relevance order, kept while the data version holds. */
  private async ranking(query: IndexQuery, range: IdRange, score: (ids: number[]) => Promise<Map<number, number>>): Promise<number[]> {
    const key = JSON.stringify([query, range]);
    const version = await this.version.read();
    const kept = this.rankings.get(key);
    if (kept && kept.version === version) return kept.keys;
    const candidates = await this.newest(query, range, RELEVANCE_CANDIDATES, 0);
    const scores = await score(candidates);
    const keys = [...candidates].sort((a, b) => (scores.get(b) ?? 0) - (scores.get(a) ?? 0) || b - a);
    if (!Number.isNaN(version)) this.rankings.set(key, { version, keys });
    return keys;
  }
}
