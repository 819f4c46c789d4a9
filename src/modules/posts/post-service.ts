import { ApiError, notFound } from '../../shared/api-error.js';
import { groupBy } from '../../shared/group.js';
import { VersionedTickBatch } from '../../shared/tick-batch.js';
import type { Links } from '../../shared/links.js';
import { TRANSLATED_LANGUAGES, type Locale } from '../../shared/locale.js';
import { parseDateTime, toLocalDateTime, toUtcIso } from '../../shared/time.js';
import { pageOf, type PageResult } from '../../schemas/common.js';
import { VersionedCache, type DataVersion } from '../../cache/data-version.js';
import { NO_COMPANY, noMatchFacets, withCompanyHandles } from '../../search/facet-counts.js';
import { SearchCache } from '../../search/search-cache.js';
import { queryTerms } from '../../search/search-text.js';
import type { AccountsRepository } from '../accounts/accounts-repository.js';
import type { PostRepository, PostRow, PostSearchFilter } from './post-repository.js';
import type { PostDetailDto, PostSearchQueryInput, PostSummaryDto, RepostedPostDto } from './post-schemas.js';
import type { PostWriteResponseDto } from './post-write-schemas.js';

/** Who is asking: the user of a Bearer token, or nobody. */
export interface Viewer {
  userId: number;
}

interface Hydrated {
  row: PostRow;
  summary: Omit<PostSummaryDto, 'postedAt'>;
  language: string;
  /** `postedAt` as search results show it (local time of the service zone); formatting it costs ~5 µs. */
  localPostedAt: string;
}

/** A post detail as anybody sees it, with the authors whose viewers see `owned: true`. */
interface CachedDetail {
  dto: PostDetailDto;
  authorUserId: number | null;
  sourceAuthorUserId: number | null;
}

/**
 * The memory the read caches of posts (by language and id, ~2.5 KB each) and of post details (~2 KB) may
 * hold: about 3,000 posts and 2,000 details, the popular ones. Random reads over a million ids miss any cache
 * that fits in memory, so more buys nothing there and costs the process's memory (docs/performance.md).
 */
const CACHED_POSTS_BYTES = 8 * 1024 * 1024;
const CACHED_DETAILS_BYTES = 4 * 1024 * 1024;

/**
 * What approximateBytes() gives for a post as search results show it, without walking its ~60 fields on every
 * page: the fixed fields (~1.6 KB), the body in the row and in the summary (a translation there), images, card.
 */
function hydratedBytes({ row, summary }: Hydrated): number {
  return 1_600 + 2 * (row.content?.length ?? 0) + 2 * (summary.content?.length ?? 0) + 200 * summary.images.length + (summary.og ? 600 : 0);
}

export class PostService {
  private readonly cache: SearchCache;
  /** Posts as search results show them, by language and id, under the posts data version. */
  private readonly items = new VersionedCache<Hydrated>(CACHED_POSTS_BYTES, hydratedBytes);
  private readonly details = new VersionedCache<CachedDetail | null>(CACHED_DETAILS_BYTES);

  constructor(
    private readonly posts: PostRepository,
    private readonly accounts: AccountsRepository,
    private readonly links: Links,
    private readonly timeZone: string,
    private readonly versions: DataVersion,
  ) {
    this.cache = new SearchCache(versions);
  }

  async search(query: PostSearchQueryInput, viewer: Viewer | null, locale: Locale): Promise<PageResult<PostSummaryDto>> {
    const page = query.page;
    const pageSize = query.pageSize;
    const filter = await postSearchFilter(query, this.timeZone, (handle) => this.accounts.companyIdByHandle(handle));
    if (filter === null) return pageOf<PostSummaryDto>([], 0, page, pageSize, noMatchFacets(query.facets));

    const { total, ids, version, facets } = await this.cache.get(JSON.stringify(filter), 0, () => this.posts.search(filter));
    const [hydrated, named] = await Promise.all([
      this.hydrate(ids, viewer, locale, version), withCompanyHandles(facets, (companyIds) => this.accounts.companyHandles(companyIds)),
    ]);
    const items = hydrated.map(({ summary, localPostedAt }) => ({ ...summary, postedAt: localPostedAt }));
    return pageOf(items, total, page, pageSize, named);
  }

