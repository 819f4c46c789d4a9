import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { LongReads } from '../../db/database.js';
import type { DialectAdapter, SearchMatch } from '../../db/dialects/dialect-adapter.js';
import type { DB } from '../../db/schema.js';
import type { SearchTerm } from '../../search/search-text.js';

export interface PostSearchFilter {
  terms: SearchTerm[] | null;
  authorCompanyId?: number;
  hasImages?: boolean;
  hasOg?: boolean;
  postedAfter?: number;
  postedBefore?: number;
  order: 'rank' | 'recent';
  limit: number;
  offset: number;
}

type PostQuery = SelectQueryBuilder<DB & { m: SearchMatch }, 'posts' | 'm', object>;

export type PostRow = Awaited<ReturnType<PostRepository['findByIds']>>[number];

/** All SQL of posts. */
export class PostRepository {
  /** `longReads` runs the search counts and pages, which may cover many rows. */
  constructor(private readonly db: Kysely<DB>, private readonly adapter: DialectAdapter, private readonly longReads: LongReads) {}

  private filtered(filter: PostSearchFilter): PostQuery {
    // With a keyword the matches lead: CROSS JOIN keeps SQLite from walking posts and probing the
    // full-text index once per row (seconds at 200k rows); PostgreSQL plans it as the inner join it is.
    const query0 = filter.terms
      ? this.db.selectFrom(this.adapter.searchMatches('post_search', filter.terms).as('m')).crossJoin('posts').whereRef('posts.id', '=', 'm.doc_id')
      : this.db.selectFrom('posts');
    let query = query0 as unknown as PostQuery;
    if (filter.authorCompanyId !== undefined) query = query.where('posts.author_company_id', '=', filter.authorCompanyId);
    if (filter.hasImages === true) query = query.where('posts.image_count', '>', 0);
    if (filter.hasImages === false) query = query.where('posts.image_count', '=', 0);
    if (filter.hasOg !== undefined) query = query.where('posts.has_og', '=', filter.hasOg ? 1 : 0);
    if (filter.postedAfter !== undefined) query = query.where('posts.posted_at', '>=', filter.postedAfter);
    if (filter.postedBefore !== undefined) query = query.where('posts.posted_at', '<=', filter.postedBefore);
    return query;
  }

  /** The search as SQL, for plan inspection. */
  compileSearch(filter: PostSearchFilter) {
    return { page: this.pageQuery(filter).compile(), count: this.countQuery(filter).compile() };
  }

  /**
   * A keyword and nothing else: the full-text index alone answers the count and the relevance order. It
   * holds exactly the existing posts (writes and deletes maintain it in their transaction), so joining
   * the posts table would only add one row lookup per match (on a broad keyword, tens of thousands).
   */
  private keywordOnly(filter: PostSearchFilter): SearchTerm[] | null {
    const { terms, authorCompanyId, hasImages, hasOg, postedAfter, postedBefore } = filter;
    const others = [authorCompanyId, hasImages, hasOg, postedAfter, postedBefore];
    return terms && others.every((value) => value === undefined) ? terms : null;
  }

  private pageQuery(filter: PostSearchFilter) {
    const terms = this.keywordOnly(filter);
    if (terms && filter.order === 'rank') {
      return this.db.selectFrom(this.adapter.searchMatches('post_search', terms).as('m'))
        .select('m.doc_id as id').orderBy('m.rank').orderBy('m.doc_id', 'desc')
        .limit(filter.limit).offset(filter.offset);
    }
    let query = this.filtered(filter).select('posts.id');
    query = filter.terms && filter.order === 'rank'
      ? query.orderBy('m.rank').orderBy('posts.id', 'desc')
      : query.orderBy('posts.posted_at', 'desc').orderBy('posts.id', 'desc');
    return query.limit(filter.limit).offset(filter.offset);
  }

  private countQuery(filter: PostSearchFilter) {
    const terms = this.keywordOnly(filter);
    if (terms) {
      return this.db.selectFrom(this.adapter.searchMatches('post_search', terms).as('m'))
        .select((eb) => eb.fn.countAll<number>().as('total'));
    }
    return this.filtered(filter).select((eb) => eb.fn.countAll<number>().as('total'));
  }

  async search(filter: PostSearchFilter): Promise<{ total: number; ids: number[] }> {
    const [{ total } = { total: 0 }] = await this.longReads(this.countQuery(filter));
    if (Number(total) === 0 || filter.offset >= Number(total)) return { total: Number(total), ids: [] };
    const rows = await this.longReads(this.pageQuery(filter));
    return { total: Number(total), ids: rows.map((r) => r.id) };
  }

  async findByIds(ids: number[]) {
    if (ids.length === 0) return [];
    return this.db.selectFrom('posts')
      .leftJoin('users', 'users.id', 'posts.author_user_id')
      .leftJoin('companies', 'companies.id', 'posts.author_company_id')
      .select([
        'posts.id', 'posts.author_type', 'posts.author_user_id', 'posts.content', 'posts.language',
        'posts.reposted_post_id', 'posts.like_count', 'posts.comment_count', 'posts.posted_at', 'posts.updated_at',
        'users.handle as user_handle', 'users.name as user_name', 'users.image_url as user_image_url',
        'users.certificated as user_certificated',
        'companies.handle as company_handle', 'companies.name as company_name', 'companies.logo_url as company_logo_url',
        'companies.certificated as company_certificated',
      ])
      .where('posts.id', 'in', ids)
      .execute();
  }

  async imagesOf(ids: number[]) {
    if (ids.length === 0) return [];
    return this.db.selectFrom('post_images')
      .select(['id', 'post_id', 'media_key', 'width', 'height'])
      .where('post_id', 'in', ids)
      .orderBy('post_id').orderBy('position')
      .execute();
  }

  async ogCardsOf(ids: number[]) {
    if (ids.length === 0) return [];
    return this.db.selectFrom('post_og_cards').selectAll().where('post_id', 'in', ids).execute();
  }

  async translationsOf(ids: number[], language: string) {
    if (ids.length === 0) return [];
    return this.db.selectFrom('post_translations')
      .select(['post_id', 'content'])
      .where('post_id', 'in', ids)
      .where('language', '=', language)
      .execute();
  }

  async mentionsOf(ids: number[]) {
    if (ids.length === 0) return [];
    return this.db.selectFrom('post_mentions')
      .select(['post_id', 'mention_type', 'handle', 'name'])
      .where('post_id', 'in', ids)
      .orderBy('post_id').orderBy('position')
      .execute();
  }

}
