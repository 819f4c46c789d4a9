import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_NOW, type TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';

type Job = Record<string, any>;

describe.each(ENGINES)('jobs on %s', (engine) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp(engine);
  });
  afterAll(async () => {
    await t?.close();
  });

  const search = async (query: string, headers?: Record<string, string>) => {
    const res = await t.get(`/api/v1/jobs?${query}`, headers);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { totalItems: number; totalPages: number; page: number; pageSize: number; items: Job[] };
  };
  const allPages = async (query: string) => {
    const items: Job[] = [];
    for (let page = 1; ; page++) {
      const body = await search(`${query}&pageSize=50&page=${page}`);
      items.push(...body.items);
      if (page >= body.totalPages) return items;
    }
  };
  const detail = async (id: number, headers?: Record<string, string>) =>
    (await t.get(`/api/v1/jobs/${id}`, headers)).json();

  describe('GET /api/v1/jobs', () => {
    it('lists only actively hiring jobs, with every summary field', async () => {
      const items = await allPages('');
      expect(items.length).toBeGreaterThan(50);
      expect(Object.keys(items[0]!).sort()).toEqual([
        'company',
        'employmentTypes',
        'endAt',
        'jobCategory',
        'jobId',
        'location',
        'salary',
        'seniorities',
        'subtitle',
        'title',
        'webUrl',
        'workType',
      ]);
      expect(Object.keys(items[0]!.company).sort()).toEqual(['id', 'industry', 'logoUrl', 'name', 'size']);
      const ids = items.map((j) => j.jobId);
      for (const state of ['expired', 'notStarted', 'finish', 'draft', 'deleted'] as const)
        expect(ids).not.toContain(t.demo.jobs[state]);
      expect(ids).toContain(t.demo.jobs.hiring);
      expect(ids).toContain(t.demo.jobs.alwaysOpen);
      for (const job of items.slice(0, 15))
        expect(await detail(job.jobId)).toMatchObject({ status: 'published', hiring: true });
    });

    it('filters by category, with repeated parameters and comma lists meaning the same (OR)', async () => {
      const one = await allPages('jobCategories=dataAi');
      for (const j of one) expect(j.jobCategory).toBe('dataAi');
      const repeated = await allPages('jobCategories=dataAi&jobCategories=designUX');
      const comma = await allPages('jobCategories=dataAi,designUX');
      expect(comma.map((j) => j.jobId)).toEqual(repeated.map((j) => j.jobId));
      expect(new Set(repeated.map((j) => j.jobCategory))).toEqual(new Set(['dataAi', 'designUX']));
      expect(repeated.length).toBe(one.length + (await allPages('jobCategories=designUX')).length);
    });

    it('filters by seniority, employment type, company size, workplace type and company', async () => {
      for (const j of await allPages('seniorities=JUNIOR,SENIOR'))
        expect(j.seniorities.some((s: string) => ['JUNIOR', 'SENIOR'].includes(s))).toBe(true);
      for (const j of await allPages('employmentTypes=INTERN')) expect(j.employmentTypes).toContain('INTERN');
      for (const j of await allPages('companySizes=HUGE&companySizes=TINY'))
        expect(['HUGE', 'TINY']).toContain(j.company.size);
      for (const j of await allPages('workTypes=REMOTE')) expect(j.workType).toBe('REMOTE');
      const acme = await allPages('companyId=acme-labs');
      expect(acme.length).toBeGreaterThan(0);
      for (const j of acme) expect(j.company.id).toBe('acme-labs');
      expect((await search('companyId=nobody')).totalItems).toBe(0);
    });

    it('combines different filters with AND', async () => {
      const all = await allPages('');
      const expected = all
        .filter((j) => j.workType !== 'ONSITE' && j.seniorities.includes('SENIOR'))
        .map((j) => j.jobId)
        .sort();
      const got = (await allPages('workTypes=REMOTE,HYBRID&seniorities=SENIOR')).map((j) => j.jobId).sort();
      expect(got).toEqual(expected);
      expect(got.length).toBeGreaterThan(0);
    });

    it('searches titles, subtitles and descriptions by English and Korean keywords', async () => {
      const english = await allPages('keyword=backend');
      expect(english.length).toBeGreaterThan(0);
      const korean = await allPages(`keyword=${encodeURIComponent('개발')}`);
      expect(korean.some((j) => j.title.includes('개발자'))).toBe(true);
      const rust = await allPages('keyword=rust');
      for (const j of rust) expect(j.title).toContain('Rust');
    });

    it('sorts by date and by popularity', async () => {
      const byDate = (await search('sort=DATE_DESC&pageSize=10')).items;
      const starts = await Promise.all(byDate.map(async (j) => (await detail(j.jobId)).startAt));
      expect([...starts].sort().reverse()).toEqual(starts);
      const popular = (await search('sort=POPULARITY_DESC&pageSize=10')).items.map((j) => j.jobId);
      const views = await t.db.database.db
        .selectFrom('jobs')
        .select(['id', 'view_count'])
        .where('id', 'in', popular)
        .execute();
      const viewOf = new Map(views.map((v) => [v.id, v.view_count]));
      const counts = popular.map((id) => viewOf.get(id)!);
      expect([...counts].sort((a, b) => b - a)).toEqual(counts);
    });

    it.each([
      ['seniorities', 'seniorities=WIZARD', '"WIZARD"'],
      ['seniorities', 'seniorities=JUNIOR,WIZARD', '"WIZARD"'],
      ['companySizes', 'companySizes=GIANT', '"GIANT"'],
      ['workTypes', 'workTypes=MOON', '"MOON"'],
      ['sort', 'sort=CHEAPEST', '"CHEAPEST"'],
      ['jobCategories', 'jobCategories=ASTRONAUT', '"ASTRONAUT"'],
      ['employmentTypes', 'employmentTypes=FOREVER', '"FOREVER"'],
      ['keyword', `keyword=${'k'.repeat(101)}`, 'at most 100'],
      ['companyId', 'companyId=%3Cscript%3E', 'pattern'],
    ])('rejects an unknown %s value with 400 C0005 naming it', async (param, query, fragment) => {
      const res = await t.get(`/api/v1/jobs?${query}`);
      expect(res.statusCode).toBe(400);
      const body = res.json();
      expect(body).toMatchObject({ code: 'C0005', details: param });
      expect(body.message).toContain(param);
      expect(body.message).toContain(fragment);
    });
  });

  describe('GET /api/v1/jobs/{jobId}', () => {
    it('returns every field of a hiring job', async () => {
      const job = await detail(t.demo.jobs.hiring);
      expect(Object.keys(job).sort()).toEqual([
        'allowRemote',
        'applyMethod',
        'benefit',
        'company',
        'createdAt',
        'description',
        'duty',
        'employmentTypes',
        'endAt',
        'hireNotes',
        'hireProcess',
        'hiring',
        'jobCategory',
        'jobId',
        'jobImages',
        'language',
        'location',
        'minimumQualification',
        'preferredQualification',
        'salary',
        'seniorities',
        'startAt',
        'status',
        'subtitle',
        'title',
        'webUrl',
        'workType',
      ]);
      expect(job).toMatchObject({ jobId: t.demo.jobs.hiring, status: 'published', hiring: true, language: 'ko' });
      for (const field of ['createdAt', 'startAt', 'endAt'])
        expect(job[field]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(Date.parse(job.endAt)).toBeGreaterThan(TEST_NOW);
      expect(job.webUrl).toBe(`https://www.test.example/jobs/${job.jobId}`);
      expect(job.applyMethod.url).toMatch(/^https:\/\//);
    });

    it.each([
      ['alwaysOpen', 'published', true],
      ['expired', 'published', false],
      ['notStarted', 'published', false],
      ['finish', 'finish', false],
    ] as const)('returns the %s job as %s with hiring %s', async (state, status, hiring) => {
      const job = await detail(t.demo.jobs[state]);
      expect(job).toMatchObject({ status, hiring });
      if (state === 'alwaysOpen') expect(job.endAt).toBeNull();
      if (state === 'expired') expect(Date.parse(job.endAt)).toBeLessThan(TEST_NOW);
    });

    it('gives an OUTLINK apply method for external jobs', async () => {
      const job = await detail(t.demo.jobs.outlink);
      expect(job.applyMethod).toEqual({ type: 'OUTLINK', url: expect.stringMatching(/^https:\/\/careers\./) });
    });

    it('answers 404 R0001 for draft, deleted and missing jobs', async () => {
      for (const id of [t.demo.jobs.draft, t.demo.jobs.deleted, 987_654]) {
        const res = await t.get(`/api/v1/jobs/${id}`);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({ code: 'R0001', details: 'jobId' });
      }
    });

    it('answers 400 C0002 for a job id that is not a positive integer', async () => {
      for (const id of ['abc', '0', '-4']) {
        const res = await t.get(`/api/v1/jobs/${id}`);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ code: 'C0002', details: 'jobId' });
      }
    });

    it('returns translated texts for en, ja, zh-CN and zh-TW, and the original otherwise', async () => {
      const original = await detail(t.demo.jobs.translated);
      for (const lang of ['en', 'ja', 'zh-CN', 'zh-TW']) {
        const job = await detail(t.demo.jobs.translated, { 'accept-language': lang });
        expect(job.language).toBe(lang);
        expect(job.description).not.toBe(original.description);
        expect(job.title).not.toBe(original.title);
      }
      const french = await detail(t.demo.jobs.translated, { 'accept-language': 'fr' });
      expect(french).toMatchObject({ language: 'ko', description: original.description });
    });
  });

  describe('hiring is derived from the clock', () => {
    it('closes a job for applications once its end passes, and drops it from search', async () => {
      const job = await detail(t.demo.jobs.hiring);
      expect((await allPages('')).map((j) => j.jobId)).toContain(job.jobId);
      t.clock.now = Date.parse(job.endAt) + 1;
      try {
        expect(await detail(job.jobId)).toMatchObject({ status: 'published', hiring: false });
        expect((await allPages('')).map((j) => j.jobId)).not.toContain(job.jobId);
      } finally {
        t.clock.now = TEST_NOW;
      }
    });

    it('opens a published job once its start arrives, in search too, and closes it again for a clock set back', async () => {
      const job = await detail(t.demo.jobs.notStarted);
      expect((await allPages('')).map((j) => j.jobId)).not.toContain(job.jobId);
      t.clock.now = Date.parse(job.startAt);
      try {
        expect(await detail(job.jobId)).toMatchObject({ hiring: true });
        // The hiring sweep brought it into the search index when its start came.
        expect((await allPages('')).map((j) => j.jobId)).toContain(job.jobId);
      } finally {
        t.clock.now = TEST_NOW;
      }
      expect((await allPages('')).map((j) => j.jobId)).not.toContain(job.jobId);
    });
  });
});
