import { ApiError, notFound } from '../../shared/api-error.js';
import { rowFinder } from '../../db/prepared-reads.js';
import { inLocaleKey, type InLocale, TickBatch } from '../../shared/tick-batch.js';
import { inIdOrder } from '../../shared/group.js';
import type { Links } from '../../shared/links.js';
import { translationLanguage, type Locale } from '../../shared/locale.js';
import { toListDateTime, toUtcIso } from '../../shared/time.js';
import { pageOf, withCorrection, type PageResult } from '../../schemas/common.js';
import { VersionedCache } from '../../cache/versioned-cache.js';
import { NO_COMPANY, noMatchFacets, withCompanyHandles } from '../../search/facet-counts.js';
import { isHiring } from './job-document.js';
import { queryTerms, queryWords } from '../../search/search-text.js';
import { highlightsOf } from '../../search/highlights.js';
import type { AccountsRepository } from '../accounts/accounts-repository.js';
import type { CodeService } from '../codes/code-service.js';
import { jsonColumn } from '../posts/post-reads.js';
import { companyBriefOf } from './company-brief.js';
import { isCurrency, locationOf, nearPoint, salaryOf } from './job-place-and-pay.js';
import type { JobSearchFilter, NearFilter, SalaryFilter } from './job-index.js';
import type { Searchable } from '../../search/search-index.js';
import { jobCodesOf } from '../../shared/job-codes.js';
import type { JOB_TEXTS, JobDetailRow, JobItemRow } from './job-reads.js';
import type { JobRepository } from './job-repository.js';
import {
  RADIUS_KM,
  type JobDetailDto,
  type JobSearchQueryInput,
  type JobSuggestionDto,
  type JobSummaryDto,
} from './job-schemas.js';

type WorkType = JobSummaryDto['workType'];

/** A job detail as it is kept: everything but `hiring`, which depends on the time of the request. */
interface CachedDetail {
  row: JobDetailRow;
  dto: Omit<JobDetailDto, 'hiring'>;
}

/**
 * The memory the cache of job details may hold. A search page's items are not cached: read again, they
 * cost less than a cache of them did (docs/performance.md).
 */
const CACHED_DETAILS_BYTES = 4 * 1024 * 1024;

export class JobService {
  private readonly details = new VersionedCache<CachedDetail | null>(CACHED_DETAILS_BYTES);

  constructor(
    private readonly jobs: JobRepository,
    private readonly index: Searchable<JobSearchFilter>,
    private readonly accounts: AccountsRepository,
    private readonly codes: CodeService,
    private readonly links: Links,
    private readonly clock: () => number,
  ) {}

  /**
   * The page, and the moment it stops being current (the next time a job starts or stops hiring). `version`: the jobs
   * data version this request read at its start (representation-cache.ts dataVersionOf), as for every read here.
   */
  async search(
    query: JobSearchQueryInput,
    locale: Locale,
    version: number,
  ): Promise<{ page: PageResult<JobSummaryDto>; validUntil: number }> {
    const { page, pageSize } = query;
    this.codes.requireCodes('query', 'jobCategories', 'job-categories', query.jobCategories);

    const filter = await jobSearchFilter(query, this.clock(), (handle) => this.accounts.companyIdByHandle(handle));
    if (filter === null) {
      return {
        page: pageOf<JobSummaryDto>([], 0, page, pageSize, noMatchFacets(query.facets)),
        validUntil: Number.POSITIVE_INFINITY,
      };
    }
    // Results change when a job opens or closes: a page holds between the last such moment and the next.
    const found = await this.index.search(filter, version);
    const { total, ids, facets, didYouMean, corrections, validUntil = Number.POSITIVE_INFINITY } = found;
    const [summaries, named] = await Promise.all([
      this.hydrate(ids, locale),
      withCompanyHandles(facets, (companyIds) => this.accounts.companyHandles(companyIds)),
    ]);
    const hydrated = query.highlight
      ? await this.highlighted(summaries, new Set([...(filter.terms ?? []), ...(corrections ?? [])]), locale, version)
      : summaries;
    return { page: withCorrection(pageOf(hydrated, total, page, pageSize, named), didYouMean), validUntil };
  }

