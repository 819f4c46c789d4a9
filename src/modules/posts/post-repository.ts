import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { PostIndex, PostSearchFilter } from '../../search/post-index.js';

export type { PostSearchFilter } from '../../search/post-index.js';

export type PostRow = Awaited<ReturnType<PostRepository['findByIds']>>[number];

/** All SQL of posts; searches go to the post index (search/post-index.ts). */
export class PostRepository {
  constructor(private readonly db: Kysely<DB>, readonly index: PostIndex) {}

  /** The exact total and one page of post ids. */
  search(filter: PostSearchFilter): Promise<{ total: number; ids: number[] }> {
    return this.index.search(filter);
  }

  async findByIds(ids: number[]) {
    if (ids.length === 0) return [];
    return this.db.selectFrom('posts')
      .leftJoin('users', 'users.id', 'posts.author_user_id')
      .leftJoin('companies', 'companies.id', 'posts.author_company_id')
      .select([
        'posts.id', 'posts.author_type', 'posts.author_user_id', 'posts.content', 'posts.language',
        'posts.reposted_post_id', 'posts.like_count', 'posts.comment_count', 'posts.posted_at', 'posts.updated_at',
        'posts.image_count', 'posts.has_og',
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
