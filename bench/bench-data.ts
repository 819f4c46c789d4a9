import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../src/db/database.js';

/** The company directory of the data sets from 100,000 posts up: the real service indexes some 170,000 companies. */
export const BENCH_COMPANIES = 200_000;

/**
 * What the data set of `npm run bench` holds for `posts` posts: a fifth as many jobs, a fiftieth as many events,
 * twice as many companies up to the directory's 200,000 (made first: posts, jobs and events belong to them), and as
 * many members' profiles as posts.
 */
export const benchDataCounts = (posts: number) => ({
  companies: Math.min(BENCH_COMPANIES, posts * 2),
  posts,
  jobs: Math.round(posts / 5),
  events: Math.round(posts / 50),
  profiles: posts,
});

/** The name of that data set: its SQLite file and PostgreSQL schema are named after it. */
export function benchDataName(posts: number): string {
  const { jobs, events, companies, profiles } = benchDataCounts(posts);
  return `bench-${posts}-${jobs}-${events}-${companies}-${profiles}`;
}

/** The data set `npm run bench` generates at 1M posts, and the tools that measure parts of the service read. */
export const BENCH_DATA_NAME = benchDataName(1_000_000);

/** bench/data/<name>.sqlite, or the PostgreSQL schema of that name in BENCH_DATABASE_URL (or TEST_DATABASE_URL). */
export function openBenchData(kind: string, name = BENCH_DATA_NAME): Database {
  if (kind === 'sqlite') return openDatabase({ kind: 'sqlite', url: path.resolve('bench/data', `${name}.sqlite`) });
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!url)
    throw new Error('Set BENCH_DATABASE_URL to the PostgreSQL database `npm run bench -- --db postgres` filled');
  return openDatabase({ kind: 'postgres', url, searchPath: name.replace(/-/g, '_') });
}

/**
 * The saved copy of an index (`posts.idx`, `jobs.idx`) that the service of `npm run bench` keeps beside the data
 * set, or null when there is none (the index is then built from the tables).
 */
export function benchIndexCopy(kind: string, file: string, name = BENCH_DATA_NAME): string | null {
  const copy = path.resolve('bench/data', `${name}${kind === 'postgres' ? '-postgres' : ''}.search-index`, file);
  return fs.existsSync(copy) ? copy : null;
}

/**
 * Reads a SQLite file through once, so that what runs next finds it in the system's page cache. This machine evicts
 * cold file pages on its own, and a run on a partly evicted file measures the disk (docs/performance.md, "The page
 * cache"); a server's working set is resident, so the benchmarks start from there.
 */
export function fileInPageCache(file: string): void {
  const buffer = Buffer.allocUnsafe(8 << 20);
  const fd = fs.openSync(file, 'r');
  try {
    while (fs.readSync(fd, buffer, 0, buffer.length, null) > 0) {
      /* read through */
    }
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The same for a PostgreSQL schema: every table, index and TOAST relation of it read into the system's page cache
 * (`pg_prewarm` in its `read` mode, which leaves PostgreSQL's own buffers as they are). Without it a run measured
 * the disk: this machine had evicted the files, and a page of 50 random posts' items took 5-8 ms in the server
 * instead of 1.3-2 ms (docs/performance.md). Where the extension cannot be made, the run goes on and says so.
 */
export async function schemaInPageCache(database: Database, schema: string): Promise<void> {
  try {
    await sql`CREATE EXTENSION IF NOT EXISTS pg_prewarm SCHEMA public`.execute(database.db);
    const { rows } = await sql<{ bytes: string }>`
      WITH rels AS (
        SELECT oid FROM pg_class WHERE relnamespace = ${schema}::regnamespace AND relkind IN ('r', 'i', 'm')
        UNION SELECT reltoastrelid FROM pg_class WHERE relnamespace = ${schema}::regnamespace AND reltoastrelid <> 0
      )
      SELECT sum(public.pg_prewarm(oid, 'read')) * current_setting('block_size')::int AS bytes
      FROM (SELECT oid FROM rels UNION SELECT indexrelid FROM pg_index WHERE indrelid IN (SELECT oid FROM rels)) r`.execute(
      database.db,
    );
    console.log(`  read ${Math.round(Number(rows[0]?.bytes ?? 0) / 2 ** 20)} MB of ${schema} into the page cache`);
  } catch (err) {
    console.warn(
      `  could not read ${schema} into the page cache (${(err as Error).message}): this run measures the disk too`,
    );
  }
}

/** The data set `openBenchData` opened, read into the system's page cache (the tools that measure in process). */
export async function benchDataInPageCache(database: Database, name = BENCH_DATA_NAME): Promise<void> {
  if (database.adapter.name === 'postgres') await schemaInPageCache(database, name.replace(/-/g, '_'));
  else fileInPageCache(path.resolve('bench/data', `${name}.sqlite`));
}
