/**
 * Why a result matched: the fragments and spans `highlight=true` adds to post and job search items, over HTTP on both
 * engines, and the fragment rule (at most three of at most 160 code units, spans in the fragment's own offsets, no
 * surrogate pair cut) on texts of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRAGMENT_CHARS, fragmentsOf, highlightsOf } from '../src/search/highlights.js';
import { queryTerms } from '../src/search/search-text.js';
import { jsonPart, multipart } from './helpers/multipart.js';
import { createTestApp, type TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';
import { accessToken, bearer } from './helpers/tokens.js';

interface Highlight {
  field: string;
  fragments: Array<{ text: string; matches: Array<[number, number]> }>;
}

/** Every span of every fragment, as the text it marks. */
const marked = (highlights: Highlight[]) =>
  highlights.flatMap((h) => h.fragments.flatMap((f) => f.matches.map(([a, b]) => `${h.field}:${f.text.slice(a, b)}`)));

describe('fragments', () => {
  it('keep a short text whole, and cut a long one around its matches: three at most, 160 code units each', () => {
    const terms = new Set(queryTerms('kotlin 개발자'));
    expect(highlightsOf([['content', 'Kotlin 개발자를 찾습니다']], terms)).toEqual([
      {
        field: 'content',
        fragments: [
          {
            text: 'Kotlin 개발자를 찾습니다',
            matches: [
              [0, 6],
              [7, 10],
            ],
          },
        ],
      },
    ]);
    const filler = '가나다라마바사아자차카타파하 '.repeat(12);
    const long = `${filler}Kotlin 😀 ${filler}개발자 ${filler}kotlin ${filler}KOTLIN ${filler}`;
    const [highlight] = highlightsOf([['content', long]], terms);
    expect(highlight!.fragments).toHaveLength(3);
    for (const fragment of highlight!.fragments) {
      expect(fragment.text.length).toBeLessThanOrEqual(FRAGMENT_CHARS + 1);
      expect(long).toContain(fragment.text);
      expect(fragment.text).toBe(fragment.text.normalize('NFC'));
      // No fragment starts or ends inside a surrogate pair.
      expect(/^[\udc00-\udfff]|[\ud800-\udbff]$/.test(fragment.text)).toBe(false);
    }
    expect(marked([highlight!])).toEqual(['content:Kotlin', 'content:개발자', 'content:kotlin']);
    expect(highlightsOf([['content', 'nothing here']], terms)).toEqual([]);
    expect(fragmentsOf('x'.repeat(400), [[390, 395]])[0]!.text).toHaveLength(FRAGMENT_CHARS);
  });
});

describe.each(ENGINES)('highlights on %s', (engine) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp(engine);
    const token = await accessToken(t, 'post:write');
    for (const text of ['오늘의 동물: koalabear와 ＫＯＡＬＡＢＥＡＲ', '오늘의 동물: koalaber']) {
      const body = multipart([jsonPart({ text })]);
      expect(
        (
          await t.request({
            method: 'POST',
            url: '/api/v1/posts',
            headers: { ...body.headers, ...bearer(token) },
            payload: body.payload,
          })
        ).statusCode,
      ).toBe(201);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('marks the keyword and its corrections in post contents, full-width letters included', async () => {
    const body = (await t.get('/api/v1/posts?keyword=koalabear&typoTolerance=true&highlight=true')).json();
    expect(body.items.map((p: { highlights: Highlight[] }) => marked(p.highlights))).toEqual([
      ['content:koalabear', 'content:ＫＯＡＬＡＢＥＡＲ'],
      ['content:koalaber'],
    ]);
    const plain = await t.get('/api/v1/posts?keyword=koalabear&typoTolerance=true');
    expect(plain.json().items.every((p: object) => !('highlights' in p))).toBe(true);
  });

  it('marks job titles, subtitles and descriptions that hold the keyword; every item has highlights, empty without a keyword', async () => {
    const body = (await t.get('/api/v1/jobs?keyword=%EB%B0%B1%EC%97%94%EB%93%9C&highlight=true&pageSize=10')).json();
    expect(body.items.length).toBeGreaterThan(0);
    for (const item of body.items as Array<{ title: string; highlights: Highlight[] }>) {
      const spans = marked(item.highlights);
      expect(spans.length, item.title).toBeGreaterThan(0);
      for (const span of spans) expect(span).toMatch(/^(title|subtitle|description):백엔드$/);
      if (item.title.includes('백엔드')) expect(spans).toContain('title:백엔드');
      for (const h of item.highlights)
        for (const f of h.fragments) expect(f.text.length).toBeLessThanOrEqual(FRAGMENT_CHARS + 1);
    }
    const none = (await t.get('/api/v1/jobs?highlight=true&pageSize=3')).json();
    expect(none.items.map((j: { highlights: unknown }) => j.highlights)).toEqual([[], [], []]);
  });
});
