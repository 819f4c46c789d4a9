import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import type { MediaStore } from './media-store.js';

const PAGE = 500;

/** Media in the database, so that several instances serve the same files (MEDIA_STORE=database). */
export class DatabaseMediaStore implements MediaStore {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: () => number,
  ) {}

  async put(key: string, bytes: Buffer, contentType: string): Promise<void> {
    await this.db
      .insertInto('media_objects')
      .values({ media_key: key, content_type: contentType, bytes, created_at: this.clock() })
      .execute();
  }

  async get(key: string) {
    const row = await this.db
      .selectFrom('media_objects')
      .select(['bytes', 'content_type'])
      .where('media_key', '=', key)
      .executeTakeFirst();
    return row ? { bytes: Buffer.from(row.bytes), contentType: row.content_type } : null;
  }

  async delete(key: string): Promise<void> {
    await this.db.deleteFrom('media_objects').where('media_key', '=', key).execute();
  }

  async *keysStoredBefore(before: number): AsyncIterable<string[]> {
    for (let after = ''; ; ) {
      const keys = (
        await this.db
          .selectFrom('media_objects')
          .select('media_key')
          .where('created_at', '<', before)
          .where('media_key', '>', after)
          .orderBy('media_key')
          .limit(PAGE)
          .execute()
      ).map((r) => r.media_key);
      if (keys.length === 0) return;
      yield keys;
      after = keys[keys.length - 1]!;
    }
  }

  /** A row is written whole or not at all: nothing is ever left half-done. */
  async removeUnfinished(): Promise<number> {
    return 0;
  }
}
