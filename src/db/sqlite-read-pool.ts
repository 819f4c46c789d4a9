import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

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
const statements = new Map();
parentPort.on('message', ({ id, sql, parameters }) => {
  try {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
      if (statements.size > 500) statements.delete(statements.keys().next().value);
    }
    parentPort.postMessage({ id, rows: statement.all(parameters) });
  } catch (err) {
    parentPort.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
});
`;

interface Pending { resolve(rows: unknown[]): void; reject(err: Error): void }

interface Reader { worker: Worker; pending: Map<number, Pending> }

/**
 * Read-only SQLite connections in worker threads, for the long reads (search counts and rankings over
 * many matches). better-sqlite3 runs a query on the thread that calls it, so on the main thread a search
 * taking 100 ms would hold up every other request for those 100 ms. WAL lets these connections read the
 * latest committed data while the main connection writes. Each read goes to the worker with the fewest
 * reads waiting.
 */
export class SqliteReadPool {
  private readonly readers: Reader[] = [];
  private readonly driver = createRequire(import.meta.url).resolve('better-sqlite3');
  private nextId = 0;
  private closed = false;

  /** Workers start at the first read, so commands that never search start none. */
  constructor(private readonly file: string, private readonly size: number) {}

  execute<R>(query: ReadQuery): Promise<R[]> {
    if (this.closed) return Promise.reject(new Error('The database is closed'));
    while (this.readers.length < this.size) this.readers.push(this.start());
    let reader = this.readers[0]!;
    for (const candidate of this.readers) if (candidate.pending.size < reader.pending.size) reader = candidate;
    const id = this.nextId++;
    return new Promise<R[]>((resolve, reject) => {
      if (reader.pending.size === 0) reader.worker.ref();
      reader.pending.set(id, { resolve: resolve as (rows: unknown[]) => void, reject });
      reader.worker.postMessage({ id, sql: query.sql, parameters: query.parameters });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.readers.map((reader) => reader.worker.terminate()));
  }

  private start(): Reader {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file: this.file, driver: this.driver } });
    const reader: Reader = { worker, pending: new Map() };
    const settle = (id: number): Pending | undefined => {
      const waiting = reader.pending.get(id);
      reader.pending.delete(id);
      // An idle worker must not keep the process alive.
      if (reader.pending.size === 0) worker.unref();
      return waiting;
    };
    worker.on('message', (message: { id: number; rows?: unknown[]; error?: string }) => {
      const waiting = settle(message.id);
      if (message.error !== undefined) waiting?.reject(new Error(message.error));
      else waiting?.resolve(message.rows ?? []);
    });
    worker.on('error', (err) => { for (const id of [...reader.pending.keys()]) settle(id)?.reject(err); });
    worker.on('exit', () => {
      for (const id of [...reader.pending.keys()]) settle(id)?.reject(new Error('An SQLite read worker stopped'));
      // A worker that died is replaced at the next read.
      const index = this.readers.indexOf(reader);
      if (index >= 0) this.readers.splice(index, 1);
    });
    worker.unref();
    return reader;
  }
}
