/**
 * What the job index costs per call, with no HTTP and no caches, on a SQLite file of benchmark data: the workload's
 * distinct job searches (bench/workload.ts, with its places, pay and typo-tolerant keywords), then suggestions for
 * distinct prefixes as users type them (every prefix of the vocabulary's titles, words and company names, Korean
 * half-typed syllables and initial consonants). CPU per call, in the process, each call timed on its own.
 *   npm run bench:job-search -- --file bench/data/jobs-200k.sqlite [--count 2000] [--rounds 3]
 * Make the file with `DATABASE_URL=<file> npm run bench:data -- --jobs 200000`.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { COMPANIES, ROLES, TECHS } from '../src/demo/vocabulary.js';
import { AccountsRepository } from '../src/modules/accounts/accounts-repository.js';
import { JobIndex } from '../src/modules/jobs/job-index.js';
import { initialLetters, isSyllable } from '../src/search/hangul.js';
import { realisticWorkload } from './realistic.js';
import { jobFilterOf } from './workload-filters.js';

const { values } = parseArgs({
  options: {
    file: { type: 'string', default: 'bench/data/jobs-200k.sqlite' },
    count: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '3' },
  },
});
const database = openDatabase({ kind: 'sqlite', url: path.resolve(values.file!) });
await migrateToLatest(database);
const accounts = new AccountsRepository(database.db, Date.now);
const index = new JobIndex(database, { read: async () => 1 });
await index.ready();
console.log(`job index of ${index.stats().items} jobs built in ${(index.stats().readyInMs / 1000).toFixed(1)} s`);

const summary = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const at = (p: number) => (sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]! * 1000).toFixed(0);
  return `mean ${((xs.reduce((a, b) => a + b, 0) / xs.length) * 1000).toFixed(0)} µs, p50 ${at(0.5)}, p90 ${at(0.9)}, p99 ${at(0.99)}`;
};
/** CPU ms of each call of `run` over `inputs`, `rounds` times over (the first round warms the caches). */
async function timed<T>(inputs: T[], run: (input: T) => Promise<unknown>): Promise<number[]> {
  const cpu: number[] = [];
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const input of inputs) {
      const before = process.cpuUsage();
      await run(input);
      const used = process.cpuUsage(before);
      if (round > 0) cpu.push((used.user + used.system) / 1000);
    }
  }
  return cpu;
}

const w = await realisticWorkload(database);
const now = Date.now();
const urls = [...new Set(Array.from({ length: Number(values.count) }, () => w.jobSearch()))];
const searches = (
  await Promise.all(urls.map(async (url) => ({ url, filter: await jobFilterOf(url, now, accounts) })))
).flatMap((s) => (s.filter ? [{ url: s.url, filter: s.filter }] : []));
const cpu = await timed(searches, (s) => index.search(s.filter));
console.log(`${searches.length} distinct job searches, CPU per search: ${summary(cpu)}`);
// By the parameters beyond the contract's they carry (each round's searches in the same order).
const kindOf = (url: string) =>
  ['near=', 'regions=|countries=', 'salary', 'typoTolerance']
    .filter((p) => p.split('|').some((part) => url.includes(part)))
    .map((p) => p.split('=')[0])
    .join('+') || 'none of them';
const byKind = new Map<string, number[]>();
cpu.forEach((ms, i) => {
  const kind = kindOf(searches[i % searches.length]!.url);
  byKind.set(kind, [...(byKind.get(kind) ?? []), ms]);
});
for (const [kind, xs] of [...byKind].sort((a, b) => b[1].length - a[1].length))
  console.log(`  ${kind}: ${xs.length} searches, ${summary(xs)}`);

if ('suggest' in index) {
  const texts = [...ROLES.flatMap((r) => Object.values(r.name)), ...TECHS, ...COMPANIES.map((c) => c.name)];
  const prefixes = new Set<string>();
  for (const text of texts) {
    const chars = [...text];
    for (let n = 1; n <= Math.min(chars.length, 6); n++) prefixes.add(chars.slice(0, n).join(''));
    // A half-typed next syllable (its first letter) and the first letters of the syllables.
    const initials = chars.map((c) => (isSyllable(c.charCodeAt(0)) ? initialLetters(c) : null));
    for (let n = 1; n < Math.min(chars.length, 6); n++)
      if (initials[n]) prefixes.add(chars.slice(0, n).join('') + initials[n]);
    for (let n = 1; n <= Math.min(chars.length, 5); n++)
      if (initials.slice(0, n).every(Boolean)) prefixes.add(initials.slice(0, n).join(''));
  }
  const list = [...prefixes];
  const calls = await timed(list, (prefix) => index.suggest(prefix, 10, now));
  console.log(`${list.length} distinct suggestion prefixes, CPU per call: ${summary(calls)}`);
}
await index.close();
await database.close();
