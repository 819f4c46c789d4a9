import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { StoredImage } from '../../media/image-uploads.js';
import type { ChangeFeed } from '../../change-feed/change-feed.js';
import { recordCreated } from '../../db/idempotency.js';
import { sendLater } from '../../db/sent-later.js';
import { inTransaction, writeTransaction, type WriteUnit } from '../../writes/write-unit.js';
import type { OgCard } from './og-fetcher.js';

export interface Mention {
  type: 'COMPANY' | 'MEMBER';
  handle: string;
  name: string;
}

/** The SQL of writing posts; used inside one transaction per request, whose unit records each write's effects. */
export class PostWriteRepository {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly feed?: Pick<ChangeFeed, 'publish'>,
    private readonly unit?: WriteUnit,
  ) {}

  /** Runs `work` in one transaction; the change it recorded for the feed is completed right after the commit. */
  transaction<T>(work: (repository: PostWriteRepository) => Promise<T>): Promise<T> {
    return writeTransaction(this.db, this.feed, (unit) => new PostWriteRepository(unit.db, undefined, unit), work);
  }

  async find(id: number) {
    return (
      (await this.db
        .selectFrom('posts')
        .select(['id', 'author_user_id', 'content'])
        .where('id', '=', id)
        .executeTakeFirst()) ?? null
    );
  }

  /** Companies and members whose handles are mentioned. */
  async resolveMentions(handles: string[]): Promise<Mention[]> {
    if (handles.length === 0) return [];
    const [companies, users] = await Promise.all([
      this.db.selectFrom('companies').select(['handle', 'name']).where('handle', 'in', handles).execute(),
      this.db.selectFrom('users').select(['handle', 'name']).where('handle', 'in', handles).execute(),
    ]);
    const found = new Map<string, Mention>();
    for (const c of companies) found.set(c.handle, { type: 'COMPANY', handle: c.handle, name: c.name });
    for (const u of users)
      if (!found.has(u.handle)) found.set(u.handle, { type: 'MEMBER', handle: u.handle, name: u.name });
    return handles.flatMap((h) => (found.has(h) ? [found.get(h)!] : []));
  }

  async insert(post: {
    userId: number;
    content: string | null;
    language: string;
    repostOf: number | null;
    images: StoredImage[];
    og: OgCard | null;
    mentions: Mention[];
    now: number;
  }): Promise<{ id: number; imageIds: number[] }> {
    const { id } = await this.db
      .insertInto('posts')
      .values({
        author_type: 'MEMBER',
        author_user_id: post.userId,
        author_company_id: null,
        content: post.content,
        language: post.language,
        reposted_post_id: post.repostOf,
        image_count: post.images.length,
        has_og: post.og ? 1 : 0,
        like_count: 0,
        comment_count: 0,
        posted_at: post.now,
        updated_at: post.now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const imageIds: number[] = [];
    if (post.images.length) {
      // RETURNING gives its rows in no promised order (SQLite says so): placed by position.
      const rows = await this.db
        .insertInto('post_images')
        .values(
          post.images.map((img, position) => ({
            post_id: id,
            position,
            media_key: img.mediaKey,
            content_type: img.contentType,
            byte_size: img.byteSize,
            width: img.width,
            height: img.height,
          })),
        )
        .returning(['id', 'position'])
        .execute();
      for (const row of rows) imageIds[row.position] = row.id;
    }
    await this.replaceCardAndMentions(id, post.og, post.mentions, post.now);
    await inTransaction(this.unit).record(post.now, { resource: 'post', id, change: 'post.created', companyId: null });
    return { id, imageIds };
  }

  /** Ties the new post, and the create's answer, to the request's Idempotency-Key claim (the last statement before the commit). */
  async recordCreated(id: number, answer: unknown): Promise<void> {
    await recordCreated(this.db, id, answer);
  }

  /** Replaces the body (translations of the old body go), the card when given, and the mentions. */
  async update(
    id: number,
    change: { content?: string | null; language?: string; og?: OgCard | null; mentions?: Mention[]; now: number },
  ): Promise<void> {
    await this.db
      .updateTable('posts')
      .set({
        ...(change.content !== undefined && { content: change.content, language: change.language }),
        ...(change.og !== undefined && { has_og: change.og ? 1 : 0 }),
        updated_at: change.now,
      })
      .where('id', '=', id)
      .execute();
    if (change.content !== undefined) await this.db.deleteFrom('post_translations').where('post_id', '=', id).execute();
    if (change.og !== undefined) {
      await this.db.deleteFrom('post_og_cards').where('post_id', '=', id).execute();
      if (change.og)
        await this.db
          .insertInto('post_og_cards')
          .values({ post_id: id, ...change.og, fetched_at: change.now })
          .execute();
    }
    if (change.mentions !== undefined) {
      await this.db.deleteFrom('post_mentions').where('post_id', '=', id).execute();
      await this.insertMentions(id, change.mentions);
    }
    await inTransaction(this.unit).record(change.now, {
      resource: 'post',
      id,
      change: 'post.updated',
      companyId: await this.companyOf(id),
    });
  }

  /** The company a post was written as (null for a member's post). */
  private async companyOf(id: number): Promise<number | null> {
    return (
      (await this.db.selectFrom('posts').select('author_company_id').where('id', '=', id).executeTakeFirst())
        ?.author_company_id ?? null
    );
  }

  /** Deletes the post with its images, mentions, translations and card; returns the media keys to remove. */
  async delete(id: number, now: number): Promise<string[]> {
    const companyId = await this.companyOf(id);
    const keys = (await this.db.selectFrom('post_images').select('media_key').where('post_id', '=', id).execute()).map(
      (r) => r.media_key,
    );
    for (const table of ['post_images', 'post_mentions', 'post_translations', 'post_og_cards'] as const) {
      await this.db.deleteFrom(table).where('post_id', '=', id).execute();
    }
    await this.db.deleteFrom('posts').where('id', '=', id).execute();
    await inTransaction(this.unit).record(now, { resource: 'post', id, change: 'post.deleted', companyId });
    return keys;
  }

  private async replaceCardAndMentions(id: number, og: OgCard | null, mentions: Mention[], now: number): Promise<void> {
    if (og)
      await sendLater(this.db, this.db.insertInto('post_og_cards').values({ post_id: id, ...og, fetched_at: now }));
    await this.insertMentions(id, mentions);
  }

  private async insertMentions(id: number, mentions: Mention[]): Promise<void> {
    if (mentions.length === 0) return;
    await sendLater(
      this.db,
      this.db.insertInto('post_mentions').values(
        mentions.map((m, position) => ({
          post_id: id,
          position,
          mention_type: m.type,
          handle: m.handle,
          name: m.name,
        })),
      ),
    );
  }
}
