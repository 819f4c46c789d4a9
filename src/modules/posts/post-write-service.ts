import type { CheckedImage, ImageUploads } from '../../media/image-uploads.js';
import { ApiError, notFound } from '../../shared/api-error.js';
import type { OgCard, OgFetcher } from './og-fetcher.js';
import type { PostService } from './post-service.js';
import { detectLanguage, mentionedHandles } from './post-text.js';
import type { PostWriteRepository } from './post-write-repository.js';
import type { PostWriteInput, PostWriteResponseDto } from './post-write-schemas.js';

export interface PostWriteDeps {
  writes: PostWriteRepository;
  reads: PostService;
  uploads: ImageUploads;
  og: OgFetcher;
  clock: () => number;
}

/** Posts written by the signed-in user: create, update (body and Open Graph data), delete; own posts only. */
export class PostWriteService {
  constructor(private readonly d: PostWriteDeps) {}

  async create(userId: number, input: PostWriteInput, images: CheckedImage[]): Promise<PostWriteResponseDto> {
    const text = input.text?.trim() ? input.text : null;
    if (text === null && images.length === 0 && !input.og && input.repostedPostId === undefined) {
      throw new ApiError('C0002', 'A post needs text, images, an og.link or a repostedPostId', 'request.text');
    }
    const link = input.og ? this.link(input.og.link) : null;
    if (input.repostedPostId !== undefined && !(await this.d.writes.find(input.repostedPostId))) {
      throw new ApiError('P0002', `Post ${input.repostedPostId} to repost does not exist`, 'request.repostedPostId');
    }
    const mentions = text ? await this.d.writes.resolveMentions(mentionedHandles(text)) : [];
    const og = link ? await this.d.og.card(link) : null;
    const stored = await this.d.uploads.storeAll('posts', images, 'images');
    const now = this.d.clock();
    try {
      return await this.d.writes.transaction(async (repo) => {
        const written = await repo.insert({
          userId,
          content: text,
          language: detectLanguage(text ?? ''),
          repostOf: input.repostedPostId ?? null,
          images: stored,
          og,
          mentions,
          now,
        });
        // The answer is what was written, not read back: a read would be one more statement (on PostgreSQL one
        // more turn of the event loop). `created` reads it back for a retry whose first request crashed.
        const answer = this.d.reads.writtenBody({
          id: written.id,
          content: text,
          postedAt: now,
          updatedAt: now,
          og,
          images: stored.map(({ mediaKey, width, height }, position) => ({
            id: written.imageIds[position]!,
            mediaKey,
            width,
            height,
          })),
        });
        await repo.recordCreated(written.id, answer);
        return answer;
      });
    } catch (err) {
      await this.d.uploads.discard(stored.map((s) => s.mediaKey));
      throw err;
    }
  }

  /** The answer to a post create, for the post `postId` (also for a retry whose first request crashed). */
  created(postId: number): Promise<PostWriteResponseDto> {
    return this.d.reads.written(postId);
  }

  async update(
    userId: number,
    postId: number,
    input: PostWriteInput,
    images: CheckedImage[],
  ): Promise<PostWriteResponseDto> {
    if (images.length > 0)
      throw new ApiError(
        'C0002',
        'An update changes the body and Open Graph data only; images cannot be changed',
        'images',
      );
    if (input.repostedPostId !== undefined)
      throw new ApiError('C0002', 'repostedPostId can only be set when a post is created', 'request.repostedPostId');
    if (input.text === undefined && input.og === undefined)
      throw new ApiError('C0002', 'Send text, og or both to update a post', 'request');
    const link = input.og ? this.link(input.og.link) : null;
    await this.owned(userId, postId);
    const text = input.text === undefined ? undefined : input.text.trim() ? input.text : null;
    const mentions =
      text === undefined ? undefined : text ? await this.d.writes.resolveMentions(mentionedHandles(text)) : [];
    let og: OgCard | null | undefined;
    if (input.og === null) og = null;
    else if (link) og = await this.d.og.card(link);
    await this.d.writes.transaction((repo) =>
      repo.update(postId, {
        ...(text !== undefined && { content: text, language: detectLanguage(text ?? ''), mentions }),
        ...(og !== undefined && { og }),
        now: this.d.clock(),
      }),
    );
    return this.d.reads.written(postId);
  }

  async remove(userId: number, postId: number): Promise<void> {
    await this.owned(userId, postId);
    const keys = await this.d.writes.transaction((repo) => repo.delete(postId, this.d.clock()));
    await this.d.uploads.discard(keys);
  }

  private async owned(userId: number, postId: number): Promise<void> {
    const post = await this.d.writes.find(postId);
    if (!post) throw notFound.post(postId);
    if (post.author_user_id !== userId)
      throw new ApiError('P0003', `Post ${postId} belongs to someone else; only its author may change it`, 'postId');
  }

  private link(value: string): string {
    try {
      const url = new URL(value);
      if (url.protocol === 'http:' || url.protocol === 'https:') return url.toString();
    } catch {
      // fall through
    }
    throw new ApiError(
      'C0002',
      `Field "request.og.link" must be an http or https URL, got ${JSON.stringify(value)}`,
      'request.og.link',
    );
  }
}
