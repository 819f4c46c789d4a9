import { ApiError } from '../../shared/api-error.js';
import type { Links } from '../../shared/links.js';
import { translationLanguage, type Locale } from '../../shared/locale.js';
import { toUtcIso } from '../../shared/time.js';
import { inIdOrder } from '../../shared/group.js';
import { pageOf, withCorrection, type PageResult } from '../../schemas/common.js';
import { noMatchFacets } from '../../search/facet-counts.js';
import { highlightsOf } from '../../search/highlights.js';
import { ItemList, type Searchable, type UnderwayCounts } from '../../search/search-index.js';
import { queryTerms, queryWords } from '../../search/search-text.js';
import type { CodeService } from '../codes/code-service.js';
import { jsonColumn } from '../posts/post-reads.js';
import { locationOf, nearPoint } from '../jobs/job-place-and-pay.js';
import { RADIUS_KM } from '../jobs/job-schemas.js';
import { industriesOf } from './company-document.js';
import type { CompanySearchFilter } from './company-index.js';
import type { CompanyRepository, CompanySummaryRow } from './company-repository.js';
import type {
  CompanyDetailDto,
  CompanySearchQueryInput,
  CompanySuggestionDto,
  CompanySummaryDto,
} from './company-schemas.js';

/** What company reads need of the job index: the jobs hiring at a moment, counted by company. */
export interface HiringJobs {
  underwayCounts(facet: 'companyId', now: number, version?: number | null): Promise<UnderwayCounts>;
}

/** The hiring companies' ids, most hiring jobs first (then the highest id), kept per count, named for it. */
const hiringOrder = new WeakMap<UnderwayCounts, ItemList>();
let hiringCounted = 0;
function mostHiringFirst(hiring: UnderwayCounts): ItemList {
  let order = hiringOrder.get(hiring);
  if (!order) {
    const ids = [...hiring.counts]
      .sort(([a, ca], [b, cb]) => cb - ca || Number(b) - Number(a))
      .map(([id]) => Number(id));
    // Each count is a new object, and a new name: a search kept under an earlier count is never taken for this one.
    order = new ItemList(ids, `hiring-${++hiringCounted}`);
    hiringOrder.set(hiring, order);
  }
  return order;
}

const needs = (name: string, other: string) =>
  new ApiError('C0005', `Query parameter "${name}" is only taken with "${other}"`, name);

/**
 * Company search and reads (docs/companies.md). A company's `hiringJobCount` is what job search finds for it now: the
 * job index counts the jobs hiring at the moment of the request, so every answer holds until a job next starts or
 * stops hiring (`validUntil`).
 */
export class CompanyService {
  constructor(
    private readonly companies: CompanyRepository,
    private readonly index: Searchable<CompanySearchFilter>,
    /** The companies data version: a search is kept under the version it read (search-cache.ts). */
    private readonly version: { read(): Promise<number> },
    private readonly jobs: HiringJobs,
    private readonly codes: CodeService,
    private readonly links: Links,
    private readonly clock: () => number,
  ) {}

