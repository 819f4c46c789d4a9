/**
 * What the usage count and the request log share: the request path only adds to memory, and a timer writes what was
 * added every few seconds, as background work (its statements are not counted as any request's), one write at a time,
 * and once more when the process stops.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { backgroundWork } from '../../db/prepared-reads.js';

export class PeriodicWrite {
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly write: () => Promise<void>,
    intervalMs: number,
  ) {
    this.timer = setInterval(() => {
      void backgroundWork.run(true, () => this.flush());
    }, intervalMs);
    this.timer.unref();
  }

  /** Writes what is held now, after any write under way; a failed write is retried by the next. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write()).catch(() => undefined);
    return this.flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}

/** The app of each OAuth client among `clientIds` that has one: a Bearer call counts for its client's app. */
export async function appsOfClients(db: Kysely<DB>, clientIds: string[]): Promise<Map<string, number>> {
  const apps = new Map<string, number>();
  if (clientIds.length === 0) return apps;
  const rows = await db
    .selectFrom('oauth_clients')
    .select(['client_id', 'app_id'])
    .where('client_id', 'in', clientIds)
    .where('app_id', 'is not', null)
    .execute();
  for (const row of rows) apps.set(row.client_id, Number(row.app_id));
  return apps;
}
