/**
 * Ranking: the order of a page of matches by relevance. The matches themselves come first, from the posting index
 * (posting-index.ts `match`, bitmap algebra); ranking reads only the candidates it orders.
 */
import { RoaringBitmap32, type Bitmap } from './bitmaps.js';
import type { OrderedDocuments } from './ordered-documents.js';
import { TIERS, type PostingIndex } from './posting-index.js';

/** Relevance ranks the newest this many matches; the older matches follow newest first (docs/search.md). */
export const RELEVANCE_CANDIDATES = 200;

/**
 * `limit` documents of `result` in relevance order after skipping `offset`: the newest RELEVANCE_CANDIDATES
 * ranked by their relevance to `terms` (newest first among equals), then the older ones newest first. Every
 * document of `result` holds every term (the terms are required).
 */
export function relevancePage(docs: OrderedDocuments, result: Bitmap, terms: string[], offset: number, limit: number): number[] {
  if (offset >= RELEVANCE_CANDIDATES) return docs.newest(result, offset, limit);
  const candidates = docs.newest(result, 0, RELEVANCE_CANDIDATES);
  const score = relevance(docs.index, candidates, terms);
  // Candidates come newest first: equal scores keep that order.
  const order = candidates.map((_, i) => i).sort((a, b) => score[b]! - score[a]! || a - b);
  const page = order.slice(offset, offset + limit).map((i) => candidates[i]!);
  if (page.length < limit && candidates.length === RELEVANCE_CANDIDATES) {
    page.push(...docs.newest(result, RELEVANCE_CANDIDATES, limit - page.length));
  }
  return page;
}

/**
 * The relevance of each candidate to the terms it holds: for each term ln(1 + occurrences), summed, divided by
 * ln(e + characters / 500) so that a long text does not win by its length alone. Occurrences are counted in
 * tiers (1, 2, 4, 8 or more: posting-index.ts TIERS), which the index keeps per token as bitmaps; each tier is
 * intersected with the candidates once, so a page's relevance costs a few intersections, not a lookup per
 * candidate and term.
 */
function relevance(index: PostingIndex, candidates: number[], terms: string[]): Float64Array {
  const occurrences = new Uint8Array(candidates.length * terms.length).fill(1);
  let within: Bitmap | null = null;
  let position: Map<number, number> | null = null;
  terms.forEach((term, t) => {
    const tiers = index.tiersOf(term);
    if (!tiers) return;
    within ??= new RoaringBitmap32(candidates);
    position ??= new Map(candidates.map((doc, i) => [doc, i]));
    // The tiers nest (whoever repeats a term 8 times repeats it 4 times): the highest one a candidate is in wins.
    tiers.forEach((tier, level) => {
      for (const doc of RoaringBitmap32.and(tier, within!).toUint32Array()) occurrences[position!.get(doc)! * terms.length + t] = TIERS[level]!;
    });
  });
  const score = new Float64Array(candidates.length);
  candidates.forEach((doc, i) => {
    let sum = 0;
    for (let t = 0; t < terms.length; t++) sum += Math.log1p(occurrences[i * terms.length + t]!);
    score[i] = sum / Math.log(Math.E + index.lengthOf(doc) / 500);
  });
  return score;
}
