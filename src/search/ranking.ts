/**
 * Ranking: the order of a page of matches by relevance. The matches themselves come first, from the posting index
 * (posting-index.ts `match`, bitmap algebra); ranking reads only the candidates it orders.
 */
import { RoaringBitmap32, type Bitmap } from './bitmaps.js';
import type { OrderedDocuments } from './ordered-documents.js';
import { TIERS } from './occurrence-tiers.js';
import type { PostingIndex } from './posting-index.js';

/** Relevance ranks the newest this many matches; the older matches follow newest first (docs/search.md). */
export const RELEVANCE_CANDIDATES = 200;

/** ln(1 + occurrences) for a term found once, then at each tier (occurrences 1, 2, 4, 8). */
const TERM_WEIGHT = [1, ...TIERS].map((occurrences) => Math.log1p(occurrences));

/** What relevance divides by for a text of `characters`: ln(e + characters / 500). */
const lengthNorm = (characters: number): number => Math.log(Math.E + characters / 500);
/** lengthNorm of the lengths most texts have, worked out once: the same numbers, read instead of computed per candidate. */
const LENGTH_NORMS = Float64Array.from({ length: 8192 }, (_, characters) => lengthNorm(characters));

/**
 * How many of a result's newest documents relevancePage reads for a page: the candidates and the page after them, or
 * past the candidates the page itself. It reads no older ones, so a part of the result holding these gives the same page.
 */
export const relevanceReach = (offset: number, limit: number): number =>
  offset >= RELEVANCE_CANDIDATES ? offset + limit : RELEVANCE_CANDIDATES + limit;

/**
 * `limit` documents of `result` in relevance order after skipping `offset`: the newest RELEVANCE_CANDIDATES
 * ranked by their relevance to `terms` (newest first among equals), then the older ones newest first. Every
 * document of `result` holds every term (the terms are required).
 */
export function relevancePage(
  docs: OrderedDocuments,
  result: Bitmap,
  terms: string[],
  offset: number,
  limit: number,
): number[] {
  if (offset >= RELEVANCE_CANDIDATES) return docs.newest(result, offset, limit);
  const { docs: candidates, set } = docs.newestSet(result, RELEVANCE_CANDIDATES);
  const page = best(relevance(docs.index, candidates, set, terms), offset + limit)
    .slice(offset)
    .map((i) => candidates[i]!);
  if (page.length < limit && candidates.length === RELEVANCE_CANDIDATES) {
    page.push(...docs.newest(result, RELEVANCE_CANDIDATES, limit - page.length));
  }
  return page;
}

/**
 * A relevance page of a typo-tolerant search: the exact matches first, ranked by `terms`, then the documents only a
 * correction matched, ranked by the corrections' terms and the keyword's (docs/search.md "Typos").
 */
export function tolerantRelevancePage(
  docs: OrderedDocuments,
  matches: { result: Bitmap; exact: Bitmap; corrections: string[] },
  terms: string[],
  offset: number,
  limit: number,
): number[] {
  const { result, exact, corrections } = matches;
  if (result === exact) return relevancePage(docs, exact, terms, offset, limit);
  const rest = RoaringBitmap32.andNot(result, exact);
  const restTerms = [...new Set([...terms, ...corrections])];
  if (offset >= exact.size) return relevancePage(docs, rest, restTerms, offset - exact.size, limit);
  const page = relevancePage(docs, exact, terms, offset, limit);
  if (page.length < limit) page.push(...relevancePage(docs, rest, restTerms, 0, limit - page.length));
  return page;
}

/** The positions `best` keeps, grown to the largest count asked for: one array for every page, not one a page. */
let keptScratch = new Int32Array(RELEVANCE_CANDIDATES + 100);

/**
 * The positions of the `count` highest scores, highest first; equal scores in the order of their positions (the
 * candidates come newest first). Each position is placed by binary search among those kept, so a first page of
 * 20 out of 200 costs 200 comparisons or so, not a sort's 1,500 calls of a comparator; the kept ones move up in
 * place (`copyWithin`), making no garbage for the collector.
 */
function best(score: Float64Array, count: number): number[] {
  if (count <= 0) return [];
  if (keptScratch.length < count) keptScratch = new Int32Array(count);
  const kept = keptScratch;
  let length = 0;
  for (let i = 0; i < score.length; i++) {
    if (length === count && score[i]! <= score[kept[count - 1]!]!) continue;
    // After every kept position of a score at least this one's: earlier positions win ties.
    let lo = 0;
    let hi = length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (score[kept[mid]!]! >= score[i]!) lo = mid + 1;
      else hi = mid;
    }
    // The last kept position falls off when all `count` are taken.
    kept.copyWithin(lo + 1, lo, length === count ? count - 1 : length);
    kept[lo] = i;
    if (length < count) length++;
  }
  const positions: number[] = [];
  for (let j = 0; j < length; j++) positions.push(kept[j]!);
  return positions;
}

/**
 * The relevance of each candidate to the terms it holds: for each term ln(1 + occurrences), summed, divided by
 * ln(e + characters / 500) so that a long text does not win by its length alone. Occurrences are counted in
 * tiers (1, 2, 4, 8 or more: occurrence-tiers.ts), which the index keeps per token as bitmaps, precomputed
 * when the document is indexed; each tier is intersected with the candidates once, so a page's relevance costs
 * a few intersections, not a lookup per candidate and term.
 */
function relevance(index: PostingIndex, candidates: number[], within: Bitmap, terms: string[]): Float64Array {
  const occurrences = new Uint8Array(candidates.length * terms.length);
  let ascending: Int32Array | null = null;
  terms.forEach((term, t) => {
    const tiers = index.tiersWithin(term, within);
    if (!tiers) return;
    ascending ??= positionsByDocument(candidates);
    // The tiers nest (whoever repeats a term 8 times repeats it 4 times): the highest one a candidate is in wins.
    tiers.forEach((tier, level) => {
      // Both in ascending document order: one walk pairs each hit with its candidate.
      let at = 0;
      for (const doc of tier.toUint32Array()) {
        while (at < candidates.length && candidates[ascending![at]!] !== doc) at++;
        if (at < candidates.length) occurrences[ascending![at]! * terms.length + t] = level + 1;
      }
    });
  });
  const score = new Float64Array(candidates.length);
  for (let i = 0; i < candidates.length; i++) {
    let sum = 0;
    for (let t = 0; t < terms.length; t++) sum += TERM_WEIGHT[occurrences[i * terms.length + t]!]!;
    const characters = index.lengthOf(candidates[i]!);
    score[i] = sum / (characters < LENGTH_NORMS.length ? LENGTH_NORMS[characters]! : lengthNorm(characters));
  }
  return score;
}

/** The positions of the candidates in ascending document order (newest first is descending, but for displaced documents). */
function positionsByDocument(candidates: number[]): Int32Array {
  const positions = new Int32Array(candidates.length);
  for (let i = 0; i < candidates.length; i++) positions[i] = candidates.length - 1 - i;
  for (let i = 1; i < candidates.length; i++) {
    if (candidates[i]! >= candidates[i - 1]!) return positions.sort((a, b) => candidates[a]! - candidates[b]!);
  }
  return positions;
}
