import type { Kysely } from 'kysely';
import { bumpDataVersion, type DataVersion } from '../../cache/data-version.js';
import type { DialectAdapter } from '../../db/dialects/dialect-adapter.js';
import type { DB } from '../../db/schema.js';
import { reindexJobs } from '../../search/search-documents.js';

/**
 * Keeps the job index holding exactly the jobs hiring now. Writes index a job as it is when written; time
 * alone opens and closes recruiting windows, so before a search this brings in the jobs whose start came and
 * takes out those whose end passed since the last sweep (in either direction: a clock set back works too).
 * The moment of the last sweep is in the database, so every instance and every restart continues from it;
 * two instances sweeping at once write the same documents.
 */
export class HiringSweep {
  /** Nothing can change before this moment, unless a write (a new data version) says otherwise. */
  private quietUntil = Number.NEGATIVE_INFINITY;
  private quietSince = Number.POSITIVE_INFINITY;
  private quietVersion = -1;
  private running: Promise<void> | null = null;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly adapter: DialectAdapter,
    private readonly version: DataVersion,
    private readonly nextChange: (now: number) => Promise<number>,
  ) {}

  /** Makes the index show the hiring jobs of `now`; answers at once when nothing can have changed. */
  async upTo(now: number): Promise<void> {
    const version = await this.version.read();
    if (version === this.quietVersion && now >= this.quietSince && now < this.quietUntil) return;
    // One sweep at a time; a caller that arrives during one sweeps again after it, for its own moment.
    while (this.running) await this.running;
    this.running = this.sweep(now).finally(() => { this.running = null; });
    await this.running;
  }

  private async sweep(now: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('search_sweeps').select('swept_at').where('name', '=', 'job_hiring').executeTakeFirst();
      const sweptAt = row ? Number(row.swept_at) : now;
      if (sweptAt === now) return;
      const [from, to] = sweptAt < now ? [sweptAt, now] : [now, sweptAt];
      const changed = await trx.selectFrom('jobs').select('id').where('status', '=', 'published')
        .where((eb) => eb.or([
          eb.and([eb('start_at', '>', from), eb('start_at', '<=', to)]),
          eb.and([eb('end_at', '>', from), eb('end_at', '<=', to)]),
        ])).execute();
      await reindexJobs(trx, this.adapter, changed.map((r) => r.id), now);
      await trx.updateTable('search_sweeps').set({ swept_at: now }).where('name', '=', 'job_hiring').execute();
      if (changed.length) await bumpDataVersion(trx, 'jobs', changed.length);
    });
    this.quietVersion = await this.version.read();
    this.quietSince = now;
    this.quietUntil = await this.nextChange(now);
  }
}
