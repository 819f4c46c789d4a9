import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';

describe.each(ENGINES)('posts on %s', (engine) => {
  let t: TestContext;
  beforeAll(async () => { t = await createTestApp(engine); });
  afterAll(async () => { await t?.close(); });

  describe('GET /api/v1/posts', () => {
    it('returns the page envelope with post summaries, newest first without keyword', async () => {
      const res = await t.get('/api/v1/posts');
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.page).toBe(1);
      expect(body.pageSize).toBe(20);
      expect(body.totalItems).toBeGreaterThan(250);
      expect(body.totalPages).toBe(Math.ceil(body.totalItems / 20));
      expect(body.items).toHaveLength(20);
      const times = body.items.map((p: { postedAt: string }) => p.postedAt);
      expect([...times].sort().reverse()).toEqual(times);
      const first = body.items[0];
      expect(first.postedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
      expect(first.owned).toBe(false);
      expect(first.webUrl).toBe(`https://www.test.example/posts/${first.postId}`);
      expect(res.headers['content-language']).toBe('ko');
      expect(res.headers.vary).toContain('Accept-Language');
    });

    it('finds a Korean two-syllable keyword inside words', async () => {
      const res = await t.get(`/api/v1/posts?keyword=${encodeURIComponent('개발')}&pageSize=50`);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.totalItems).toBeGreaterThan(0);
      for (const post of body.items) expect(post.content).toBeTypeOf('string');
    });
  });

  describe('GET /api/v1/posts/{postId}', () => {
    it('returns every detail field', async () => {
      const res = await t.get(`/api/v1/posts/${t.demo.posts.withImages}`);
      expect(res.statusCode).toBe(200);
      const post = res.json();
      expect(post.postId).toBe(t.demo.posts.withImages);
      expect(post.postedAt).toMatch(/Z$/);
      expect(post.updatedAt).toMatch(/Z$/);
      expect(post.images.length).toBeGreaterThan(0);
      expect(post.images[0].url).toMatch(/^https:\/\/api\.test\.example\/media\//);
    });

    it('answers 404 P0002 for a missing post', async () => {
      const res = await t.get('/api/v1/posts/999999');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'P0002', details: 'postId' });
    });
  });
});