  /** The items with why they matched: their title, subtitle and description (read from the details, as shown there). */
  private async highlighted(
    items: JobSummaryDto[],
    terms: ReadonlySet<string>,
    locale: Locale,
    version: number,
  ): Promise<JobSummaryDto[]> {
    if (terms.size === 0) return items.map((item) => ({ ...item, highlights: [] }));
    const details = await Promise.all(items.map((item) => this.detail(item.jobId, locale, version)));
    return items.map((item, i) => ({
      ...item,
      highlights: highlightsOf(
        [
          ['title', item.title],
          ['subtitle', item.subtitle],
          ['description', details[i]!.job.description],
        ],
        terms,
      ),
    }));
  }

  /** Completions of a half-typed search among the jobs hiring now, and the moment they stop being current. */
  async suggestions(
    prefix: string,
    limit: number,
    version: number,
  ): Promise<{ items: JobSuggestionDto[]; validUntil: number }> {
    const typed = prefix.trim();
    if (typed === '')
      throw new ApiError('C0005', 'Query parameter "prefix" must hold a letter or a digit, not only spaces', 'prefix');
    const { items, validUntil } = await this.index.suggest(typed, limit, this.clock(), version);
    return { items: items as JobSuggestionDto[], validUntil };
  }

  /**
   * The job, and the moment it stops being current (when `hiring` turns). Every job except drafts and deleted
   * ones (published, finished and expired are all returned).
   */
  async detail(jobId: number, locale: Locale, version: number): Promise<{ job: JobDetailDto; validUntil: number }> {
    const key = inLocaleKey({ id: jobId, locale });
    let job = this.details.get(version, key);
    if (job === undefined) {
      job = (await this.detailBatch.load({ id: jobId, locale })) ?? null;
      this.details.set(version, key, job);
    }
    if (!job || (job.row.status !== 'published' && job.row.status !== 'finish')) throw notFound.job(jobId);
    const now = this.clock();
    return { job: { ...job.dto, hiring: isHiring(job.row, now) }, validUntil: nextHiringTurn(job.row, now) };
  }

  /** Details asked for in one turn of the event loop, whatever their locales, loaded together. */
  private readonly detailBatch = new TickBatch(inLocaleKey, async (wanted: InLocale[]) => {
    const find = rowFinder(
      await this.jobs.details(wanted.map(({ id, locale }) => ({ id, language: translationLanguage(locale) }))),
    );
    return wanted.map(({ id, locale }) => {
      const row = find(id, translationLanguage(locale));
      return row && this.detailOf(row, locale);
    });
  });

  private detailOf(row: JobDetailRow, locale: Locale): CachedDetail {
    const summary = this.summaryOf(row);
    const translated = row.t_title !== null;
    const text = (name: (typeof JOB_TEXTS)[number]) => (translated ? row[`t_${name}`] : row[name]) ?? '';
    return {
      row,
      dto: {
        jobId: row.id,
        status: row.status as 'published' | 'finish',
        title: summary.title,
        seniorities: summary.seniorities,
        employmentTypes: summary.employmentTypes,
        jobImages: jsonColumn<string>(row.images).map((key) => this.links.image(key)!),
        allowRemote: row.allow_remote === 1,
        company: summary.company,
        applyMethod:
          row.apply_type === 'OUTLINK' && row.apply_url
            ? { type: 'OUTLINK', url: row.apply_url }
            : { type: 'PLATFORM', url: `${this.links.job(row.id)}/apply` },
        webUrl: summary.webUrl,
        createdAt: toUtcIso(row.created_at),
        subtitle: summary.subtitle,
        jobCategory: row.job_category,
        workType: summary.workType,
        language: translated ? locale : row.language,
        description: text('description'),
        duty: text('duty'),
        minimumQualification: text('minimum_qualification'),
        preferredQualification: text('preferred_qualification'),
        benefit: text('benefit'),
        hireProcess: text('hire_process'),
        hireNotes: text('hire_notes'),
        startAt: toUtcIso(row.start_at ?? row.created_at),
        endAt: row.end_at === null ? null : toUtcIso(row.end_at),
        location: summary.location,
        salary: summary.salary,
      },
    };
  }

  /** The jobs of `ids` that exist, in that order, in `locale`: one statement reads them all. */
  private async hydrate(ids: number[], locale: Locale): Promise<JobSummaryDto[]> {
    return inIdOrder(ids, await this.jobs.items(ids, translationLanguage(locale))).map((row) => this.summaryOf(row));
  }

