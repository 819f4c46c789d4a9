import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../src/app.js';
import { bumpDataVersion, SearchCache } from '../src/search/search-cache.js';
import { jsonPart, multipart } from './helpers/multipart.js';
import { createTestApp, type TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';
import { accessToken, bearer } from './helpers/tokens.js';

describe.each(ENGINES)('cached search results stay exact on %s', (engine) => {
  let t: TestContext;
  let other: App;
  beforeAll(async () => {
    t = await createTestApp(engine);
    other = await buildApp({ config: t.config, database: t.db.database, clock: () => t.clock.now, logger: false });
  });
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });

  const searchOn = async (app: App, query: string) => (await app.inject({ method: 'GET', url: `/api/v1/posts?${query}`, headers: { 'x-svc-api-key': t.demo.apiKey } })).json();

  it('shows a post written through another instance at once, with the exact total', async () => {
    const before = await searchOn(t.app, 'keyword=zeppelin');
    expect(before.totalItems).toBe(0);
    await searchOn(t.app, 'sort=RECENT');
    const token = await accessToken(t, 'post:write');
    const body = multipart([jsonPart({ text: 'zeppelin sighting' })]);
    const created = await other.inject({ method: 'POST', url: '/api/v1/posts', headers: { ...body.headers, ...bearer(token) }, payload: body.payload });
    expect(created.statusCode).toBe(201);
    const after = await searchOn(t.app, 'keyword=zeppelin');
    expect(after.totalItems).toBe(1);
    expect(after.items[0].postId).toBe(created.json().postId);
    expect((await searchOn(t.app, 'sort=RECENT')).totalItems).toBe(t.demo.posts.total + 1);
    await other.inject({ method: 'DELETE', url: `/api/v1/posts/${created.json().postId}`, headers: bearer(token) });
    expect((await searchOn(t.app, 'keyword=zeppelin')).totalItems).toBe(0);
  });

  it('computes a search once for many concurrent misses, and again after a write', async () => {
    const cache = new SearchCache(t.db.database.db, 'posts');
    let computed = 0;
    const compute = async () => {
      computed++;
      await new Promise((r) => setTimeout(r, 50));
      return { total: 7, ids: [1, 2, 3] };
    };
    const results = await Promise.all(Array.from({ length: 20 }, () => cache.get('same search', 0, compute)));
    expect(computed).toBe(1);
    for (const r of results) expect(r).toMatchObject({ total: 7, ids: [1, 2, 3] });
    await cache.get('same search', 0, compute);
    expect(computed).toBe(1);
    await bumpDataVersion(t.db.database.db, 'posts');
    await cache.get('same search', 0, compute);
    expect(computed).toBe(2);
  });

  it('ends a cached result at its time limit', async () => {
    const cache = new SearchCache(t.db.database.db, 'jobs');
    let computed = 0;
    const compute = async () => ({ total: ++computed, ids: [], validUntil: 1_000 });
    expect((await cache.get('jobs', 500, compute)).total).toBe(1);
    expect((await cache.get('jobs', 999, compute)).total).toBe(1);
    expect((await cache.get('jobs', 1_000, compute)).total).toBe(2);
  });
});
