/**
 * Typo tolerance over HTTP, on posts and jobs: which words a misspelt keyword matches (one edit from 5 letters, two
 * from 9, the first letter kept; a Korean word of 3 syllables at one letter), exact matches first, exact counts,
 * `didYouMean` when nothing matches exactly, and the default answers unchanged to the byte. The distance itself is
 * held to a plain implementation, and the rule to one computed post by post, by test/search-engines.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostingIndex } from '../src/search/posting-index.js';
import { queryWords } from '../src/search/search-text.js';
import { alternativesOf, CANDIDATE_BUDGET, editDistance, editsFor, SpacedWords } from '../src/search/typo-tolerance.js';
import { textbookDistance } from './helpers/edit-distance.js';
import { jsonPart, multipart } from './helpers/multipart.js';
import { createTestApp, type TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';
import { accessToken, bearer } from './helpers/tokens.js';

describe('the edit distance', () => {
  it('is the optimal-string-alignment distance, cut off past the most allowed', () => {
    let seed = 11;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const word = () =>
      Array.from({ length: 1 + Math.floor(next() * 9) }, () => 'abcd'[Math.floor(next() * 4)]).join('');
    for (let i = 0; i < 3000; i++) {
      const [a, b] = [word(), word()];
      const max = Math.floor(next() * 3);
      expect(editDistance([...a], [...b], max), `${a} ${b} ${max}`).toBe(
        Math.min(textbookDistance([...a], [...b]), max + 1),
      );
    }
    expect([editsFor(4), editsFor(5), editsFor(8), editsFor(9)]).toEqual([0, 1, 1, 2]);
  });
});

/**
 * Issue 86 row 2: the work of a typo-tolerant search is bounded whatever its keyword, counted after NFKC (㉼ is two
 * syllables once normalized): no correction of words past the lengths a slip of a key makes, only the first words
 * corrected, and a budget of candidate comparisons. `npm run bench:typo-cost` measures the CPU (docs/performance.md).
 */
describe("typo tolerance's bound", () => {
  const index = new PostingIndex();
  // Every bigram of every one-letter slip of 개발자 and 디자인, and Latin words sharing a first letter.
  ['개발자', '디자인', '개발', '발자', '자인', '디자'].forEach((word, doc) =>
    index.add(doc, { texts: [word], facets: [] }),
  );
  for (let i = 0; i < 500; i++)
    index.add(100 + i, { texts: [`develop${String.fromCharCode(97 + (i % 26))}${i}`], facets: [] });
  index.flush();

  it('does not correct a word past the length of a typing slip, counted after NFKC', () => {
    const circled = '㉼㉽'.repeat(50);
    const words = queryWords(circled);
    expect([...words[0]!.text].length).toBe(200);
    expect(alternativesOf(index, words)).toEqual([[words[0]!.terms]]);
    expect(alternativesOf(index, queryWords('x'.repeat(25) + 'abc'))[0]).toHaveLength(1);
  });

  it('corrects only the first words of a long keyword, and stops comparing once its budget is spent', () => {
    const words = queryWords(Array.from({ length: 25 }, () => '개발지').join(' '));
    const alternatives = alternativesOf(index, words);
    expect(alternatives.slice(0, 8).every((word) => word.length > 1)).toBe(true);
    expect(alternatives.slice(8).every((word) => word.length === 1)).toBe(true);
    const budget = { left: 5 };
    expect(new SpacedWords().similar(index, 'developz', 1, budget).length).toBeLessThanOrEqual(5);
    expect(budget.left).toBe(0);
    expect(CANDIDATE_BUDGET).toBeGreaterThan(0);
  });
});

