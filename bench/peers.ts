/**
 * The service's post index beside the engines a builder would otherwise pick, on one corpus and one query set:
 *   npm run bench:peers -- [--posts 100000] [--count 2000] [--rounds 3] [--engines ours,lucene,lucene-default,minisearch,orama] [--typos 200]
 *
 * The corpus is the benchmark's data set of that size (made by the first run, as `npm run bench` makes it), every
 * post as the project's tokenizer gives it; the queries are the realistic workload's distinct post searches
 * (bench/realistic.ts: keywords, company, images, cards, time windows, RECENT and RELEVANCE, pages 1-50). Each peer
 * gets the same tokens and the same bitmap algebra (bench/peer-engines.ts) and must give the index's exact total for
 * every query (and its page, for RECENT), else the run stops. Timed passes alternate between the engines, each
 * query timed on its own on the thread that runs it (`timed`); the build is timed once, with the resident memory it
 * added once the read workers have left and the index's own bytes. Then the ratios to Lucene (sorted) of every
 * column, and the project's tail: the slowest searches with their shapes, whether they are slow in every round, and
 * the collector's pauses inside them. The workload's broadest keyword (`다` in the generated texts), RELEVANCE, page 1, is also timed on its own
 * (--repeat times over, after the passes): the page that scores the most matches. No HTTP, no caches.
 * The process runs with the node flags and malloc settings `npm start` gives the service (its heap limits, its `env`),
 * but for an old generation large enough for the in-process peers when they run (MiniSearch, Orama hold gigabytes
 * at a million posts).
 * Lucene 8 runs in a JVM of its own (bench/lucene-peer.ts), stopped between its own turns, its index sorted newest first (`lucene`) or not
 * (`lucene-default`), when Java 17 and Debian's liblucene8-java are here; else a line says it was skipped.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { AccountsRepository } from '../src/modules/accounts/accounts-repository.js';
import { PostIndex, type PostSearchFilter } from '../src/modules/posts/post-index.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { LucenePeer, luceneClassPath } from './lucene-peer.js';
import {
  MiniSearchPeer,
  OramaPeer,
  peerQueryOf,
  readCorpus,
  writeCorpusFile,
  type PeerEngine,
  type PeerQuery,
} from './peer-engines.js';
import { dataset } from './run.js';
import { realisticWorkload } from './realistic.js';
import { postFilterOf } from './workload-filters.js';
import { queryTerms } from '../src/search/search-text.js';
import { SeededRandom } from '../src/demo/random.js';
import { anonymousRssMb } from '../support/proc.js';
import { serviceEnv, serviceNodeFlags } from '../support/service-flags.js';
import { groupBy } from '../src/shared/group.js';

const { values } = parseArgs({
  options: {
    posts: { type: 'string', default: '100000' },
    count: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '3' },
    engines: { type: 'string', default: 'ours,lucene,lucene-default,minisearch,orama' },
    repeat: { type: 'string', default: '500' },
    typos: { type: 'string', default: '200' },
  },
});
const wanted = values.engines!.split(',');
// MiniSearch and Orama run in this process, and hold gigabytes at a million posts.
const inProcess = wanted.some((name) => name === 'minisearch' || name === 'orama');

// The process runs as `npm start` runs the service: its node flags (the heap limits, which decide how far the old
// generation grows during a build) and its malloc settings (how much of what a build frees goes back), which the
// memory column reads; with the in-process peers, a larger old generation for them. Both must be set when a process
// starts, so the benchmark starts itself again with them when they are not.
const nodeFlags = serviceNodeFlags().map((flag) =>
  inProcess && flag.startsWith('--max-old-space-size=') ? '--max-old-space-size=16384' : flag,
);
const mallocSettings = Object.entries(serviceEnv());
if (
  nodeFlags.some((flag) => !process.execArgv.includes(flag)) ||
  mallocSettings.some(([name, value]) => process.env[name] !== value)
) {
  const otherFlags = process.execArgv.filter((flag) => !/^--max-(old|semi)-space-size=/.test(flag));
  const again = spawnSync(process.execPath, [...otherFlags, ...nodeFlags, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, ...Object.fromEntries(mallocSettings) },
  });
  process.exit(again.status ?? 1);
}
const target = await dataset({ db: 'sqlite' }, Number(values.posts));
// The build reads the tables through the database's read workers (SQLite: worker threads, each with a heap of its
// own); they leave a moment after it, so the memory measured after a build is what the index holds.
const READ_WORKERS_LEAVE_MS = 250;
const database = openDatabase({ kind: 'sqlite', url: target.databaseUrl, readWorkerIdleMs: READ_WORKERS_LEAVE_MS });
const accounts = new AccountsRepository(database.db, Date.now);
const { serviceTimeZone } = loadConfig();

const w = await realisticWorkload(database);
const filters: PostSearchFilter[] = [];
const seen = new Set<string>();
while (filters.length < Number(values.count)) {
  const url = w.postSearch();
  if (seen.has(url)) continue;
  seen.add(url);
  const filter = await postFilterOf(url, serviceTimeZone, accounts);
  if (filter) filters.push(filter);
}
// The broadest keyword, RELEVANCE, page 1: one of the queries (its total is checked like the others), also timed alone.
const broadest = filters.push({ terms: queryTerms(w.broadest), order: 'rank', limit: 20, offset: 0 }) - 1;
// Typo-tolerant searches (docs/search.md "Typos"): the workload's keyword searches of Latin words, each word of 5
// letters or more misspelt after its first letter, asked with typoTolerance. Only Lucene's FuzzyQuery takes them alike.
const firstTypo = filters.length;
if (wanted.every((name) => name === 'ours' || name.startsWith('lucene'))) {
  const typoRnd = new SeededRandom(5);
  const misspelt = (word: string) => {
    const at = typoRnd.int(1, word.length - 1);
    const kind = typoRnd.int(0, 2);
    return kind === 0
      ? word.slice(0, at) + word.slice(at + 1) // a letter dropped
      : kind === 1
        ? word.slice(0, at) + (word[at] === 'e' ? 'a' : 'e') + word.slice(at + 1) // one changed
        : at + 1 < word.length
          ? word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2)
          : `${word}s`; // two swapped
  };
  const typoSeen = new Set<string>();
  for (let tries = 0; filters.length - firstTypo < Number(values.typos) && tries < 200_000; tries++) {
    const url = new URL(w.postSearch(), 'http://x');
    const keyword = url.searchParams.get('keyword');
    if (!keyword || !/^[a-z]+( [a-z]+)*$/i.test(keyword) || !keyword.split(' ').some((word) => word.length >= 5))
      continue;
    url.searchParams.set(
      'keyword',
      keyword
        .split(' ')
        .map((word) => (word.length >= 5 ? misspelt(word) : word))
        .join(' '),
    );
    url.searchParams.set('typoTolerance', 'true');
    const key = url.searchParams.toString();
    if (typoSeen.has(key)) continue;
    typoSeen.add(key);
    const filter = await postFilterOf(`/api/v1/posts?${key}`, serviceTimeZone, accounts);
    if (filter) filters.push(filter);
  }
  console.log(
    `${filters.length - firstTypo} typo-tolerant searches besides (Lucene: FuzzyQuery with the same edits, prefix 1, swaps)`,
  );
}
const queries: PeerQuery[] = filters.map(peerQueryOf);

interface Contender {
  name: string;
  search: (i: number) => Promise<{ total: number; ids: number[] }> | { total: number; ids: number[] };
  /** An engine that times its own passes (Lucene, in its JVM): the CPU µs of each query; and of one query repeated. */
  round?: () => Promise<number[]>;
  repeat?: (i: number, times: number) => Promise<number[]>;
  buildMs: number;
  /** Anonymous resident memory added (MB: the mapped file pages the build read are the system's cache); for Lucene, the JVM heap its index holds. */
  rssMb: number;
  memoryNote?: string;
  /** The index's own bytes, where the engine tells them. */
  indexBytes?: number;
  /** Each timed search's time on its thread, µs (`onThread`); for Lucene, its query thread's CPU time. */
  cpu: number[];
  /** The process's CPU over each timed search, µs: V8's background threads (the collector's marking) count in it too. */
  processCpu?: number[];
  broadest?: number[];
  /** Each query's exact total (the reference's, which every other engine matched). */
  totals?: number[];
}
/**
 * Anonymous resident memory after a full collection, once the pages it freed have gone back: V8 unmaps them on a
 * thread of its own after the collection, and a reading taken at once still counted some of them.
 */
