import { ApiError, notFound } from '../../shared/api-error.js';
import { groupBy } from '../../shared/group.js';
import type { Links } from '../../shared/links.js';
import { TRANSLATED_LANGUAGES, type Locale } from '../../shared/locale.js';
import { parseDateTime, toLocalDateTime, toUtcIso } from '../../shared/time.js';
import { pageOf, type PageResult } from '../../schemas/common.js';
import type { SearchCache } from '../../search/search-cache.js';
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
}

export class PostService {
  constructor(
    private readonly posts: PostRepository,
    private readonly accounts: AccountsRepository,
    private readonly links: Links,
    private readonly timeZone: string,
    private readonly cache: SearchCache,
  ) {}

  async search(query: PostSearchQueryInput, viewer: Viewer | null, locale: Locale): Promise<PageResult<PostSummaryDto>> {
    const page = query.page;
    const pageSize = query.pageSize;
    const empty = pageOf<PostSummaryDto>([], 0, page, pageSize);

    const keyword = query.keyword?.trim() ?? '';
    const terms = keyword === '' ? null : queryTerms(keyword);
    if (terms !== null && terms.length === 0) return empty;

    const filter: PostSearchFilter = {
      terms,
      hasImages: query.hasImages,
      hasOg: query.hasOg,
      postedAfter: this.parseTime('postedAfter', query.postedAfter),
      postedBefore: this.parseTime('postedBefore', query.postedBefore),
      order: query.sort === 'RECENT' ? 'recent' : 'rank',
      limit: pageSize,
      offset: (page - 1) * pageSize,
    };
    if (query.companyId) {
      const companyId = await this.accounts.companyIdByHandle(query.companyId);
      if (companyId === undefined) return empty;
      filter.authorCompanyId = companyId;
    }

    const { total, ids } = await this.cache.get(JSON.stringify(filter), 0, () => this.posts.search(filter));
    const hydrated = await this.hydrate(ids, viewer, locale);
    const items = hydrated.map(({ row, summary }) => ({ ...summary, postedAt: toLocalDateTime(row.posted_at, this.timeZone) }));
    return pageOf(items, total, page, pageSize);
  }

  async detail(postId: number, viewer: Viewer | null, locale: Locale): Promise<PostDetailDto> {
    const [post] = await this.details([postId], viewer, locale);
    if (!post) throw notFound.post(postId);
    const sourceId = post.row.reposted_post_id;
    let repostedPost: RepostedPostDto | null = null;
    if (sourceId !== null) {
      const [source] = await this.details([sourceId], viewer, locale);
      if (source) repostedPost = { ...source.dto, repostedPost: null };
    }
    return { ...post.dto, repostedPostDeleted: sourceId !== null && repostedPost === null, repostedPost };
  }

  /** The body of a create or update response: the post as written (no translation). */
  async written(postId: number): Promise<PostWriteResponseDto> {
    const [post] = await this.hydrate([postId], null, 'ko');
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

  private async details(ids: number[], viewer: Viewer | null, locale: Locale) {
    const hydrated = await this.hydrate(ids, viewer, locale);
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

  /** Loads posts with authors, images, cards and translations in a fixed number of queries, in `ids` order. */
  private async hydrate(ids: number[], viewer: Viewer | null, locale: Locale): Promise<Hydrated[]> {
    if (ids.length === 0) return [];
    const translate = TRANSLATED_LANGUAGES.has(locale);
    const [rows, images, cards, translations] = await Promise.all([
      this.posts.findByIds(ids),
      this.posts.imagesOf(ids),
      this.posts.ogCardsOf(ids),
      translate ? this.posts.translationsOf(ids, locale) : Promise.resolve([]),
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
          owned: viewer !== null && row.author_user_id === viewer.userId,
          webUrl: this.links.post(row.id),
        },
      });
    }
    return out;
  }

  private parseTime(name: string, value: string | undefined): number | undefined {
    if (value === undefined || value === '') return undefined;
    const ms = parseDateTime(value, this.timeZone);
    if (ms === null) {
      throw new ApiError('C0005', `Query parameter "${name}" must be an ISO 8601 date-time such as 2026-11-01T09:00:00Z, got ${JSON.stringify(value)}`, name);
    }
    return ms;
  }
}
