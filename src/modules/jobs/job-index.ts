/**
 * What job search is (docs/search.md): the published jobs with a recruiting start, their title, subtitle, description,
 * company and codes as text and facets, place and pay as cells, buckets and numbers, in recruiting-start order, each
 * hiring from its start to its end (a span: the engine places jobs against the moment of each search), and by views
 * for POPULARITY_DESC. The engine (search/search-index.ts) does the rest; the jobs are read from the tables by the
 * repository (job-search-repository.ts).
 */
import path from 'node:path';
import { DataVersion } from '../../cache/data-version.js';
import type { Database } from '../../db/database.js';
import { RoaringBitmap32, type Bitmap } from '../../search/bitmaps.js';
import { FACET_TOP } from '../../search/facet-counts.js';
import { FACET_KIND, FACETS } from '../../search/fields.js';
import type { IndexLog } from '../../search/live-index.js';
import { nearFilter } from '../../search/near-filter.js';
import { bucketOf } from '../../search/number-buckets.js';
import type { OrderedDocuments } from '../../search/ordered-documents.js';
import type { PostingIndex } from '../../search/posting-index.js';
import {
  anyOf,
  SearchIndex,
  type Declaration,
  type FacetRule,
  type Filter,
  type SearchResult,
} from '../../search/search-index.js';
import type { QueryWord } from '../../search/search-text.js';
import { jobSearchRows } from './job-search-repository.js';

/** The job search parameters that facet counts can be asked for (the `facets` parameter). */
export const JOB_FACETS = [
  'companyId',
  'jobCategories',
  'seniorities',
  'employmentTypes',
  'companySizes',
  'workTypes',
  'countries',
  'regions',
  'salary',
] as const;
export type JobFacet = (typeof JOB_FACETS)[number];

/** Jobs within a radius of a point, and whether REMOTE jobs match wherever they are. */
export interface NearFilter {
  latitude: number;
  longitude: number;
  radiusKm: number;
  includeRemote: boolean;
}

/** Jobs paying in a currency, with yearly amounts reaching `min` and starting at no more than `max`. */
export interface SalaryFilter {
  currency: string;
  min?: number;
  max?: number;
  includeUnstated: boolean;
}

export interface JobSearchFilter {
  /** Keyword terms (search-text.ts queryTerms), all required; null without a keyword. */
  terms: string[] | null;
  companyId?: number;
  jobCategories?: string[];
  seniorities?: string[];
  employmentTypes?: string[];
  companySizes?: string[];
  workTypes?: string[];
  countries?: string[];
  regions?: string[];
  near?: NearFilter;
  salary?: SalaryFilter;
  /** The moment whose hiring jobs are searched. */
  now: number;
  order: 'rank' | 'date' | 'popularity';
  limit: number;
  offset: number;
  /** Facets whose counts are wanted besides the page; company values are company ids. */
  facets?: readonly JobFacet[];
  /** The keyword's words, when its typos are tolerated (typo-tolerance.ts). */
  typoWords?: QueryWord[];
}

export type JobSearchResult = SearchResult & { validFrom: number; validUntil: number };

/** The numbers a job document carries besides its time (the recruiting start), in IndexedItem.extra's order. */
export const JOB_NUMBERS = ['end', 'views', 'latitude', 'longitude', 'payLow', 'payHigh'] as const;
const LATITUDE = JOB_NUMBERS.indexOf('latitude');
const LONGITUDE = JOB_NUMBERS.indexOf('longitude');
/** The yearly least and most it pays (NaN when it states none). */
const PAY_LOW = JOB_NUMBERS.indexOf('payLow');
const PAY_HIGH = JOB_NUMBERS.indexOf('payHigh');

/** `near` as cells, refined by distance; REMOTE jobs let in wherever they are with `includeRemote`, else kept out. */
function jobsNear(near: NearFilter | undefined): Filter | undefined {
  if (!near) return undefined;
  const remote = FACETS.workType('REMOTE');
  return nearFilter(
    near,
    { latitude: LATITUDE, longitude: LONGITUDE },
    near.includeRemote ? { also: remote } : { except: remote },
  );
}

