import { notFound } from '../../shared/api-error.js';
import { groupBy } from '../../shared/group.js';
import { VersionedTickBatch } from '../../shared/tick-batch.js';
import type { Links } from '../../shared/links.js';
import { TRANSLATED_LANGUAGES, type Locale } from '../../shared/locale.js';
import { toUtcIso } from '../../shared/time.js';
import { pageOf, type PageResult } from '../../schemas/common.js';
import { VersionedCache, type DataVersion } from '../../cache/data-version.js';
import { NO_COMPANY, noMatchFacets, withCompanyHandles } from '../../search/facet-counts.js';
import { SearchCache } from '../../search/search-cache.js';
import { isHiring } from '../../search/search-documents.js';
import { queryTerms } from '../../search/search-text.js';
import type { AccountsRepository } from '../accounts/accounts-repository.js';
import type { CodeService } from '../codes/code-service.js';
import type { JobRepository, JobRow, JobSearchFilter, JobTranslationRow } from './job-repository.js';
import { SENIORITIES, type JobDetailDto, type JobSearchQueryInput, type JobSummaryDto } from './job-schemas.js';


type Seniority = (typeof SENIORITIES)[number];
type Size = JobSummaryDto['company']['size'];
type WorkType = JobSummaryDto['workType'];

interface Hydrated {
  row: JobRow;
  summary: JobSummaryDto;
  text: ReturnType<typeof textOf>;
  images: string[];
}

/** The memory the read cache of jobs (by language, with and without images, and id; ~5 KB each) may hold. */
const CACHED_JOBS_BYTES = 8 * 1024 * 1024;

export class JobService {
  private readonly cache: SearchCache;
  /**
   * Jobs as the API shows them, by language and id, under the jobs data version. Nothing in them depends
   * on the time of the request: `hiring` is worked out from the row at each request.
   */
  private readonly items = new VersionedCache<Hydrated>(CACHED_JOBS_BYTES);

  constructor(
    private readonly jobs: JobRepository,
    private readonly accounts: AccountsRepository,
    private readonly codes: CodeService,
    private readonly links: Links,
    private readonly clock: () => number,
    private readonly versions: DataVersion,
  ) {
    this.cache = new SearchCache(versions);
  }

  /** The page, and the moment it stops being current (the next time a job starts or stops hiring). */
  async search(query: JobSearchQueryInput, locale: Locale): Promise<{ page: PageResult<JobSummaryDto>; validUntil: number }> {
    const { page, pageSize } = query;
    const facetNames = query.facets && [...new Set(query.facets)];
    this.codes.requireCodes('jobCategories', 'job-categories', query.jobCategories);
    this.codes.requireCodes('employmentTypes', 'employment-types', query.employmentTypes);

    const keyword = query.keyword?.trim() ?? '';
    const terms = keyword === '' ? null : queryTerms(keyword);
    if (terms !== null && terms.length === 0) {
      return { page: pageOf<JobSummaryDto>([], 0, page, pageSize, noMatchFacets(facetNames)), validUntil: Number.POSITIVE_INFINITY };
    }

    const filter: JobSearchFilter = {
      terms,
      jobCategories: query.jobCategories,
      seniorities: query.seniorities,
      employmentTypes: query.employmentTypes,
      companySizes: query.companySizes,
      workTypes: query.workTypes,
      now: this.clock(),
      order: query.sort === 'DATE_DESC' ? 'date' : query.sort === 'POPULARITY_DESC' ? 'popularity' : 'rank',
      limit: pageSize,
      offset: (page - 1) * pageSize,
      facets: facetNames,
    };
    if (query.companyId) filter.companyId = await this.accounts.companyIdByHandle(query.companyId) ?? NO_COMPANY;
    const { now, ...withoutNow } = filter;
    // Results change when a job opens or closes: a cached page holds between the last such moment and the next.
    const { total, ids, version, validUntil, facets } = await this.cache.get(JSON.stringify(withoutNow), now, () => this.jobs.search(filter));
    const [hydrated, named] = await Promise.all([
      this.hydrate(ids, locale, false, version), withCompanyHandles(facets, (companyIds) => this.accounts.companyHandles(companyIds)),
    ]);
    return { page: pageOf(hydrated.map(({ summary }) => summary), total, page, pageSize, named), validUntil };
  }

  /** Every job except drafts and deleted ones (published, finished and expired are all returned). */
  /** The job, and the moment it stops being current (when `hiring` turns). */
  async detail(jobId: number, locale: Locale): Promise<{ job: JobDetailDto; validUntil: number }> {
    const version = await this.versions.read();
    const job = await this.detailBatch.load(version, locale, jobId);
    if (!job || (job.row.status !== 'published' && job.row.status !== 'finish')) throw notFound.job(jobId);
    const { row, summary, text, images } = job;
    const now = this.clock();
    return { job: this.detailOf(row, summary, text, images, now), validUntil: nextHiringTurn(row, now) };
  }

  /** Jobs read for details in one turn of the event loop, loaded together per version and language. */
  private readonly detailBatch = new VersionedTickBatch(async (ids, locale, version) =>
    new Map((await this.hydrate(ids, locale, true, version)).map((job) => [job.row.id, job])));

