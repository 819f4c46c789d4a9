/**
 * Post search served from the service's own index (docs/search.md): posting lists as compressed bitmaps over
 * document numbers given in posting order, so that RECENT is the bitmap read from its top, a time window is a
 * range of document numbers, and a count is the exact size of a bitmap. The same code serves SQLite and
 * PostgreSQL; the tables stay the truth, and the index is built from them.
 *
 * Kept true by the change log (search-changes.ts): before a search the instance reads the posts data version,
 * and when it moved, the posts the log names are read again. A post that arrives out of posting order (an
 * update keeps its posting time but gets a new document number; a clock behind another instance's) is
 * "displaced": it is ordered by its posting time explicitly, and enough of them make the index rebuild itself.
 */
import path from 'node:path';
import { DataVersion } from '../../cache/data-version.js';
import type { Database, LongReads } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import { groupBy } from '../../shared/group.js';
import { ServedIndex, type IndexLog, type ItemSource } from '../../search/live-index.js';
import { countFlag, countValues, FACET_TOP, type FacetCount, type FacetCounts } from '../../search/facet-counts.js';
import type { IndexedItem, OrderedDocuments } from '../../search/ordered-documents.js';
import { relevancePage, relevanceReach, tolerantRelevancePage } from '../../search/ranking.js';
import { alternativesOf, didYouMean, keywordMatches, type KeywordMatches } from '../../search/typo-tolerance.js';
import type { QueryWord } from '../../search/search-text.js';
import { withTemporaryBitmaps, type Bitmap } from '../../search/bitmaps.js';
import type { IndexQuery, PostingIndex } from '../../search/posting-index.js';
import { FACET_KIND, FACETS } from '../../search/fields.js';
import { postDocument } from './post-document.js';
import { inSpan } from '../../telemetry/trace-spans.js';

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
  /**
   * The keyword's words, when its typos are tolerated (typo-tolerance.ts): matches of their corrections follow the
   * exact ones, and a search that matches nothing exactly says the corrected keyword (`didYouMean`).
   */
  typoWords?: QueryWord[];
}

/** Each facet: the filter that is its own (left out when counting it: a menu counts the other values too), and its counts. */
const FACET_RULES: Record<
  PostFacet,
  { own: 'authorCompanyId' | 'hasImages' | 'hasOg'; count: (index: PostingIndex, matches: Bitmap) => FacetCount[] }
> = {
  companyId: {
    own: 'authorCompanyId',
    count: (index, matches) => countValues(index, matches, FACET_KIND.company, FACET_TOP),
  },
  hasImages: { own: 'hasImages', count: (index, matches) => countFlag(index, matches, FACET_KIND.postImages) },
  hasOg: { own: 'hasOg', count: (index, matches) => countFlag(index, matches, FACET_KIND.postOg) },
};

/** The filter as bitmap algebra: keyword terms and facets required, facets excluded for `false` filters. */
export function postIndexQuery(filter: PostSearchFilter): IndexQuery {
  const all = (filter.terms ?? []).map((t) => [t]);
  const none: string[] = [];
  if (filter.authorCompanyId !== undefined) all.push([FACETS.company(filter.authorCompanyId)]);
  for (const [wanted, token] of [
    [filter.hasImages, FACETS.postImages],
    [filter.hasOg, FACETS.postOg],
  ] as const) {
    if (wanted === true) all.push([token]);
    if (wanted === false) none.push(token);
  }
  return { all, none };
}

/** Where an instance keeps the post index's saved copy: under DATA_DIR, its own on every machine. */
export const postIndexCopy = (dataDir: string): string => path.join(dataDir, 'search-index', 'posts.idx');

/** What the index reads of a post (its translations besides). */
const POST_COLUMNS = [
  'id',
  'content',
  'image_count',
  'has_og',
  'author_company_id',
  'posted_at',
  'updated_at',
] as const;
type PostRow = Pick<
  DB['posts'],
  'content' | 'image_count' | 'has_og' | 'author_company_id' | 'posted_at' | 'updated_at'
> & {
  id: number;
};

/**
 * The posts as the index takes them: in posting order, with their texts and facets. A build reads them through
 * the long reads (SQLite: worker threads), so that the next batch is read while this one is tokenized; the changed
 * posts a sync reads, a few at a time, are read on the main connection.
 */
