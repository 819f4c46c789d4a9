import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { queryTimeLimit } from './database-unavailable.js';
import { ClientGoneError, readScope, ReadTimeoutError } from './read-scope.js';

/**
 * Each connection's page cache, in SQLite's terms (negative: KiB): 4 MB, where better-sqlite3's build sets 16 MB
 * for every connection (the main one and each read worker). What a cache this size misses is a read from the
 * operating system's file cache; what it keeps are the B-trees' inner pages, which every lookup by key passes
 * through. Random reads of rows among a million miss any cache of a few megabytes alike.
 */
export const SQLITE_CACHE_SIZE = -4000;

/**
 * How much of the database file each connection reads through a memory map (SQLite's own ceiling, which larger
 * values are cut to). A page its cache misses is then read from the operating system's file cache in place, where a
 * read otherwise costs a system call and a copy of the page: most of what a random row read costs once the cache is
 * missed (docs/performance.md, "Reading rows"). Only reads use the map; writes go through the WAL as before. The
 * mapped pages are the kernel's file cache, shared and given back under memory pressure, though they count in RSS.
 */
export const SQLITE_MMAP_BYTES = 0x7fff0000;

/** A read to run elsewhere: SQL text and its parameters, as Kysely compiles them. */
export interface ReadQuery {
  sql: string;
  parameters: readonly unknown[];
}

/**
 * The worker's whole program. It is plain JavaScript passed as text (`eval: true`) so that it runs the
 * same from the compiled service, under tsx and under Vitest, none of which would load a TypeScript
 * worker file the same way. Each worker holds one read-only connection and its prepared statements.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
db.pragma('cache_size = ' + workerData.cacheSize);
db.pragma('mmap_size = ' + workerData.mmapBytes);
const statements = new Map();
parentPort.on('message', ({ sql, parameters }) => {
  try {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
      if (statements.size > 500) statements.delete(statements.keys().next().value);
    }
    parentPort.postMessage({ rows: statement.all(parameters) });
  } catch (err) {
    parentPort.postMessage({ error: err instanceof Error ? err.message : String(err) });
  }
});
`;

/**
 * A worker's heap: it holds one connection's results at a time (at most a few thousand ids, or the texts of
 * a page's candidates), so a small young generation and a bounded old one keep each worker's share of the
 * process's memory small; V8's defaults let each grow to tens of megabytes of garbage between collections.
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 128 };

/** `limitMs`: when the read is stopped (undefined: never, for work no client waits for, such as an index build). */
interface Job {
  query: ReadQuery;
  signal?: AbortSignal;
  limitMs: number | undefined;
  resolve(rows: unknown[]): void;
  reject(err: Error): void;
}

interface Reader {
  worker: Worker;
  running: Job | null;
  timer: NodeJS.Timeout | null;
  idle: NodeJS.Timeout | null;
}

/**
 * A worker with nothing to read for this long ends (the next read starts one again, quickly): a V8 isolate and a
 * connection each, memory that a service whose searches all come from its indexes needs only while it builds them.
 */
export const READ_WORKER_IDLE_MS = 60_000;

/**
 * Read-only SQLite connections in worker threads, for the long reads (search counts, pages and rankings).
 * better-sqlite3 runs a query on the thread that calls it, so on the main thread a search taking 100 ms
 * would hold up every other request for those 100 ms. WAL lets these connections read the latest committed
 * data while the main connection writes.
 *
 * Reads wait in one queue here and each worker runs one at a time, so a read is started only when a worker
 * is free: a read whose client has left by then is dropped unrun, and a read running past `timeoutMs` (none inside
 * `withoutQueryTimeLimit`) is stopped by ending its worker (SQLite cannot interrupt a statement of another thread), which a fresh one
 * replaces. A worker left idle for `idleMs` ends too.
 */
export class SqliteReadPool {
  private readonly readers: Reader[] = [];
  private readonly queue: Job[] = [];
  private readonly driver = createRequire(import.meta.url).resolve('better-sqlite3');
  private closed = false;

  /** Workers start at the first read, so commands that never search start none. */
  constructor(
    private readonly file: string,
    private readonly size: number,
    private readonly timeoutMs: number,
    private readonly idleMs = READ_WORKER_IDLE_MS,
  ) {}

