import fs from 'node:fs';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_NAMES } from '../src/shared/catalog-data.js';
import { GENEROUS_LIMITS, createTestApp, type TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';
import { multipart, type Part } from './helpers/multipart.js';
import { accessToken, bearer } from './helpers/tokens.js';

/**
 * What public clients written for the real service do, as facts rather than their code, against the demo with
 * nothing changed but the host and the key: a job sync with `/v1` as its base that parses list times as a Java
 * `LocalDateTime`, the real service's key headers, catalogs iterated as arrays, multipart writes sent the way Spring
 * and curl send them, and schemas written from the real service's captured responses.
 */

/** Java's ISO_LOCAL_DATE_TIME, as `LocalDateTime.parse` reads it: no zone, seconds and fraction optional. */
const JAVA_LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?$/;
/** The real service's list times as captured (`2026-08-23T15:00`): its data is at whole minutes. */
const CAPTURED_LIST_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;
const CORS_ORIGIN = 'https://builder.example.com';

describe.each(ENGINES)('clients written for the real service, unchanged, on %s', (engine) => {
  let t: TestContext;
  let writer: string;
  beforeAll(async () => {
    t = await createTestApp(engine, { config: { ...GENEROUS_LIMITS, CORS_ORIGINS: CORS_ORIGIN } });
    writer = await accessToken(t, 'post:write job:write');
  });
  afterAll(async () => {
    await t?.close();
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.request({ method: 'GET', url, headers: { 'x-svc-api-key': t.demo.apiKey, ...headers } });
  const json = async (url: string, headers: Record<string, string> = {}) => {
    const res = await get(url, headers);
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return res.json();
  };

  /** The Java sync's loop: next page until a short page or the last one. */
  async function syncJobs(base: string, pageSize: number): Promise<Array<Record<string, unknown>>> {
    const jobs: Array<Record<string, unknown>> = [];
    for (let page = 1; ; page++) {
      const body = await json(`${base}/jobs?sort=DATE_DESC&page=${page}&pageSize=${pageSize}`);
      jobs.push(...body.items);
      if (body.items.length < pageSize || page >= body.totalPages) return jobs;
    }
  }

  it('a job sync with /v1 as its base pages to the end, gets what /api/v1 gives, and parses every list time as a LocalDateTime', async () => {
    const jobs = await syncJobs('/v1', 7);
    expect(jobs.length).toBe((await json('/v1/jobs?pageSize=1')).totalItems);
    expect(jobs.length).toBeGreaterThan(14);
    expect(jobs).toEqual(await syncJobs('/api/v1', 7));
    for (const job of jobs) {
      // `endAt` is null for an always-open job; the sync maps null to null.
      if (job.endAt !== null) expect(job.endAt, `job ${String(job.jobId)}`).toMatch(JAVA_LOCAL_DATE_TIME);
    }
  });

  it('answers every /v1 read as /api/v1: the same status, body, ETag and language; 304 on its ETag; errors name the path sent', async () => {
    const urls = [
      '/jobs?keyword=AI',
      `/jobs/${t.demo.jobs.hiring}`,
      '/posts?sort=RECENT&pageSize=5',
      `/posts/${t.demo.posts.translated}`,
      '/events?pageSize=3',
      `/events/${t.demo.events.first}`,
      '/codes/seniorities',
      '/jobs?workTypes=NOWHERE',
      `/jobs/${t.demo.jobs.draft}`,
    ];
    for (const url of urls) {
      const [ours, theirs] = [
        await get(`/api/v1${url}`, { 'accept-language': 'en' }),
        await get(`/v1${url}`, { 'accept-language': 'en' }),
      ];
      expect(theirs.statusCode, url).toBe(ours.statusCode);
      const same = (res: LightMyRequestResponse) => ({
        etag: res.headers.etag,
        language: res.headers['content-language'],
        body: res.statusCode === 200 ? res.body : res.json().code,
      });
      expect(same(theirs), url).toEqual(same(ours));
      if (theirs.headers.etag) {
        const again = await get(`/v1${url}`, { 'accept-language': 'en', 'if-none-match': String(theirs.headers.etag) });
        expect(again.statusCode, url).toBe(304);
      }
    }
    const missing = await get('/v1/nowhere');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'C0008', message: 'No resource at GET /v1/nowhere' });
  });

  it('counts one call once, whichever prefix it came by', async () => {
    const remaining = async (url: string) => Number((await get(url)).headers['x-svc-ratelimit-remaining']);
    const first = await remaining('/api/v1/codes/work-types');
    expect(await remaining('/v1/codes/work-types')).toBe(first - 1);
    expect(await remaining('/api/v1/codes/work-types')).toBe(first - 2);
  });

  it('reads the app key from X-SVC-API-Key, X-RP-API-Key or X-OBA-API-Key, and refuses two different keys', async () => {
    for (const header of ['x-svc-api-key', 'x-rp-api-key', 'x-oba-api-key']) {
      const res = await t.request({ method: 'GET', url: '/v1/jobs?pageSize=1', headers: { [header]: t.demo.apiKey } });
      expect(res.statusCode, header).toBe(200);
      expect(res.headers['x-svc-ratelimit-remaining'], header).toBeDefined();
      expect(Object.keys(res.headers).filter((name) => /^x-(rp|oba)-/.test(name))).toEqual([]);
      const wrong = await t.request({
        method: 'GET',
        url: '/v1/jobs?pageSize=1',
        headers: { [header]: `${t.demo.apiKey}x` },
      });
      expect(wrong.statusCode, header).toBe(401);
      expect(wrong.json().code).toBe('C0001');
      expect(wrong.body).not.toContain(t.demo.apiKey);
    }
    const same = await t.request({
      method: 'GET',
      url: '/v1/jobs?pageSize=1',
      headers: { 'x-svc-api-key': t.demo.apiKey, 'x-oba-api-key': t.demo.apiKey },
    });
    expect(same.statusCode).toBe(200);
    const two = await t.request({
      method: 'GET',
      url: '/v1/jobs?pageSize=1',
      headers: { 'x-rp-api-key': t.demo.apiKey, 'x-oba-api-key': 'svck_SomeoneElse0000000000000000000000' },
    });
    expect(two.statusCode).toBe(401);
    expect(two.json()).toMatchObject({ code: 'C0001', details: 'X-OBA-API-Key' });
    expect(two.json().message).toMatch(/X-RP-API-Key and X-OBA-API-Key/);
    expect(two.body).not.toContain(t.demo.apiKey);
    expect(two.body).not.toContain('SomeoneElse');
  });

  it('lets a browser app send the aliases across origins (preflight on a /v1 path)', async () => {
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/v1/jobs',
      headers: {
        origin: CORS_ORIGIN,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-oba-api-key,x-rp-api-key',
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(String(preflight.headers['access-control-allow-headers']).toLowerCase()).toContain('x-oba-api-key');
    expect(String(preflight.headers['access-control-allow-headers']).toLowerCase()).toContain('x-rp-api-key');
    const res = await get('/v1/jobs?pageSize=1', { origin: CORS_ORIGIN });
    expect(res.headers['access-control-allow-origin']).toBe(CORS_ORIGIN);
  });

  it('iterates every catalog as an array of entries, the industries as groups of them', async () => {
    for (const catalog of CATALOG_NAMES) {
      const body = await json(`/v1/codes/${catalog}`, { 'accept-language': 'en' });
      expect(Array.isArray(body), catalog).toBe(true);
      for (const entry of body) {
        expect(typeof entry.code).toBe('string');
        expect(typeof entry.displayName).toBe('string');
        if (catalog === 'job-industries') {
          for (const child of entry.children) expect(Object.keys(child).sort()).toEqual(['code', 'displayName']);
        } else {
          expect(typeof entry.description).toBe('string');
        }
      }
    }
    // What a client does with the industries: find a company's industry among the groups' children.
    const company = (await json(`/v1/jobs/${t.demo.jobs.hiring}`)).company;
    const groups = await json('/v1/codes/job-industries');
    expect(groups.flatMap((g: { children: Array<{ code: string }> }) => g.children.map((c) => c.code))).toContain(
      company.industry,
    );
  });

  describe('multipart writes sent as Spring and curl send them', () => {
    const send = (url: string, parts: Part[]) => {
      const body = multipart(parts);
      return t.request({ method: 'POST', url, payload: body.payload, headers: { ...body.headers, ...bearer(writer) } });
    };
    const request = (value: unknown, contentType?: string, filename?: string): Part => ({
      name: 'request',
      value: typeof value === 'string' ? value : JSON.stringify(value),
      contentType,
      filename,
    });

    it.each([
      [
        "typed application/json, no filename (Spring's MultipartBodyBuilder, curl -F 'request=…;type=application/json')",
        'application/json',
        undefined,
      ],
      ['typed application/json with a charset', 'application/json; charset=UTF-8', undefined],
      ["a file part typed application/json (a browser's Blob)", 'application/json', 'blob'],
      ['a plain text part', undefined, undefined],
    ])('creates a post from a request part %s', async (_how, contentType, filename) => {
      const res = await send('/v1/posts', [
        request({ text: `Spring 클라이언트에서 보낸 글 ${_how}` }, contentType, filename),
      ]);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().content).toContain('Spring 클라이언트');
    });

    it('creates a job posting the Spring way on /v1', async () => {
      const res = await send(`/v1/jobs/platform?companyId=${t.demo.companyId}`, [
        request(
          {
            jobTitle: 'AI 플랫폼 엔지니어',
            jobCategory: 'dataAi',
            seniorities: ['SENIOR'],
            employmentTypes: ['FULL_TIME'],
            jobBio: 'Java 동기화로 올린 공고',
            jobResponse: 'API 설계',
            workType: 'REMOTE',
            settings: [{ title: '이력서', required: true, uploadType: 'ANY' }],
          },
          'application/json',
        ),
      ]);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ status: 'draft', title: 'AI 플랫폼 엔지니어' });
    });

    it.each([
      [
        'typed application/json but not JSON',
        request('text=hello', 'application/json'),
        /typed application\/json but does not hold JSON/,
      ],
      ['text that is not JSON', request('hello there'), /must be JSON, got "hello there"/],
      ['JSON that is not an object', request([1, 2], 'application/json'), /request/],
    ])('refuses a request part %s, saying what arrived, and creates nothing', async (_how, part, message) => {
      const before = (await json('/v1/posts?pageSize=1')).totalItems;
      const res = await send('/v1/posts', [part]);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('C0002');
      expect(res.json().message).toMatch(message);
      expect(res.json().message).not.toContain('[object Object]');
      expect((await json('/v1/posts?pageSize=1')).totalItems).toBe(before);
    });
  });

  describe("the demo, as schemas written from the real service's captured responses see it", () => {
    it('gives every event a banner, on every list page and in every detail', async () => {
      for (let page = 1; ; page++) {
        const body = await json(`/v1/events?pageSize=50&page=${page}`);
        for (const event of body.items) {
          expect(event.bannerUrl, event.eventId).toMatch(/^https?:\/\/\S+$/);
          expect((await json(`/v1/events/${event.eventId}`)).bannerUrl).toBe(event.bannerUrl);
        }
        if (page >= body.totalPages) break;
      }
    });

    it("puts list times at whole minutes, as the real service's data has them", async () => {
      const times = [
        ...(await json('/v1/posts?sort=RECENT&pageSize=50')).items.map((p: { postedAt: string }) => p.postedAt),
        ...(await json('/v1/jobs?sort=DATE_DESC&pageSize=50')).items.flatMap((j: { endAt: string | null }) =>
          j.endAt === null ? [] : [j.endAt],
        ),
        ...(await json('/v1/events?pageSize=50')).items.flatMap((e: { startAt: string; endAt: string }) => [
          e.startAt,
          e.endAt,
        ]),
      ];
      expect(times.length).toBeGreaterThan(100);
      expect(times.filter((time) => !CAPTURED_LIST_TIME.test(time))).toEqual([]);
    });

    it("finds something for the keyword of the real service's first example, and for every keyword our docs show", async () => {
      expect((await json('/v1/jobs?keyword=AI')).totalItems).toBeGreaterThan(0);
      const docs = [
        'README.md',
        ...fs
          .readdirSync('docs')
          .filter((f) => f.endsWith('.md'))
          .map((f) => `docs/${f}`),
      ];
      const searches = new Set<string>();
      for (const file of docs) {
        for (const match of fs
          .readFileSync(file, 'utf8')
          .matchAll(/\/(posts|jobs|events)\?([^"'\s`)]*keyword=[^"'\s`)]+)/g)) {
          searches.add(`/v1/${match[1]}?${match[2]!.replace(/&?(postedAfter|postedBefore|page)=[^&]*/g, '')}`);
        }
      }
      expect(searches.size).toBeGreaterThan(2);
      for (const search of searches) expect((await json(search)).totalItems, search).toBeGreaterThan(0);
    });
  });
});