function postSource({ db, longReads }: Pick<Database, 'db' | 'longReads'>): ItemSource {
  const onMain: LongReads = async (query) => (await db.executeQuery(query.compile())).rows;
  const withTranslations = async (rows: PostRow[], read: LongReads): Promise<IndexedItem[]> => {
    if (rows.length === 0) return [];
    const translations = groupBy(
      await read(
        db
          .selectFrom('post_translations')
          .select(['post_id', 'content'])
          .where(
            'post_id',
            'in',
            rows.map((r) => r.id),
          ),
      ),
      (t) => t.post_id,
    );
    return rows.map((row) => {
      const own = (translations.get(row.id) ?? []).map((t) => t.content);
      return {
        id: row.id,
        time: Number(row.posted_at),
        stamp: Number(row.updated_at),
        document: postDocument(row, own),
      };
    });
  };
  return {
    kind: 'post',
    extraColumns: 0,
    inOrder: async (after, limit) =>
      withTranslations(
        await longReads(
          db
            .selectFrom('posts')
            .select(POST_COLUMNS)
            .$if(after !== null, (q) =>
              q.where((eb) => eb(eb.refTuple('posted_at', 'id'), '>', eb.tuple(after![0], after![1]))),
            )
            .orderBy('posted_at')
            .orderBy('id')
            .limit(limit),
        ),
        longReads,
      ),
    byIds: async (ids) =>
      withTranslations(await db.selectFrom('posts').select(POST_COLUMNS).where('id', 'in', ids).execute(), onMain),
    idsAfter: async (after, limit) =>
      (
        await db
          .selectFrom('posts')
          .select(['id', 'updated_at'])
          .where('id', '>', after)
          .orderBy('id')
          .limit(limit)
          .execute()
      ).map((row): [number, number] => [Number(row.id), Number(row.updated_at)]),
    count: async () =>
      Number(
        (
          await db
            .selectFrom('posts')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
  };
}

export class PostIndex extends ServedIndex {
  /** `copyFile`: where the instance keeps its saved copy (search/index-snapshot.ts); none: built from the tables. */
  constructor(
    database: Pick<Database, 'db' | 'reads' | 'longReads'>,
    version: { read(): Promise<number> } = new DataVersion(database.reads, 'posts'),
    copyFile: string | null = null,
    log?: IndexLog,
  ) {
    super(database.db, postSource(database), version, copyFile, log);
  }

  /** The exact total and one page of post ids, and the facet counts asked for. */
  search(filter: PostSearchFilter, version: number | null = null): Promise<PostSearchResult> {
    return inSpan('search index', { 'svc.index': 'posts' }, () => this.searchIndex(filter, version));
  }

  private async searchIndex(filter: PostSearchFilter, version: number | null): Promise<PostSearchResult> {
    const docs = await this.live.current(version);
    // Synchronous from here, so no write lands halfway; the bitmaps made on the way are freed at the end.
    return withTemporaryBitmaps(() => {
      const broad = broadPage(docs, filter);
      if (broad) return broad;
      const alternatives = filter.typoWords ? alternativesOf(docs.index, filter.typoWords) : null;
      const matches = keywordMatching(docs, filter, alternatives);
      const { result } = matches;
      const page =
        filter.terms && filter.order === 'rank'
          ? tolerantRelevancePage(docs, matches, filter.terms, filter.offset, filter.limit)
          : docs.newest(result, filter.offset, filter.limit);
      const found: PostSearchResult = { total: result.size, ids: page.map((doc) => docs.itemId(doc)) };
      if (matches.corrections.length) found.corrections = matches.corrections;
      if (filter.typoWords && matches.alternatives && matches.exact.isEmpty) {
        const corrected = didYouMean(
          docs.index,
          filter.typoWords,
          matches.alternatives,
          (terms) => !matching(docs, { ...filter, terms }).isEmpty,
        );
        if (corrected !== null) found.didYouMean = corrected;
      }
      if (!filter.facets?.length) return found;
      const facets: FacetCounts = {};
      for (const name of filter.facets) {
        const { own, count } = FACET_RULES[name];
        facets[name] = count(
          docs.index,
          filter[own] === undefined
            ? result
            : keywordMatching(docs, { ...filter, [own]: undefined }, alternatives).result,
        );
      }
      return { ...found, facets };
    });
  }
}

/** `corrections`: the terms of the corrections a typo-tolerant search matched by (for highlights). */
export interface PostSearchResult {
  total: number;
  ids: number[];
  facets?: FacetCounts;
  didYouMean?: string;
  corrections?: string[];
}

/** How many times the documents a page needs its one posting (or the index) must hold for broadPage to read it. */
const BROAD = 16;

/**
 * The page and total of a search that needs no more of its matches than their newest (no facet counts, no time
 * window, no typos) and whose one required token is held by many documents, or that has none: read from the newest
 * matches alone (OrderedDocuments.newestMatches) and a count, not from all of them. The same page and total as the
 * general path gives; null when the search is not of that kind.
 */
function broadPage(docs: OrderedDocuments, filter: PostSearchFilter): PostSearchResult | null {
  const windowed = filter.postedAfter !== undefined || filter.postedBefore !== undefined;
  if (filter.typoWords || filter.facets?.length || windowed) return null;
  const query = postIndexQuery(filter);
  if (query.none.length > 0 || query.all.length > 1) return null;
  const ranked = Boolean(filter.terms) && filter.order === 'rank';
  const needed = ranked ? relevanceReach(filter.offset, filter.limit) : filter.offset + filter.limit;
  const holding = query.all.length === 0 ? docs.index.live.size : docs.index.postingSize(query.all[0]![0]!);
  if (holding < BROAD * needed) return null;
  const newest = docs.newestMatches(query, needed);
  const page = ranked
    ? relevancePage(docs, newest, filter.terms!, filter.offset, filter.limit)
    : docs.newest(newest, filter.offset, filter.limit);
  return { total: docs.index.count(query), ids: page.map((doc) => docs.itemId(doc)) };
}

/** The documents matching a filter: its terms and facets, then its time window. */
function matching(docs: OrderedDocuments, filter: PostSearchFilter): Bitmap {
  const result = docs.index.match(postIndexQuery(filter));
  if (filter.postedAfter === undefined && filter.postedBefore === undefined) return result;
  return docs.window(result, filter.postedAfter ?? -Infinity, filter.postedBefore ?? Infinity);
}

/** The matches of a filter, with those of its keyword's corrections when typos are tolerated. */
const keywordMatching = (
  docs: OrderedDocuments,
  filter: PostSearchFilter,
  alternatives: string[][][] | null,
): KeywordMatches =>
  keywordMatches(docs.index, alternatives, matching(docs, filter), () => matching(docs, { ...filter, terms: null }));
