import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { JobIndex, JobSearchFilter } from '../../search/job-index.js';

export type { JobSearchFilter } from '../../search/job-index.js';

const TRANSLATED_FIELDS = [
  'title', 'subtitle', 'description', 'duty', 'minimum_qualification', 'preferred_qualification',
  'benefit', 'hire_process', 'hire_notes',
] as const;

export type JobRow = Awaited<ReturnType<JobRepository['findByIds']>>[number];
export type JobTranslationRow = Awaited<ReturnType<JobRepository['translationsOf']>>[number];

/** All SQL of jobs; searches go to the job index (search/job-index.ts). */
export class JobRepository {
  constructor(private readonly db: Kysely<DB>, readonly index: JobIndex) {}

  /**
   * The exact total and one page of ids of the jobs hiring at `filter.now`, and the span of time around it in
   * which that holds without a write (between the last and the next time a job starts or stops hiring).
   */
  search(filter: JobSearchFilter): Promise<{ total: number; ids: number[]; validFrom: number; validUntil: number }> {
    return this.index.search(filter);
  }

  async findByIds(ids: number[]) {
    if (ids.length === 0) return [];
    return this.db.selectFrom('jobs')
      .innerJoin('companies', 'companies.id', 'jobs.company_id')
      .select([
        'jobs.id', 'jobs.job_type', 'jobs.status', 'jobs.title', 'jobs.subtitle', 'jobs.job_category', 'jobs.work_type',
        'jobs.allow_remote', 'jobs.language', 'jobs.description', 'jobs.duty', 'jobs.minimum_qualification',
        'jobs.preferred_qualification', 'jobs.benefit', 'jobs.hire_process', 'jobs.hire_notes', 'jobs.apply_type',
        'jobs.apply_url', 'jobs.start_at', 'jobs.end_at', 'jobs.created_at',
        'companies.handle as company_handle', 'companies.name as company_name', 'companies.logo_url as company_logo_url',
        'companies.industry as company_industry', 'companies.size as company_size',
      ])
      .where('jobs.id', 'in', ids)
      .execute();
  }

  async senioritiesOf(ids: number[]) {
    if (ids.length === 0) return [];
    return this.db.selectFrom('job_seniorities').select(['job_id', 'seniority']).where('job_id', 'in', ids).execute();
  }

  async employmentTypesOf(ids: number[]) {
    if (ids.length === 0) return [];
    return this.db.selectFrom('job_employment_types').select(['job_id', 'employment_type']).where('job_id', 'in', ids).execute();
  }

  async imagesOf(ids: number[]) {
    if (ids.length === 0) return [];
    return this.db.selectFrom('job_images').select(['job_id', 'media_key']).where('job_id', 'in', ids)
      .orderBy('job_id').orderBy('position').execute();
  }

  async translationsOf(ids: number[], language: string) {
    if (ids.length === 0) return [];
    return this.db.selectFrom('job_translations').select(['job_id', ...TRANSLATED_FIELDS])
      .where('job_id', 'in', ids).where('language', '=', language).execute();
  }

}