async function settledRss(): Promise<number> {
  global.gc?.();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  return anonymousRssMb(process.pid) * 1024 * 1024;
}
const contenders: Contender[] = [];

async function measureBuild(
  name: string,
  build: () => Promise<{ search: Contender['search']; indexBytes?: number }>,
): Promise<void> {
  const before = await settledRss();
  const started = performance.now();
  const { search, indexBytes } = await build();
  const buildMs = performance.now() - started;
  await new Promise((resolve) => setTimeout(resolve, READ_WORKERS_LEAVE_MS * 4));
  const rssMb = ((await settledRss()) - before) / 1e6;
  contenders.push({ name, search, buildMs, rssMb, indexBytes, cpu: [] });
  console.log(`${name}: built in ${(buildMs / 1000).toFixed(1)} s, resident +${rssMb.toFixed(0)} MB`);
}

if (wanted.includes('ours')) {
  await measureBuild("the project's index (from the tables)", async () => {
    const index = new PostIndex(database, { read: async () => 1 });
    await index.ready();
    return { search: (i) => index.search(filters[i]!), indexBytes: index.stats().bytes };
  });
}
// Lucene reads the corpus from a file written a batch at a time; only the engines that run in this process (MiniSearch,
// Orama) need it in memory here.
let corpus = inProcess ? await readCorpus(database.db) : [];
const corpusFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'peers-corpus-')), 'corpus.tsv');
const corpusSize = wanted.some((name) => name.startsWith('lucene'))
  ? await writeCorpusFile(database.db, corpusFile)
  : corpus.length;
