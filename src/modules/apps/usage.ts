/**
 * Calls per app, counted by minute, operation and status class for the console's usage page.
 *
 * Counting must not slow the request path. A response adds one to a number in a Map (no I/O, no promise).
 * A timer moves the counts to the database every few seconds, in one transaction of upserts that add to
 * what is there, so instances sharing the database add up. Bearer calls are counted for the app of the
 * token's client, which is resolved when the counts are written, not per request. Counts still in memory
 * when the process stops are written on close; a crash loses at most one interval of usage, never a write of
 * the API.
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { appsOfClients, PeriodicWrite } from './periodic-write.js';

const MINUTE = 60_000;
const DAY = 86_400_000;
/** Minutes kept: the 30 days the usage page shows, and the day before. */
const KEEP_MS = 31 * DAY;

export type StatusClass = '2xx' | '3xx' | '4xx' | '5xx' | '429';

export const statusClass = (status: number): StatusClass =>
  status === 429 ? '429' : status >= 500 ? '5xx' : status >= 400 ? '4xx' : status >= 300 ? '3xx' : '2xx';

interface Pending {
  subject: string;
  minute: number;
  operation: string;
  statusClass: StatusClass;
  calls: number;
}

export class UsageCounter {
  private pending = new Map<string, Pending>();
  private readonly writer: PeriodicWrite;
  private lastPrune = 0;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: () => number,
    intervalMs = 5_000,
  ) {
    this.writer = new PeriodicWrite(() => this.write(), intervalMs);
  }

  /** One call: `subject` is `app:ID` (an app key) or `client:ID` (a Bearer token's OAuth client). */
  count(subject: string, operation: string, status: number): void {
    const minute = Math.floor(this.clock() / MINUTE) * MINUTE;
    const cls = statusClass(status);
    const key = `${subject}|${minute}|${operation}|${cls}`;
    const entry = this.pending.get(key);
    if (entry) entry.calls += 1;
    else this.pending.set(key, { subject, minute, operation, statusClass: cls, calls: 1 });
  }

  /** Writes what was counted since the last flush (one at a time; a failed write keeps its counts for the next). */
  flush(): Promise<void> {
    return this.writer.flush();
  }

  close(): Promise<void> {
    return this.writer.close();
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    try {
      const appOfClient = await appsOfClients(this.db, [
        ...new Set(batch.filter((e) => e.subject.startsWith('client:')).map((e) => e.subject.slice('client:'.length))),
      ]);
      const rows = batch.flatMap((e) => {
        const appId = e.subject.startsWith('app:')
          ? Number(e.subject.slice(4))
          : appOfClient.get(e.subject.slice('client:'.length));
        return appId === undefined
          ? []
          : [{ app_id: appId, minute: e.minute, operation: e.operation, status_class: e.statusClass, calls: e.calls }];
      });
      await this.db.transaction().execute(async (trx) => {
        for (let i = 0; i < rows.length; i += 200) {
          await trx
            .insertInto('app_usage')
            .values(rows.slice(i, i + 200))
            .onConflict((oc) =>
              oc
                .columns(['app_id', 'minute', 'operation', 'status_class'])
                .doUpdateSet({ calls: sql`app_usage.calls + excluded.calls` }),
            )
            .execute();
        }
      });
      const now = this.clock();
      if (now - this.lastPrune > DAY) {
        this.lastPrune = now;
        await this.db
          .deleteFrom('app_usage')
          .where('minute', '<', now - KEEP_MS)
          .execute();
      }
    } catch (err) {
      // Put the counts back so the next interval writes them.
      for (const e of batch) {
        const key = `${e.subject}|${e.minute}|${e.operation}|${e.statusClass}`;
        const entry = this.pending.get(key);
        if (entry) entry.calls += e.calls;
        else this.pending.set(key, e);
      }
      throw err;
    }
  }
}

export interface UsageReport {
  /** The last 60 minutes, oldest first: calls by status class. */
  minutes: Array<{ at: number; byClass: Record<StatusClass, number> }>;
  /** The last 30 days (UTC), oldest first. */
  days: Array<{ at: number; byClass: Record<StatusClass, number> }>;
  /** The last 30 days by operation. */
  operations: Array<{ operation: string; calls: number; refused: number }>;
  /** Calls counted against the global limit in the current minute and UTC day (429s are not). */
  thisMinute: number;
  today: number;
}

const emptyClasses = (): Record<StatusClass, number> => ({ '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0, '429': 0 });

export async function usageReport(db: Kysely<DB>, appId: number, now: number): Promise<UsageReport> {
  const thisMinute = Math.floor(now / MINUTE) * MINUTE;
  const today = Math.floor(now / DAY) * DAY;
  const rows = await db
    .selectFrom('app_usage')
    .select(['minute', 'operation', 'status_class', 'calls'])
    .where('app_id', '=', appId)
    .where('minute', '>=', today - 29 * DAY)
    .execute();
  const minutes = Array.from({ length: 60 }, (_, i) => ({
    at: thisMinute - (59 - i) * MINUTE,
    byClass: emptyClasses(),
  }));
  const days = Array.from({ length: 30 }, (_, i) => ({ at: today - (29 - i) * DAY, byClass: emptyClasses() }));
  const operations = new Map<string, { calls: number; refused: number }>();
  let minuteCalls = 0;
  let dayCalls = 0;
  for (const row of rows) {
    const minute = Number(row.minute);
    const calls = Number(row.calls);
    const cls = row.status_class as StatusClass;
    const m = minutes[59 - (thisMinute - minute) / MINUTE];
    if (m) m.byClass[cls] += calls;
    const d = days[29 - Math.floor((today - Math.floor(minute / DAY) * DAY) / DAY)];
    if (d) d.byClass[cls] += calls;
    const op = operations.get(row.operation) ?? { calls: 0, refused: 0 };
    op.calls += calls;
    if (cls === '429') op.refused += calls;
    operations.set(row.operation, op);
    if (cls !== '429' && minute === thisMinute) minuteCalls += calls;
    if (cls !== '429' && minute >= today) dayCalls += calls;
  }
  return {
    minutes,
    days,
    thisMinute: minuteCalls,
    today: dayCalls,
    operations: [...operations].map(([operation, v]) => ({ operation, ...v })).sort((a, b) => b.calls - a.calls),
  };
}
