/**
 * Migration 024: a job's seniorities and employment types move from two tables into its own row. Jobs stored
 * before it keep their codes, in catalog order; the service reads, filters and counts them from the row.
 */
import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../src/db/migrate.js';
import { databasesAt } from './helpers/database-at.js';
import { serviceOn } from './helpers/migrated-service.js';
import { ENGINES } from './helpers/test-database.js';

const BEFORE = '2026-11-27-023-post-images-covering-index';
const NOW = Date.parse('2026-11-21T03:00:00Z');
const DAY = 86_400_000;

describe.each(ENGINES)('migration 024 on %s', (engine) => {
  const openBefore024 = databasesAt(engine, BEFORE);

  it("carries every job's codes into its row in catalog order, drops the two tables, and the service reads, filters and counts them", async () => {
    const database = await openBefore024();
    const db = database.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    const insert = (table: string, row: Record<string, unknown>) => db.insertInto(table).values(row).execute();
    const { id: companyId } = (await db
      .insertInto('companies')
      .values({ handle: 'old-co', name: 'Old Co', industry: 'IT_SOFTWARE', size: 'SMALL', created_at: NOW })
      .returning('id')
      .executeTakeFirstOrThrow()) as { id: number };
    const job = async (title: string, seniorities: string[], types: string[]) => {
      const { id } = (await db
        .insertInto('jobs')
        .values({
          company_id: companyId,
          job_type: 'PLATFORM',
          status: 'published',
          title,
          job_category: 'dev',
          work_type: 'ONSITE',
          language: 'ko',
          apply_type: 'PLATFORM',
          created_at: NOW,
          updated_at: NOW,
          start_at: NOW - DAY,
          end_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow()) as { id: number };
      // Inserted out of catalog order: the order a table returns them in is not the one responses show.
      for (const seniority of seniorities) await insert('job_seniorities', { job_id: id, seniority });
      for (const type of types) await insert('job_employment_types', { job_id: id, employment_type: type });
      return Number(id);
    };
    const many = await job(
      '여러 코드 공고 numbat',
      ['EXECUTIVE', 'BEGINNER', 'SENIOR'],
      ['SELF_EMPLOYED', 'FULL_TIME', 'INTERN'],
    );
    const one = await job('한 코드 공고 numbat', ['JUNIOR'], ['FIXED_TERM']);
    const none = await job('코드 없는 공고 numbat', [], []);

    expect(await migrateToLatest(database)).toEqual([
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

    expect(
      (
        await sql<{ id: number | string }>`SELECT id, seniorities, employment_types FROM jobs ORDER BY id`.execute(db)
      ).rows.map((r) => ({ ...r, id: Number(r.id) })),
    ).toEqual([
      { id: many, seniorities: 'BEGINNER,SENIOR,EXECUTIVE', employment_types: 'FULL_TIME,INTERN,SELF_EMPLOYED' },
      { id: one, seniorities: 'JUNIOR', employment_types: 'FIXED_TERM' },
      { id: none, seniorities: '', employment_types: '' },
    ]);
    for (const table of ['job_seniorities', 'job_employment_types'])
      await expect(sql`SELECT 1 FROM ${sql.table(table)}`.execute(db)).rejects.toThrow();

    const { app, get } = await serviceOn(database, NOW);
    try {
      expect(await get(`/api/v1/jobs/${many}`)).toMatchObject({
        seniorities: ['BEGINNER', 'SENIOR', 'EXECUTIVE'],
        employmentTypes: ['FULL_TIME', 'INTERN', 'SELF_EMPLOYED'],
      });
      expect(await get(`/api/v1/jobs/${none}`)).toMatchObject({ seniorities: [], employmentTypes: [] });
      expect(await get('/api/v1/jobs?keyword=numbat&seniorities=SENIOR,JUNIOR&order=RECENT')).toMatchObject({
        totalItems: 2,
        items: [{ jobId: one, seniorities: ['JUNIOR'], employmentTypes: ['FIXED_TERM'] }, { jobId: many }],
      });
      const counted = await get('/api/v1/jobs?keyword=numbat&facets=seniorities,employmentTypes');
      expect(counted.totalItems).toBe(3);
      expect(counted.facets.seniorities).toEqual(
        expect.arrayContaining([
          { value: 'BEGINNER', count: 1 },
          { value: 'JUNIOR', count: 1 },
          { value: 'SENIOR', count: 1 },
          { value: 'EXECUTIVE', count: 1 },
        ]),
      );
      expect(counted.facets.seniorities).toHaveLength(4);
      expect(counted.facets.employmentTypes).toHaveLength(4);
    } finally {
      await app.close();
    }
  });
});