if (corpusSize > 0) console.log(`${corpusSize.toLocaleString('en')} posts read as the project's tokens`);
const lucenes: LucenePeer[] = [];
for (const [name, variant] of [
  ['lucene', 'sorted'],
  ['lucene-default', 'default'],
] as const) {
  if (!wanted.includes(name)) continue;
  const java = luceneClassPath();
  if ('missing' in java) {
    console.log(`${name}: skipped, ${java.missing}`);
    continue;
  }
  const lucene = new LucenePeer(
    variant === 'sorted' ? 'Lucene 8, sorted newest first' : 'Lucene 8, default',
    variant,
    java.classPath,
  );
  await lucene.start(corpusFile, queries);
  lucenes.push(lucene);
  contenders.push({
    name: lucene.name,
    search: (i) => lucene.answers[i]!,
    round: () => lucene.round(),
    repeat: (i, times) => lucene.repeat(i, times),
    buildMs: lucene.buildMs,
    rssMb: lucene.heapBytes / 1e6,
    memoryNote: 'heap',
    indexBytes: lucene.indexBytes,
    cpu: [],
  });
  console.log(
    `${lucene.name}: built in ${(lucene.buildMs / 1000).toFixed(1)} s, heap +${(lucene.heapBytes / 1e6).toFixed(0)} MB`,
  );
}
for (const [name, make] of [
  ['minisearch', () => new MiniSearchPeer()],
  ['orama', () => new OramaPeer()],
] as Array<[string, () => PeerEngine]>) {
  if (!wanted.includes(name)) continue;
  await measureBuild(make().name, async () => {
    const engine = make();
    await engine.build(corpus);
    return { search: (i) => engine.search(queries[i]!) };
  });
}

// The engines hold what they built from it: the corpus goes, so that no engine's passes run beside gigabytes of it
// in the heap (at a million posts its collection took milliseconds of every thousandth query).
corpus = [];
global.gc?.();

// Every answer checked against the project's index before anything is timed.
const reference = contenders[0]!;
reference.totals = [];
for (let i = 0; i < queries.length; i++) {
  const expected = await reference.search(i);
  reference.totals.push(expected.total);
  for (const other of contenders.slice(1)) {
    const answer = await other.search(i);
    const samePage = !queries[i]!.recent || JSON.stringify(answer.ids) === JSON.stringify(expected.ids);
    if (answer.total !== expected.total || !samePage) {
      throw new Error(
        `${other.name} answers query ${i} (${JSON.stringify(filters[i])}) with ${answer.total} (${reference.name}: ${expected.total})`,
      );
    }
  }
}
console.log(
  `${queries.length} distinct post searches: every total${contenders.length > 1 ? ' and RECENT page' : ''} equal across ${contenders.map((c) => c.name).join(', ')}`,
);

/**
 * The time a search holds this thread, µs: its CPU time where Node.js tells it (process.threadCpuUsage, Node.js
 * 23.9 and later), else the wall clock around it (the search runs to its end without yielding to I/O, and the
 * machine is otherwise idle: the JVM waits while the project's passes run). Lucene's figures are its query
 * thread's CPU time alike, so neither side counts the other threads of its process (collectors, compilers).
 */
