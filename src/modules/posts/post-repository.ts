import type { Kysely } from 'kysely';
import type { LongReads } from '../../db/database.js';
import type { DialectAdapter, IdRange, IndexQuery } from '../../db/dialects/dialect-adapter.js';
import type { DB } from '../../db/schema.js';
import { ALL_IDS, BoundedSearch, idsInKeyOrder, type IndexVersion } from '../../search/bounded-search.js';
import { FACETS, postKeyRange } from '../../search/search-documents.js';
import { relevance } from '../../search/search-text.js';

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
}

export type PostRow = Awaited<ReturnType<PostRepository['findByIds']>>[number];

/** All SQL of posts. */
export class PostRepository {
  readonly index: BoundedSearch;

  /** `longReads` runs the search reads, off the main thread where the engine allows; `version` lets it keep counts. */
  constructor(private readonly db: Kysely<DB>, adapter: DialectAdapter, private readonly longReads: LongReads, version?: IndexVersion) {
    this.index = new BoundedSearch(db, adapter, longReads, 'post_search', version);
  }

  /** The filter as a full-text query: keyword terms and facets required, excluded facets for `false` filters. */
  indexQuery(filter: PostSearchFilter): { query: IndexQuery; range: IdRange } {
    const all = (filter.terms ?? []).map((t) => [t]);
    const none: string[] = [];
    if (filter.authorCompanyId !== undefined) all.push([FACETS.company(filter.authorCompanyId)]);
    for (const [wanted, token] of [[filter.hasImages, FACETS.postImages], [filter.hasOg, FACETS.postOg]] as const) {
      if (wanted === true) all.push([token]);
      if (wanted === false) none.push(token);
    }
    if (all.length === 0) all.push([FACETS.all]);
    const from = filter.postedAfter ?? 0;
    const to = filter.postedBefore ?? Number.MAX_SAFE_INTEGER / 2048;
    return { query: { all, none }, range: filter.postedAfter === undefined && filter.postedBefore === undefined ? ALL_IDS : postKeyRange(from, to) };
  }

  /** The total (exact up to 10,000) and one page of post ids. */
  async search(filter: PostSearchFilter): Promise<{ total: number; ids: number[] }> {
    const { query, range } = this.indexQuery(filter);
    const total = await this.index.count(query, range);
    if (total === 0 || filter.offset >= total) return { total, ids: [] };
    const keys = filter.terms && filter.order === 'rank'
      ? await this.index.rankedPage(query, range, filter.limit, filter.offset, (candidates) => this.scores(candidates, filter.terms!))
      : await this.index.newest(query, range, filter.limit, filter.offset);
    return { total, ids: await this.idsOfKeys(keys) };
  }

  /** Post ids of search keys, in the keys' order. */
  async idsOfKeys(keys: number[]): Promise<number[]> {
    if (keys.length === 0) return [];
    return idsInKeyOrder(keys, await this.db.selectFrom('posts').select(['id', 'search_key as key']).where('search_key', 'in', keys).execute());
  }

  /** The relevance of each candidate (by search key) to the keyword: its text and translations (search-text.ts). */
  private async scores(keys: number[], terms: string[]): Promise<Map<number, number>> {
    const rows = await this.longReads(this.db.selectFrom('posts').select(['id', 'search_key', 'content']).where('search_key', 'in', keys));
    const translations = rows.length
      ? await this.longReads(this.db.selectFrom('post_translations').select(['post_id', 'content']).where('post_id', 'in', rows.map((r) => r.id)))
      : [];
    const texts = new Map<number, Array<string | null>>(rows.map((r) => [r.id, [r.content]]));
    for (const t of translations) texts.get(t.post_id)?.push(t.content);
    return new Map(rows.map((r) => [Number(r.search_key), relevance(terms, texts.get(r.id)!)]));
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
