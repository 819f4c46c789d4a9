import path from 'node:path';
import { openDatabase, type Database } from '../src/db/database.js';

/** The data set `npm run bench` generates at 1M posts, and the tools that measure parts of the service read. */
export const BENCH_DATA_NAME = 'bench-1000000-200000-20000';

/** bench/data/<name>.sqlite, or the PostgreSQL schema of that name in BENCH_DATABASE_URL (or TEST_DATABASE_URL). */
export function openBenchData(kind: string): Database {
  if (kind === 'sqlite') return openDatabase({ kind: 'sqlite', url: path.resolve('bench/data', `${BENCH_DATA_NAME}.sqlite`) });
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('Set BENCH_DATABASE_URL to the PostgreSQL database `npm run bench -- --db postgres` filled');
  return openDatabase({ kind: 'postgres', url, searchPath: BENCH_DATA_NAME.replace(/-/g, '_') });
}