const threadCpu = (process as { threadCpuUsage?: () => { user: number; system: number } }).threadCpuUsage;
const threadClock = threadCpu ? "this thread's CPU time" : 'the wall clock of each search (Node.js before 23.9)';
const nowOnThread = (): number => {
  if (!threadCpu) return performance.now() * 1000;
  const { user, system } = threadCpu.call(process);
  return user + system;
};
async function timed(work: () => unknown): Promise<{ thread: number; process: number }> {
  const cpu = process.cpuUsage();
  const started = nowOnThread();
  await work();
  const thread = nowOnThread() - started;
  const used = process.cpuUsage(cpu);
  return { thread, process: used.user + used.system };
}

// The collector's pauses during the passes, to tell a query slow by its shape from one the collector stopped.
const pauses: Array<{ start: number; end: number; kind: string }> = [];
const GC_KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};
const collector = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = GC_KINDS[(entry as unknown as { detail?: { kind?: number } }).detail?.kind ?? 0] ?? 'other';
    pauses.push({ start: entry.startTime, end: entry.startTime + entry.duration, kind });
  }
});
collector.observe({ entryTypes: ['gc'] });
/** When each of the reference's timed searches ran (performance.now()), by sample. */
const moments: Array<[number, number]> = [];
for (let round = 0; round < Number(values.rounds); round++) {
  for (const contender of contenders) {
    if (contender.round) {
      contender.cpu.push(...(await contender.round()));
      continue;
    }
    for (let i = 0; i < queries.length; i++) {
      const started = performance.now();
      const { thread, process: cpu } = await timed(() => contender.search(i));
      contender.cpu.push(thread);
      (contender.processCpu ??= []).push(cpu);
      if (contender === contenders[0]) moments.push([started, performance.now()]);
    }
  }
}
// Pauses are reported after they end: give the last ones a turn to arrive.
await new Promise((resolve) => setImmediate(resolve));
collector.disconnect();

// The broadest keyword's first RELEVANCE page, alone, for the engines that rank by relevance cheaply enough to
// repeat it (the project's index and Lucene): in ten turns each, alternated as the passes are, so that whatever the
// machine or the other process is doing in a few milliseconds weighs on both alike.
const TURNS = 10;
for (let turn = 0; turn < TURNS; turn++) {
  const times = Math.ceil(Number(values.repeat) / TURNS);
  for (const contender of contenders) {
    if (contender.repeat) (contender.broadest ??= []).push(...(await contender.repeat(broadest, times)));
    else if (contender === reference) {
      for (let i = 0; i < times; i++) {
        (contender.broadest ??= []).push((await timed(() => contender.search(broadest))).thread);
      }
    }
  }
}

const stats = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
  return { median: at(0.5), mean: xs.reduce((a, b) => a + b, 0) / xs.length, p90: at(0.9), p99: at(0.99) };
};
console.log(
  `\n${(corpusSize || Number(values.posts)).toLocaleString('en')} posts, ${queries.length} queries × ${values.rounds} rounds (µs per query on its thread: ` +
    `the project's by ${threadClock}, Lucene's by its query thread's CPU time; build; resident memory added; the index's bytes; ` +
    `the broadest keyword "${w.broadest}", RELEVANCE, page 1: median µs of ${values.repeat})\n`,
);
console.log('| engine | median | mean | p90 | p99 | build | memory | index | broadest, RELEVANCE, page 1 |');
console.log('|---|---|---|---|---|---|---|---|---|');
/** The samples (per search, every round) of the typo-tolerant searches, or of the others. */
const part = (samples: number[], typos: boolean) => samples.filter((_, i) => i % queries.length >= firstTypo === typos);
for (const c of contenders) {
  const s = stats(part(c.cpu, false));
  const index = c.indexBytes === undefined ? '—' : `${(c.indexBytes / 1e6).toFixed(0)} MB`;
  const broad = c.broadest ? stats(c.broadest).median.toFixed(0) : '—';
  console.log(
    `| ${c.name} | ${s.median.toFixed(0)} | ${s.mean.toFixed(0)} | ${s.p90.toFixed(0)} | ${s.p99.toFixed(0)} | ${(c.buildMs / 1000).toFixed(1)} s | +${c.rssMb.toFixed(0)} MB${c.memoryNote ? ` ${c.memoryNote}` : ''} | ${index} | ${broad} |`,
  );
}
const lucene = contenders.find((c) => c.name === 'Lucene 8, sorted newest first');
if (lucene && lucene !== reference) {
  const ours = stats(part(reference.cpu, false));
  const theirs = stats(part(lucene.cpu, false));
  const ratio = (a: number | undefined, b: number | undefined) =>
    a === undefined || b === undefined || b === 0 ? '—' : `${(a / b).toFixed(2)}×`;
  const broadMedian = (c: Contender) => (c.broadest ? stats(c.broadest).median : undefined);
  console.log(
    `| ratio, ours ÷ Lucene sorted (below 1: ours is less) | ${ratio(ours.median, theirs.median)} | ${ratio(ours.mean, theirs.mean)} | ${ratio(ours.p90, theirs.p90)} | ${ratio(ours.p99, theirs.p99)} | ${ratio(reference.buildMs, lucene.buildMs)} | ${ratio(reference.rssMb, lucene.rssMb)} | ${ratio(reference.indexBytes, lucene.indexBytes)} | ${ratio(broadMedian(reference), broadMedian(lucene))} |`,
  );
}

