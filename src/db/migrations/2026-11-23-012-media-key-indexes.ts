import type { Kysely, Migration } from 'kysely';

/** The media sweep asks which stored keys rows refer to: indexes on every column that holds an upload's key. */
export function mediaKeyIndexes(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.createIndex('post_images_media_key').on('post_images').column('media_key').execute();
      await db.schema.createIndex('job_images_media_key').on('job_images').column('media_key').execute();
      await db.schema.createIndex('events_banner_key').on('events').column('banner_key').execute();
    },
  };
}