  private detailOf(row: JobRow, summary: JobSummaryDto, text: Hydrated['text'], images: string[], now: number): JobDetailDto {
    return {
      jobId: row.id,
      status: row.status as 'published' | 'finish',
      hiring: isHiring(row, now),
      title: summary.title,
      seniorities: summary.seniorities,
      employmentTypes: summary.employmentTypes,
      jobImages: images,
      allowRemote: row.allow_remote === 1,
      company: summary.company,
      applyMethod: row.apply_type === 'OUTLINK' && row.apply_url
        ? { type: 'OUTLINK', url: row.apply_url }
        : { type: 'PLATFORM', url: `${this.links.job(row.id)}/apply` },
      webUrl: summary.webUrl,
      createdAt: toUtcIso(row.created_at),
      subtitle: summary.subtitle,
      jobCategory: row.job_category,
      workType: summary.workType,
      language: text.language,
      description: text.description,
      duty: text.duty,
      minimumQualification: text.minimum_qualification,
      preferredQualification: text.preferred_qualification,
      benefit: text.benefit,
      hireProcess: text.hire_process,
      hireNotes: text.hire_notes,
      startAt: toUtcIso(row.start_at ?? row.created_at),
      endAt: row.end_at === null ? null : toUtcIso(row.end_at),
    };
  }

  /** The jobs of `ids` that exist, in that order: from the cache of `version`, the rest loaded and cached. */
  private async hydrate(ids: number[], locale: Locale, withImages: boolean, version: number): Promise<Hydrated[]> {
    return this.items.getMany(version, ids, (id) => `${locale}|${withImages ? 'i' : ''}|${id}`, (job) => job.row.id,
      (missing) => this.load(missing, locale, withImages));
  }

  /** Loads jobs with their codes, translation and images in a fixed number of queries, in `ids` order. */
  private async load(ids: number[], locale: Locale, withImages: boolean): Promise<Hydrated[]> {
    if (ids.length === 0) return [];
    const [rows, seniorities, employmentTypes, translations, images] = await Promise.all([
      this.jobs.findByIds(ids),
      this.jobs.senioritiesOf(ids),
      this.jobs.employmentTypesOf(ids),
      TRANSLATED_LANGUAGES.has(locale) ? this.jobs.translationsOf(ids, locale) : Promise.resolve([]),
      withImages ? this.jobs.imagesOf(ids) : Promise.resolve([]),
    ]);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const senioritiesByJob = groupBy(seniorities, (s) => s.job_id);
    const typesByJob = groupBy(employmentTypes, (t) => t.job_id);
    const translationByJob = new Map(translations.map((t) => [t.job_id, t]));
    const imagesByJob = groupBy(images, (i) => i.job_id);
    const typeOrder = this.codes.codesOf('employment-types');

    return ids.flatMap((id) => {
      const row = byId.get(id);
      if (!row) return [];
      const translation = row.language !== locale ? translationByJob.get(id) : undefined;
      const text = textOf(row, translation, locale);
      const summary: JobSummaryDto = {
        jobId: row.id,
        title: text.title,
        seniorities: (senioritiesByJob.get(id) ?? []).map((s) => s.seniority as Seniority)
          .sort((a, b) => SENIORITIES.indexOf(a) - SENIORITIES.indexOf(b)),
        employmentTypes: (typesByJob.get(id) ?? []).map((t) => t.employment_type)
          .sort((a, b) => typeOrder.indexOf(a) - typeOrder.indexOf(b)),
        company: {
          name: row.company_name,
          id: row.company_handle,
          logoUrl: this.links.image(row.company_logo_url),
          industry: row.company_industry,
          size: row.company_size as Size,
        },
        webUrl: this.links.job(row.id),
        subtitle: text.subtitle,
        jobCategory: row.job_category,
        workType: row.work_type as WorkType,
        endAt: row.end_at === null ? null : toUtcIso(row.end_at),
      };
      const jobImages = (imagesByJob.get(id) ?? []).map((i) => this.links.image(i.media_key)!);
      return [{ row, summary, text, images: jobImages }];
    });
  }

}

/** When `isHiring` next changes for this job (Infinity when it never will). */
function nextHiringTurn(job: { status: string; start_at: number | null; end_at: number | null }, now: number): number {
  if (job.status !== 'published' || job.start_at === null) return Number.POSITIVE_INFINITY;
  if (job.start_at > now) return job.start_at;
  return job.end_at !== null && job.end_at > now ? job.end_at : Number.POSITIVE_INFINITY;
}

function textOf(row: JobRow, translation: JobTranslationRow | undefined, locale: Locale) {
  const source = translation ?? row;
  return {
    language: translation ? locale : row.language,
    title: source.title,
    subtitle: source.subtitle,
    description: source.description,
    duty: source.duty,
    minimum_qualification: source.minimum_qualification,
    preferred_qualification: source.preferred_qualification,
    benefit: source.benefit,
    hire_process: source.hire_process,
    hire_notes: source.hire_notes,
  };
}
