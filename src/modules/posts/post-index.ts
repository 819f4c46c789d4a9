/**
 * What post search is (docs/search.md): the post's content and translations as text, its author's company and
 * whether it has images or a link card as facets, newest first by posting time. The engine (search/search-index.ts)
 * does the rest; the posts are read from the tables by the repository (post-search-repository.ts).
 */
import path from 'node:path';
import { DataVersion } from '../../cache/data-version.js';
import type { Database } from '../../db/database.js';
import { FACET_TOP } from '../../search/facet-counts.js';
import { FACET_KIND, FACETS } from '../../search/fields.js';
import type { IndexLog } from '../../search/live-index.js';
import {
  flag,
  indexQuery,
  SearchIndex,
  timeWindow,
  type Declaration,
  type FacetRule,
  type SearchResult,
} from '../../search/search-index.js';
import type { IndexQuery } from '../../search/posting-index.js';
import type { QueryWord } from '../../search/search-text.js';
import { postSearchRows } from './post-search-repository.js';

export { RELEVANCE_CANDIDATES } from '../../search/ranking.js';

/** The post search parameters that facet counts can be asked for (the `facets` parameter). */
export const POST_FACETS = ['companyId', 'hasImages', 'hasOg'] as const;
export type PostFacet = (typeof POST_FACETS)[number];

export interface PostSearchFilter {
  /** Keyword terms (search-text.ts queryTerms), all required; null without a keyword. */
  terms: string[] | null;
  authorCompanyId?: number;
  hasImages?: boolean;
  hasOg?: boolean;
  postedAfter?: number;
  postedBefore?: number;
  order: 'rank' | 'recent';
  limit: number;
  offset: number;
  /** Facets whose counts are wanted besides the page; company values are company ids. */
  facets?: readonly PostFacet[];
  /** The keyword's words, when its typos are tolerated (typo-tolerance.ts). */
  typoWords?: QueryWord[];
}

export type PostSearchResult = SearchResult;

export const POST_SEARCH: Declaration<PostSearchFilter> = {
  kind: 'post',
  name: 'posts',
  numbers: [],
  facets: {
    companyId: { kind: FACET_KIND.company, top: FACET_TOP },
    hasImages: { kind: FACET_KIND.postImages, flag: true },
    hasOg: { kind: FACET_KIND.postOg, flag: true },
  } satisfies Record<PostFacet, FacetRule>,
  query: (filter) => ({
    terms: filter.terms,
    typoWords: filter.typoWords,
    filters: {
      companyId: filter.authorCompanyId === undefined ? undefined : { any: [FACETS.company(filter.authorCompanyId)] },
      hasImages: flag(filter.hasImages, FACETS.postImages),
      hasOg: flag(filter.hasOg, FACETS.postOg),
    },
    window: timeWindow(filter.postedAfter, filter.postedBefore),
    order: filter.order === 'recent' ? 'newest' : 'rank',
    limit: filter.limit,
    offset: filter.offset,
    facets: filter.facets,
  }),
};

/** The filter's terms and facets as bitmap algebra (the benchmark's peers are asked the same). */
export const postIndexQuery = (filter: PostSearchFilter): IndexQuery => indexQuery(POST_SEARCH.query(filter));

/** Where an instance keeps the post index's saved copy: under DATA_DIR, its own on every machine. */
export const postIndexCopy = (dataDir: string): string => path.join(dataDir, 'search-index', 'posts.idx');

/** The post index of an instance (or of a command, or a test): the engine over the post declaration and the posts' rows. */
export class PostIndex extends SearchIndex<PostSearchFilter> {
  /** `copyFile`: where the instance keeps its saved copy (search/index-snapshot.ts); none: built from the tables. */
  constructor(
    database: Pick<Database, 'db' | 'reads' | 'longReads'>,
    version: { read(): Promise<number> } = new DataVersion(database.reads, 'posts'),
    copyFile: string | null = null,
    log?: IndexLog,
  ) {
    super(POST_SEARCH, database.db, postSearchRows(database), version, copyFile, log);
  }
}
