/**
 * What the search indexes cost, with no HTTP and no caches: the post index's build from the tables (time, memory,
 * size), then the realistic workload's distinct post searches replayed one after another, each timed in CPU; then
 * the job index (loaded from the copy `npm run bench` saved, or built) and the workload's distinct job searches,
 * without and with the facet counts of the benchmark's facets scenario.
 *   npm run bench:search-cost -- [--db sqlite|postgres] [--count 2000] [--copy] [--posts 1000000]
 * With --copy the post index is loaded from a saved copy beside the data (the one `npm run bench` keeps, or one
 * made by the first run with --copy), and three saves of that copy are timed. --posts picks the data set of that size `npm run bench -- --sizes` made
 * (bench/data/bench-<posts>-<posts/5>-<posts/50>.sqlite, or the PostgreSQL schema of that name in
 * BENCH_DATABASE_URL); the default is the 1M set of `npm run bench`.
 */
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { AccountsRepository } from '../src/modules/accounts/accounts-repository.js';
import { PostIndex, type PostSearchFilter } from '../src/modules/posts/post-index.js';
import { JobIndex } from '../src/modules/jobs/job-index.js';
import { loadConfig } from '../src/config.js';
import { benchDataInPageCache, benchDataName, benchIndexCopy, openBenchData } from './bench-data.js';
import { realisticWorkload } from './realistic.js';
import { jobFilterOf, postFilterOf } from './workload-filters.js';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    count: { type: 'string', default: '2000' },
    copy: { type: 'boolean', default: false },
    posts: { type: 'string', default: '1000000' },
  },
});
const dataName = benchDataName(Number(values.posts));
const database = openBenchData(values.db!, dataName);
await benchDataInPageCache(database, dataName);
const accounts = new AccountsRepository(database.db, Date.now);
const { serviceTimeZone: timeZone } = loadConfig();

const rssBefore = process.memoryUsage().rss;
const postCopy =
  benchIndexCopy(values.db!, 'posts.idx', dataName) ?? path.resolve('bench/data', `${dataName}.posts.idx`);
const index = new PostIndex(database, { read: async () => 1 }, values.copy ? postCopy : null);
await index.ready();
global.gc?.();
const stats = index.stats();
console.log(
  `${values.db}: post index of ${stats.items} posts ${stats.fromCopy ? 'loaded from its copy' : 'built from the tables'} in ${(stats.readyInMs / 1000).toFixed(1)} s; ` +
    `${stats.tokens} tokens, ${(stats.bytes / 1e6).toFixed(0)} MB of bitmaps (${(stats.bytes / stats.items).toFixed(0)} bytes a post), ` +
    `RSS +${((process.memoryUsage().rss - rssBefore) / 1e6).toFixed(0)} MB`,
);

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
    console.log(
      `  save of the copy: ${took.toFixed(0)} ms, the event loop held up to ${(delay.max / 1e6).toFixed(0)} ms, RSS ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB after`,
    );
  }
}

const w = await realisticWorkload(database);
const filters: Array<{ url: string; filter: PostSearchFilter }> = [];
for (let i = 0; i < Number(values.count); i++) {
  const url = w.postSearch();
  const filter = await postFilterOf(url, timeZone, accounts);
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
for (const s of slowest.sort((a, b) => b.ms - a.ms).slice(0, 8))
  console.log(`    ${(s.ms * 1000).toFixed(0)} µs  total ${s.total}  ${s.url}`);
await index.close();

// The job index: the workload's distinct job searches, then the same with the facets scenario's counts.
const jobIndex = new JobIndex(database, { read: async () => 1 }, benchIndexCopy(values.db!, 'jobs.idx', dataName));
await jobIndex.ready();
const jobStats = jobIndex.stats();
console.log(
  `${values.db}: job index of ${jobStats.items} jobs ${jobStats.fromCopy ? 'loaded from its copy' : 'built from the tables'} in ${(jobStats.readyInMs / 1000).toFixed(1)} s`,
);
const jobFilters = [];
for (let i = 0; i < Number(values.count); i++) {
  const filter = await jobFilterOf(w.jobSearch(), Date.now(), accounts);
  if (filter) jobFilters.push(filter);
}
const FACETS = ['jobCategories', 'workTypes', 'companySizes', 'companyId'] as const;
for (const facets of [undefined, FACETS]) {
  const jobCpu: number[] = [];
  for (const filter of jobFilters) {
    const before = process.cpuUsage();
    await jobIndex.search({ ...filter, facets });
    const used = process.cpuUsage(before);
    jobCpu.push((used.user + used.system) / 1000);
  }
  console.log(
    `  ${jobCpu.length} distinct job searches${facets ? ` with facets=${facets.join(',')}` : ''}, CPU per search: ${summary(jobCpu)}`,
  );
}
await jobIndex.close();
await database.close();