  async detail(postId: number, viewer: Viewer | null, locale: Locale): Promise<PostDetailDto> {
    const version = await this.versions.read();
    const key = `${locale}|${postId}`;
    let cached = this.details.get(version, key);
    if (cached === undefined) {
      cached = (await this.detailBatch.load(version, locale, postId)) ?? null;
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

  /** Details asked for in one turn of the event loop, loaded together per version and language. */
  private readonly detailBatch = new VersionedTickBatch((ids, locale, version) => this.loadDetailsWithSources(ids, locale, version));

  /** Details as a caller without a token sees them (`owned` false), each with its reposted source one level deep. */
  private async loadDetailsWithSources(ids: number[], locale: Locale, version: number): Promise<Map<number, CachedDetail>> {
    const posts = await this.loadDetails(ids, locale, version);
    const sourceIds = [...new Set(posts.flatMap((p) => (p.row.reposted_post_id === null ? [] : [p.row.reposted_post_id])))];
    const sources = new Map((await this.loadDetails(sourceIds, locale, version)).map((source) => [source.row.id, source]));
    return new Map(posts.map((post) => {
      const sourceId = post.row.reposted_post_id;
      const source = sourceId === null ? undefined : sources.get(sourceId);
      const repostedPost: RepostedPostDto | null = source ? { ...source.dto, repostedPost: null } : null;
      return [post.row.id, {
        dto: { ...post.dto, repostedPostDeleted: sourceId !== null && repostedPost === null, repostedPost },
        authorUserId: post.row.author_user_id,
        sourceAuthorUserId: source?.row.author_user_id ?? null,
      }];
    }));
  }

  /** The body of a create or update response: the post as written (no translation). */
  async written(postId: number): Promise<PostWriteResponseDto> {
    const [post] = await this.hydrate([postId], null, 'ko', null);
    if (!post) throw notFound.post(postId);
    return {
      postId: post.row.id,
      content: post.row.content ?? '',
      images: post.summary.images,
      webUrl: post.summary.webUrl,
      postedAt: toUtcIso(post.row.posted_at),
      updatedAt: toUtcIso(post.row.updated_at),
      og: post.summary.og,
    };
  }

  private async loadDetails(ids: number[], locale: Locale, version: number) {
    const hydrated = await this.hydrate(ids, null, locale, version);
    const mentions = groupBy(await this.posts.mentionsOf(ids), (m) => m.post_id);
    const sourceIds = hydrated.map((h) => h.row.reposted_post_id).filter((id): id is number => id !== null);
    const existingSources = new Set((await this.posts.findByIds(sourceIds)).map((r) => r.id));
    return hydrated.map(({ row, summary, language }) => {
      const own = mentions.get(row.id) ?? [];
      const pick = (type: string) => own.filter((m) => m.mention_type === type).map((m) => ({ name: m.name, id: m.handle }));
      return {
        row,
        dto: {
          ...summary,
          postedAt: toUtcIso(row.posted_at),
          mentions: { companies: pick('COMPANY'), users: pick('MEMBER') },
          repostedPostDeleted: row.reposted_post_id !== null && !existingSources.has(row.reposted_post_id),
          updatedAt: toUtcIso(row.updated_at),
          language,
          repostedPost: null,
        },
      };
    });
  }

  /**
   * The posts of `ids` that exist, in that order, as `viewer` sees them. Read from the cache of `version`
   * (null: straight from the database), the rest loaded in a fixed number of queries and cached.
   */
  private async hydrate(ids: number[], viewer: Viewer | null, locale: Locale, version: number | null): Promise<Hydrated[]> {
    const posts = await this.items.getMany(version, ids, (id) => `${locale}|${id}`, (post) => post.row.id, (missing) => this.load(missing, locale));
    return posts.map((post) => {
      const owned = viewer !== null && post.row.author_user_id === viewer.userId;
      return owned ? { ...post, summary: { ...post.summary, owned } } : post;
    });
  }

  /**
   * Loads posts with authors, images, cards and translations in a fixed number of queries (`owned` false).
   * The rows come first: images and cards are asked for only for the posts whose row says they have some
   * (`image_count`, `has_og`, kept by every write), translations only for posts in another language. On a
   * page of random posts each id asked for is a probe of an index, and most posts have no image or card.
   */
  private async load(ids: number[], locale: Locale): Promise<Hydrated[]> {
    if (ids.length === 0) return [];
    const rows = await this.posts.findByIds(ids);
    const having = (has: (row: PostRow) => boolean) => rows.flatMap((row) => (has(row) ? [row.id] : []));
    const [images, cards, translations] = await Promise.all([
      this.posts.imagesOf(having((row) => row.image_count > 0)),
      this.posts.ogCardsOf(having((row) => Boolean(row.has_og))),
      TRANSLATED_LANGUAGES.has(locale) ? this.posts.translationsOf(having((row) => row.language !== locale), locale) : [],
    ]);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const imagesByPost = groupBy(images, (i) => i.post_id);
    const cardByPost = new Map(cards.map((c) => [c.post_id, c]));
    const translationByPost = new Map(translations.map((t) => [t.post_id, t.content]));

    const out: Hydrated[] = [];
    for (const id of ids) {
      const row = byId.get(id);
      if (!row) continue;
      const translated = row.language !== locale ? translationByPost.get(id) : undefined;
      const card = cardByPost.get(id);
      const isCompany = row.author_type === 'COMPANY';
      out.push({
        row,
        language: translated !== undefined ? locale : row.language,
        localPostedAt: toLocalDateTime(row.posted_at, this.timeZone),
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
          images: (imagesByPost.get(id) ?? []).map((img) => ({
            id: img.id,
            url: this.links.media(img.media_key),
            width: img.width,
            height: img.height,
          })),
          og: card
            ? { link: card.link, title: card.title, source: card.source, image: card.image, description: card.description }
            : null,
          stats: { likeCount: row.like_count, commentCount: row.comment_count },
          owned: false,
          webUrl: this.links.post(row.id),
        },
      });
    }
    return out;
  }
}

/**
 * The repository filter of a post search, or null when nothing can match (a keyword with no searchable terms).
 * Times without a zone are read in `timeZone`. The benchmark's search-cost tool replays searches through it
 * too, so it measures the filters the service builds.
 */
export async function postSearchFilter(
  query: PostSearchQueryInput, timeZone: string, companyIdByHandle: (handle: string) => Promise<number | undefined>,
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
  if (query.companyId) filter.authorCompanyId = await companyIdByHandle(query.companyId) ?? NO_COMPANY;
  return filter;
}

function parseTime(name: string, value: string | undefined, timeZone: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const ms = parseDateTime(value, timeZone);
  if (ms === null) {
    throw new ApiError('C0005', `Query parameter "${name}" must be an ISO 8601 date-time such as 2026-11-01T09:00:00Z, got ${JSON.stringify(value)}`, name);
  }
  return ms;
}
