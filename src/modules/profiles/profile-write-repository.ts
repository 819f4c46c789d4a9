import type { Insertable, Kysely } from 'kysely';
import type { ChangeFeed } from '../../change-feed/change-feed.js';
import { forgetContent } from '../../change-feed/change-log.js';
import type { DB, ProfilesTable } from '../../db/schema.js';
import { inTransaction, writeTransaction, type WriteUnit } from '../../writes/write-unit.js';

/**
 * The SQL of changing a member's profile. Every write of a profile first empties the content of the profile's
 * earlier changes in the feed (a section hidden now must not be read in an older change), then records
 * `profile.updated` when the profile is public after it (the feed completes it with the public read) or
 * `profile.deleted` when it was public before and is not now; the search log and the `profiles` data version move
 * with it either way (write-unit.ts).
 */
export class ProfileWriteRepository {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly feed?: Pick<ChangeFeed, 'publish'>,
    private readonly clock: () => number = Date.now,
    private readonly unit?: WriteUnit,
  ) {}

  transaction<T>(work: (repository: ProfileWriteRepository) => Promise<T>): Promise<T> {
    return writeTransaction(
      this.db,
      this.feed,
      (unit) => new ProfileWriteRepository(unit.db, undefined, this.clock, unit),
      work,
    );
  }

  /** The member's row with their profile's, when they have one. */
  member(userId: number) {
    return this.db
      .selectFrom('users as u')
      .leftJoin('profiles as p', 'p.user_id', 'u.id')
      .select(['u.id', 'u.handle', 'u.disabled_at', 'p.visibility', 'p.created_at'])
      .where('u.id', '=', userId)
      .executeTakeFirst();
  }

  /** Writes the member's whole profile row (created on its first write). */
  async save(row: Insertable<ProfilesTable>): Promise<void> {
    const { user_id: _, created_at: __, ...change } = row;
    await this.db
      .insertInto('profiles')
      .values(row)
      .onConflict((oc) => oc.column('user_id').doUpdateSet(change))
      .execute();
  }

  /** Deletes the member's profile. */
  async remove(userId: number): Promise<void> {
    await this.db.deleteFrom('profiles').where('user_id', '=', userId).execute();
  }

  /**
   * Records that the profile of `userId` (known to the feed as `handle`) changed: public before and after as given.
   * Its earlier changes keep their type and time but lose their content.
   */
  async recordChange(userId: number, handle: string, publicBefore: boolean, publicAfter: boolean): Promise<void> {
    await forgetContent(this.db, 'profile', handle);
    await inTransaction(this.unit).record(this.clock(), {
      resource: 'profile',
      id: userId,
      publicId: handle,
      change: publicAfter ? 'profile.updated' : publicBefore ? 'profile.deleted' : null,
      companyId: null,
    });
  }
}
