import { ApiError, notFound } from '../../shared/api-error.js';
import { rowFinder } from '../../db/prepared-reads.js';
import { inIdOrder } from '../../shared/group.js';
import { inLocaleKey, type InLocale, TickBatch } from '../../shared/tick-batch.js';
import type { Links } from '../../shared/links.js';
import { translationLanguage, type Locale } from '../../shared/locale.js';
import { parseSearchTime, toListDateTime, toUtcIso } from '../../shared/time.js';
import { pageOf, withCorrection, type PageResult } from '../../schemas/common.js';
import { VersionedCache } from '../../cache/versioned-cache.js';
import { NO_COMPANY, noMatchFacets, withCompanyHandles } from '../../search/facet-counts.js';
import type { Searchable } from '../../search/search-index.js';
import { queryTerms, queryWords } from '../../search/search-text.js';
import { highlightsOf } from '../../search/highlights.js';
import type { AccountsRepository } from '../accounts/accounts-repository.js';
import type { OgCard } from './og-fetcher.js';
import { jsonColumn, jsonValue } from './post-reads.js';
import type { PostDetailRow, PostRepository, PostRow } from './post-repository.js';
import type { PostSearchFilter } from './post-index.js';
import type { PostDetailDto, PostSearchQueryInput, PostSummaryDto, RepostedPostDto } from './post-schemas.js';
import type { PostWriteResponseDto } from './post-write-schemas.js';

/** Who is asking: the user of a Bearer token, or nobody. */
export interface Viewer {
  userId: number;
}

/** A post as a write leaves it: what the answer to a create or update shows. */
export interface WrittenPost {
  id: number;
  content: string | null;
  images: Array<{ id: number; mediaKey: string; width: number | null; height: number | null }>;
  og: OgCard | null;
  postedAt: number;
  updatedAt: number;
}

function storedImages(row: PostRow): WrittenPost['images'] {
  return jsonColumn<[number, string, number | null, number | null]>(row.images).map(
    ([id, mediaKey, width, height]) => ({ id, mediaKey, width, height }),
  );
}

function ogOf(row: PostRow): OgCard | null {
  const og = jsonValue(row.og);
  return og === null ? null : { link: og[0], title: og[1], source: og[2], image: og[3], description: og[4] };
}

/** A post as a list item or a detail shows it, but for `postedAt`, whose format differs between the two. */
interface Hydrated {
  summary: Omit<PostSummaryDto, 'postedAt'>;
  language: string;
}

/** A post detail as anybody sees it, with the authors whose viewers see `owned: true`. */
interface CachedDetail {
  dto: PostDetailDto;
  authorUserId: number | null;
  sourceAuthorUserId: number | null;
}

/**
 * The memory the cache of post details may hold: a few thousand, the popular ones. Random reads over a
 * million ids miss any cache that fits in memory, so more buys nothing there and costs the process's memory.
 * A search page's items are not cached: read again, they cost less than a cache of them did (docs/performance.md).
 */
const CACHED_DETAILS_BYTES = 4 * 1024 * 1024;

export class PostService {
  private readonly details = new VersionedCache<CachedDetail | null>(CACHED_DETAILS_BYTES);

  constructor(
    private readonly posts: PostRepository,
    private readonly index: Searchable<PostSearchFilter>,
    private readonly accounts: AccountsRepository,
    private readonly links: Links,
    private readonly timeZone: string,
  ) {}

