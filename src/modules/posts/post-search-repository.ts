/**
 * The repository the post index reads from (post-index.ts): every post in posting order, and the posts of some ids,
 * with their translations, as documents; and ids with their change times for the index's check against the tables.
 */
import type { Database, LongReads } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import type { ItemSource } from '../../search/live-index.js';
import type { IndexedItem } from '../../search/ordered-documents.js';
import { groupBy } from '../../shared/group.js';
import { postDocument } from './post-document.js';

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
type IndexedRow = Pick<
  DB['posts'],
  'content' | 'image_count' | 'has_og' | 'author_company_id' | 'posted_at' | 'updated_at'
> & {
  id: number;
};

/**
 * The posts as the search index takes them (post-index.ts): in posting order, with their texts and facets. A build reads them through
 * the long reads (SQLite: worker threads), so that the next batch is read while this one is tokenized; the changed
 * posts a sync reads, a few at a time, are read on the main connection.
 */
export function postSearchRows({ db, longReads }: Pick<Database, 'db' | 'longReads'>): ItemSource {
  const onMain: LongReads = async (query) => (await db.executeQuery(query.compile())).rows;
  const withTranslations = async (rows: IndexedRow[], read: LongReads): Promise<IndexedItem[]> => {
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
