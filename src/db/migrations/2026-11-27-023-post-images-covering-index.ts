import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectAdapter } from '../dialects/dialect-adapter.js';

/**
 * A post's images as its reads ask for them (post-reads.ts: id, key and size, in position order) from the index
 * alone: the index on (post_id, position) found each image and then read its row, a second B-tree probe for every
 * image of a page (on SQLite at a million posts this way takes about a third of what that did;
 * bench/results/performance-history.md). It replaces that index, whose order it keeps. SQLite's indexes carry the
 * rowid (`id`) already; PostgreSQL's carries the other columns as INCLUDE, outside the key.
 */
export function postImagesCoveringIndex(adapter: DialectAdapter): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (adapter.name === 'postgres') {
        await sql`CREATE INDEX post_images_post_items ON post_images (post_id, position) INCLUDE (id, media_key, width, height)`.execute(
          db,
        );
      } else {
        await db.schema
          .createIndex('post_images_post_items')
          .on('post_images')
          .columns(['post_id', 'position', 'media_key', 'width', 'height'])
          .execute();
      }
      await db.schema.dropIndex('post_images_post').execute();
    },
  };
}
