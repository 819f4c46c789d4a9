import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * When the database cannot be reached or does not answer in time. PostgreSQL: the pool found no connection
 * within DATABASE_CONNECT_TIMEOUT_MS, a statement got no answer within DATABASE_QUERY_TIMEOUT_MS (a paused or
 * partitioned server enforces no timeout of its own), the connection broke, or the server refuses connections
 * (shutting down, starting, out of connection slots). SQLite: another process held the write lock past
 * busy_timeout. Either: the disk is full. The request is answered 503 C9998 with Retry-After
 * (plugins/error-handler.ts), and logged; the rate-limit counters count in the process meanwhile.
 */
export function databaseUnavailable(err: unknown): string | null {
  if (typeof err !== 'object' || err === null) return null;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (code.startsWith('SQLITE_BUSY')) return 'the database is locked by another writer';
    if (code === 'SQLITE_FULL' || code === '53100' || code === 'ENOSPC') return "the database's disk is full";
    // Class 08: connection exceptions; 57P01-03: admin shutdown, crash shutdown, cannot connect now; 53300: too many connections.
    if (code.startsWith('08') || ['57P01', '57P02', '57P03', '53300'].includes(code))
      return `the database refused or dropped the connection (${code})`;
    if (
      [
        'ECONNREFUSED',
        'ECONNRESET',
        'ETIMEDOUT',
        'EHOSTUNREACH',
        'ENETUNREACH',
        'EPIPE',
        'ENOTFOUND',
        'EAI_AGAIN',
      ].includes(code)
    )
      return `the database could not be reached (${code})`;
  }
  if (typeof message !== 'string') return null;
  if (message === 'Query read timeout') return 'the database did not answer in time';
  if (/timeout exceeded when trying to connect|Connection terminated due to connection timeout/.test(message))
    return 'no database connection came free in time';
  if (/Connection terminated|not queryable|Client was closed/.test(message)) return 'the database connection broke';
  return null;
}

const unbounded = new AsyncLocalStorage<true>();

/** Runs `work` with no time limit on its statements (migrations, which may rewrite large tables). */
export function withoutQueryTimeLimit<T>(work: () => Promise<T>): Promise<T> {
  return unbounded.run(true, work);
}

/** The time limit for a statement started now: `limitMs`, or none inside withoutQueryTimeLimit. */
export function queryTimeLimit(limitMs: number | undefined): number | undefined {
  return unbounded.getStore() ? undefined : limitMs;
}