  /** `jobsVersion`: the jobs data version this request read at its start (representation-cache.ts dataVersionOf). */
  async search(
    query: CompanySearchQueryInput,
    locale: Locale,
    jobsVersion: number,
  ): Promise<{ page: PageResult<CompanySummaryDto>; validUntil: number }> {
    const { page, pageSize } = query;
    this.codes.requireCodes('query', 'industries', 'job-industries', query.industries);
    if (query.foundedFrom !== undefined && query.foundedTo !== undefined && query.foundedFrom > query.foundedTo)
      throw new ApiError(
        'C0005',
        `Query parameter "foundedFrom" must not be after "foundedTo" (${query.foundedFrom} > ${query.foundedTo})`,
        'foundedFrom',
      );
    if (query.near === undefined && query.radiusKm !== undefined) throw needs('radiusKm', 'near');
    const hiring = await this.jobs.underwayCounts('companyId', this.clock(), jobsVersion);
    const keyword = query.keyword?.trim() ?? '';
    const terms = keyword === '' ? null : queryTerms(keyword);
    if (terms !== null && terms.length === 0)
      return {
        page: pageOf<CompanySummaryDto>([], 0, page, pageSize, noMatchFacets(query.facets)),
        validUntil: hiring.validUntil,
      };
    const order = ({ RELEVANCE: 'rank', HIRING_DESC: 'hiring', NAME: 'name', RECENT: 'newest' } as const)[
      query.sort ?? 'RELEVANCE'
    ];
    const filter: CompanySearchFilter = {
      terms,
      industries: query.industries,
      companySizes: query.companySizes,
      fundingStages: query.fundingStages,
      countries: query.countries,
      regions: query.regions,
      foundedFrom: query.foundedFrom,
      foundedTo: query.foundedTo,
      order,
      limit: pageSize,
      offset: (page - 1) * pageSize,
      facets: query.facets && [...new Set(query.facets)],
    };
    if (query.typoTolerance && terms !== null) filter.typoWords = queryWords(keyword);
    if (query.near !== undefined)
      filter.near = { ...nearPoint(query.near), radiusKm: query.radiusKm ?? RADIUS_KM.default };
    if (query.hiring !== undefined) filter.hiring = { is: query.hiring, list: mostHiringFirst(hiring) };
    if (order === 'hiring') filter.first = mostHiringFirst(hiring);
    const { total, ids, facets, didYouMean, corrections } = await this.index.search(filter, await this.version.read());
    const rows = inIdOrder(ids, await this.companies.items(ids, translationLanguage(locale)));
    const items = rows.map((row) => this.summaryOf(row, locale, hiring));
    const matched = new Set([...(terms ?? []), ...(corrections ?? [])]);
    // Why each matched: its name and description.
    const highlighted = query.highlight
      ? items.map((item) => ({
          ...item,
          highlights: highlightsOf(
            [
              ['name', item.name],
              ['description', item.description],
            ],
            matched,
          ),
        }))
      : items;
    return {
      page: withCorrection(pageOf(highlighted, total, page, pageSize, facets), didYouMean),
      validUntil: hiring.validUntil,
    };
  }

  /** The company of `handle`, and the moment its `hiringJobCount` may next change (`jobsVersion` null: the latest). */
  async detail(
    handle: string,
    locale: Locale,
    jobsVersion: number | null,
  ): Promise<{ company: CompanyDetailDto; validUntil: number }> {
    const [row, hiring] = await Promise.all([
      this.companies.byHandle(handle, translationLanguage(locale)),
      this.jobs.underwayCounts('companyId', this.clock(), jobsVersion),
    ]);
    if (!row) throw new ApiError('C0008', `Company ${handle} does not exist`, 'companyId');
    const summary = this.summaryOf(row, locale, hiring);
    return {
      company: {
        ...summary,
        industries: industriesOf(row).map((code) => ({
          code,
          name: this.codes.displayName('job-industries', code, locale),
        })),
        links: jsonColumn<{ type: CompanyDetailDto['links'][number]['type']; url: string }>(row.links),
        offices: jsonColumn<CompanyDetailDto['offices'][number]>(row.offices),
        language: row.t_description !== null ? locale : (row.language ?? 'ko'),
        createdAt: toUtcIso(Number(row.created_at)),
        updatedAt: toUtcIso(Number(row.updated_at ?? row.created_at)),
      },
      validUntil: hiring.validUntil,
    };
  }

  /** Company names beginning with what the user has typed. */
  async suggestions(prefix: string, limit: number): Promise<CompanySuggestionDto[]> {
    const typed = prefix.trim();
    if (typed === '')
      throw new ApiError('C0005', 'Query parameter "prefix" must hold a letter or a digit, not only spaces', 'prefix');
    const { items } = await this.index.suggest(typed, limit, this.clock());
    return items as CompanySuggestionDto[];
  }

  private summaryOf(row: CompanySummaryRow, locale: Locale, hiring: UnderwayCounts): CompanySummaryDto {
    return {
      companyId: row.handle,
      name: row.name,
      logoUrl: this.links.image(row.logo_url),
      industry: row.industry,
      industryName: this.codes.displayName('job-industries', row.industry, locale),
      size: row.size as CompanySummaryDto['size'],
      description: row.t_description ?? row.description,
      location: locationOf(row),
      employeeCount: row.employee_count,
      foundedYear: row.founded_year,
      fundingStage: row.funding_stage as CompanySummaryDto['fundingStage'],
      website: row.website,
      hiringJobCount: hiring.counts.get(String(row.id)) ?? 0,
      certificated: row.certificated === 1,
      webUrl: this.links.company(row.handle),
    };
  }
}
