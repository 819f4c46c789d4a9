import type { Kysely, RawBuilder } from 'kysely';
import type { LongReads } from '../db/database.js';
import type { DialectAdapter, IdRange, IndexQuery } from '../db/dialects/dialect-adapter.js';
import type { DB, SearchIndex } from '../db/schema.js';

/** Totals up to this are exact (DECISIONS.md, "Search results"). */
export const EXACT_COUNT_LIMIT = 10_000;
/** RELEVANCE ranks the newest this many matches; the matches after them follow newest first. */
export const RELEVANCE_CANDIDATES = 200;
/** An estimate counts about this many matches, spread over the whole id range (±0.7% at one standard deviation). */
const SAMPLE_TARGET = 20_000;
const SLICES = 64;

export const ALL_IDS: IdRange = { min: 0, max: Number.MAX_SAFE_INTEGER };

/**
 * Search over one full-text index whose cost does not grow with the matches it does not return
 * (docs/search.md). Every read walks the index in document-id order and stops when it has what it needs:
 * a page, at most 10,001 matches for a count, or a sample of about 20,000 for an estimate.
 */
export class BoundedSearch {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly adapter: DialectAdapter,
    private readonly longReads: LongReads,
    private readonly index: SearchIndex,
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
    const [capped] = await this.run(this.adapter.countMatches(this.index, query, range, EXACT_COUNT_LIMIT + 1));
    const total = Number(capped?.n ?? 0);
    if (total <= EXACT_COUNT_LIMIT) return total;
    return this.estimate(query, range);
  }

  private async estimate(query: IndexQuery, range: IdRange): Promise<number> {
    const [[hi], [lo], [kth]] = await Promise.all([
      this.newest(query, range, 1, 0),
      this.newest(query, range, 1, 0, 'asc'),
      this.newest(query, range, 1, EXACT_COUNT_LIMIT),
    ]);
    const span = hi! - lo! + 1;
    // The density of the newest 10,001 matches says roughly how many there are, hence how much to sample.
    let fraction = (SAMPLE_TARGET * (hi! - kth! + 1)) / ((EXACT_COUNT_LIMIT + 1) * span);
    for (let attempt = 0; attempt < 3 && fraction < 0.5; attempt++) {
      const stratum = span / SLICES;
      const width = Math.max(1, Math.floor(stratum * fraction));
      const slices = Array.from({ length: SLICES }, (_, i) => {
        const min = lo! + Math.floor(i * stratum + (stratum - width) / 2);
        return { min, max: min + width - 1 };
      });
      const [sample] = await this.run(this.adapter.countMatchesIn(this.index, query, slices));
      const sampled = Number(sample?.n ?? 0);
      const sampledFraction = (width * SLICES) / span;
      // Too small a sample (the matches thin out with age): sample more, up to counting them all.
      if (sampled >= SAMPLE_TARGET / 4) return Math.max(EXACT_COUNT_LIMIT + 1, Math.round(sampled / sampledFraction));
      fraction = sampledFraction * Math.min(16, SAMPLE_TARGET / Math.max(sampled, 1));
    }
    const [all] = await this.run(this.adapter.countMatches(this.index, query, range, Number.MAX_SAFE_INTEGER));
    return Number(all?.n ?? 0);
  }

  /**
   * One page in RELEVANCE order: the newest RELEVANCE_CANDIDATES matches by `score` (higher first, newer
   * first among equals), then the older matches newest first.
   */
  async rankedPage(query: IndexQuery, range: IdRange, limit: number, offset: number, score: (ids: number[]) => Promise<Map<number, number>>): Promise<number[]> {
    const candidates = offset < RELEVANCE_CANDIDATES ? await this.newest(query, range, RELEVANCE_CANDIDATES, 0) : [];
    if (offset >= RELEVANCE_CANDIDATES || candidates.length === RELEVANCE_CANDIDATES) {
      // Past the candidates the order is newest first; where they end is the RELEVANCE_CANDIDATES-th newest match.
      const boundary = candidates.length ? candidates[candidates.length - 1]! : (await this.newest(query, range, 1, RELEVANCE_CANDIDATES - 1))[0];
      if (boundary === undefined) return [];
      const rest = { min: range.min, max: boundary - 1 };
      const restOffset = Math.max(0, offset - RELEVANCE_CANDIDATES);
      const fromCandidates = Math.max(0, Math.min(limit, RELEVANCE_CANDIDATES - offset));
      const ranked = fromCandidates > 0 ? await this.rank(candidates, score) : [];
      const older = await this.newest(query, rest, limit - fromCandidates, restOffset);
      return [...ranked.slice(offset, offset + fromCandidates), ...older];
    }
    return (await this.rank(candidates, score)).slice(offset, offset + limit);
  }

  private async rank(ids: number[], score: (ids: number[]) => Promise<Map<number, number>>): Promise<number[]> {
    const scores = await score(ids);
    return [...ids].sort((a, b) => (scores.get(b) ?? 0) - (scores.get(a) ?? 0) || b - a);
  }
}
