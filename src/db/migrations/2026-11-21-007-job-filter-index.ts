import type { Kysely, Migration } from 'kysely';

/**
 * One index holding every column a job search filters on within the hiring window, so the exact count of
 * a filtered job search is read from the index alone: the rows of jobs are wide (the posting's texts),
 * and fetching each candidate row to check its work type and end was most of the cost of such a count.
 */
export function jobFilterIndex(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex('jobs_hiring_filters')
        .on('jobs')
        .columns(['status', 'job_category', 'work_type', 'start_at', 'end_at', 'company_id'])
        .execute();
    },
  };
}
