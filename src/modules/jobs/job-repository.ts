import type { Kysely } from 'kysely';
import type { LongReads } from '../../db/database.js';
import type { DialectAdapter, IndexQuery } from '../../db/dialects/dialect-adapter.js';
import type { DB } from '../../db/schema.js';
import { ALL_IDS, BoundedSearch, idsInKeyOrder, type IndexVersion } from '../../search/bounded-search.js';
import { FACETS } from '../../search/search-documents.js';
import { relevance } from '../../search/search-text.js';

export interface JobSearchFilter {
  /** Keyword terms (search-text.ts queryTerms), all required; null without a keyword. */
  terms: string[] | null;
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

const TRANSLATED_FIELDS = [
  'title', 'subtitle', 'description', 'duty', 'minimum_qualification', 'preferred_qualification',
  'benefit', 'hire_process', 'hire_notes',
] as const;

export type JobRow = Awaited<ReturnType<JobRepository['findByIds']>>[number];
export type JobTranslationRow = Awaited<ReturnType<JobRepository['translationsOf']>>[number];

/** All SQL of jobs. */
export class JobRepository {
  private readonly index: BoundedSearch;
  private readonly byViews: BoundedSearch;

  /** `longReads` runs the search reads, off the main thread where the engine allows; `version` lets it keep counts. */
  constructor(private readonly db: Kysely<DB>, adapter: DialectAdapter, private readonly longReads: LongReads, version?: IndexVersion) {
    this.index = new BoundedSearch(db, adapter, longReads, 'job_search', version);
    this.byViews = new BoundedSearch(db, adapter, longReads, 'job_search_popular', version);
  }

  /** The filter as a full-text query over the hiring jobs: keyword terms, and one facet group per filter (its values ORed). */
  indexQuery(filter: JobSearchFilter): IndexQuery {
    const all = (filter.terms ?? []).map((t) => [t]);
    if (filter.companyId !== undefined) all.push([FACETS.company(filter.companyId)]);
    const groups: Array<[string[] | undefined, (code: string) => string]> = [
      [filter.jobCategories, FACETS.jobCategory], [filter.seniorities, FACETS.seniority], [filter.employmentTypes, FACETS.employmentType],
      [filter.companySizes, FACETS.companySize], [filter.workTypes, FACETS.workType],
    ];
    for (const [values, token] of groups) if (values?.length) all.push(values.map(token));
    if (all.length === 0) all.push([FACETS.all]);
    return { all, none: [] };
  }

  /**
   * The total (exact up to 10,000) and one page of job ids. The index holds the hiring jobs only, in
   * recruiting-start order (DATE_DESC, and RELEVANCE_DESC among equals).
   */
  async search(filter: JobSearchFilter): Promise<{ total: number; ids: number[] }> {
    const query = this.indexQuery(filter);
    const total = await this.index.count(query, ALL_IDS);
    if (total === 0 || filter.offset >= total) return { total, ids: [] };
    if (filter.order === 'popularity') return { total, ids: await this.popularPage(query, filter) };
    const keys = filter.terms && filter.order === 'rank'
      ? await this.index.rankedPage(query, ALL_IDS, filter.limit, filter.offset, (candidates) => this.scores(candidates, filter.terms!))
      : await this.index.newest(query, ALL_IDS, filter.limit, filter.offset);
    return { total, ids: await this.idsOfKeys(keys) };
  }

  /** POPULARITY_DESC: a walk from the top of the jobs indexed by views (the same documents as the first index). */
  private async popularPage(query: IndexQuery, filter: JobSearchFilter): Promise<number[]> {
    const keys = await this.byViews.newest(query, ALL_IDS, filter.limit, filter.offset);
    if (keys.length === 0) return [];
    return idsInKeyOrder(keys, await this.db.selectFrom('jobs').select(['id', 'popularity_key as key']).where('popularity_key', 'in', keys).execute());
  }

  /** Job ids of search keys, in the keys' order. */
  private async idsOfKeys(keys: number[]): Promise<number[]> {
    if (keys.length === 0) return [];
    return idsInKeyOrder(keys, await this.db.selectFrom('jobs').select(['id', 'search_key as key']).where('search_key', 'in', keys).execute());
  }

  /** The relevance of each candidate (by search key) to the keyword: title, subtitle, description and their translations. */
  private async scores(keys: number[], terms: string[]): Promise<Map<number, number>> {
    const rows = await this.longReads(this.db.selectFrom('jobs').select(['id', 'search_key', 'title', 'subtitle', 'description']).where('search_key', 'in', keys));
    const translations = rows.length
      ? await this.longReads(this.db.selectFrom('job_translations').select(['job_id', 'title', 'subtitle', 'description']).where('job_id', 'in', rows.map((r) => r.id)))
      : [];
    const texts = new Map<number, string[]>(rows.map((r) => [r.id, [r.title, r.subtitle, r.description]]));
    for (const t of translations) texts.get(t.job_id)?.push(t.title, t.subtitle, t.description);
    return new Map(rows.map((r) => [Number(r.search_key), relevance(terms, texts.get(r.id)!)]));
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
