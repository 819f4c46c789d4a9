import { describe, expect, it } from 'vitest';
import { OrderedDocuments } from '../src/search/ordered-documents.js';
import { RELEVANCE_CANDIDATES, relevancePage } from '../src/search/ranking.js';
import { SeededRandom } from '../src/demo/random.js';

/** The relevance rule computed one document at a time, from the index's own counts: the truth for the page. */
function expectedPage(docs: OrderedDocuments, terms: string[], offset: number, limit: number): number[] {
  const result = docs.index.match({ all: terms.map((t) => [t]), none: [] });
  const candidates = docs.newest(result, 0, RELEVANCE_CANDIDATES);
  const score = (doc: number) =>
    terms.reduce((sum, term) => sum + Math.log1p(docs.index.occurrences(term, doc)), 0) /
    Math.log(Math.E + docs.index.lengthOf(doc) / 500);
  const ranked = candidates
    .map((doc, i) => ({ doc, i, s: score(doc) }))
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .map((c) => c.doc);
  return [...ranked, ...docs.newest(result, RELEVANCE_CANDIDATES, result.size)].slice(offset, offset + limit);
}

describe('relevance ranking', () => {
  it('orders every page as the rule does one document at a time, with displaced documents among the candidates', () => {
    const random = new SeededRandom(7);
    const docs = new OrderedDocuments();
    const words = ['alpha', 'beta', 'gamma'];
    const text = () => Array.from({ length: 1 + random.int(0, 40) }, () => words[random.int(0, 2)]).join(' ');
    for (let id = 1; id <= 600; id++)
      docs.add({ id, time: id * 1000, document: { texts: [text(), random.next() < 0.3 ? text() : null], facets: [] } });
    // Updates keep their time but take new document numbers: displaced, merged by time into the candidates.
    for (let id = 380; id <= 600; id += 9) docs.add({ id, time: id * 1000, document: { texts: [text()], facets: [] } });
    docs.index.flush();
    expect(docs.displaced.size).toBeGreaterThan(10);
    let ties = 0;
    for (const terms of [['alpha'], ['alpha', 'beta'], ['gamma', 'beta', 'alpha']]) {
      for (const [offset, limit] of [
        [0, 20],
        [0, 1],
        [15, 50],
        [180, 40],
        [199, 3],
        [200, 20],
        [0, 250],
      ] as const) {
        const result = docs.index.match({ all: terms.map((t) => [t]), none: [] });
        expect(relevancePage(docs, result, terms, offset, limit), `${terms} ${offset} ${limit}`).toEqual(
          expectedPage(docs, terms, offset, limit),
        );
      }
      const page = expectedPage(docs, terms, 0, RELEVANCE_CANDIDATES);
      const scores = page.map(
        (doc) => terms.map((term) => docs.index.occurrences(term, doc)).join() + docs.index.lengthOf(doc),
      );
      ties += scores.length - new Set(scores).size;
    }
    // Equal scores occur, so their order (newest first) is checked too.
    expect(ties).toBeGreaterThan(0);
  });
});
