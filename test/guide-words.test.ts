import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_NOW, type TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';

/**
 * The real service's guides write every call with `lang` and `per_page` and read `X-RateLimit-Limit`, `-Remaining` and
 * `-Reset`: a client copied from them works here unchanged (docs/api.md "Names from the real service's guides").
 */
describe.each(ENGINES)('the guides own words on %s', (engine) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp(engine, {
      config: { RATE_LIMIT_GLOBAL_PER_MINUTE: '30', RATE_LIMIT_GLOBAL_PER_DAY: '5000' },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  const titles = (body: { items: Array<{ title: string }> }) => body.items.map((job) => job.title);

  it('`lang` picks the language and wins over Accept-Language; its answers are kept apart from the header’s', async () => {
    const english = await t.get('/api/v1/jobs?pageSize=5', { 'accept-language': 'en' });
    const korean = await t.get('/api/v1/jobs?pageSize=5', { 'accept-language': 'ko' });
    expect(titles(english.json())).not.toEqual(titles(korean.json()));
    // Twice each, so the second of each is served from the kept responses.
    for (let round = 0; round < 2; round++) {
      const byLang = await t.get('/api/v1/jobs?pageSize=5&lang=en', { 'accept-language': 'ko' });
      expect(byLang.headers['content-language']).toBe('en');
      expect(titles(byLang.json())).toEqual(titles(english.json()));
      const koByLang = await t.get('/api/v1/jobs?pageSize=5&lang=ko', { 'accept-language': 'en' });
      expect(koByLang.headers['content-language']).toBe('ko');
      expect(titles(koByLang.json())).toEqual(titles(korean.json()));
    }
    // A tag with a region reads as its language; an unsupported one leaves the choice to the header.
    expect((await t.get('/api/v1/jobs?lang=en-US')).headers['content-language']).toBe('en');
    expect((await t.get('/api/v1/jobs?lang=xx', { 'accept-language': 'en' })).headers['content-language']).toBe('en');
    expect((await t.get('/api/v1/jobs?lang=xx')).headers['content-language']).toBe('ko');
    // Outside searches too: a catalog's labels, and an error's language header.
    const codes = await t.get('/api/v1/codes/work-types?lang=en');
    expect(codes.headers['content-language']).toBe('en');
    expect(JSON.stringify(codes.json())).toEqual(
      JSON.stringify((await t.get('/api/v1/codes/work-types', { 'accept-language': 'en' })).json()),
    );
  });

  it('`per_page` is `pageSize`, normalized alike; both with different values are 400 C0005 naming it', async () => {
    const two = await t.get('/api/v1/jobs?keyword=AI&lang=en&per_page=2');
    expect(two.statusCode).toBe(200);
    expect(two.json()).toMatchObject({ pageSize: 2 });
    expect(two.json().items.length).toBeLessThanOrEqual(2);
    expect((await t.get('/api/v1/posts?per_page=3')).json()).toMatchObject({ pageSize: 3, page: 1 });
    expect((await t.get('/api/v1/posts?per_page=500')).json()).toMatchObject({ pageSize: 50 });
    expect((await t.get('/api/v1/posts?per_page=3&pageSize=3')).json()).toMatchObject({ pageSize: 3 });
    const both = await t.get('/api/v1/posts?per_page=3&pageSize=4');
    expect(both.statusCode).toBe(400);
    expect(both.json()).toMatchObject({ code: 'C0005', details: 'per_page' });
    expect(both.json().message).toContain('pageSize');
    const suggestions = await t.get('/api/v1/jobs/suggestions?prefix=a&per_page=1');
    expect(suggestions.statusCode).toBe(200);
    expect(suggestions.json().length).toBeLessThanOrEqual(1);
  });

  it('X-RateLimit-Limit, -Remaining and -Reset on every app-key answer: a 200, a 404, a 400 and the 429', async () => {
    const minuteEnd = Math.ceil((TEST_NOW + 1) / 60_000) * 60_000;
    const key = t.demo.apiKey;
    const first = await t.get('/api/v1/codes/work-types', { 'x-svc-api-key': key });
    const left = Number(first.headers['x-ratelimit-remaining']);
    expect(first.headers['x-ratelimit-limit']).toBe('30');
    expect(left).toBe(Number(first.headers['x-svc-ratelimit-remaining']));
    expect(first.headers['x-ratelimit-reset']).toBe(String(minuteEnd / 1000));
    const notFound = await t.get('/api/v1/jobs/999999999');
    expect(notFound.statusCode).toBe(404);
    expect(notFound.headers['x-ratelimit-remaining']).toBe(String(left - 1));
    const invalid = await t.get('/api/v1/posts?per_page=3&pageSize=4');
    expect(invalid.statusCode).toBe(400);
    expect(invalid.headers['x-ratelimit-remaining']).toBe(String(left - 2));
    for (let i = left - 3; i >= 0; i--) await t.get('/api/v1/codes/work-types');
    const refused = await t.get('/api/v1/codes/work-types');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers).toMatchObject({
      'x-ratelimit-limit': '30',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(minuteEnd / 1000),
    });
  });
});
