import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.js';
import { approximateBytes } from '../src/cache/approximate-bytes.js';
import { bumpDataVersion, DataVersion } from '../src/cache/data-version.js';
import { VersionedCache } from '../src/cache/versioned-cache.js';
import { SearchCache } from '../src/search/search-cache.js';
import { jsonPart, multipart } from './helpers/multipart.js';
import { anotherInstance, createTestApp, type TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';
import { accessToken, bearer, createUser } from './helpers/tokens.js';
import { realWait } from './helpers/real-time.js';

describe.each(ENGINES)('cached search results stay exact on %s', (engine) => {
  let t: TestContext;
  let other: App;
  beforeAll(async () => {
    t = await createTestApp(engine);
    other = await anotherInstance(t);
  });
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });

  const searchOn = async (app: App, query: string) =>
    (
      await app.inject({ method: 'GET', url: `/api/v1/posts?${query}`, headers: { 'x-svc-api-key': t.demo.apiKey } })
    ).json();

  it('shows a post written through another instance at once, with the exact total', async () => {
    const before = await searchOn(t.app, 'keyword=zeppelin');
    expect(before.totalItems).toBe(0);
    await searchOn(t.app, 'sort=RECENT');
    const token = await accessToken(t, 'post:write');
    const body = multipart([jsonPart({ text: 'zeppelin sighting' })]);
    const created = await other.inject({
      method: 'POST',
      url: '/api/v1/posts',
      headers: { ...body.headers, ...bearer(token) },
      payload: body.payload,
    });
    expect(created.statusCode).toBe(201);
    const after = await searchOn(t.app, 'keyword=zeppelin');
    expect(after.totalItems).toBe(1);
    expect(after.items[0].postId).toBe(created.json().postId);
    expect((await searchOn(t.app, 'sort=RECENT')).totalItems).toBe(t.demo.posts.total + 1);
    await other.inject({ method: 'DELETE', url: `/api/v1/posts/${created.json().postId}`, headers: bearer(token) });
    expect((await searchOn(t.app, 'keyword=zeppelin')).totalItems).toBe(0);
  });

  it('computes a search once for many concurrent misses, keeps it from its second time, and computes again after a write', async () => {
    const cache = new SearchCache();
    const versions = new DataVersion(t.db.database.reads, 'posts');
    const version = await versions.read();
    let computed = 0;
    const compute = async () => {
      computed++;
      await realWait(50, 'pace');
      return { total: 7, ids: [1, 2, 3] };
    };
    const results = await Promise.all(Array.from({ length: 20 }, () => cache.get('same search', 0, compute, version)));
    expect(computed).toBe(1);
    for (const r of results) expect(r).toMatchObject({ total: 7, ids: [1, 2, 3] });
    // A search asked for once is not kept (most distinct searches never come again); the second time it is.
    await cache.get('same search', 0, compute, await versions.read());
    expect(computed).toBe(2);
    await cache.get('same search', 0, compute, await versions.read());
    await cache.get('same search', 0, compute, await versions.read());
    expect(computed).toBe(2);
    await bumpDataVersion(t.db.database.db, 'posts');
    await cache.get('same search', 0, compute, await versions.read());
    expect(computed).toBe(3);
  });

  it('shares one version read among callers that ask before it starts, and reads again for later ones', async () => {
    const versions = new DataVersion(t.db.database.reads, 'posts');
    const together = await Promise.all(Array.from({ length: 10 }, () => versions.read()));
    expect(new Set(together).size).toBe(1);
    await bumpDataVersion(t.db.database.db, 'posts');
    // Asked after the bump committed: this read starts later, so it must see it.
    expect(await versions.read()).toBe(together[0]! + 1);
    // A read asked for before a write, and one asked for after it committed: the second sees the write.
    const before = versions.read();
    await bumpDataVersion(t.db.database.db, 'posts');
    expect(await versions.read()).toBe(together[0]! + 2);
    expect(await before).toBeGreaterThanOrEqual(together[0]! + 1);
  });

  it('ends a cached result at its time limit', async () => {
    const cache = new SearchCache();
    let computed = 0;
    const compute = async () => ({ total: ++computed, ids: [], validUntil: 1_000 });
    // Kept from the second time it is asked for.
    expect((await cache.get('jobs', 500, compute, 1)).total).toBe(1);
    expect((await cache.get('jobs', 500, compute, 1)).total).toBe(2);
    expect((await cache.get('jobs', 999, compute, 1)).total).toBe(2);
    expect((await cache.get('jobs', 1_000, compute, 1)).total).toBe(3);
  });

  describe('cached post and job reads', () => {
    const get = async (app: App, url: string, token?: string) => {
      const res = await app.inject({
        method: 'GET',
        url,
        headers: { 'x-svc-api-key': t.demo.apiKey, ...(token ? bearer(token) : {}) },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    const write = async (app: App, method: 'POST' | 'PUT', url: string, request: unknown, token: string) => {
      const body = multipart([jsonPart(request)]);
      const res = await app.inject({
        method,
        url,
        headers: { ...body.headers, ...bearer(token) },
        payload: body.payload,
      });
      expect(res.statusCode, res.body).toBeLessThan(300);
      return res.json();
    };

    it('shows a post edited through another instance at once, and owned only to its author', async () => {
      const demoToken = await accessToken(t, 'post:write');
      const reader = await createUser(t, 'cache-reader');
      const otherToken = await accessToken(t, 'post:write', reader);
      const source = await write(t.app, 'POST', '/api/v1/posts', { text: 'original text' }, demoToken);
      const repost = await write(
        t.app,
        'POST',
        '/api/v1/posts',
        { text: 'look at this', repostedPostId: source.postId },
        otherToken,
      );

      // Cached first as an anonymous caller sees it; each token holder then sees their own posts as owned.
      const anonymous = await get(t.app, `/api/v1/posts/${repost.postId}`);
      expect([anonymous.owned, anonymous.repostedPost.owned]).toEqual([false, false]);
      const byDemo = await get(t.app, `/api/v1/posts/${repost.postId}`, demoToken);
      expect([byDemo.owned, byDemo.repostedPost.owned]).toEqual([false, true]);
      const byOther = await get(t.app, `/api/v1/posts/${repost.postId}`, otherToken);
      expect([byOther.owned, byOther.repostedPost.owned]).toEqual([true, false]);
      expect((await get(t.app, `/api/v1/posts/${repost.postId}`)).owned).toBe(false);
      const found = await get(t.app, '/api/v1/posts?keyword=original', demoToken);
      expect(found.items.find((p: { postId: number }) => p.postId === source.postId).owned).toBe(true);
      expect(
        (await get(t.app, '/api/v1/posts?keyword=original')).items.every((p: { owned: boolean }) => !p.owned),
      ).toBe(true);

      await write(other, 'PUT', `/api/v1/posts/${source.postId}`, { text: 'edited text' }, demoToken);
      expect((await get(t.app, `/api/v1/posts/${source.postId}`)).content).toBe('edited text');
      expect((await get(t.app, `/api/v1/posts/${repost.postId}`)).repostedPost.content).toBe('edited text');
      await other.inject({ method: 'DELETE', url: `/api/v1/posts/${source.postId}`, headers: bearer(demoToken) });
      const orphan = await get(t.app, `/api/v1/posts/${repost.postId}`);
      expect([orphan.repostedPostDeleted, orphan.repostedPost]).toEqual([true, null]);
      expect(
        (
          await t.app.inject({
            method: 'GET',
            url: `/api/v1/posts/${source.postId}`,
            headers: { 'x-svc-api-key': t.demo.apiKey },
          })
        ).statusCode,
      ).toBe(404);
    });

    it('keeps a response per language and serves it again byte for byte with its ETag', async () => {
      const url = `/api/v1/posts/${t.demo.posts.translated}`;
      const read = (language: string) =>
        t.app.inject({ method: 'GET', url, headers: { 'x-svc-api-key': t.demo.apiKey, 'accept-language': language } });
      const [ko, en, koAgain, enAgain] = [await read('ko'), await read('en'), await read('ko'), await read('en')];
      expect(ko.json().content).not.toBe(en.json().content);
      expect([ko.headers['content-language'], en.headers['content-language']]).toEqual(['ko', 'en']);
      expect(koAgain.body).toBe(ko.body);
      expect(enAgain.body).toBe(en.body);
      expect(koAgain.headers.etag).toBe(ko.headers.etag);
      expect(enAgain.headers['content-type']).toBe(en.headers['content-type']);
      const notModified = await t.app.inject({
        method: 'GET',
        url,
        headers: {
          'x-svc-api-key': t.demo.apiKey,
          'accept-language': 'en',
          'if-none-match': en.headers.etag as string,
        },
      });
      expect(notModified.statusCode).toBe(304);
      expect(notModified.body).toBe('');
    });

    it('works out hiring at each request, and shows a job closed through another instance at once', async () => {
      const token = await accessToken(t, 'job:write job:manage:read');
      const job = await write(
        t.app,
        'POST',
        '/api/v1/jobs/platform?companyId=acme-labs',
        {
          jobTitle: '캐시 검증 엔지니어',
          jobCategory: 'dev',
          seniorities: ['JUNIOR'],
          employmentTypes: ['FULL_TIME'],
          jobBio: '설명',
          email: 'jobs@acme.example',
        },
        token,
      );
      const start = new Date(t.clock.now).toISOString().slice(0, 10);
      const end = new Date(t.clock.now + 2 * 86_400_000).toISOString().slice(0, 10);
      const published = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/jobs/${job.jobId}/active?companyId=acme-labs`,
        headers: { ...bearer(token), 'content-type': 'application/json' },
        payload: JSON.stringify({ startDate: start, endDate: end }),
      });
      expect(published.statusCode, published.body).toBe(200);
      const saved = t.clock.now;
      // Job search on either instance: the job's index entry came through the change log, hiring from the clock.
      const found = async (app: App) =>
        (await get(app, `/api/v1/jobs?keyword=${encodeURIComponent('캐시 검증')}`)).items.map(
          (j: { jobId: number }) => j.jobId,
        );
      try {
        expect((await get(t.app, `/api/v1/jobs/${job.jobId}`)).hiring).toBe(true);
        expect([await found(t.app), await found(other)]).toEqual([[job.jobId], [job.jobId]]);
        t.clock.now += 3 * 86_400_000;
        expect((await get(t.app, `/api/v1/jobs/${job.jobId}`)).hiring).toBe(false);
        expect(await found(t.app)).toEqual([]);
        t.clock.now = saved;
        expect((await get(t.app, `/api/v1/jobs/${job.jobId}`)).hiring).toBe(true);
        expect(await found(t.app)).toEqual([job.jobId]);
        const closed = await other.inject({
          method: 'DELETE',
          url: `/api/v1/jobs/${job.jobId}/active?companyId=acme-labs`,
          headers: bearer(token),
        });
        expect(closed.statusCode, closed.body).toBe(200);
        expect(await get(t.app, `/api/v1/jobs/${job.jobId}`)).toMatchObject({ status: 'finish', hiring: false });
        expect([await found(t.app), await found(other)]).toEqual([[], []]);
      } finally {
        t.clock.now = saved;
      }
    });
  });
});

describe('read caches bounded by memory', () => {
  it('keeps values seen twice, up to their approximate size in bytes, dropping the least recently used first', () => {
    const cache = new VersionedCache<{ text: string }>(1024 * 1024);
    const value = (i: number) => ({ text: `${i}`.padEnd(50_000, '가') });
    expect(approximateBytes(value(1))).toBeGreaterThan(100_000);
    // A value is kept the second time its key is set: the first only marks the key as seen.
    cache.set(1, 'once', value(0));
    expect(cache.get(1, 'once')).toBeUndefined();
    cache.set(1, 'once', value(0));
    expect(cache.get(1, 'once')).toBeDefined();
    for (let i = 0; i < 100; i++) cache.set(1, `k${i}`, value(i));
    expect(cache.get(1, 'k99')).toBeUndefined();
    for (let i = 0; i < 100; i++) cache.set(1, `k${i}`, value(i));
    const kept = Array.from({ length: 100 }, (_, i) => cache.get(1, `k${i}`) !== undefined);
    // 1 MiB holds ten values of ~100 KB: the newest ten.
    expect(kept.filter(Boolean)).toHaveLength(10);
    expect(kept.slice(90).every(Boolean)).toBe(true);
    expect(cache.get(2, 'k99')).toBeUndefined();
  });

  it('counts two bytes a character, a word a number, and the fields of objects and arrays', () => {
    expect(approximateBytes('abcd')).toBe(16 + 8);
    expect(approximateBytes(7)).toBe(8);
    expect(approximateBytes(null)).toBe(8);
    expect(approximateBytes([1, 'ab'])).toBe(32 + (8 + 8) + (8 + 16 + 4));
    expect(approximateBytes({ a: 1, b: { c: 'x' } })).toBe(32 + (16 + 8) + (16 + 32 + (16 + 16 + 2)));
  });
});
