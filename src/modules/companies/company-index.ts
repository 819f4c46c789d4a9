/**
 * What company search is (docs/companies.md): every company, its name, handle, description, translations and
 * industries' names as text; its industries, size, funding stage, founding year and place as facets, in creation
 * order, and by name for NAME. Whether a company is hiring is not the company's: the job index counts it at the moment
 * of each search (company-service.ts), and the search takes those companies as a filter and as the first in order.
 * The engine (search/search-index.ts) does the rest; the companies are read from the tables by
 * company-search-repository.ts.
 */
import path from 'node:path';
import { DataVersion } from '../../cache/data-version.js';
import type { Database } from '../../db/database.js';
import { FACET_TOP } from '../../search/facet-counts.js';
import { FACET_KIND, FACETS } from '../../search/fields.js';
import type { IndexLog } from '../../search/live-index.js';
import { nearFilter, type Near } from '../../search/near-filter.js';
import {
  anyOf,
  SearchIndex,
  type Declaration,
  type FacetRule,
  type Filter,
  type ItemList,
} from '../../search/search-index.js';
import type { QueryWord } from '../../search/search-text.js';
import { companySearchRows } from './company-search-repository.js';

/** The company search parameters that facet counts can be asked for (the `facets` parameter). */
export const COMPANY_FACETS = ['industries', 'companySizes', 'fundingStages', 'countries', 'regions'] as const;
export type CompanyFacet = (typeof COMPANY_FACETS)[number];

export interface CompanySearchFilter {
  /** Keyword terms (search-text.ts queryTerms), all required; null without a keyword. */
  terms: string[] | null;
  /** The keyword's words, when its typos are tolerated (typo-tolerance.ts). */
  typoWords?: QueryWord[];
  industries?: string[];
  companySizes?: string[];
  fundingStages?: string[];
  countries?: string[];
  regions?: string[];
  near?: Near;
  foundedFrom?: number;
  foundedTo?: number;
  /** Companies hiring (true) or not (false): `list` holds the ids of those hiring at the moment of the search. */
  hiring?: { is: boolean; list: ItemList };
  /** `hiring`: the companies hiring now first, most hiring jobs first (`first`), then the rest newest first. */
  order: 'rank' | 'newest' | 'name' | 'hiring';
  /** With the `hiring` order: the hiring companies' ids, most hiring jobs first. */
  first?: ItemList;
  limit: number;
  offset: number;
  facets?: readonly CompanyFacet[];
}

/** The numbers a company document carries besides its creation time, in IndexedItem.extra's order. */
export const COMPANY_NUMBERS = ['latitude', 'longitude', 'name1', 'name2', 'name3'] as const;

/** The founding years a company search spans, as year tokens: the years the index holds that are within them. */
function foundedWithin(from: number | undefined, to: number | undefined): Filter | undefined {
  if (from === undefined && to === undefined) return undefined;
  const low = from ?? 1800;
  const high = to ?? 2100;
  const years: number[] = [];
  for (let year = Math.max(low, 1800); year <= Math.min(high, 2100); year++) years.push(year);
  // Nothing can match an empty span: a token no company holds.
  return { any: years.length ? years.map(FACETS.foundedYear) : [FACETS.foundedYear(-1)] };
}

export const COMPANY_SEARCH: Declaration<CompanySearchFilter> = {
  kind: 'company',
  name: 'companies',
  numbers: COMPANY_NUMBERS,
  facets: {
    industries: { kind: FACET_KIND.industry, top: FACET_TOP },
    companySizes: { kind: FACET_KIND.companySize },
    fundingStages: { kind: FACET_KIND.fundingStage },
    countries: { kind: FACET_KIND.country },
    regions: { kind: FACET_KIND.region, top: FACET_TOP },
  } satisfies Record<CompanyFacet, FacetRule>,
  orders: { name: ['name1', 'name2', 'name3'] },
  suggestions: [{ kind: FACET_KIND.companyName, type: 'COMPANY' }],
  query: (filter) => ({
    terms: filter.terms,
    typoWords: filter.typoWords,
    filters: {
      industries: anyOf(filter.industries, FACETS.industry),
      companySizes: anyOf(filter.companySizes, FACETS.companySize),
      fundingStages: anyOf(filter.fundingStages, FACETS.fundingStage),
      countries: anyOf(filter.countries, FACETS.country),
      regions: anyOf(filter.regions, FACETS.region),
      near: filter.near && nearFilter(filter.near, { latitude: 0, longitude: 1 }),
      founded: foundedWithin(filter.foundedFrom, filter.foundedTo),
    },
    items: filter.hiring && { list: filter.hiring.list, keep: filter.hiring.is },
    order: filter.order === 'hiring' ? 'newest' : filter.order,
    first: filter.order === 'hiring' ? filter.first : undefined,
    limit: filter.limit,
    offset: filter.offset,
    facets: filter.facets,
  }),
};

/** Where an instance keeps the company index's saved copy. */
export const companyIndexCopy = (dataDir: string): string => path.join(dataDir, 'search-index', 'companies.idx');

/** The company index of an instance (or of a command, or a test): the engine over the company declaration and the companies' rows. */
export class CompanyIndex extends SearchIndex<CompanySearchFilter> {
  constructor(
    database: Pick<Database, 'db' | 'reads'>,
    version: { read(): Promise<number> } = new DataVersion(database.reads, 'companies'),
    copyFile: string | null = null,
    log?: IndexLog,
  ) {
    super(COMPANY_SEARCH, database.db, companySearchRows(database.db), version, copyFile, log);
  }
}
