import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';
import { accessToken, bearer } from './helpers/tokens.js';

/**
 * The reads are held to their design (docs/performance.md, "Reads"): a post or job detail the caches do not
 * hold is the data version and one prepared statement (a post's reposted source comes in the same statement;
 * on PostgreSQL the details asked for in one turn of the event loop share it, whatever their languages),
 * an event detail one statement; a search page's items are one statement whatever the page size. Counted as the statements the database ran while
 * the request was served, on a warm service (its app key checked and its rate-limit units reserved earlier).
 */
describe.each(ENGINES)('statements per read on %s', (engine) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp(engine);
  });
  afterAll(async () => {
    await t?.close();
  });

  const statementsOf = async (url: string, language = 'ko') => {
    const before = t.db.database.statements.count;
    const res = await t.get(url, { 'accept-language': language });
    expect(res.statusCode, res.body).toBe(200);
    return t.db.database.statements.count - before;
  };

  beforeAll(async () => {
    // Warm: the key is checked and cached, each operation's rate-limit units are reserved.
    for (const url of [
      '/api/v1/posts/1',
      '/api/v1/jobs?pageSize=1',
      '/api/v1/posts?pageSize=1',
      `/api/v1/jobs/${t.demo.jobs.hiring}`,
      `/api/v1/events/${t.demo.events.first}`,
    ])
      await t.get(url);
  });

  it('reads a post detail with its reposted source in one statement after the data version', async () => {
    const posts = (await t.get('/api/v1/posts?sort=RECENT&pageSize=50')).json().items as Array<{ postId: number }>;
    const repost = await (async () => {
      for (const { postId } of posts) {
        const detail = (await t.get(`/api/v1/posts/${postId}`, { 'accept-language': 'en' })).json();
        if (detail.repostedPost) return postId;
      }
      throw new Error('the demo has no repost among its newest posts');
    })();
    // Another language: nothing of it is cached.
    expect(await statementsOf(`/api/v1/posts/${repost}`, 'ja')).toBe(2);
    expect(await statementsOf(`/api/v1/posts/${posts[0]!.postId}`, 'zh-TW')).toBe(2);
  });

  it('reads a job detail in one statement after the data version', async () => {
    expect(await statementsOf(`/api/v1/jobs/${t.demo.jobs.hiring}`, 'en')).toBe(2);
  });

  it('reads an event detail, its tickets, sessions, FAQs and attachments included, in one statement', async () => {
    // Events have no response cache, so no data version either.
    expect(await statementsOf(`/api/v1/events/${t.demo.events.first}`, 'en')).toBe(1);
  });

  it("reads a page's items every time, and keeps a response or a detail only the second time it is asked for", async () => {
    // Posts 61-80, newest first, which no earlier read here has asked for; RELEVANCE without a keyword pages the same posts.
    const page = (sort: string) => `/api/v1/posts?sort=${sort}&pageSize=20&page=4`;
    // The same posts on another page are read again: the data version, then the items.
    expect(await statementsOf(page('RECENT'), 'en')).toBe(2);
    expect(await statementsOf(page('RELEVANCE'), 'en')).toBe(2);
    // The same response: built again the second time, and kept; the third time only the data version is read.
    expect(await statementsOf(page('RECENT'), 'en')).toBe(2);
    expect(await statementsOf(page('RECENT'), 'en')).toBe(1);
    expect(await statementsOf(page('RECENT'), 'ja')).toBe(2);

    // Jobs alike.
    const jobs = '/api/v1/jobs?sort=POPULARITY_DESC&pageSize=10&page=2';
    expect([
      await statementsOf(jobs, 'zh-CN'),
      await statementsOf(jobs, 'zh-CN'),
      await statementsOf(jobs, 'zh-CN'),
    ]).toEqual([2, 2, 1]);

    // With a token the response is the caller's own and never kept, so a detail comes from the cache of details:
    // read twice, then kept, and the third read asks only for the data version (and whatever the token costs).
    const token = await accessToken(t, 'post:write');
    const withToken = async (url: string) => {
      const before = t.db.database.statements.count;
      const res = await t.get(url, { 'accept-language': 'zh-CN', ...bearer(token) });
      expect(res.statusCode, res.body).toBe(200);
      return t.db.database.statements.count - before;
    };
    await withToken('/api/v1/posts?pageSize=1'); // the token's own first check
    for (const url of [`/api/v1/posts/${t.demo.posts.repost}`, `/api/v1/jobs/${t.demo.jobs.alwaysOpen}`]) {
      const [first, second, third] = [await withToken(url), await withToken(url), await withToken(url)];
      expect(second).toBe(first);
      expect(third).toBe(first - 1);
    }
  });

  it('reads the items of a search page in one statement, whatever its size', async () => {
    // Keyword searches are answered by the index; the page's items by one statement; the version by another.
    for (const pageSize of [5, 50]) {
      expect(await statementsOf(`/api/v1/posts?sort=RECENT&pageSize=${pageSize}`, pageSize === 5 ? 'en' : 'ja')).toBe(
        2,
      );
      expect(await statementsOf(`/api/v1/jobs?sort=DATE_DESC&pageSize=${pageSize}`, pageSize === 5 ? 'en' : 'ja')).toBe(
        2,
      );
      // Event searches are counted and paged by the engine (two statements), their items read by a third.
      expect(await statementsOf(`/api/v1/events?pageSize=${pageSize}`, pageSize === 5 ? 'en' : 'ja')).toBe(3);
    }
  });

  it('reads the items of the pages asked for together in one statement on PostgreSQL, whatever their languages', async () => {
    // Pages nothing here has read before (posts 201-240, jobs 51-90 of their orders), in four languages at once.
    const languages = ['ko', 'en', 'ja', 'zh-TW'];
    const together = async (path: (i: number) => string) => {
      const before = t.db.database.statements.count;
      const responses = await Promise.all(
        languages.map((language, i) => t.get(path(i), { 'accept-language': language })),
      );
      for (const res of responses) expect(res.statusCode, res.body).toBe(200);
      for (const res of responses) expect((res.json() as { items: unknown[] }).items).toHaveLength(10);
      return t.db.database.statements.count - before;
    };
    // The data version, read once for all four; then the items: on SQLite each page's statement runs at once.
    const expected = engine === 'postgres' ? 2 : 1 + languages.length;
    expect(await together((i) => `/api/v1/posts?sort=RECENT&pageSize=10&page=${21 + i}`)).toBe(expected);
    expect(await together((i) => `/api/v1/jobs?sort=DATE_DESC&pageSize=10&page=${6 + i}`)).toBe(expected);
  });

  it('reads the details asked for together in one statement on PostgreSQL, whatever their languages, reposted sources included', async () => {
    const posts = (await t.get('/api/v1/posts?sort=RECENT&pageSize=50&page=2')).json().items as Array<{
      postId: number;
    }>;
    const jobs = (await t.get('/api/v1/jobs?sort=DATE_DESC&pageSize=4&page=3')).json().items as Array<{
      jobId: number;
    }>;
    const languages = ['ko', 'en', 'ja', 'zh-TW'];
    const together = async (urls: string[]) => {
      const before = t.db.database.statements.count;
      const responses = await Promise.all(urls.map((url, i) => t.get(url, { 'accept-language': languages[i]! })));
      for (const res of responses) expect(res.statusCode, res.body).toBe(200);
      return t.db.database.statements.count - before;
    };
    const expected = engine === 'postgres' ? 2 : 1 + languages.length;
    // Reposts first: each source is read in the language of the post that reposts it.
    const details = await Promise.all(
      posts.map(async ({ postId }) => (await t.get(`/api/v1/posts/${postId}`, { 'accept-language': 'fr' })).json()),
    );
    const ids = [...details.filter((d) => d.repostedPost), ...details.filter((d) => !d.repostedPost)]
      .slice(0, 4)
      .map((d) => d.postId as number);
    expect(details.some((d) => d.repostedPost)).toBe(true);
    // (The bodies of details read together are held to the fixture in read-bodies.test.ts.)
    expect(await together(ids.map((id) => `/api/v1/posts/${id}`))).toBe(expected);
    expect(await together(jobs.map(({ jobId }) => `/api/v1/jobs/${jobId}`))).toBe(expected);
  });

  it("reads a post's images, as the items and details ask for them, from their index alone", async () => {
    const { adapter, db } = t.db.database;
    const images = `SELECT i.id, i.media_key, i.width, i.height FROM post_images i WHERE i.post_id = ${engine === 'postgres' ? '$1' : '?'} ORDER BY i.position`;
    // The demo's tables are small enough for PostgreSQL to read whole; the plan it would take on a large one is asked for.
    const plan =
      engine === 'postgres'
        ? await db.transaction().execute(async (trx) => {
            await sql`SET LOCAL enable_seqscan = off`.execute(trx);
            await sql`SET LOCAL enable_bitmapscan = off`.execute(trx);
            return adapter.explain(trx, images, [1]);
          })
        : await adapter.explain(db, images, [1]);
    expect(plan.join('\n')).toMatch(
      engine === 'postgres' ? /Index Only Scan using post_images_post_items/ : /COVERING INDEX post_images_post_items/,
    );
  });
});
