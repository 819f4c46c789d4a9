/**
 * What profile search is (docs/profiles.md): the public profiles of members whose accounts are in use, as
 * profile-document.ts makes them, in creation order, and by when they last changed for RECENT. A profile made private,
 * a member disabled, or a profile deleted leaves the index at the next search on every instance: its change is in the
 * search log, and the source (profile-search-repository.ts) no longer returns it.
 */
import path from 'node:path';
import { DataVersion } from '../../cache/data-version.js';
import type { Database } from '../../db/database.js';
import { FACET_TOP } from '../../search/facet-counts.js';
import { FACET_KIND, FACETS } from '../../search/fields.js';
import type { IndexLog } from '../../search/live-index.js';
import { nearPointsFilter, type Near } from '../../search/near-filter.js';
import { anyOf, flag, SearchIndex, type Declaration, type FacetRule } from '../../search/search-index.js';
import type { QueryWord } from '../../search/search-text.js';
import { profileSearchRows } from './profile-search-repository.js';

/** The profile search parameters that facet counts can be asked for (the `facets` parameter). */
export const PROFILE_FACETS = ['skills', 'companyId', 'countries', 'regions', 'openToWork'] as const;
export type ProfileFacet = (typeof PROFILE_FACETS)[number];

export interface ProfileSearchFilter {
  /** Keyword terms (search-text.ts queryTerms), all required; null without a keyword. */
  terms: string[] | null;
  typoWords?: QueryWord[];
  skills?: string[];
  /** Company ids (the handles asked for, found in the directory). */
  companyIds?: number[];
  countries?: string[];
  regions?: string[];
  near?: Near;
  openToWork?: boolean;
  order: 'rank' | 'updated';
  limit: number;
  offset: number;
  facets?: readonly ProfileFacet[];
}

/** The numbers a profile document carries besides its creation time, in IndexedItem.extra's order. */
export const PROFILE_NUMBERS = ['updated'] as const;

export const PROFILE_SEARCH: Declaration<ProfileSearchFilter> = {
  kind: 'profile',
  name: 'profiles',
  numbers: PROFILE_NUMBERS,
  facets: {
    skills: { kind: FACET_KIND.skill, top: FACET_TOP },
    companyId: { kind: FACET_KIND.company, top: FACET_TOP },
    countries: { kind: FACET_KIND.country },
    regions: { kind: FACET_KIND.region, top: FACET_TOP },
    openToWork: { kind: FACET_KIND.openToWork, flag: true },
  } satisfies Record<ProfileFacet, FacetRule>,
  orders: { updated: 'updated' },
  suggestions: [{ kind: FACET_KIND.skill, type: 'SKILL' }],
  query: (filter) => ({
    terms: filter.terms,
    typoWords: filter.typoWords,
    filters: {
      skills: anyOf(filter.skills, FACETS.skill),
      companyId: anyOf(filter.companyIds?.map(String), (id) => FACETS.company(Number(id))),
      countries: anyOf(filter.countries, FACETS.country),
      regions: anyOf(filter.regions, FACETS.region),
      near: filter.near && nearPointsFilter(filter.near, FACET_KIND.point),
      openToWork: flag(filter.openToWork, FACETS.openToWork),
    },
    // Without a keyword, RELEVANCE lists the newest profiles first, as every search does.
    order: filter.order,
    limit: filter.limit,
    offset: filter.offset,
    facets: filter.facets,
  }),
};

/** Where an instance keeps the profile index's saved copy. */
export const profileIndexCopy = (dataDir: string): string => path.join(dataDir, 'search-index', 'profiles.idx');

/** The profile index of an instance (or of a command, or a test). */
export class ProfileIndex extends SearchIndex<ProfileSearchFilter> {
  constructor(
    database: Pick<Database, 'db' | 'reads'>,
    version: { read(): Promise<number> } = new DataVersion(database.reads, 'profiles'),
    copyFile: string | null = null,
    log?: IndexLog,
  ) {
    super(PROFILE_SEARCH, database.db, profileSearchRows(database.db), version, copyFile, log);
  }
}
