/**
 * Facet counts (docs/decisions.md "Search results") through HTTP on both engines: each count equal to counting the
 * rows of the tables, the query's own filter on a facet left out, companies cut to the most frequent, and the
 * envelope exactly the contract's without the parameter. Also the exact job count above 10,000.
 */
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../src/db/schema.js';
import { FACET_TOP, mostFirst, type FacetCount } from '../src/search/facet-counts.js';
import { EMPLOYMENT_TYPES, SENIORITIES } from '../src/shared/catalog-data.js';
import { holdsCode } from './helpers/job-codes.js';
import { createTestApp, TEST_NOW, type TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';

interface Page {
  totalItems: number;
  items: unknown[];
  facets?: Record<string, FacetCount[]>;
}

/** More companies than a company facet shows, each with some of the posts, jobs and events. */
const EXTRA_COMPANIES = FACET_TOP + 8;

/** Rows grouped by value and counted: the truth a facet is compared with. */
const counted = (
  rows: Array<{ value: string | number; count: number | string | bigint }>,
  top?: number,
): FacetCount[] =>
  mostFirst(
    rows.map((r) => ({ value: String(r.value), count: Number(r.count) })).filter((r) => r.count > 0),
    top,
  );

describe.each(ENGINES)('facet counts on %s', (engine) => {
  let t: TestContext;
  let db: Kysely<DB>;

  beforeAll(async () => {
    t = await createTestApp(engine, {
      // Enough jobs that more than 10,000 are hiring at TEST_NOW.
      demoCounts: { jobs: 18_000, events: 300 },
      prepare: async (database) => {
        const trx = database.db;
        for (let i = 0; i < EXTRA_COMPANIES; i++) {
          const { id } = await trx
            .insertInto('companies')
            .values({
              handle: `facet-co-${i}`,
              name: `Facet Co ${i}`,
              industry: 'IT_SOFTWARE',
              size: 'SMALL',
              certificated: 0,
              logo_url: null,
              created_at: TEST_NOW,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          // Company i takes a share of the rows that grows with i, so the cut at FACET_TOP is by count.
          const share = (column: string) =>
            sql<boolean>`(${sql.ref(column)} * 7919) % 1000 < ${(i + 1) * 3} and (${sql.ref(column)} * 7919) % 1000 >= ${i * 3}`;
          await trx.updateTable('jobs').set({ company_id: id }).where(share('id')).execute();
          await trx
            .updateTable('posts')
            .set({ author_company_id: id })
            .where('author_company_id', 'is not', null)
            .where(share('id'))
            .execute();
        }
      },
    });
    db = t.db.database.db;
  }, 300_000);
  afterAll(async () => {
    await t?.close();
  });

  const search = async (path: string): Promise<Page> => {
    const res = await t.get(path);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Page;
  };

  // --- the truths, counted from the tables -------------------------------------------------------------------

  const hiringJobs = () =>
    db
      .selectFrom('jobs')
      .where('jobs.status', '=', 'published')
      .where('jobs.start_at', '<=', TEST_NOW)
      .where((eb) => eb.or([eb('jobs.end_at', 'is', null), eb('jobs.end_at', '>', TEST_NOW)]));
  const count = sql<number>`count(*)`.as('count');

  async function jobTruth(where: { jobCategory?: string; workType?: string; seniority?: string }) {
    let jobs = hiringJobs();
    if (where.jobCategory) jobs = jobs.where('jobs.job_category', '=', where.jobCategory);
    if (where.workType) jobs = jobs.where('jobs.work_type', '=', where.workType);
    if (where.seniority) {
      jobs = jobs.where(holdsCode('jobs.seniorities', where.seniority));
    }
    const byCode = async (column: 'jobs.seniorities' | 'jobs.employment_types', codes: readonly string[]) =>
      counted(
        await Promise.all(
          codes.map(async (value) => ({
            value,
            count: (await jobs.where(holdsCode(column, value)).select(count).executeTakeFirstOrThrow()).count,
          })),
        ),
      );
    return {
      total: Number((await jobs.select(count).executeTakeFirstOrThrow()).count),
      jobCategories: counted(
        await jobs.select(['jobs.job_category as value', count]).groupBy('jobs.job_category').execute(),
      ),
      workTypes: counted(await jobs.select(['jobs.work_type as value', count]).groupBy('jobs.work_type').execute()),
      companySizes: counted(
        await jobs
          .innerJoin('companies', 'companies.id', 'jobs.company_id')
          .select(['companies.size as value', count])
          .groupBy('companies.size')
          .execute(),
      ),
      companyId: counted(
        await jobs
          .innerJoin('companies', 'companies.id', 'jobs.company_id')
          .select(['companies.handle as value', count])
          .groupBy('companies.handle')
          .execute(),
        FACET_TOP,
      ),
      seniorities: await byCode('jobs.seniorities', SENIORITIES),
      employmentTypes: await byCode('jobs.employment_types', EMPLOYMENT_TYPES),
    };
  }

  // --- jobs ----------------------------------------------------------------------------------------------------

  it('counts every job facet as the tables do, and the exact total above 10,000', async () => {
    const page = await search(
      '/api/v1/jobs?facets=companyId,jobCategories,seniorities,employmentTypes,companySizes,workTypes',
    );
    const truth = await jobTruth({});
    expect(truth.total).toBeGreaterThan(10_000);
    expect(page.totalItems).toBe(truth.total);
    const { total, ...facets } = truth;
    expect(page.facets).toEqual(facets);
    expect(page.facets!.companyId).toHaveLength(FACET_TOP);
    // Single-valued facets add up to the total when the query does not filter on them.
    for (const name of ['jobCategories', 'workTypes', 'companySizes'] as const) {
      expect(page.facets![name]!.reduce((sum, c) => sum + c.count, 0)).toBe(total);
    }
  });

  it("leaves out a facet's own filter and keeps the others", async () => {
    const page = await search(
      '/api/v1/jobs?jobCategories=dataAi&workTypes=REMOTE&facets=jobCategories,workTypes,seniorities',
    );
    const filtered = await jobTruth({ jobCategory: 'dataAi', workType: 'REMOTE' });
    expect(page.totalItems).toBe(filtered.total);
    expect(page.facets).toEqual({
      jobCategories: (await jobTruth({ workType: 'REMOTE' })).jobCategories,
      workTypes: (await jobTruth({ jobCategory: 'dataAi' })).workTypes,
      seniorities: filtered.seniorities,
    });
    const dataAi = page.facets!.jobCategories!.find((c) => c.value === 'dataAi');
    expect(dataAi?.count).toBe(page.totalItems);
  });

  it("counts a keyword search: each value's count is the total of the search filtered by it", async () => {
    const page = await search(
      `/api/v1/jobs?keyword=${encodeURIComponent('개발')}&seniorities=SENIOR&facets=jobCategories,seniorities,companyId`,
    );
    expect(page.totalItems).toBeGreaterThan(0);
    for (const { value, count: n } of page.facets!.jobCategories!) {
      expect(
        (await search(`/api/v1/jobs?keyword=${encodeURIComponent('개발')}&seniorities=SENIOR&jobCategories=${value}`))
          .totalItems,
      ).toBe(n);
    }
    for (const { value, count: n } of page.facets!.seniorities!) {
      expect((await search(`/api/v1/jobs?keyword=${encodeURIComponent('개발')}&seniorities=${value}`)).totalItems).toBe(
        n,
      );
    }
    for (const { value, count: n } of page.facets!.companyId!.slice(0, 5)) {
      expect(
        (await search(`/api/v1/jobs?keyword=${encodeURIComponent('개발')}&seniorities=SENIOR&companyId=${value}`))
          .totalItems,
      ).toBe(n);
    }
  });

  it('answers as the contract does without the parameter, and refuses an unknown facet', async () => {
    const page = await search('/api/v1/jobs?jobCategories=dataAi');
    expect(Object.keys(page).sort()).toEqual(['items', 'page', 'pageSize', 'totalItems', 'totalPages']);
    for (const path of [
      '/api/v1/jobs?facets=hasImages',
      '/api/v1/posts?facets=workTypes',
      '/api/v1/events?facets=jobCategories',
    ]) {
      const res = await t.get(path);
      expect(res.statusCode, path).toBe(400);
      expect(res.json(), path).toMatchObject({ code: 'C0005' });
      expect(res.json().message, path).toContain('facets');
    }
  });

  it('counts the other companies when the company asked for does not exist, and nothing for a keyword with nothing searchable', async () => {
    const unknown = await search('/api/v1/jobs?companyId=no-such-company&facets=companyId,workTypes');
    expect(unknown.totalItems).toBe(0);
    expect(unknown.facets!.workTypes).toEqual([]);
    expect(unknown.facets!.companyId).toEqual((await jobTruth({})).companyId);
    const nothing = await search('/api/v1/jobs?keyword=!!!&facets=workTypes,workTypes');
    expect(nothing).toMatchObject({ totalItems: 0, facets: { workTypes: [] } });
  });

  // --- posts ---------------------------------------------------------------------------------------------------

  it('counts post facets as the tables do, in a time window and with a filter of its own', async () => {
    const after = TEST_NOW - 60 * 86_400_000;
    const page = await search(
      `/api/v1/posts?hasImages=true&postedAfter=${new Date(after).toISOString()}&facets=companyId,hasImages,hasOg`,
    );
    const posts = () => db.selectFrom('posts').where('posted_at', '>=', after);
    const flag = async (column: 'image_count' | 'has_og', withImagesOnly: boolean) => {
      const base = withImagesOnly ? posts().where('image_count', '>', 0) : posts();
      const rows = await base
        .select([sql<string>`case when ${sql.ref(column)} > 0 then 'true' else 'false' end`.as('value'), count])
        .groupBy(sql`case when ${sql.ref(column)} > 0 then 'true' else 'false' end`)
        .execute();
      return counted(rows);
    };
    expect(page.totalItems).toBe(
      Number((await posts().where('image_count', '>', 0).select(count).executeTakeFirstOrThrow()).count),
    );
    expect(page.facets).toEqual({
      companyId: counted(
        await posts()
          .where('image_count', '>', 0)
          .innerJoin('companies', 'companies.id', 'posts.author_company_id')
          .select(['companies.handle as value', count])
          .groupBy('companies.handle')
          .execute(),
        FACET_TOP,
      ),
      hasImages: await flag('image_count', false),
      hasOg: await flag('has_og', true),
    });
    expect(page.facets!.hasImages!.map((c) => c.value).sort()).toEqual(['false', 'true']);
  });

  // --- events --------------------------------------------------------------------------------------------------

  it("counts event facets as the tables do, leaving out the facet's own filter", async () => {
    const page = await search('/api/v1/events?categories=CONFERENCE&facets=companyId,categories,subjects,openTypes');
    const events = () => db.selectFrom('events').where('events.status', '=', 'published');
    const inCategory = () =>
      events().where((eb) =>
        eb.exists(
          eb
            .selectFrom('event_categories')
            .select('event_id')
            .whereRef('event_id', '=', 'events.id')
            .where('category', '=', 'CONFERENCE'),
        ),
      );
    expect(page.totalItems).toBeGreaterThan(0);
    expect(page.totalItems).toBe(Number((await inCategory().select(count).executeTakeFirstOrThrow()).count));
    expect(page.facets).toEqual({
      companyId: counted(
        await inCategory()
          .innerJoin('companies', 'companies.id', 'events.company_id')
          .select(['companies.handle as value', count])
          .groupBy('companies.handle')
          .execute(),
        FACET_TOP,
      ),
      categories: counted(
        await db
          .selectFrom('event_categories')
          .select(['category as value', count])
          .where('event_id', 'in', events().select('events.id'))
          .groupBy('category')
          .execute(),
      ),
      subjects: counted(
        await db
          .selectFrom('event_subjects')
          .select(['subject as value', count])
          .where('event_id', 'in', inCategory().select('events.id'))
          .groupBy('subject')
          .execute(),
      ),
      openTypes: counted(
        await inCategory()
          .select(['events.event_open_type as value', count])
          .groupBy('events.event_open_type')
          .execute(),
      ),
    });
  });
});