// The project's tail: its p99 against its own median, the slowest samples with their queries' shapes, whether the
// same queries are slow in every round (their shape) or once (the collector, the allocator, the machine).
{
  const own = part(reference.cpu, false);
  const s = stats(own);
  const processCpu = stats(part(reference.processCpu ?? [], false));
  console.log(
    `\nThe project's tail: p99 ${s.p99.toFixed(0)} µs = ${(s.p99 / s.median).toFixed(1)}× its median ` +
      `(the process's CPU over the same searches, V8's background threads counted: median ${processCpu.median.toFixed(0)}, ` +
      `mean ${processCpu.mean.toFixed(0)}, p99 ${processCpu.p99.toFixed(0)} µs)`,
  );
  const perQuery = (i: number) =>
    Array.from({ length: Number(values.rounds) }, (_, round) => reference.cpu[round * queries.length + i]!);
  const tail = own
    .map((cpu, sample) => ({ cpu, sample }))
    .filter(({ cpu }) => cpu >= s.p99)
    .map(({ cpu, sample }) => {
      // `own` keeps the order of the samples that are not typo searches: find the sample's query and round.
      const round = Math.floor(sample / firstTypo);
      const i = sample % firstTypo;
      const [start, end] = moments[round * queries.length + i]!;
      const collected = pauses.filter((p) => p.start < end && p.end > start);
      return { cpu, i, round, collected };
    });
  const everyRound = tail.filter(({ i }) => perQuery(i).every((cpu) => cpu >= s.p99 * 0.5)).length;
  const withPause = tail.filter(({ collected }) => collected.length > 0).length;
  const pausedMs = pauses.reduce((sum, p) => sum + (p.end - p.start), 0);
  console.log(
    `${tail.length} samples at or above p99: ${everyRound} from queries at least half as slow in every round (their shape), ` +
      `${withPause} with a collector pause inside them (${pauses.length} pauses in the passes, ${pausedMs.toFixed(0)} ms in all: ` +
      `${[...groupBy(pauses, (p) => p.kind)]
        .map(([kind, of]) => `${of.length} ${kind}, ${of.reduce((sum, p) => sum + p.end - p.start, 0).toFixed(0)} ms`)
        .join('; ')})`,
  );
  const shape = (i: number) => {
    const q = queries[i]!;
    const window = q.from !== -Infinity || q.to !== Infinity ? ' window' : '';
    return `${q.recent ? 'RECENT' : 'RELEVANCE'} offset ${q.offset}${window}, required [${q.required.join(' ')}]${q.excluded.length ? `, excluded [${q.excluded.join(' ')}]` : ''}, total ${reference.totals?.[i] ?? '?'}`;
  };
  console.log('\n| µs | rounds (µs) | collector | query |');
  console.log('|---|---|---|---|');
  for (const { cpu, i, collected } of tail.sort((a, b) => b.cpu - a.cpu).slice(0, 12)) {
    console.log(
      `| ${cpu.toFixed(0)} | ${perQuery(i)
        .map((x) => x.toFixed(0))
        .join(
          ', ',
        )} | ${collected.length ? collected.map((p) => `${(p.end - p.start).toFixed(1)} ms`).join(', ') : '—'} | ${shape(i)} |`,
    );
  }
}

if (queries.length > firstTypo) {
  console.log(
    `\n${queries.length - firstTypo} typo-tolerant searches × ${values.rounds} rounds, µs per query on its thread (totals checked equal)\n`,
  );
  console.log('| engine | median | mean | p99 |');
  console.log('|---|---|---|---|');
  for (const c of contenders) {
    const s = stats(part(c.cpu, true));
    console.log(`| ${c.name} | ${s.median.toFixed(0)} | ${s.mean.toFixed(0)} | ${s.p99.toFixed(0)} |`);
  }
}
for (const lucene of lucenes) await lucene.stop();
fs.rmSync(path.dirname(corpusFile), { recursive: true, force: true });
await database.close();
