/**
 * The company facet counted two ways (search/facet-counts.ts): by intersecting the matches with every company's
 * posting, and by reading each match's company from the index's column, which a network of thousands of
 * companies needs. Both, and the choice between them, equal counting the documents one by one: in a fresh index,
 * with documents removed, and in one restored from its saved copy (whose column is rebuilt from the postings).
 * The HTTP-level counts against the tables are in search-facets.test.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RoaringBitmap32, type Bitmap } from '../src/search/bitmaps.js';
import {
  countByIntersecting,
  countByReading,
  countValues,
  mostFirst,
  type FacetCount,
} from '../src/search/facet-counts.js';
import { readSnapshot, writeSnapshot } from '../src/search/index-snapshot.js';
import { PostingIndex, type PostingMeta } from '../src/search/posting-index.js';
import { FACET_KIND, FACETS } from '../src/search/fields.js';
import { SeededRandom } from '../src/demo/random.js';

const DOCUMENTS = 20_000;
const KEYWORDS = 50;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'facet-counts-'));
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** An index of DOCUMENTS documents among `companies` companies (a tenth without one), a tenth of them removed. */
function indexOf(companies: number, seed: number) {
  const random = new SeededRandom(seed);
  const index = new PostingIndex();
  const companyOf = new Map<number, number>();
  for (let doc = 0; doc < DOCUMENTS; doc++) {
    const facets: string[] = [];
    const keyword = `k${Math.floor(KEYWORDS * random.next() ** 2)}`;
    if (random.next() >= 0.1) {
      const company = Math.floor(companies * random.next() ** 3);
      companyOf.set(doc, company);
      facets.push(FACETS.company(company));
    }
    index.add(doc, { texts: [keyword], facets });
  }
  for (let doc = 0; doc < DOCUMENTS; doc += 10) index.remove(doc);
  index.optimize();
  return { index, companyOf };
}

/** The truth: the matches' companies counted one document at a time. */
function byDocument(matches: Bitmap, companyOf: Map<number, number>): FacetCount[] {
  const tally = new Map<string, number>();
  for (const doc of matches.toArray()) {
    const company = companyOf.get(doc);
    if (company !== undefined) tally.set(String(company), (tally.get(String(company)) ?? 0) + 1);
  }
  return mostFirst([...tally].map(([value, count]) => ({ value, count })));
}

/** What `countValues` keeps of the truth under `top`: the values counting at least as many as the top-th. */
function topOf(counts: FacetCount[], top: number): FacetCount[] {
  if (counts.length <= top) return counts;
  const least = counts[top - 1]!.count;
  return counts.filter((c) => c.count >= least);
}

/** Searches of every size: one keyword each (a few match half the documents, most a few dozen), and everything live. */
function searches(index: PostingIndex): Bitmap[] {
  return [
    ...Array.from({ length: KEYWORDS }, (_, k) => index.match({ all: [[`k${k}`]], none: [] })),
    index.live.clone(),
  ];
}

describe('company facet counts', () => {
  for (const companies of [12, 3_000]) {
    it(`read from the column and intersected agree with counting documents, among ${companies.toLocaleString('en')} companies`, () => {
      const { index, companyOf } = indexOf(companies, companies);
      const column = index.facetColumn(FACET_KIND.company)!;
      const sizes = new Set<number>();
      for (const matches of searches(index)) {
        const truth = byDocument(matches, companyOf);
        sizes.add(matches.size);
        expect(mostFirst(countByReading(matches, column))).toEqual(truth);
        expect(mostFirst(countByIntersecting(matches, index.facetValues(FACET_KIND.company)))).toEqual(truth);
        expect(countValues(index, matches, FACET_KIND.company)).toEqual(truth);
        expect(countValues(index, matches, FACET_KIND.company, 20)).toEqual(topOf(truth, 20));
        expect(mostFirst(countByReading(matches, column, 20))).toEqual(topOf(truth, 20));
      }
      // Searches on both sides of where countValues turns from reading to intersecting (facet-counts.ts readsMatches).
      const turn = companies * (128 + index.live.size / 1000);
      expect(Math.min(...sizes)).toBeLessThan(turn);
      if (companies === 12) expect(Math.max(...sizes)).toBeGreaterThan(turn);
    });
  }

  it('are the same from an index restored from its saved copy, whose column is rebuilt from the postings', async () => {
    const { index, companyOf } = indexOf(3_000, 7);
    const file = path.join(dir, 'postings.idx');
    const { meta, chunks } = index.save(DOCUMENTS);
    await writeSnapshot(file, meta, chunks);
    const snapshot = readSnapshot<PostingMeta>(file)!;
    const restored = PostingIndex.restore(snapshot.header, snapshot.chunks);
    snapshot.chunks.close();
    for (const matches of searches(restored)) {
      const truth = byDocument(matches, companyOf);
      expect(mostFirst(countByReading(matches, restored.facetColumn(FACET_KIND.company)!))).toEqual(truth);
      expect(countValues(restored, matches, FACET_KIND.company, 20)).toEqual(topOf(truth, 20));
    }
  });

  it('count a kind without a column (job categories) by intersecting', () => {
    const index = new PostingIndex();
    for (let doc = 0; doc < 100; doc++)
      index.add(doc, { texts: [], facets: [FACETS.jobCategory(doc % 3 === 0 ? 'A' : 'B')] });
    index.flush();
    expect(index.facetColumn(FACET_KIND.jobCategory)).toBeUndefined();
    expect(countValues(index, new RoaringBitmap32([0, 1, 2, 3, 4, 5, 6]), FACET_KIND.jobCategory)).toEqual([
      { value: 'B', count: 4 },
      { value: 'A', count: 3 },
    ]);
  });
});
