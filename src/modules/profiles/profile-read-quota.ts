import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { ApiError } from '../../shared/api-error.js';

const DAY_MS = 86_400_000;

/**
 * How many distinct profiles a caller (an app) reads through details in a UTC day (PROFILE_READS_PER_DAY,
 * docs/profiles.md "Harvesting"). A profile read again the same day costs nothing more. Counted in the database,
 * so every instance shares one count: the day's counter row is raised only while it is below the bound, in the
 * transaction that records the profile, so two instances reading at once can never pass it together.
 */
export class ProfileReadQuota {
  private prunedDay = -1;

  constructor(
    private readonly db: Kysely<DB>,
    readonly perDay: number,
    private readonly clock: () => number,
  ) {}

  /** Records that `caller` reads the profile of `userId` now; 429 C0010 when that would pass the day's bound. */
  async admit(caller: string, userId: number): Promise<void> {
    const now = this.clock();
    const day = Math.floor(now / DAY_MS);
    if (day !== this.prunedDay) await this.prune(day);
    const seen = await this.db
      .selectFrom('profile_reads')
      .select('user_id')
      .where('caller', '=', caller)
      .where('day', '=', day)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (seen) return;
    const admitted = await this.db
      .transaction()
      .execute(async (trx) => {
        const added = await trx
          .insertInto('profile_reads')
          .values({ caller, day, user_id: userId })
          .onConflict((oc) => oc.doNothing())
          .returning('user_id')
          .execute();
        if (added.length === 0) return true;
        const counted = await trx
          .insertInto('profile_read_days')
          .values({ caller, day, reads: 1 })
          .onConflict((oc) =>
            oc
              .columns(['caller', 'day'])
              .doUpdateSet((eb) => ({ reads: eb('profile_read_days.reads', '+', 1) }))
              .where('profile_read_days.reads', '<', this.perDay),
          )
          .returning('reads')
          .execute();
        // Past the bound: nothing of this read is kept.
        if (counted.length === 0) throw new OverQuota();
        return true;
      })
      .catch((err: unknown) => {
        if (err instanceof OverQuota) return false;
        throw err;
      });
    if (!admitted) {
      const retryAfter = Math.max(1, Math.ceil(((day + 1) * DAY_MS - now) / 1000));
      throw new ApiError(
        'C0010',
        `This app has read ${this.perDay} distinct profiles today, the most a day allows (PROFILE_READS_PER_DAY); profiles read today can be read again, others from 00:00 UTC, in ${retryAfter} s`,
        'profile.read',
        { 'Retry-After': String(retryAfter), 'X-SVC-RateLimit-Scope': 'profile.read' },
      );
    }
  }

  /** The distinct profiles `caller` has read today. */
  async readToday(caller: string): Promise<number> {
    const row = await this.db
      .selectFrom('profile_read_days')
      .select('reads')
      .where('caller', '=', caller)
      .where('day', '=', Math.floor(this.clock() / DAY_MS))
      .executeTakeFirst();
    return Number(row?.reads ?? 0);
  }

  /** Days before yesterday bound nothing any more: their rows go (once a day per instance). */
  private async prune(day: number): Promise<void> {
    this.prunedDay = day;
    await this.db
      .deleteFrom('profile_reads')
      .where('day', '<', day - 1)
      .execute();
    await this.db
      .deleteFrom('profile_read_days')
      .where('day', '<', day - 1)
      .execute();
  }
}

class OverQuota extends Error {}