  private summaryOf(row: JobItemRow): JobSummaryDto {
    const translated = row.t_title !== null;
    return {
      jobId: row.id,
      title: translated ? row.t_title! : row.title,
      ...jobCodesOf(row),
      company: companyBriefOf(row, this.links),
      webUrl: this.links.job(row.id),
      subtitle: translated ? row.t_subtitle! : row.subtitle,
      jobCategory: row.job_category,
      workType: row.work_type as WorkType,
      endAt: row.end_at === null ? null : toListDateTime(row.end_at),
      location: locationOf(row),
      salary: salaryOf(row),
    };
  }
}

/** When `isHiring` next changes for this job (Infinity when it never will). */
function nextHiringTurn(job: { status: string; start_at: number | null; end_at: number | null }, now: number): number {
  if (job.status !== 'published' || job.start_at === null) return Number.POSITIVE_INFINITY;
  if (job.start_at > now) return job.start_at;
  return job.end_at !== null && job.end_at > now ? job.end_at : Number.POSITIVE_INFINITY;
}

const needs = (name: string, other: string) =>
  new ApiError('C0005', `Query parameter "${name}" is only taken with "${other}"`, name);

/** The radius filter of a search's `near`, `radiusKm` and `includeRemote`; undefined without `near`. */
function nearFilter(query: JobSearchQueryInput): NearFilter | undefined {
  if (query.near === undefined) {
    for (const name of ['radiusKm', 'includeRemote'] as const) if (query[name] !== undefined) throw needs(name, 'near');
    return undefined;
  }
  return {
    ...nearPoint(query.near),
    radiusKm: query.radiusKm ?? RADIUS_KM.default,
    includeRemote: query.includeRemote ?? false,
  };
}

/** The salary filter of a search; undefined without `salaryCurrency`, which `salaryMin` and `salaryMax` need. */
function salaryFilter(query: JobSearchQueryInput): SalaryFilter | undefined {
  const currency = query.salaryCurrency;
  if (currency === undefined) {
    for (const name of ['salaryMin', 'salaryMax', 'includeUnstatedSalary'] as const)
      if (query[name] !== undefined) throw needs(name, 'salaryCurrency');
    return undefined;
  }
  if (!isCurrency(currency))
    throw new ApiError(
      'C0005',
      `Query parameter "salaryCurrency" must be an ISO 4217 currency code, got ${JSON.stringify(currency)}`,
      'salaryCurrency',
    );
  if (query.salaryMin !== undefined && query.salaryMax !== undefined && query.salaryMin > query.salaryMax) {
    throw new ApiError(
      'C0005',
      `Query parameter "salaryMin" must not be above "salaryMax" (${query.salaryMin} > ${query.salaryMax})`,
      'salaryMin',
    );
  }
  return {
    currency,
    min: query.salaryMin,
    max: query.salaryMax,
    includeUnstated: query.includeUnstatedSalary ?? false,
  };
}

/**
 * The repository filter of a job search at `now`, or null when nothing can match (a keyword with no searchable
 * terms). The benchmark's read-floor and search-cost tools replay searches through it too, so they measure the
 * filters the service builds.
 */
export async function jobSearchFilter(
  query: JobSearchQueryInput,
  now: number,
  companyIdByHandle: (handle: string) => Promise<number | undefined>,
): Promise<JobSearchFilter | null> {
  const keyword = query.keyword?.trim() ?? '';
  const terms = keyword === '' ? null : queryTerms(keyword);
  if (terms !== null && terms.length === 0) return null;

  const filter: JobSearchFilter = {
    terms,
    jobCategories: query.jobCategories,
    seniorities: query.seniorities,
    employmentTypes: query.employmentTypes,
    companySizes: query.companySizes,
    workTypes: query.workTypes,
    now,
    order: query.sort === 'DATE_DESC' ? 'date' : query.sort === 'POPULARITY_DESC' ? 'popularity' : 'rank',
    limit: query.pageSize,
    offset: (query.page - 1) * query.pageSize,
    countries: query.countries,
    regions: query.regions,
    facets: query.facets && [...new Set(query.facets)],
  };
  if (query.typoTolerance && terms !== null) filter.typoWords = queryWords(keyword);
  const near = nearFilter(query);
  if (near) filter.near = near;
  const salary = salaryFilter(query);
  if (salary) filter.salary = salary;
  if (query.companyId) filter.companyId = (await companyIdByHandle(query.companyId)) ?? NO_COMPANY;
  return filter;
}
