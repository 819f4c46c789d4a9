import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../src/db/migrate.js';
import { CODE_RENAMES } from '../src/db/migrations/2026-11-25-019-real-service-codes.js';
import { jsonPart, multipart } from './helpers/multipart.js';
import { createTestApp, type TestContext } from './helpers/test-app.js';
import { serviceOn } from './helpers/migrated-service.js';
import { databasesAt } from './helpers/database-at.js';
import { ENGINES } from './helpers/test-database.js';
import { accessToken, bearer } from './helpers/tokens.js';

const BEFORE = '2026-11-24-018-console-reveals';
const NOW = Date.parse('2026-11-21T03:00:00Z');
const DAY = 86_400_000;

describe.each(ENGINES)("the real service's codes on %s", (engine) => {
  describe('migration 019: data stored with the old codes', () => {
    const openBefore019 = databasesAt(engine, BEFORE);

    it('carries every stored code to the new one (the documented table), and the service reads, filters and counts in the new codes', async () => {
      const database = await openBefore019();
      const db = database.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
      const insert = (table: string, row: Record<string, unknown>) => db.insertInto(table).values(row).execute();
      // The catalogs as migration 002 seeded them before 019 (old codes), which 019 must replace.
      await db.deleteFrom('code_labels').execute();
      await db.deleteFrom('code_entries').execute();
      await insert('code_entries', { catalog: 'employment-types', code: 'CONTRACT', position: 0 });
      await insert('code_labels', {
        catalog: 'employment-types',
        code: 'CONTRACT',
        locale: 'ko',
        display_name: '계약직',
      });
      const company = async (handle: string, industry: string) =>
        (
          (await db
            .insertInto('companies')
            .values({ handle, name: handle, industry, size: 'SMALL', created_at: NOW })
            .returning('id')
            .executeTakeFirstOrThrow()) as { id: number }
        ).id;
      const health = await company('old-health', 'HEALTHCARE');
      await company('old-soft', 'IT_SOFTWARE');
      const job = async (title: string, category: string, types: string[]) => {
        const { id } = (await db
          .insertInto('jobs')
          .values({
            company_id: health,
            job_type: 'PLATFORM',
            status: 'published',
            title,
            job_category: category,
            work_type: 'ONSITE',
            language: 'ko',
            apply_type: 'PLATFORM',
            created_at: NOW,
            updated_at: NOW,
            start_at: NOW - DAY,
            end_at: Date.parse('2026-12-24T15:00:00Z'),
          })
          .returning('id')
          .executeTakeFirstOrThrow()) as { id: number };
        for (const type of types) await insert('job_employment_types', { job_id: id, employment_type: type });
        return id;
      };
      // CONTRACT and PART_TIME both become FIXED_TERM: the job keeps one.
      const both = await job('옛 계약 공고 quokka', 'SOFTWARE_ENGINEERING', ['FULL_TIME', 'CONTRACT', 'PART_TIME']);
      await job('옛 운영 공고 quokka', 'OPERATIONS', ['FREELANCE']);
      await insert('events', {
        id: 'evt_codes',
        company_id: health,
        status: 'published',
        event_name: '옛 밋업',
        event_open_type: 'OFFLINE',
        start_at: Date.parse('2026-12-01T01:00:00Z'),
        end_at: Date.parse('2026-12-01T09:30:15Z'),
        language: 'ko',
        created_at: NOW,
        updated_at: NOW,
      });
      for (const category of ['MEETUP', 'WORKSHOP', 'WEBINAR'])
        await insert('event_categories', { event_id: 'evt_codes', category });
      for (const subject of ['DEVELOPMENT', 'AI', 'CAREER'])
        await insert('event_subjects', { event_id: 'evt_codes', subject });
      const epochBefore = (
        await sql<{ value: string }>`SELECT value FROM search_log_state WHERE name = 'epoch'`.execute(db)
      ).rows[0]!.value;

      expect(await migrateToLatest(database)).toEqual([
        '2026-11-25-019-real-service-codes',
        '2026-11-25-020-app-web-origins',
        '2026-11-25-021-change-events',
        '2026-11-25-022-webhooks',
        '2026-11-27-023-post-images-covering-index',
        '2026-11-27-024-job-codes-in-row',
        '2026-11-28-025-catalog-groups-and-descriptions',
        '2026-11-28-026-change-events-by-resource',
        '2026-11-28-027-webhook-test-deliveries',
        '2026-11-28-028-user-disabled',
        '2026-11-29-029-app-request-log',
        '2026-11-29-030-account-links',
        '2026-11-29-031-token-resource',
        '2026-12-01-032-dynamic-clients',
        '2026-12-01-033-client-registered-from',
        '2026-12-02-034-job-location-and-salary',
        '2026-12-07-035-event-search-index',
        '2026-12-07-036-company-directory',
        '2026-12-07-037-member-profiles',
      ]);

      expect((await sql`SELECT handle, industry FROM companies ORDER BY handle`.execute(db)).rows).toEqual([
        { handle: 'old-health', industry: 'MEDICAL_BIO' },
        { handle: 'old-soft', industry: 'IT_SOFTWARE' },
      ]);
      expect((await sql`SELECT title, job_category FROM jobs ORDER BY id`.execute(db)).rows).toEqual([
        { title: '옛 계약 공고 quokka', job_category: 'dev' },
        { title: '옛 운영 공고 quokka', job_category: 'manage' },
      ]);
      expect((await sql`SELECT employment_types FROM jobs WHERE id = ${both}`.execute(db)).rows).toEqual([
        { employment_types: 'FULL_TIME,FIXED_TERM' },
      ]);
      expect((await sql`SELECT category FROM event_categories ORDER BY category`.execute(db)).rows).toEqual([
        { category: 'CONFERENCE' },
        { category: 'NETWORKING' },
      ]);
      expect((await sql`SELECT subject FROM event_subjects ORDER BY subject`.execute(db)).rows).toEqual([
        { subject: 'BUSINESS' },
        { subject: 'TECHNOLOGY' },
      ]);
      expect(
        (
          await sql<{
            code: string;
          }>`SELECT code FROM code_entries WHERE catalog = 'employment-types' ORDER BY position`.execute(db)
        ).rows.map((r) => r.code),
      ).toEqual(['FULL_TIME', 'FIXED_TERM', 'COMMISSIONED', 'INTERN', 'FREELANCER', 'SELF_EMPLOYED']);
      // Index copies saved before hold facets of the old codes: the new epoch makes every instance rebuild.
      expect(
        (await sql<{ value: string }>`SELECT value FROM search_log_state WHERE name = 'epoch'`.execute(db)).rows[0]!
          .value,
      ).not.toBe(epochBefore);

      const { app, get } = await serviceOn(database, NOW);
      try {
        expect(await get(`/api/v1/jobs/${both}`)).toMatchObject({
          jobCategory: 'dev',
          employmentTypes: ['FULL_TIME', 'FIXED_TERM'],
          company: { industry: 'MEDICAL_BIO' },
          endAt: '2026-12-24T15:00:00.000Z',
        });
        const dev = await get(
          '/api/v1/jobs?keyword=quokka&jobCategories=dev&employmentTypes=FIXED_TERM&facets=jobCategories,employmentTypes',
        );
        expect(dev).toMatchObject({ totalItems: 1, items: [{ jobId: both, endAt: '2026-12-24T15:00' }] });
        const all = await get('/api/v1/jobs?keyword=quokka&facets=jobCategories,employmentTypes');
        expect(all.facets.jobCategories).toEqual(
          expect.arrayContaining([
            { value: 'dev', count: 1 },
            { value: 'manage', count: 1 },
          ]),
        );
        expect(all.facets.employmentTypes).toEqual(
          expect.arrayContaining([
            { value: 'FIXED_TERM', count: 1 },
            { value: 'FREELANCER', count: 1 },
          ]),
        );
        expect(await get('/api/v1/events/evt_codes')).toMatchObject({
          eventCategories: ['CONFERENCE', 'NETWORKING'],
          eventSubjects: ['TECHNOLOGY', 'BUSINESS'],
          startAt: '2026-12-01T01:00:00.000Z',
        });
        expect(await get('/api/v1/events?categories=NETWORKING&subjects=TECHNOLOGY')).toMatchObject({
          totalItems: 1,
          items: [{ eventId: 'evt_codes', startAt: '2026-12-01T01:00', endAt: '2026-12-01T09:30:15' }],
        });
      } finally {
        await app.close();
      }
    });
  });

  describe('old codes in requests', () => {
    let t: TestContext;
    beforeAll(async () => {
      t = await createTestApp(engine);
    });
    afterAll(async () => {
      await t?.close();
    });

    const oldCodes = Object.entries(CODE_RENAMES).flatMap(([, renames]) => Object.keys(renames));

    it.each([
      ['/api/v1/jobs', 'jobCategories', 'SOFTWARE_ENGINEERING', 'dev'],
      ['/api/v1/jobs', 'employmentTypes', 'CONTRACT', 'FIXED_TERM'],
      ['/api/v1/events', 'categories', 'MEETUP', 'NETWORKING'],
      ['/api/v1/events', 'eventCategories', 'WEBINAR', 'CONFERENCE'],
      ['/api/v1/events', 'subjects', 'DEVELOPMENT', 'TECHNOLOGY'],
      ['/api/v1/events', 'eventSubjects', 'CAREER', 'BUSINESS'],
    ])(
      '%s?%s=%s is 400 C0005 naming the parameter, the value and the accepted codes (%s among them)',
      async (route, parameter, old, accepted) => {
        const res = await t.get(`${route}?${parameter}=${old}`);
        expect(res.statusCode).toBe(400);
        const body = res.json();
        expect(body).toMatchObject({ code: 'C0005', details: parameter });
        expect(body.message).toContain(parameter);
        expect(body.message).toContain(`"${old}"`);
        expect(body.message).toContain(accepted);
      },
    );

    it('refuses an old code in a job body with 400 C0002 naming the field and the accepted codes, and stores nothing', async () => {
      expect(oldCodes).toContain('SOFTWARE_ENGINEERING');
      const token = await accessToken(t, 'job:write');
      const jobs = async () =>
        Number(
          (
            await t.db.database.db
              .selectFrom('jobs')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = await jobs();
      for (const [request, field, accepted] of [
        [{ jobCategory: 'SOFTWARE_ENGINEERING', employmentTypes: ['FULL_TIME'] }, 'request.jobCategory', 'dataAi'],
        [{ jobCategory: 'dev', employmentTypes: ['PART_TIME'] }, 'request.employmentTypes.0', 'FIXED_TERM'],
      ] as const) {
        const body = multipart([
          jsonPart({ jobTitle: '옛 코드', seniorities: ['JUNIOR'], jobBio: '본문', ...request }),
        ]);
        const res = await t.request({
          method: 'POST',
          url: '/api/v1/jobs/platform?companyId=acme-labs',
          headers: { ...body.headers, ...bearer(token) },
          payload: body.payload,
        });
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json()).toMatchObject({ code: 'C0002', details: field });
        expect(res.json().message).toContain(accepted);
      }
      expect(await jobs()).toBe(before);
    });
  });
});
