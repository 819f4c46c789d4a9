/**
 * Each app's latest API requests, for the console's request log: when, which operation, the status, the error
 * code, the time taken and the request id. Nothing else about a request is kept: no body, header, key, token or
 * query. As with usage counting (usage.ts), the request path only appends to memory; a timer writes every few
 * seconds, and each app keeps its latest `perApp` requests, in memory and in the table.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { appsOfClients, PeriodicWrite } from './periodic-write.js';

export interface LoggedRequest {
  at: number;
  operation: string;
  status: number;
  code: string | null;
  durationMs: number;
  requestId: string;
}

/** The request log's filters: every request, the failed ones (status 400 and up), or one status class. */
export const REQUEST_FILTERS = ['all', 'errors', '2xx', '3xx', '4xx', '429', '5xx'] as const;
export type RequestFilter = (typeof REQUEST_FILTERS)[number];

/** Requests one page of the log shows. */
const SHOWN = 100;

export class RequestLog {
  /** By subject (`app:ID` or `client:ID`, as usage.ts counts them), oldest first, at most `perApp` each. */
  private pending = new Map<string, LoggedRequest[]>();
  private readonly writer: PeriodicWrite;

  constructor(
    private readonly db: Kysely<DB>,
    readonly perApp: number,
    intervalMs = 5_000,
  ) {
    this.writer = new PeriodicWrite(() => this.write(), intervalMs);
  }

  record(subject: string, request: LoggedRequest): void {
    let list = this.pending.get(subject);
    if (!list) this.pending.set(subject, (list = []));
    list.push(request);
    // A burst keeps only its newest: older ones would be pruned as soon as they were written.
    if (list.length > this.perApp * 2) list.splice(0, list.length - this.perApp);
  }

  /** Writes what was recorded since the last flush, then trims each app written to its latest `perApp`. */
  flush(): Promise<void> {
    return this.writer.flush();
  }

  close(): Promise<void> {
    return this.writer.close();
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    const appOfClient = await appsOfClients(
      this.db,
      [...batch.keys()].filter((s) => s.startsWith('client:')).map((s) => s.slice('client:'.length)),
    );
    const apps = new Set<number>();
    const rows = [...batch].flatMap(([subject, list]) => {
      const appId = subject.startsWith('app:')
        ? Number(subject.slice(4))
        : appOfClient.get(subject.slice('client:'.length));
      if (appId === undefined) return [];
      apps.add(appId);
      return list.slice(-this.perApp).map((r) => ({
        app_id: appId,
        at: r.at,
        operation: r.operation,
        status: r.status,
        code: r.code,
        duration_ms: r.durationMs,
        request_id: r.requestId,
      }));
    });
    await this.db.transaction().execute(async (trx) => {
      for (let i = 0; i < rows.length; i += 200)
        await trx
          .insertInto('app_requests')
          .values(rows.slice(i, i + 200))
          .execute();
      for (const appId of apps) {
        const oldestKept = await trx
          .selectFrom('app_requests')
          .select('id')
          .where('app_id', '=', appId)
          .orderBy('id', 'desc')
          .limit(1)
          .offset(this.perApp - 1)
          .executeTakeFirst();
        if (oldestKept)
          await trx.deleteFrom('app_requests').where('app_id', '=', appId).where('id', '<', oldestKept.id).execute();
      }
    });
  }
}

/** Status bounds of each filter; `4xx` leaves 429 to its own filter, as the usage page counts it apart. */
const BOUNDS: Record<RequestFilter, [number, number]> = {
  all: [0, 999],
  errors: [400, 999],
  '2xx': [200, 299],
  '3xx': [300, 399],
  '4xx': [400, 499],
  '429': [429, 429],
  '5xx': [500, 599],
};

/** The app's latest requests that pass `filter`, newest first (at most a page). */
export async function latestRequests(db: Kysely<DB>, appId: number, filter: RequestFilter): Promise<LoggedRequest[]> {
  const [low, high] = BOUNDS[filter];
  let query = db
    .selectFrom('app_requests')
    .select(['at', 'operation', 'status', 'code', 'duration_ms', 'request_id'])
    .where('app_id', '=', appId)
    .where('status', '>=', low)
    .where('status', '<=', high);
  if (filter === '4xx') query = query.where('status', '<>', 429);
  const rows = await query.orderBy('id', 'desc').limit(SHOWN).execute();
  return rows.map((r) => ({
    at: Number(r.at),
    operation: r.operation,
    status: Number(r.status),
    code: r.code,
    durationMs: Number(r.duration_ms),
    requestId: r.request_id,
  }));
}