export const JOB_SEARCH: Declaration<JobSearchFilter> = {
  kind: 'job',
  name: 'jobs',
  numbers: JOB_NUMBERS,
  facets: {
    companyId: { kind: FACET_KIND.company, top: FACET_TOP },
    jobCategories: { kind: FACET_KIND.jobCategory },
    seniorities: { kind: FACET_KIND.seniority },
    employmentTypes: { kind: FACET_KIND.employmentType },
    companySizes: { kind: FACET_KIND.companySize },
    workTypes: { kind: FACET_KIND.workType },
    countries: { kind: FACET_KIND.country },
    regions: { kind: FACET_KIND.region, top: FACET_TOP },
    salary: { kind: FACET_KIND.payRange },
  } satisfies Record<JobFacet, FacetRule>,
  ends: 'end',
  orders: { popularity: 'views' },
  suggestions: [
    { kind: FACET_KIND.title, type: 'TITLE' },
    { kind: FACET_KIND.companyName, type: 'COMPANY' },
    { kind: FACET_KIND.titleWord, type: 'KEYWORD' },
  ],
  query: (filter) => ({
    terms: filter.terms,
    typoWords: filter.typoWords,
    filters: {
      companyId: filter.companyId === undefined ? undefined : { any: [FACETS.company(filter.companyId)] },
      jobCategories: anyOf(filter.jobCategories, FACETS.jobCategory),
      seniorities: anyOf(filter.seniorities, FACETS.seniority),
      employmentTypes: anyOf(filter.employmentTypes, FACETS.employmentType),
      companySizes: anyOf(filter.companySizes, FACETS.companySize),
      workTypes: anyOf(filter.workTypes, FACETS.workType),
      countries: anyOf(filter.countries, FACETS.country),
      regions: anyOf(filter.regions, FACETS.region),
      near: jobsNear(filter.near),
      salary: filter.salary && {
        any: [
          FACETS.payCurrency(filter.salary.currency),
          ...(filter.salary.includeUnstated ? [FACETS.payUnstated] : []),
        ],
        refine: (docs, result) => refineSalary(docs, result, filter.salary!),
      },
    },
    phase: { now: filter.now, is: 'ONGOING' },
    order: filter.order === 'date' ? 'newest' : filter.order,
    limit: filter.limit,
    offset: filter.offset,
    facets: filter.facets,
  }),
};

/** The buckets (number-buckets.ts) of a pay bound kind that jobs of each currency hold, ascending; made again as new ones appear. */
const payBuckets = new WeakMap<PostingIndex, Map<string, { values: number; byCurrency: Map<string, number[]> }>>();
function bucketsHeld(index: PostingIndex, kind: string, currency: string): number[] {
  let kinds = payBuckets.get(index);
  if (!kinds) payBuckets.set(index, (kinds = new Map()));
  const values = index.facetValues(kind);
  let held = kinds.get(kind);
  if (held?.values !== values.size) {
    const byCurrency = new Map<string, number[]>();
    for (const value of values.keys()) {
      const [code, bucket] = value.split(':') as [string, string];
      let list = byCurrency.get(code);
      if (!list) byCurrency.set(code, (list = []));
      list.push(Number(bucket));
    }
    for (const list of byCurrency.values()) list.sort((a, b) => a - b);
    kinds.set(kind, (held = { values: values.size, byCurrency }));
  }
  return held.byCurrency.get(currency) ?? [];
}

/**
 * The exact rule of the pay bounds, which the buckets only approach: the jobs of the buckets beyond a bound dropped,
 * the amount of each job in the bound's own bucket checked. Removes from `result` in place.
 */
function refineSalary(docs: OrderedDocuments, result: Bitmap, salary: SalaryFilter): void {
  // The currency's jobs (and the unstated ones, when let in) are all that is left: drop those of the buckets beyond
  // the bound, then check the amounts of those in the bound's own bucket.
  const bound = (
    kind: string,
    token: (bucket: number) => string,
    edgeBucket: number,
    beyond: (bucket: number) => boolean,
    fails: (doc: number) => boolean,
  ) => {
    const dropped = bucketsHeld(docs.index, kind, salary.currency)
      .filter(beyond)
      .flatMap((b) => docs.index.posting(token(b)) ?? []);
    if (dropped.length > 0) result.andNotInPlace(dropped.length === 1 ? dropped[0]! : RoaringBitmap32.orMany(dropped));
    const edge = docs.index.posting(token(edgeBucket));
    if (!edge || result.isEmpty) return;
    const out = Array.from(RoaringBitmap32.and(result, edge).toUint32Array()).filter(fails);
    if (out.length > 0) result.removeMany(out);
  };
  const { min, max, currency } = salary;
  if (min !== undefined) {
    const at = bucketOf(min);
    bound(
      FACET_KIND.payHigh,
      (b) => FACETS.payHigh(currency, b),
      at,
      (b) => b < at,
      (doc) => docs.extra(doc, PAY_HIGH) < min,
    );
  }
  if (max !== undefined) {
    const at = bucketOf(max);
    bound(
      FACET_KIND.payLow,
      (b) => FACETS.payLow(currency, b),
      at,
      (b) => b > at,
      (doc) => docs.extra(doc, PAY_LOW) > max,
    );
  }
}

/** Where an instance keeps the job index's saved copy. */
export const jobIndexCopy = (dataDir: string): string => path.join(dataDir, 'search-index', 'jobs.idx');

/** The job index of an instance (or of a command, or a test): the engine over the job declaration and the jobs' rows. */
export class JobIndex extends SearchIndex<JobSearchFilter> {
  /** `clock`: the service's, for the moment whose hiring jobs are worked out at start (a search says its own). */
  constructor(
    database: Pick<Database, 'db' | 'reads'>,
    version: { read(): Promise<number> } = new DataVersion(database.reads, 'jobs'),
    copyFile: string | null = null,
    clock: () => number = Date.now,
    log?: IndexLog,
  ) {
    super(JOB_SEARCH, database.db, jobSearchRows(database.db), version, copyFile, log, clock);
  }

  /** The exact total and one page of job ids among the jobs hiring at `filter.now`, and the span that holds in. */
  override search(filter: JobSearchFilter, version: number | null = null): Promise<JobSearchResult> {
    return super.search(filter, version) as Promise<JobSearchResult>;
  }
}
