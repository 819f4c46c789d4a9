import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  departures,
  EMPLOYMENT_TYPES,
  EVENT_DETAIL,
  EVENT_LIST_ITEM,
  JOB_DETAIL,
  JOB_LIST_ITEM,
  MANAGED_JOB_LIST_ITEM,
  POST_DETAIL,
  POST_LIST_ITEM,
  type Fact,
} from './fixtures/real-service-facts.js';
import { createTestApp, type TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';
import { accessToken, bearer } from './helpers/tokens.js';

/**
 * A client written for the real service reads every list and detail of the demo without surprise: each
 * response holds to the facts observed of the real one (test/fixtures/real-service-facts.ts), in two languages.
 */
describe.each(ENGINES)("the demo against the real service's observed responses, on %s", (engine) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp(engine);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function json(url: string, headers: Record<string, string> = {}) {
    const res = await t.get(url, headers);
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return res.json();
  }

  /** Every page of a list, its items checked against `item`; the ids of the items. */
  async function everyPage(
    route: string,
    item: Fact,
    id: string,
    headers: Record<string, string> = {},
  ): Promise<unknown[]> {
    const ids: unknown[] = [];
    for (let page = 1; ; page++) {
      const body = await json(`${route}${route.includes('?') ? '&' : '?'}pageSize=50&page=${page}`, headers);
      const problems = body.items.flatMap((entry: Record<string, unknown>) =>
        departures(entry, item, `${route} page ${page} ${String(entry[id])}`),
      );
      expect(problems).toEqual([]);
      ids.push(...body.items.map((entry: Record<string, unknown>) => entry[id]));
      if (page >= body.totalPages) return ids;
    }
  }

  const details = async (route: string, ids: unknown[], fact: Fact, headers: Record<string, string>) => {
    const problems: string[] = [];
    for (const id of ids)
      problems.push(...departures(await json(`${route}/${String(id)}`, headers), fact, `${route}/${String(id)}`));
    expect(problems).toEqual([]);
  };

  it.each(['ko', 'en'])('posts: every list page and every detail (%s)', async (language) => {
    const headers = { 'accept-language': language };
    const ids = await everyPage('/api/v1/posts?sort=RECENT', POST_LIST_ITEM, 'postId', headers);
    expect(ids.length).toBeGreaterThan(50);
    await details('/api/v1/posts', ids, POST_DETAIL, headers);
  });

  it.each(['ko', 'en'])('jobs: every list page and every detail (%s)', async (language) => {
    const headers = { 'accept-language': language };
    const ids = await everyPage('/api/v1/jobs?sort=DATE_DESC', JOB_LIST_ITEM, 'jobId', headers);
    expect(ids.length).toBeGreaterThan(20);
    await details('/api/v1/jobs', ids, JOB_DETAIL, headers);
  });

  it.each(['ko', 'en'])('events: every list page and every detail (%s)', async (language) => {
    const headers = { 'accept-language': language };
    const ids = await everyPage('/api/v1/events', EVENT_LIST_ITEM, 'eventId', headers);
    expect(ids.length).toBeGreaterThan(5);
    await details('/api/v1/events', ids, EVENT_DETAIL, headers);
  });

  it("a company's jobs as its recruiter lists them", async () => {
    const token = await accessToken(t, 'job:manage:read');
    const ids = await everyPage(
      '/api/v1/companies/acme-labs/jobs/accessible',
      MANAGED_JOB_LIST_ITEM,
      'jobId',
      bearer(token),
    );
    expect(ids.length).toBeGreaterThan(0);
  });

  it('the facts catch what real clients broke on: a list time with a zone, an old code, a missing field', () => {
    const item = {
      postId: 1,
      content: 'x',
      owned: false,
      webUrl: 'https://www.test.example/posts/1',
      images: [],
      og: null,
      stats: {},
      author: { type: 'MEMBER', id: 'kim', name: 'Kim', imageUrl: null, certificated: false },
      postedAt: '2026-08-23T15:00',
    };
    expect(departures(item, POST_LIST_ITEM)).toEqual([]);
    expect(departures({ ...item, postedAt: '2026-08-23T15:00:00.000Z' }, POST_LIST_ITEM)).toHaveLength(1);
    expect(departures({ ...item, postedAt: '2026-08-23T15:00:00' }, POST_LIST_ITEM)).toHaveLength(1);
    const { postedAt: _postedAt, ...missing } = item;
    expect(departures(missing, POST_LIST_ITEM)).toEqual(['$.postedAt: missing']);
    expect(departures(['CONTRACT'], { type: 'array', items: { type: 'string', oneOf: EMPLOYMENT_TYPES } })).toEqual([
      '$[0]: "CONTRACT" is not one of FULL_TIME, FIXED_TERM, COMMISSIONED, INTERN, FREELANCER, SELF_EMPLOYED',
    ]);
  });
});
