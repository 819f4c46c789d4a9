import fs from 'node:fs';
import path from 'node:path';
import { openDatabase, type Database } from '../src/db/database.js';

/** What the data set of `npm run bench` holds for `posts` posts: a fifth as many jobs and a fiftieth as many events. */
export const benchDataCounts = (posts: number) => ({ posts, jobs: Math.round(posts / 5), events: Math.round(posts / 50) });

/** The name of that data set: its SQLite file and PostgreSQL schema are named after it. */
export function benchDataName(posts: number): string {
  const { jobs, events } = benchDataCounts(posts);
  return `bench-${posts}-${jobs}-${events}`;
}

/** The data set `npm run bench` generates at 1M posts, and the tools that measure parts of the service read. */
export const BENCH_DATA_NAME = benchDataName(1_000_000);

/** bench/data/<name>.sqlite, or the PostgreSQL schema of that name in BENCH_DATABASE_URL (or TEST_DATABASE_URL). */
export function openBenchData(kind: string, name = BENCH_DATA_NAME): Database {
  if (kind === 'sqlite') return openDatabase({ kind: 'sqlite', url: path.resolve('bench/data', `${name}.sqlite`) });
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('Set BENCH_DATABASE_URL to the PostgreSQL database `npm run bench -- --db postgres` filled');
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
