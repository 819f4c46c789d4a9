/**
 * A setup file that, only when RECORD_RELEASE_QUERIES names a folder, writes down every data statement this test
 * process runs (SQLite through better-sqlite3, PostgreSQL through pg) with up to three sets of its parameters, one
 * JSON line each, into a file of that folder: `npm run release:queries` runs the fast tier with it and keeps what a
 * release reads and writes (test/migration-compat.test.ts replays it after newer migrations).
 */
import fs from 'node:fs';
import path from 'node:path';

const folder = process.env.RECORD_RELEASE_QUERIES;

/** Statements a release issues against its own tables; DDL, transactions and catalog reads are not what a migration breaks. */
const DATA_STATEMENT = /^\s*(?:select|insert|update|delete|with)\b/i;
const CATALOG =
  /\b(?:sqlite_master|sqlite_schema|pg_catalog|information_schema|kysely_migration|pg_stat|pg_namespace|pg_class|pg_notify|pg_terminate_backend|pg_sleep)\b/i;

/** A parameter as JSON: bytes and big integers tagged, long text cut. */
function param(value: unknown): unknown {
  if (Buffer.isBuffer(value) || value instanceof Uint8Array)
    return { $bytes: Buffer.from(value).subarray(0, 64).toString('base64') };
  if (typeof value === 'bigint') return { $bigint: value.toString() };
  if (typeof value === 'string' && value.length > 2_000) return value.slice(0, 2_000);
  if (value instanceof Date) return value.toISOString();
  return value;
}

/** Set once the drivers are wrapped: a worker that runs several files (isolate: false) runs this file before each. */
const WRAPPED = Symbol.for('svc.query-recorder');

if (folder && !(globalThis as Record<symbol, unknown>)[WRAPPED]) {
  (globalThis as Record<symbol, unknown>)[WRAPPED] = true;
  // Loaded only when recording: every test file runs this setup.
  const [{ default: BetterSqlite3 }, { default: pg }] = await Promise.all([import('better-sqlite3'), import('pg')]);
  fs.mkdirSync(folder, { recursive: true });
  const file = path.join(folder, `${process.pid}.jsonl`);
  const seen = new Map<string, number>();
  const record = (engine: 'sqlite' | 'postgres', sql: unknown, params: unknown) => {
    if (typeof sql !== 'string' || !DATA_STATEMENT.test(sql) || CATALOG.test(sql)) return;
    const key = `${engine}\0${sql}`;
    const times = seen.get(key) ?? 0;
    if (times >= 3) return;
    seen.set(key, times + 1);
    const values = Array.isArray(params) ? params : params === undefined ? [] : [params];
    fs.appendFileSync(file, `${JSON.stringify({ engine, sql, params: values.map(param) })}\n`);
  };

  const probe = new BetterSqlite3(':memory:');
  const statement = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<string, (...args: unknown[]) => unknown>;
  probe.close();
  for (const method of ['run', 'get', 'all', 'iterate']) {
    const original = statement[method]!;
    statement[method] = function (this: { source: string }, ...args: unknown[]) {
      // Named parameters come as one object; positional ones as the arguments.
      record(
        'sqlite',
        this.source,
        args.length === 1 &&
          typeof args[0] === 'object' &&
          args[0] !== null &&
          !Buffer.isBuffer(args[0]) &&
          !Array.isArray(args[0])
          ? []
          : args.flat(),
      );
      return original.apply(this, args);
    };
  }

  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
    const [first, second] = args;
    if (typeof first === 'string') record('postgres', first, Array.isArray(second) ? second : []);
    else if (first && typeof first === 'object' && 'text' in first)
      record('postgres', (first as { text: unknown }).text, (first as { values?: unknown }).values);
    return query.apply(this, args);
  } as typeof pg.Client.prototype.query;
}
