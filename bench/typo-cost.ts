/**
 * What the hostile typo-tolerant searches cost beside ordinary ones (docs/performance.md, "Typo tolerance's bound").
 *   npm run bench:typo-cost -- [--posts 100000] [--seconds 20] [--connections 8] [--no-http] [--no-cpu] [--checkout DIR]
 * --checkout runs the service of another checkout (built there: `git worktree add DIR <commit>`, its node_modules
 * linked, `npm run build`) for part 2, to compare commits on one data set.
 *
 * 1. In this process, on the post index of the data set (built from the tables): the realistic workload's distinct
 *    post searches with `typoTolerance=true`, then the worst keywords known (characters NFKC turns into two Hangul
 *    syllables each, long Latin words, many correctable words), each search timed in CPU.
 * 2. Through HTTP, the service as a process: the realistic read mix at a fixed number of connections, alone and then
 *    while one key sends the worst keyword once a second (the default limit of 60 a minute): the others' latency.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { AccountsRepository } from '../src/modules/accounts/accounts-repository.js';
import { PostIndex } from '../src/modules/posts/post-index.js';
import { loadConfig } from '../src/config.js';
import { dataset, percentile, startService } from './run.js';
import { drawn, readMix, realisticWorkload } from './realistic.js';
import { postFilterOf } from './workload-filters.js';

const { values } = parseArgs({
  options: {
    posts: { type: 'string', default: '100000' },
    seconds: { type: 'string', default: '20' },
    connections: { type: 'string', default: '8' },
    'no-http': { type: 'boolean', default: false },
    'no-cpu': { type: 'boolean', default: false },
    checkout: { type: 'string' },
  },
});

/** The worst keywords found (issue 86 row 2), each made distinct by a rotation so that no cache can answer it. */
function hostileKeywords(round: number): string[] {
  const rotate = (text: string) => {
    const chars = [...text];
    const by = round % chars.length;
    return [...chars.slice(by), ...chars.slice(0, by)].join('');
  };
  // ㉼ and ㉽ are two syllables each once normalized; which one stands where spells the round, so each is distinct.
  const circled = Array.from({ length: 100 }, (_, i) => (i < 32 && (round >> i) & 1 ? '㉽' : '㉼')).join('');
  const latinLong = 'pneumonoultramicroscopicsilicovolcanoconiosis'.repeat(3).slice(0, 100);
  const manyFive = Array.from({ length: 16 }, (_, i) => ['devel', 'desig', 'manag', 'engin'][i % 4]).join(' ');
  const manyKorean = Array.from({ length: 25 }, (_, i) => ['개발자', '디자인', '마케팅'][i % 3]).join(' ');
  return [circled, ...[latinLong, manyFive, manyKorean].map(rotate)];
}

const summary = (label: string, cpuUs: number[]) => {
  const sorted = [...cpuUs].sort((a, b) => a - b);
  const at = (p: number) => percentile(sorted, p).toFixed(0);
  console.log(
    `${label.padEnd(34)} n=${String(sorted.length).padStart(5)}  median ${at(50).padStart(6)} µs  p90 ${at(90).padStart(6)}  p99 ${at(99).padStart(6)}  max ${sorted.at(-1)!.toFixed(0).padStart(7)} µs`,
  );
  return percentile(sorted, 50);
};

const posts = Number(values.posts);
const target = await dataset({ db: 'sqlite' }, posts);
const database = target.open();
const { serviceTimeZone } = loadConfig();
const accounts = new AccountsRepository(database.db, Date.now);
const index = new PostIndex(database, { read: async () => 1 });
await index.ready();
const work = await realisticWorkload(database);

/** CPU of one search in µs (the search is synchronous once its index is current). */
async function cpuOf(url: string): Promise<number | null> {
  const filter = await postFilterOf(url, serviceTimeZone, accounts);
  if (!filter) return null;
  await index.search(filter);
  const before = process.cpuUsage();
  await index.search(filter);
  const used = process.cpuUsage(before);
  return used.user + used.system;
}

const ordinary: number[] = [];
const seen = new Set<string>();
while (!values['no-cpu'] && seen.size < 2_000) {
  const url = work.postSearch();
  if (seen.has(url)) continue;
  seen.add(url);
  const cpu = await cpuOf(`${url}&typoTolerance=true`);
  if (cpu !== null) ordinary.push(cpu);
}
if (!values['no-cpu']) {
  console.log(`post index of ${index.stats().items} posts; CPU per search, typoTolerance=true:`);
  const base = summary('ordinary (the workload, distinct)', ordinary);
  const labels = [
    '100 of ㉼ or ㉽ (200 syllables)',
    '100 Latin letters, one word',
    '16 five-letter words',
    '25 Korean 3-syllable words',
  ];
  const hostile = labels.map(() => [] as number[]);
  for (let round = 0; round < 50; round++) {
    const keywords = hostileKeywords(round);
    for (let k = 0; k < keywords.length; k++) {
      const cpu = await cpuOf(`/api/v1/posts?keyword=${encodeURIComponent(keywords[k]!)}&typoTolerance=true`);
      if (cpu !== null) hostile[k]!.push(cpu);
    }
  }
  for (let k = 0; k < labels.length; k++) {
    const median = summary(labels[k]!, hostile[k]!);
    console.log(`${''.padEnd(34)} ${(median / base).toFixed(1)}x the ordinary median`);
  }
}
await database.close();

if (!values['no-http']) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-typo-cost-'));
  const service = await startService(target, dataDir, undefined, {}, values.checkout ?? process.cwd());
  try {
    const readDatabase = target.open();
    const reading = await realisticWorkload(readDatabase);
    await readDatabase.close();
    const run = () =>
      autocannon({
        ...drawn(service.base, reading, readMix(reading)),
        connections: Number(values.connections),
        duration: Number(values.seconds),
      });
    const alone = await run();
    let stop = false;
    const key = reading.headers()['x-svc-api-key']!;
    const sent: string[] = [];
    const attacker = (async () => {
      for (let round = 0; !stop; round++) {
        const started = Date.now();
        const res = await fetch(
          `${service.base}/api/v1/posts?keyword=${encodeURIComponent(hostileKeywords(round)[0]!)}&typoTolerance=true`,
          { headers: { 'x-svc-api-key': key } },
        );
        await res.arrayBuffer();
        sent.push(`${res.status} in ${Date.now() - started} ms`);
        await new Promise((r) => setTimeout(r, Math.max(0, 1_000 - (Date.now() - started))));
      }
    })();
    const attacked = await run();
    stop = true;
    await attacker;
    console.log(`\nthe attacker's requests: ${sent.join(', ')}`);
    console.log(
      `\nthe realistic read mix, ${values.connections} connections, ${values.seconds} s each (distinct requests):`,
    );
    for (const [label, r] of [
      ['alone', alone],
      ['one key sending 100 of ㉼/㉽ a second', attacked],
    ] as const)
      console.log(
        `${label.padEnd(40)} ${r.requests.average.toFixed(0)} req/s  p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms`,
      );
  } finally {
    await service.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