  /** `version`: the posts data version this request read at its start (representation-cache.ts dataVersionOf). */
  async search(
    query: PostSearchQueryInput,
    viewer: Viewer | null,
    locale: Locale,
    version: number,
  ): Promise<PageResult<PostSummaryDto>> {
    const page = query.page;
    const pageSize = query.pageSize;
    const filter = await postSearchFilter(query, this.timeZone, (handle) => this.accounts.companyIdByHandle(handle));
    if (filter === null) return pageOf<PostSummaryDto>([], 0, page, pageSize, noMatchFacets(query.facets));

    const { total, ids, facets, didYouMean, corrections } = await this.index.search(filter, version);
    const [hydrated, named] = await Promise.all([
      this.hydrate(ids, viewer, locale),
      withCompanyHandles(facets, (companyIds) => this.accounts.companyHandles(companyIds)),
    ]);
    const terms = new Set([...(filter.terms ?? []), ...(corrections ?? [])]);
    const items = query.highlight
      ? hydrated.map((item) => ({ ...item, highlights: highlightsOf([['content', item.content]], terms) }))
      : hydrated;
    return withCorrection(pageOf(items, total, page, pageSize, named), didYouMean);
  }

  async detail(postId: number, viewer: Viewer | null, locale: Locale, version: number): Promise<PostDetailDto> {
    const key = inLocaleKey({ id: postId, locale });
    let cached = this.details.get(version, key);
    if (cached === undefined) {
      cached = (await this.detailBatch.load({ id: postId, locale })) ?? null;
      this.details.set(version, key, cached);
    }
    if (!cached) throw notFound.post(postId);
    const { dto, authorUserId, sourceAuthorUserId } = cached;
    if (viewer === null) return dto;
    const owned = authorUserId === viewer.userId;
    const sourceOwned = sourceAuthorUserId !== null && sourceAuthorUserId === viewer.userId;
    if (!owned && !sourceOwned) return dto;
    return { ...dto, owned, repostedPost: dto.repostedPost && { ...dto.repostedPost, owned: sourceOwned } };
  }

  /** Details asked for in one turn of the event loop, whatever their locales, loaded together. */
  private readonly detailBatch = new TickBatch(inLocaleKey, (wanted: InLocale[]) =>
    this.loadDetailsWithSources(wanted),
  );

  /**
   * Details as a caller without a token sees them (`owned` false), each with its reposted source one level
   * deep, in the order of `wanted`: one statement reads the posts and their sources together.
   */
  private async loadDetailsWithSources(wanted: InLocale[]): Promise<Array<CachedDetail | undefined>> {
    const find = rowFinder(
      await this.posts.details(wanted.map(({ id, locale }) => ({ id, language: translationLanguage(locale) }))),
    );
    return wanted.map(({ id, locale }) => {
      const language = translationLanguage(locale);
      const row = find(id, language);
      if (!row) return undefined;
      const source = row.reposted_post_id === null ? undefined : find(row.reposted_post_id, language);
      const repostedPost: RepostedPostDto | null = source
        ? { ...this.detailOf(source, locale), repostedPost: null }
        : null;
      return {
        dto: { ...this.detailOf(row, locale), repostedPost },
        authorUserId: row.author_user_id,
        sourceAuthorUserId: source?.author_user_id ?? null,
      };
    });
  }

  /** A post's detail without its reposted source. */
  private detailOf(row: PostDetailRow, locale: Locale): Omit<PostDetailDto, 'repostedPost'> {
    const { summary, language } = this.hydrated(row, locale);
    const mentions = jsonColumn<[string, string, string]>(row.mentions);
    const pick = (type: string) =>
      mentions.filter(([mentionType]) => mentionType === type).map(([, handle, name]) => ({ name, id: handle }));
    return {
      ...summary,
      postedAt: toUtcIso(row.posted_at),
      mentions: { companies: pick('COMPANY'), users: pick('MEMBER') },
      repostedPostDeleted: row.reposted_post_id !== null && !row.source_exists,
      updatedAt: toUtcIso(row.updated_at),
      language,
    };
  }

  /** The body of a create or update response, read back: the post as written (no translation). */
  async written(postId: number): Promise<PostWriteResponseDto> {
    const row = await this.posts.asWritten(postId);
    if (!row) throw notFound.post(postId);
    return this.writtenBody({
      id: row.id,
      content: row.content,
      postedAt: row.posted_at,
      updatedAt: row.updated_at,
      og: ogOf(row),
      images: storedImages(row),
    });
  }