  execute<R>(query: ReadQuery): Promise<R[]> {
    const signal = readScope.getStore()?.signal;
    // A client that has left gets nothing run, and nothing to report when the service is shutting down.
    if (signal?.aborted) return Promise.reject(new ClientGoneError());
    if (this.closed) return Promise.reject(new Error('The database is closed'));
    return new Promise<R[]>((resolve, reject) => {
      this.queue.push({
        query,
        signal,
        limitMs: queryTimeLimit(this.timeoutMs),
        resolve: resolve as (rows: unknown[]) => void,
        reject,
      });
      this.dispatch();
    });
  }

  /** The workers started, those running a read, and the reads waiting for one. */
  stats(): { name: string; size: number; busy: number; waiting: number } {
    return {
      name: 'sqlite-read-workers',
      size: this.readers.length,
      busy: this.readers.filter((r) => r.running).length,
      waiting: this.queue.length,
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const reader of this.readers) if (reader.idle) clearTimeout(reader.idle);
    for (const job of this.queue.splice(0))
      job.reject(job.signal?.aborted ? new ClientGoneError() : new Error('The database is closed'));
    await Promise.all(this.readers.map((reader) => reader.worker.terminate()));
  }

  private dispatch(): void {
    while (this.readers.length < this.size) this.readers.push(this.start());
    for (const reader of this.readers) {
      if (reader.running) continue;
      let job = this.queue.shift();
      while (job?.signal?.aborted) {
        job.reject(new ClientGoneError());
        job = this.queue.shift();
      }
      if (!job) return;
      if (reader.idle) clearTimeout(reader.idle);
      reader.idle = null;
      reader.running = job;
      reader.worker.ref();
      const { limitMs } = job;
      reader.timer =
        limitMs === undefined ? null : setTimeout(() => this.stop(reader, new ReadTimeoutError(limitMs)), limitMs);
      reader.worker.postMessage({ sql: job.query.sql, parameters: job.query.parameters });
    }
  }

  /** The worker answered (or failed): its read is done. */
  private finish(reader: Reader): Job | null {
    const job = reader.running;
    reader.running = null;
    if (reader.timer) clearTimeout(reader.timer);
    reader.timer = null;
    // An idle worker must not keep the process alive, and ends after a while.
    reader.worker.unref();
    this.idleFrom(reader);
    return job;
  }

  /** Ends the worker after `idleMs` unless dispatch gives it a read first. */
  private idleFrom(reader: Reader): void {
    if (reader.idle) clearTimeout(reader.idle);
    reader.idle = setTimeout(() => this.stop(reader, null), this.idleMs);
    reader.idle.unref();
  }

  /** Ends a worker: one whose read failed or ran too long (`err` goes to that read), or one left idle (null). */
  private stop(reader: Reader, err: Error | null): void {
    const job = this.finish(reader);
    if (reader.idle) clearTimeout(reader.idle);
    if (err) job?.reject(err);
    this.readers.splice(this.readers.indexOf(reader), 1);
    void reader.worker.terminate();
    if (!this.closed && this.queue.length > 0) this.dispatch();
  }

  private start(): Reader {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { file: this.file, driver: this.driver, cacheSize: SQLITE_CACHE_SIZE, mmapBytes: SQLITE_MMAP_BYTES },
      resourceLimits: WORKER_LIMITS,
    });
    const reader: Reader = { worker, running: null, timer: null, idle: null };
    worker.on('message', (message: { rows?: unknown[]; error?: string }) => {
      const job = this.finish(reader);
      if (message.error !== undefined) job?.reject(new Error(message.error));
      else job?.resolve(message.rows ?? []);
      this.dispatch();
    });
    worker.on('error', (err) => {
      if (this.readers.includes(reader)) this.stop(reader, err);
    });
    worker.on('exit', () => {
      // A worker that died is replaced at the next read.
      if (this.readers.includes(reader)) this.stop(reader, new Error('An SQLite read worker stopped'));
    });
    worker.unref();
    this.idleFrom(reader);
    return reader;
  }
}