describe.each(ENGINES)('typo tolerance on %s', (engine) => {
  let t: TestContext;
  const posts: Record<string, number> = {};
  beforeAll(async () => {
    t = await createTestApp(engine);
    const token = await accessToken(t, 'post:write');
    // One exact, four within the edits a 9-letter word allows (first letter kept), two beyond them.
    for (const word of ['koalabear', 'koalaber', 'koalabaer', 'kaolabear', 'koalabxxr', 'xoalabear', 'koalaxxxr']) {
      const body = multipart([jsonPart({ text: `오늘의 동물: ${word}` })]);
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/posts',
        headers: { ...body.headers, ...bearer(token) },
        payload: body.payload,
      });
      expect(res.statusCode, res.body).toBe(201);
      posts[word] = res.json().postId;
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  const get = async (url: string) => {
    const res = await t.get(url);
    expect(res.statusCode, res.body).toBe(200);
    return res;
  };
  const idsOf = (body: { items: Array<{ postId: number }> }) =>
    body.items.map((p) => Object.keys(posts).find((w) => posts[w] === p.postId));

  it('matches a post word within the edits its length allows, never at the first letter, the exact match first', async () => {
    const body = (await get('/api/v1/posts?keyword=koalabear&typoTolerance=true')).json();
    expect(body.totalItems).toBe(5);
    expect(idsOf(body)[0]).toBe('koalabear');
    expect(idsOf(body).sort()).toEqual(['kaolabear', 'koalabaer', 'koalabear', 'koalaber', 'koalabxxr']);
    expect(body.didYouMean).toBeUndefined();
    // Paging past the exact match reaches the others, counted the same.
    const second = (await get('/api/v1/posts?keyword=koalabear&typoTolerance=true&pageSize=2&page=2')).json();
    expect(second.totalItems).toBe(5);
    expect(second.items).toEqual(body.items.slice(2, 4));
  });

  it('leaves the default answer byte for byte what it was, and typoTolerance=false the same', async () => {
    const plain = await get('/api/v1/posts?keyword=koalaber');
    expect(plain.json().totalItems).toBe(1);
    expect((await get('/api/v1/posts?keyword=koalaber&typoTolerance=false')).body).toBe(plain.body);
    const none = await get('/api/v1/jobs?keyword=backnd');
    expect(Object.keys(none.json()).sort()).toEqual(['items', 'page', 'pageSize', 'totalItems', 'totalPages']);
  });

  it('corrects job keywords in English and Korean, says the correction when nothing matched exactly, and counts exactly', async () => {
    for (const [typo, meant] of [
      ['backnd', 'backend'],
      ['devloper', 'developer'],
      ['개발쟈', '개발자'],
    ]) {
      const tolerant = (
        await get(`/api/v1/jobs?keyword=${encodeURIComponent(typo!)}&typoTolerance=true&pageSize=50`)
      ).json();
      const exact = (await get(`/api/v1/jobs?keyword=${encodeURIComponent(meant!)}&pageSize=50`)).json();
      expect(exact.totalItems, meant).toBeGreaterThan(0);
      expect(tolerant.totalItems, typo).toBe(exact.totalItems);
      expect(tolerant.didYouMean, typo).toBe(meant);
      expect(new Set(tolerant.items.map((j: { jobId: number }) => j.jobId)), typo).toEqual(
        new Set(exact.items.map((j: { jobId: number }) => j.jobId)),
      );
    }
    // A word below 5 letters is never corrected.
    expect((await get('/api/v1/jobs?keyword=bakc&typoTolerance=true')).json()).toMatchObject({ totalItems: 0 });
  });

  it('corrects a typo on the second word of a keyword while the first matches exactly, with the other filters', async () => {
    const exact = (await get('/api/v1/jobs?keyword=backend%20developer&workTypes=REMOTE')).json();
    const tolerant = (
      await get('/api/v1/jobs?keyword=backend%20devloper&workTypes=REMOTE&typoTolerance=true&facets=workTypes')
    ).json();
    expect(exact.totalItems).toBeGreaterThan(0);
    expect(tolerant.totalItems).toBe(exact.totalItems);
    expect(tolerant.didYouMean).toBe('backend developer');
    expect(tolerant.facets.workTypes.find((f: { value: string }) => f.value === 'REMOTE').count).toBe(exact.totalItems);
  });
});
