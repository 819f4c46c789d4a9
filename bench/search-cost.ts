/**
 * What the post index costs, with no HTTP and no caches: its build from the tables (time, memory, size), then
 * the realistic workload's distinct post searches replayed one after another, each timed in CPU and wall time.
 *   npm run bench:search-cost -- [--db sqlite|postgres] [--count 2000] [--copy]
 * With --copy the index is loaded from a saved copy beside the data (made by the first run with --copy), and three
 * saves of that copy are timed.
 * Uses the data set `npm run bench` generated (bench/data/bench-1000000-200000-20000.sqlite, or the
 * PostgreSQL schema bench_1000000_200000_20000 of BENCH_DATABASE_URL).
 */
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { Value } from '@sinclair/typebox/value';
import { PostSearchQuery, type PostSearchQueryInput } from '../src/modules/posts/post-schemas.js';
import { postSearchFilter } from '../src/modules/posts/post-service.js';
import { AccountsRepository } from '../src/modules/accounts/accounts-repository.js';
import { PostIndex, type PostSearchFilter } from '../src/search/post-index.js';
import { loadConfig } from '../src/config.js';
import { BENCH_DATA_NAME, openBenchData } from './bench-data.js';
import { realisticWorkload } from './realistic.js';

/** The filter of a workload URL: its query read as the route's schema reads it, then the service's own filter. */
function filterOf(url: string): Promise<PostSearchFilter | null> {
  const raw = Object.fromEntries(new URL(url, 'http://x').searchParams);
  const query = Value.Default(PostSearchQuery, Value.Convert(PostSearchQuery, raw)) as PostSearchQueryInput;
  return postSearchFilter(query, timeZone, (handle) => accounts.companyIdByHandle(handle));
}

const { values } = parseArgs({ options: { db: { type: 'string', default: 'sqlite' }, count: { type: 'string', default: '2000' }, copy: { type: 'boolean', default: false } } });
const database = openBenchData(values.db!);
const accounts = new AccountsRepository(database.db, Date.now);
const { serviceTimeZone: timeZone } = loadConfig();

const rssBefore = process.memoryUsage().rss;
const index = new PostIndex(database, { read: async () => 1 }, values.copy ? path.resolve('bench/data', `${BENCH_DATA_NAME}.posts.idx`) : null);
await index.ready();
global.gc?.();
const stats = index.stats();
console.log(`${values.db}: post index of ${stats.items} posts ${stats.fromCopy ? 'loaded from its copy' : 'built from the tables'} in ${(stats.readyInMs / 1000).toFixed(1)} s; `
  + `${stats.tokens} tokens, ${(stats.bytes / 1e6).toFixed(0)} MB of bitmaps (${(stats.bytes / stats.items).toFixed(0)} bytes a post), `
  + `RSS +${((process.memoryUsage().rss - rssBefore) / 1e6).toFixed(0)} MB`);

if (values.copy) {
  // What saving the copy costs a serving instance (a timer does it every ten minutes while posts are written): the
  // whole save, how long it holds the event loop, and the resident memory it leaves.
  for (let i = 0; i < 3; i++) {
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    await setTimeout(20);
    const started = performance.now();
    await index.save();
    const took = performance.now() - started;
    await setTimeout(20);
    delay.disable();
    console.log(`  save of the copy: ${took.toFixed(0)} ms, the event loop held up to ${(delay.max / 1e6).toFixed(0)} ms, RSS ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB after`);
  }
}

const w = await realisticWorkload(database);
const filters: Array<{ url: string; filter: PostSearchFilter }> = [];
for (let i = 0; i < Number(values.count); i++) {
  const url = w.postSearch();
  const filter = await filterOf(url);
  if (filter) filters.push({ url, filter });
}
const cpu: number[] = [];
const slowest: Array<{ ms: number; url: string; total: number }> = [];
for (const { url, filter } of filters) {
  const before = process.cpuUsage();
  const { total } = await index.search(filter);
  const used = process.cpuUsage(before);
  const ms = (used.user + used.system) / 1000;
  cpu.push(ms);
  slowest.push({ ms, url, total });
}
const summary = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const at = (p: number) => (sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]! * 1000).toFixed(0);
  return `mean ${((xs.reduce((a, b) => a + b, 0) / xs.length) * 1000).toFixed(0)} µs, p50 ${at(0.5)}, p90 ${at(0.9)}, p99 ${at(0.99)}`;
};
console.log(`  ${cpu.length} distinct post searches, CPU per search: ${summary(cpu)}`);
console.log('  slowest:');
for (const s of slowest.sort((a, b) => b.ms - a.ms).slice(0, 8)) console.log(`    ${(s.ms * 1000).toFixed(0)} µs  total ${s.total}  ${s.url}`);
await database.close();
