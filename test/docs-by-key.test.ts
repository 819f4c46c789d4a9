import { describe, expect, it } from 'vitest';
import { DocsByKey, TimeReached } from '../src/search/docs-by-key.js';
import { OrderedDocuments } from '../src/search/ordered-documents.js';
import { RoaringBitmap32, withTemporaryBitmaps } from '../src/search/bitmaps.js';

/**
 * The job index's extra orders at the size of a real generation (200,000 jobs in the benchmark): sorted at once
 * when a generation is first searched, then kept as documents are added. A generation of 150,000 documents
 * once overflowed the call stack here, and every job search failed.
 */
describe('orders over a generation of 150,000 documents', () => {
  const COUNT = 150_000;
  const docs = new OrderedDocuments(2);
  // Deterministic spread of ends and views; every seventh job has no end.
  const endOf = (id: number) => (id % 7 === 0 ? Number.POSITIVE_INFINITY : ((id * 7919) % 100_000) * 1000);
  const viewsOf = (id: number) => (id * 104_729) % 5000;
  for (let id = 1; id <= COUNT; id++)
    docs.add({ id, time: id * 1000, document: { texts: ['t'], facets: [] }, extra: [endOf(id), viewsOf(id)] });
  docs.index.flush();
  const ended = new TimeReached(docs, (doc) => docs.extra(doc, 0));
  const byViews = new DocsByKey(docs, (a, b) => {
    const va = docs.extra(a, 1);
    const vb = docs.extra(b, 1);
    return va > vb || (va === vb && docs.itemId(a) > docs.itemId(b));
  });
  const ids = Array.from({ length: COUNT }, (_, i) => i + 1);

  it('finds the documents whose time has come, moving forward and back, and the times around', () => {
    for (const now of [50_000_000, 99_999_000, 10_000_000, -1, 50_000_000]) {
      const expected = ids.filter((id) => endOf(id) <= now).length;
      expect(ended.upTo(now).size, String(now)).toBe(expected);
      const after = ids
        .map(endOf)
        .filter((t) => t > now)
        .reduce((a, b) => Math.min(a, b), Number.POSITIVE_INFINITY);
      expect(ended.next()).toBe(after);
    }
  });

  it('pages a result in its order, dense or sparse, and keeps documents added later in their place', () => {
    const expectPage = (members: number[], offset: number, limit: number) => {
      const truth = [...members].sort((a, b) => viewsOf(b) - viewsOf(a) || b - a).slice(offset, offset + limit);
      withTemporaryBitmaps(() => {
        const result = new RoaringBitmap32(members.map((id) => id - 1));
        expect(byViews.page(result, offset, limit).map((doc) => docs.itemId(doc))).toEqual(truth);
      });
    };
    expectPage(ids, 40, 20);
    expectPage(
      ids.filter((id) => id % 97 === 0),
      5,
      20,
    );
    // Read by places, a page starting in the middle of a word of places, and one cut short by the end.
    const someIds = ids.filter((id) => id % 11 === 0);
    expectPage(someIds, 777, 50);
    expectPage(someIds, someIds.length - 7, 20);
    expectPage(someIds, 0, 1);
    for (let id = COUNT + 1; id <= COUNT + 50; id++)
      docs.add({ id, time: id * 1000, document: { texts: ['t'], facets: [] }, extra: [endOf(id), viewsOf(id)] });
    docs.index.flush();
    ids.push(...Array.from({ length: 50 }, (_, i) => COUNT + 1 + i));
    expectPage(ids, 0, 30);
    expect(ended.upTo(50_000_000).size).toBe(ids.filter((id) => endOf(id) <= 50_000_000).length);
  });
});
