/**
 * The repository the job index reads from (job-index.ts): the published jobs with a recruiting start in that order,
 * and those of some ids, with their codes, place and pay, as documents; and ids with their change times for the
 * index's check against the tables.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { ItemSource } from '../../search/live-index.js';
import type { IndexedItem } from '../../search/ordered-documents.js';
import { coordinatesOf, jobDocument, jobDocumentParts } from './job-document.js';
import { PLACE_AND_PAY_COLUMNS, yearlyRange } from './job-place-and-pay.js';

const JOB_COLUMNS = [
  'jobs.id',
  'jobs.updated_at',
  'jobs.title',
  'jobs.subtitle',
  'jobs.description',
  'jobs.status',
  'jobs.job_category',
  'jobs.work_type',
  'jobs.company_id',
  'companies.size as company_size',
  'companies.name as company_name',
  'jobs.start_at',
  'jobs.end_at',
  'jobs.view_count',
  'jobs.seniorities',
  'jobs.employment_types',
  ...PLACE_AND_PAY_COLUMNS.map((column) => `jobs.${column}` as const),
] as const;

/** The jobs as the search index takes them (job-index.ts): the published ones with a recruiting start, in (start, id) order. */
export function jobSearchRows(db: Kysely<DB>): ItemSource {
  const candidates = () =>
    db
      .selectFrom('jobs')
      .innerJoin('companies', 'companies.id', 'jobs.company_id')
      .select(JOB_COLUMNS)
      .where('jobs.status', '=', 'published')
      .where('jobs.start_at', 'is not', null);
  type Row = Awaited<ReturnType<ReturnType<typeof candidates>['execute']>>[number];
  const items = async (rows: Row[]): Promise<IndexedItem[]> => {
    if (rows.length === 0) return [];
    const parts = await jobDocumentParts(
      db,
      rows.map((r) => r.id),
    );
    return rows.map((job) => {
      const point = coordinatesOf(job);
      const pay = yearlyRange(job);
      return {
        id: job.id,
        time: Number(job.start_at),
        stamp: Number(job.updated_at),
        document: jobDocument(job, parts),
        extra: [
          job.end_at === null ? Number.POSITIVE_INFINITY : Number(job.end_at),
          job.view_count,
          point?.latitude ?? Number.NaN,
          point?.longitude ?? Number.NaN,
          pay?.[0] ?? Number.NaN,
          pay?.[1] ?? Number.NaN,
        ],
      };
    });
  };
  return {
    kind: 'job',
    extraColumns: 6,
    inOrder: async (after, limit) =>
      items(
        await candidates()
          .$if(after !== null, (q) =>
            q.where((eb) => eb(eb.refTuple('jobs.start_at', 'jobs.id'), '>', eb.tuple(after![0], after![1]))),
          )
          .orderBy('jobs.start_at')
          .orderBy('jobs.id')
          .limit(limit)
          .execute(),
      ),
    byIds: async (ids) => items(await candidates().where('jobs.id', 'in', ids).execute()),
    idsAfter: async (after, limit) =>
      (
        await db
          .selectFrom('jobs')
          .innerJoin('companies', 'companies.id', 'jobs.company_id')
          .select(['jobs.id', 'jobs.updated_at'])
          .where('jobs.status', '=', 'published')
          .where('jobs.start_at', 'is not', null)
          .where('jobs.id', '>', after)
          .orderBy('jobs.id')
          .limit(limit)
          .execute()
      ).map((row): [number, number] => [Number(row.id), Number(row.updated_at)]),
    count: async () =>
      Number(
        (
          await db
            .selectFrom('jobs')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('status', '=', 'published')
            .where('start_at', 'is not', null)
            .executeTakeFirstOrThrow()
        ).n,
      ),
  };
}
