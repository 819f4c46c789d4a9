/**
 * Ranking: the order of a page of matches by relevance. The matches themselves come first, from the posting index
 * (posting-index.ts `match`, bitmap algebra); ranking reads only the candidates it orders.
 */
import type { Bitmap } from './bitmaps.js';
import type { OrderedDocuments } from './ordered-documents.js';

/** Relevance ranks the newest this many matches; the older matches follow newest first (docs/search.md). */
export const RELEVANCE_CANDIDATES = 200;

/**
 * `limit` documents of `result` in relevance order after skipping `offset`: the newest RELEVANCE_CANDIDATES
 * ranked by the index's relevance to `terms` (newest first among equals), then the older ones newest first.
 */
export function relevancePage(docs: OrderedDocuments, result: Bitmap, terms: string[], offset: number, limit: number): number[] {
  if (offset >= RELEVANCE_CANDIDATES) return docs.newest(result, offset, limit);
  const candidates = docs.newest(result, 0, RELEVANCE_CANDIDATES);
  const score = new Map(candidates.map((doc) => [doc, docs.index.relevance(terms, doc)]));
  // A stable sort: candidates come newest first, so equal scores stay newest first.
  const page = [...candidates].sort((a, b) => score.get(b)! - score.get(a)!).slice(offset, offset + limit);
  if (page.length < limit && candidates.length === RELEVANCE_CANDIDATES) {
    page.push(...docs.newest(result, RELEVANCE_CANDIDATES, limit - page.length));
  }
  return page;
}
