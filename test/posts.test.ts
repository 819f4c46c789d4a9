import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';

type Post = Record<string, any>;

describe.each(ENGINES)('posts on %s', (engine) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp(engine);
  });
  afterAll(async () => {
    await t?.close();
  });

  const search = async (query: string, headers?: Record<string, string>) => {
    const res = await t.get(`/api/v1/posts?${query}`, headers);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { totalItems: number; totalPages: number; page: number; pageSize: number; items: Post[] };
  };
  const allPages = async (query: string) => {
    const items: Post[] = [];
    for (let page = 1; ; page++) {
      const body = await search(`${query}&pageSize=50&page=${page}`);
      items.push(...body.items);
      if (page >= body.totalPages) return { items, totalItems: body.totalItems };
    }
  };

  describe('GET /api/v1/posts', () => {
    it('returns the page envelope with summaries, newest first without keyword', async () => {
      const body = await search('');
      expect(body).toMatchObject({ page: 1, pageSize: 20 });
      expect(body.totalItems).toBe(t.demo.posts.total);
      expect(body.totalPages).toBe(Math.ceil(t.demo.posts.total / 20));
      expect(body.items).toHaveLength(20);
      const times = body.items.map((p) => p.postedAt);
      expect([...times].sort().reverse()).toEqual(times);
      const first = body.items[0]!;
      expect(Object.keys(first).sort()).toEqual([
        'author',
        'content',
        'images',
        'og',
        'owned',
        'postId',
        'postedAt',
        'stats',
        'webUrl',
      ]);
      expect(first.postedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/);
      expect(first.owned).toBe(false);
      expect(first.webUrl).toBe(`https://www.test.example/posts/${first.postId}`);
      expect(first.author.type).toMatch(/^(COMPANY|MEMBER)$/);
      expect(typeof first.author.certificated).toBe('boolean');
    });

    it("gives list postedAt as UTC wall-clock time without zone (the real service's list form), the detail's instant to the second", async () => {
      const body = await search('pageSize=5');
      for (const item of body.items) {
        const detail = (await t.get(`/api/v1/posts/${item.postId}`)).json();
        expect(item.postedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/);
        expect(item.postedAt).not.toMatch(/T\d{2}:\d{2}:00$/);
        expect(detail.postedAt).toMatch(/Z$/);
        expect(Date.parse(`${item.postedAt}Z`)).toBe(Math.floor(Date.parse(detail.postedAt) / 1000) * 1000);
      }
    });

    it('finds a two-syllable Korean keyword inside longer words', async () => {
      const { items, totalItems } = await allPages(`keyword=${encodeURIComponent('개발')}`);
      expect(totalItems).toBeGreaterThan(5);
      for (const post of items) expect(post.content).toContain('개발');
      expect(items.some((p) => /개발자/.test(p.content))).toBe(true);
    });

    it('matches every word of a keyword, case-insensitively, in the body or a translation', async () => {
      const { items } = await allPages('keyword=KUBERNETES');
      expect(items.length).toBeGreaterThan(0);
      for (const post of items) expect(post.content.toLowerCase()).toContain('kubernetes');

      const viaTranslation = await allPages('keyword=retrospective');
      expect(viaTranslation.items.some((p) => p.content.includes('회고'))).toBe(true);

      const none = await search(`keyword=${encodeURIComponent('kubernetes 존재하지않는말')}`);
      expect(none.totalItems).toBe(0);
      expect(none.items).toEqual([]);
    });

    it('finds a single CJK character anywhere in a word, and ignores a keyword of punctuation only', async () => {
      const { items } = await allPages(`keyword=${encodeURIComponent('자')}`);
      expect(items.length).toBeGreaterThan(0);
      for (const post of items) expect(post.content).toContain('자');
      expect((await search('keyword=%21%21%21')).totalItems).toBe(0);
      expect((await search('keyword=')).totalItems).toBe(t.demo.posts.total);
    });

    it('orders RECENT newest first and RELEVANCE by rank', async () => {
      const recent = await search(`keyword=${encodeURIComponent('개발')}&sort=RECENT&pageSize=50`);
      const times = recent.items.map((p) => p.postedAt);
      expect([...times].sort().reverse()).toEqual(times);
      const relevance = await search(`keyword=${encodeURIComponent('개발')}&pageSize=50`);
      expect(new Set(relevance.items.map((p) => p.postId))).toEqual(new Set(recent.items.map((p) => p.postId)));
    });

    it('filters by company handle', async () => {
      const { items } = await allPages('companyId=acme-labs');
      expect(items.length).toBeGreaterThan(0);
      for (const post of items)
        expect(post.author).toMatchObject({ type: 'COMPANY', id: 'acme-labs', name: 'Acme Labs' });
      expect((await search('companyId=no-such-company')).totalItems).toBe(0);
    });

    it('filters by images and Open Graph data, both ways', async () => {
      const withImages = await allPages('hasImages=true');
      const withoutImages = await allPages('hasImages=false');
      expect(withImages.totalItems + withoutImages.totalItems).toBe(t.demo.posts.total);
      for (const p of withImages.items) expect(p.images.length).toBeGreaterThan(0);
      for (const p of withoutImages.items) expect(p.images).toEqual([]);
      const withOg = await allPages('hasOg=true');
      for (const p of withOg.items) expect(p.og).not.toBeNull();
      expect(withOg.items.length).toBeGreaterThan(0);
      for (const p of (await allPages('hasOg=false')).items) expect(p.og).toBeNull();
    });

    it("filters by posting time (inclusive), with or without a zone: a list's postedAt given back is the same instant", async () => {
      const all = await search('pageSize=50');
      const pivot = all.items[10]!.postedAt as string; // UTC wall-clock time, as lists print it
      const after = await allPages(`postedAfter=${pivot}`);
      for (const p of after.items) expect(p.postedAt >= pivot).toBe(true);
      expect(after.items.map((p) => p.postId)).toContain(all.items[10]!.postId);
      const before = await allPages(`postedBefore=${pivot}`);
      for (const p of before.items) expect(p.postedAt <= pivot).toBe(true);
      expect(after.totalItems + before.totalItems).toBeGreaterThanOrEqual(t.demo.posts.total);
      const utc = await allPages(`postedAfter=${encodeURIComponent(new Date(Date.parse(`${pivot}Z`)).toISOString())}`);
      expect(utc.totalItems).toBe(after.totalItems);
    });

    it('combines filters with AND', async () => {
      const { items } = await allPages(`keyword=${encodeURIComponent('개발')}&hasImages=true`);
      for (const p of items) {
        expect(p.content).toContain('개발');
        expect(p.images.length).toBeGreaterThan(0);
      }
    });

    it.each([
      ['keyword', `keyword=${'a'.repeat(101)}`, 'C0005'],
      ['companyId', 'companyId=bad%20handle', 'C0005'],
      ['companyId', `companyId=${'a'.repeat(256)}`, 'C0005'],
      ['sort', 'sort=OLDEST', 'C0005'],
      ['hasImages', 'hasImages=maybe', 'C0005'],
      ['postedAfter', 'postedAfter=yesterday', 'C0005'],
      ['postedBefore', 'postedBefore=2026-13-01', 'C0005'],
    ])('rejects an invalid %s with 400 %s naming parameter and value', async (param, query, code) => {
      const res = await t.get(`/api/v1/posts?${query}`);
      expect(res.statusCode).toBe(400);
      const body = res.json();
      expect(body).toMatchObject({ code, details: param });
      expect(body.message).toContain(param);
      expect(body.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/);
    });

    it('names the rejected value in the message', async () => {
      const body = (await t.get('/api/v1/posts?sort=OLDEST')).json();
      expect(body.message).toContain('"OLDEST"');
      expect(body.message).toContain('RELEVANCE');
    });

    it('ignores unknown query parameters', async () => {
      expect((await search('color=blue')).totalItems).toBe(t.demo.posts.total);
    });
  });

  describe('pagination', () => {
    it.each([
      ['page=0', 1, 20],
      ['page=-5', 1, 20],
      ['page=abc', 1, 20],
      ['page=2.7', 2, 20],
      ['pageSize=0', 1, 1],
      ['pageSize=-3', 1, 1],
      ['pageSize=51', 1, 50],
      ['pageSize=1000', 1, 50],
      ['pageSize=x', 1, 20],
    ])('normalizes %s instead of rejecting it', async (query, page, pageSize) => {
      const body = await search(query);
      expect(body.page).toBe(page);
      expect(body.pageSize).toBe(pageSize);
      expect(body.items).toHaveLength(pageSize);
      expect(body.totalPages).toBe(Math.ceil(body.totalItems / pageSize));
    });

    it('returns an empty page past the end, with the totals', async () => {
      const body = await search('page=999&pageSize=50');
      expect(body).toMatchObject({
        page: 999,
        pageSize: 50,
        totalItems: t.demo.posts.total,
        totalPages: Math.ceil(t.demo.posts.total / 50),
        items: [],
      });
    });

    it('returns disjoint pages that together hold every item once', async () => {
      const { items } = await allPages('sort=RECENT');
      expect(items).toHaveLength(t.demo.posts.total);
      expect(new Set(items.map((p) => p.postId)).size).toBe(t.demo.posts.total);
    });
  });

  describe('GET /api/v1/posts/{postId}', () => {
    it('returns every detail field', async () => {
      const res = await t.get(`/api/v1/posts/${t.demo.posts.withImages}`);
      expect(res.statusCode).toBe(200);
      const post = res.json();
      expect(Object.keys(post).sort()).toEqual([
        'author',
        'content',
        'images',
        'language',
        'mentions',
        'og',
        'owned',
        'postId',
        'postedAt',
        'repostedPost',
        'repostedPostDeleted',
        'stats',
        'updatedAt',
        'webUrl',
      ]);
      expect(post.postId).toBe(t.demo.posts.withImages);
      expect(post.postedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(post.updatedAt >= post.postedAt).toBe(true);
      expect(post.images[0]).toMatchObject({
        url: expect.stringMatching(/^https:\/\/api\.test\.example\/media\/demo\/posts\//),
      });
      expect(typeof post.images[0].id).toBe('number');
      expect(post.owned).toBe(false);
    });

    it('returns Open Graph data, stats and certificated authors', async () => {
      const withOg = (await t.get(`/api/v1/posts/${t.demo.posts.withOg}`)).json();
      expect(withOg.og.link).toMatch(/^https:\/\//);
      const cert = (await t.get(`/api/v1/posts/${t.demo.posts.certificated}`)).json();
      expect(cert.author).toMatchObject({ type: 'COMPANY', certificated: true });
      expect(cert.author.imageUrl).toMatch(/^https:\/\/api\.test\.example\/media\/demo\/logos\//);
      expect(Object.keys(cert.stats).sort()).toEqual(['commentCount', 'likeCount']);
    });

    it('returns mentions of companies and members', async () => {
      const post = (await t.get(`/api/v1/posts/${t.demo.posts.mentions}`)).json();
      const all = [...post.mentions.companies, ...post.mentions.users];
      expect(all.length).toBeGreaterThan(0);
      for (const m of all) {
        expect(Object.keys(m).sort()).toEqual(['id', 'name']);
        expect(post.content).toContain(`@${m.id}`);
      }
    });

    it("expands a repost one level, with the source's own repostedPost null", async () => {
      const post = (await t.get(`/api/v1/posts/${t.demo.posts.repost}`)).json();
      expect(post.repostedPostDeleted).toBe(false);
      expect(post.repostedPost).not.toBeNull();
      expect(post.repostedPost.repostedPost).toBeNull();
      expect(post.repostedPost.postedAt).toMatch(/Z$/);
      expect(typeof post.repostedPost.repostedPostDeleted).toBe('boolean');
    });

    it('says when the repost source was deleted', async () => {
      const post = (await t.get(`/api/v1/posts/${t.demo.posts.repostOfDeleted}`)).json();
      expect(post).toMatchObject({ repostedPostDeleted: true, repostedPost: null });
    });

    it('answers 404 P0002 for a deleted or missing post', async () => {
      for (const id of [t.demo.posts.deleted, 999_999]) {
        const res = await t.get(`/api/v1/posts/${id}`);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({ code: 'P0002', details: 'postId' });
        expect(res.json().message).toContain(String(id));
      }
    });

    it('answers 400 C0002 for a post id that is not a number', async () => {
      const res = await t.get('/api/v1/posts/abc');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'C0002', details: 'postId' });
      expect(res.json().message).toContain('"abc"');
    });
  });

  describe('translations', () => {
    it.each(['en', 'ja', 'zh-CN', 'zh-TW'])('returns the %s translation and says so in language', async (lang) => {
      const original = (await t.get(`/api/v1/posts/${t.demo.posts.translated}`)).json();
      const res = await t.get(`/api/v1/posts/${t.demo.posts.translated}`, { 'accept-language': lang });
      const post = res.json();
      expect(original.language).toBe('ko');
      expect(post.language).toBe(lang);
      expect(post.content).not.toBe(original.content);
      expect(res.headers['content-language']).toBe(lang);
    });

    it('returns the original for languages without translations', async () => {
      const original = (await t.get(`/api/v1/posts/${t.demo.posts.translated}`)).json();
      for (const lang of ['es', 'fr', 'de', 'th']) {
        const post = (await t.get(`/api/v1/posts/${t.demo.posts.translated}`, { 'accept-language': lang })).json();
        expect(post).toMatchObject({ content: original.content, language: 'ko' });
      }
    });

    it('translates list items too', async () => {
      const ko = await search('pageSize=50');
      const en = await search('pageSize=50', { 'accept-language': 'en-US,en;q=0.9' });
      const changed = en.items.filter((p, i) => p.content !== ko.items[i]!.content);
      expect(changed.length).toBeGreaterThan(0);
    });
  });

  describe('app key', () => {
    it.each([
      ['missing', {}],
      ['well-formed but unknown', { 'x-svc-api-key': `svck_${'x'.repeat(32)}` }],
      ['malformed', { 'x-svc-api-key': 'hello' }],
    ])('answers 401 C0001 when the key is %s, without echoing it', async (_label, headers) => {
      for (const url of ['/api/v1/posts', `/api/v1/posts/${t.demo.posts.company}`, '/api/v1/posts?sort=BAD']) {
        const res = await t.request({ method: 'GET', url, headers });
        expect(res.statusCode).toBe(401);
        expect(res.json()).toMatchObject({ code: 'C0001', details: 'X-SVC-API-Key' });
        expect(res.body).not.toContain('xxxxxxxx');
      }
    });
  });
});
