/**
 * What one distinct post search costs the database, phase by phase, with no HTTP and no caches: the
 * realistic workload's post searches replayed one after another against the repository.
 *   npm run bench:search-cost -- [--db sqlite|postgres] [--count 200]
 * Uses the data set `npm run bench` generated (bench/data/bench-1000000-200000-20000.sqlite, or the
 * PostgreSQL schema bench_1000000_200000_20000 of BENCH_DATABASE_URL).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Value } from '@sinclair/typebox/value';
import { openDatabase, type Database } from '../src/db/database.js';
import { PostRepository, type PostSearchFilter } from '../src/modules/posts/post-repository.js';
import { PostSearchQuery, type PostSearchQueryInput } from '../src/modules/posts/post-schemas.js';
import { postSearchFilter } from '../src/modules/posts/post-service.js';
import { AccountsRepository } from '../src/modules/accounts/accounts-repository.js';
import { loadConfig } from '../src/config.js';
import { realisticWorkload } from './realistic.js';

const NAME = 'bench-1000000-200000-20000';

function open(kind: string): Database {
  if (kind === 'sqlite') return openDatabase({ kind: 'sqlite', url: path.resolve('bench/data', `${NAME}.sqlite`) });
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('Set BENCH_DATABASE_URL to the PostgreSQL database `npm run bench -- --db postgres` filled');
  return openDatabase({ kind: 'postgres', url, searchPath: NAME.replace(/-/g, '_') });
}

/** The repository filter of a workload URL: its query read as the route's schema reads it, then the service's own filter. */
function filterOf(url: string): Promise<PostSearchFilter | null> {
  const raw = Object.fromEntries(new URL(url, 'http://x').searchParams);
  const query = Value.Default(PostSearchQuery, Value.Convert(PostSearchQuery, raw)) as PostSearchQueryInput;
  return postSearchFilter(query, timeZone, (handle) => accounts.companyIdByHandle(handle));
}

const { values } = parseArgs({ options: { db: { type: 'string', default: 'sqlite' }, count: { type: 'string', default: '200' } } });
const database = open(values.db!);
const accounts = new AccountsRepository(database.db, Date.now);
const { serviceTimeZone: timeZone } = loadConfig();
const byStatement = new Map<string, number[]>();
const timedReads: typeof database.longReads = async (query) => {
  const compiled = query.compile();
  const offset = Number(compiled.parameters.at(-1));
  const shape = (compiled.sql.includes('OFFSET') && offset >= 10_000 ? '[kth] ' : '') + compiled.sql.replace(/\$\d+/g, '?').replace(/(doc_id BETWEEN \? AND \? OR )+/g, '… OR ').replace(/(\(SELECT count\(\*\).*?\) \+ )+/g, '… + ');
  const t = performance.now();
  try {
    return await database.longReads(query);
  } finally {
    const times = byStatement.get(shape) ?? [];
    times.push(performance.now() - t);
    byStatement.set(shape, times);
  }
};
// One data version throughout: the page phase finds its count kept, as the service's second read does.
const posts = new PostRepository(database.db, database.adapter, timedReads, { read: async () => 1 });
const w = await realisticWorkload(database);
const phases = { count: [] as number[], page: [] as number[], total: [] as number[] };
const slowest: Array<{ ms: number; url: string; total: number }> = [];
for (let i = 0; i < Number(values.count); i++) {
  const url = w.postSearch();
  const filter = await filterOf(url);
  if (!filter) continue;
  const { query, range } = posts.indexQuery(filter);
  const t0 = performance.now();
  const total = await posts.index.count(query, range);
  const t1 = performance.now();
  if (total > filter.offset) await posts.search(filter);
  const t2 = performance.now();
  phases.count.push(t1 - t0);
  phases.page.push(t2 - t1);
  phases.total.push(t2 - t0);
  slowest.push({ ms: t2 - t0, url, total });
}
const stats = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!.toFixed(1);
  return `mean ${(xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(1)} ms, p50 ${at(0.5)}, p90 ${at(0.9)}, p99 ${at(0.99)}`;
};
console.log(`${values.db}: ${phases.total.length} distinct post searches, one after another`);
console.log(`  count (exact to 10,000, else estimated): ${stats(phases.count)}`);
console.log(`  page (ids of the page, RELEVANCE candidates ranked): ${stats(phases.page)}`);
console.log(`  whole search: ${stats(phases.total)}`);
console.log('  slowest:');
for (const s of slowest.sort((a, b) => b.ms - a.ms).slice(0, 8)) console.log(`    ${s.ms.toFixed(0)} ms  total ${s.total}  ${s.url}`);
console.log('  by statement (count, mean, p90):');
for (const [shape, ms] of [...byStatement].sort((a, b) => b[1].reduce((x, y) => x + y, 0) - a[1].reduce((x, y) => x + y, 0))) {
  console.log(`    ${ms.length} × ${stats(ms)}  ${shape.slice(0, 160)}`);
}
await database.close();