  /** The body of a create or update response for a post as written. */
  writtenBody(post: WrittenPost): PostWriteResponseDto {
    return {
      postId: post.id,
      content: post.content ?? '',
      images: this.imagesOf(post.images),
      webUrl: this.links.post(post.id),
      postedAt: toUtcIso(post.postedAt),
      updatedAt: toUtcIso(post.updatedAt),
      og: post.og,
    };
  }

  private imagesOf(images: WrittenPost['images']): PostSummaryDto['images'] {
    return images.map(({ id, mediaKey, width, height }) => ({ id, url: this.links.media(mediaKey), width, height }));
  }

  /**
   * The posts of `ids` that exist, in that order, as list items for `viewer`: one statement reads them all. A list
   * shows `postedAt` as UTC wall-clock time without zone (toListDateTime), a detail in ISO 8601 with `Z`.
   */
  private async hydrate(ids: number[], viewer: Viewer | null, locale: Locale): Promise<PostSummaryDto[]> {
    return inIdOrder(ids, await this.posts.items(ids, translationLanguage(locale))).map((row) => {
      const { summary } = this.hydrated(row, locale);
      if (viewer !== null && row.author_user_id === viewer.userId) summary.owned = true;
      return { ...summary, postedAt: toListDateTime(row.posted_at) };
    });
  }

  private hydrated(row: PostRow, locale: Locale): Hydrated {
    const translated = row.language !== locale ? (row.translation ?? undefined) : undefined;
    const isCompany = row.author_type === 'COMPANY';
    return {
      language: translated !== undefined ? locale : row.language,
      summary: {
        postId: row.id,
        author: {
          type: isCompany ? 'COMPANY' : 'MEMBER',
          id: (isCompany ? row.company_handle : row.user_handle) ?? null,
          name: (isCompany ? row.company_name : row.user_name) ?? '',
          imageUrl: this.links.image((isCompany ? row.company_logo_url : row.user_image_url) ?? null),
          certificated: (isCompany ? row.company_certificated : row.user_certificated) === 1,
        },
        content: translated ?? row.content,
        images: this.imagesOf(storedImages(row)),
        og: ogOf(row),
        stats: { likeCount: row.like_count, commentCount: row.comment_count },
        owned: false,
        webUrl: this.links.post(row.id),
      },
    };
  }
}

/**
 * The repository filter of a post search, or null when nothing can match (a keyword with no searchable terms).
 * Times without a zone are read in `timeZone`. The benchmark's search-cost and read-floor tools replay searches
 * through it too, so they measure the filters the service builds.
 */
export async function postSearchFilter(
  query: PostSearchQueryInput,
  timeZone: string,
  companyIdByHandle: (handle: string) => Promise<number | undefined>,
): Promise<PostSearchFilter | null> {
  const keyword = query.keyword?.trim() ?? '';
  const terms = keyword === '' ? null : queryTerms(keyword);
  if (terms !== null && terms.length === 0) return null;

  const filter: PostSearchFilter = {
    terms,
    hasImages: query.hasImages,
    hasOg: query.hasOg,
    postedAfter: parseTime('postedAfter', query.postedAfter, timeZone),
    postedBefore: parseTime('postedBefore', query.postedBefore, timeZone),
    order: query.sort === 'RECENT' ? 'recent' : 'rank',
    limit: query.pageSize,
    offset: (query.page - 1) * query.pageSize,
    facets: query.facets && [...new Set(query.facets)],
  };
  if (query.typoTolerance && terms !== null) filter.typoWords = queryWords(keyword);
  if (query.companyId) filter.authorCompanyId = (await companyIdByHandle(query.companyId)) ?? NO_COMPANY;
  return filter;
}

function parseTime(name: string, value: string | undefined, timeZone: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const ms = parseSearchTime(value, timeZone);
  if (ms === null) {
    throw new ApiError(
      'C0005',
      `Query parameter "${name}" must be an ISO 8601 date-time such as 2026-11-01T09:00:00Z, got ${JSON.stringify(value)}`,
      name,
    );
  }
  return ms;
}
