import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { LongReads } from '../../db/database.js';
import type { DialectAdapter, SearchMatch } from '../../db/dialects/dialect-adapter.js';
import type { DB } from '../../db/schema.js';
import type { SearchTerm } from '../../search/search-text.js';

export interface JobSearchFilter {
  terms: SearchTerm[] | null;
  companyId?: number;
  jobCategories?: string[];
  seniorities?: string[];
  employmentTypes?: string[];
  companySizes?: string[];
  workTypes?: string[];
  now: number;
  order: 'rank' | 'date' | 'popularity';
  limit: number;
  offset: number;
}

type JobQuery = SelectQueryBuilder<DB & { m: SearchMatch }, 'jobs' | 'm', object>;

const TRANSLATED_FIELDS = [
  'title', 'subtitle', 'description', 'duty', 'minimum_qualification', 'preferred_qualification',
  'benefit', 'hire_process', 'hire_notes',
] as const;

export type JobRow = Awaited<ReturnType<JobRepository['findByIds']>>[number];
export type JobTranslationRow = Awaited<ReturnType<JobRepository['translationsOf']>>[number];

/** All SQL of jobs. */
export class JobRepository {
  /** `longReads` runs the search counts and pages, which may cover many rows. */
  constructor(private readonly db: Kysely<DB>, private readonly adapter: DialectAdapter, private readonly longReads: LongReads) {}

  /** Actively hiring jobs (DECISIONS.md: published, started, not ended) matching every filter. */
  private filtered(filter: JobSearchFilter): JobQuery {
    // With a keyword the matches lead: CROSS JOIN keeps SQLite from walking jobs and probing the
    // full-text index once per row (seconds at 200k rows); PostgreSQL plans it as the inner join it is.
    const query0 = filter.terms
      ? this.db.selectFrom(this.adapter.searchMatches('job_search', filter.terms).as('m')).crossJoin('jobs').whereRef('jobs.id', '=', 'm.doc_id')
      : this.db.selectFrom('jobs');
    let query = query0 as unknown as JobQuery;
    query = query
      .where('jobs.status', '=', 'published')
      .where('jobs.start_at', '<=', filter.now)
      .where((eb) => eb.or([eb('jobs.end_at', 'is', null), eb('jobs.end_at', '>', filter.now)]));
    if (filter.companyId !== undefined) query = query.where('jobs.company_id', '=', filter.companyId);
    if (filter.jobCategories?.length) query = query.where('jobs.job_category', 'in', filter.jobCategories);
    if (filter.workTypes?.length) query = query.where('jobs.work_type', 'in', filter.workTypes);
    if (filter.seniorities?.length) {
      const values = filter.seniorities;
      query = query.where((eb) => eb.exists(eb.selectFrom('job_seniorities').select('job_seniorities.job_id')
        .whereRef('job_seniorities.job_id', '=', 'jobs.id').where('job_seniorities.seniority', 'in', values)));
    }
    if (filter.employmentTypes?.length) {
      const values = filter.employmentTypes;
      query = query.where((eb) => eb.exists(eb.selectFrom('job_employment_types').select('job_employment_types.job_id')
        .whereRef('job_employment_types.job_id', '=', 'jobs.id').where('job_employment_types.employment_type', 'in', values)));
    }
    if (filter.companySizes?.length) {
      const values = filter.companySizes;
      query = query.where('jobs.company_id', 'in', (eb) => eb.selectFrom('companies').select('companies.id').where('companies.size', 'in', values));
    }
    return query;
  }

  private pageQuery(filter: JobSearchFilter) {
    let query = this.filtered(filter).select('jobs.id');
    if (filter.order === 'rank' && filter.terms) query = query.orderBy('m.rank');
    else if (filter.order === 'popularity') query = query.orderBy('jobs.view_count', 'desc');
    else query = query.orderBy('jobs.start_at', 'desc');
    return query.orderBy('jobs.id', 'desc').limit(filter.limit).offset(filter.offset);
  }

  private countQuery(filter: JobSearchFilter) {
    return this.filtered(filter).select((eb) => eb.fn.countAll<number>().as('total'));
  }

  /** The search as SQL, for plan inspection. */
  compileSearch(filter: JobSearchFilter) {
    return { page: this.pageQuery(filter).compile(), count: this.countQuery(filter).compile() };
  }

  async search(filter: JobSearchFilter): Promise<{ total: number; ids: number[] }> {
    const [{ total } = { total: 0 }] = await this.longReads(this.countQuery(filter));
    if (Number(total) === 0 || filter.offset >= Number(total)) return { total: Number(total), ids: [] };
    const rows = await this.longReads(this.pageQuery(filter));
    return { total: Number(total), ids: rows.map((r) => r.id) };
  }

  /** The first moment after `now` at which a published job starts or stops hiring (Infinity when none). */
  async nextHiringChange(now: number): Promise<number> {
    const [starts, ends] = await Promise.all([
      this.db.selectFrom('jobs').select((eb) => eb.fn.min('start_at').as('next')).where('status', '=', 'published').where('start_at', '>', now).executeTakeFirst(),
      this.db.selectFrom('jobs').select((eb) => eb.fn.min('end_at').as('next')).where('status', '=', 'published').where('end_at', '>', now).executeTakeFirst(),
    ]);
    const candidates = [starts?.next, ends?.next].filter((v): v is number => v !== null && v !== undefined).map(Number);
    return candidates.length ? Math.min(...candidates) : Number.POSITIVE_INFINITY;
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
