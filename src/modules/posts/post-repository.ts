import type { ByLanguageRead, InLanguage, PreparedReads, Wanted } from '../../db/prepared-reads.js';
import { POST_DETAILS, POST_ITEMS, type PostDetailRow, type PostRow } from './post-reads.js';

export type { PostDetailRow, PostRow } from './post-reads.js';

/** Reads of posts for pages and details, as prepared statements (post-reads.ts). */
export class PostRepository {
  private readonly itemReads: ByLanguageRead<PostRow>;
  private readonly detailReads: ByLanguageRead<PostDetailRow>;

  constructor(reads: PreparedReads) {
    this.itemReads = reads.prepareByLanguage('post_items', POST_ITEMS);
    this.detailReads = reads.prepareByLanguage('post_details', POST_DETAILS);
  }

  /**
   * The posts of `ids` that exist, in no particular order, with the translation into `language` where one exists
   * (null: none); on PostgreSQL read with the other pages of this turn of the event loop.
   */
  async items(ids: number[], language: string | null): Promise<PostRow[]> {
    return ids.length === 0 ? [] : this.itemReads.inTurn(ids, language);
  }

  /** The post `id` as written (no translation), read at once: a write's answer does not wait for the turn's other reads. */
  async asWritten(id: number): Promise<PostRow | undefined> {
    return (await this.itemReads.all([{ id, language: null }]))[0];
  }

  /**
   * The posts `wanted` that exist and the posts they repost, with mentions, each in the language it was wanted in
   * (a source in the language of the post that reposts it), in no particular order.
   */
  async details(wanted: Wanted[]): Promise<Array<InLanguage<PostDetailRow>>> {
    return wanted.length === 0 ? [] : this.detailReads.all(wanted);
  }
}
