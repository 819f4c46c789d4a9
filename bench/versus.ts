/**
 * One service against another on this machine, in the same minutes: npm run bench:versus -- --before DIR
 *   [--after DIR] [--posts 100000] [--scenario 'distinct job searches'] [--rounds 10] [--requests 2000] [--full-mix]
 *
 * DIR is a checkout of another commit (e.g. `git worktree add /tmp/before <commit>` with this checkout's
 * node_modules linked in) on which `npm run bench -- --posts N` has run once, so it has its own data set of the
 * same size (a checkout cannot read a data set migrated past its own migrations). Both are built, both services
 * start on their own data sets, and the rounds alternate between them, before-after then after-before, each round
 * sending both the same requests: a machine whose speed drifts from minute to minute (this one's does, by 2× within
 * an hour) then slows both alike, and the ratio of their CPU per request holds where their separate runs do not.
 *
 * The requests are the realistic workload's (bench/workload.ts) of the scenario, drawn once from this checkout's
 * workload; a query parameter the before's OpenAPI document does not list for the operation is dropped from every
 * request for both, so both are asked the same thing and the before refuses nothing; with --full-mix the after keeps
 * them (the workload as it is now against the workload as the before could be asked it). Each request is sent once to
 * each service (no cache of either answers it). Prints each round, then per service the median CPU per request and
 * the after/before ratio of medians, and saves them as JSON under bench/results/.
 *
 * With --together, each round loads both services at once (half the connections each, the same requests), so a
 * change of the machine's speed within a round slows both alike: the ratio of each round is then read from one
 * interval, not two in turn. Both share the two cores with the load generator, so their CPU per request is higher
 * than alone; the ratio is what this mode is for.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { openDatabase } from '../src/db/database.js';
import { benchDataName } from './bench-data.js';
import { cpuMs, dataset, startService, type Target } from './run.js';
import { realisticWorkload } from './realistic.js';
import { ensureBuilt } from '../support/build.js';

const { values } = parseArgs({
  options: {
    before: { type: 'string' },
    after: { type: 'string', default: '.' },
    posts: { type: 'string', default: '100000' },
    scenario: { type: 'string', default: 'distinct job searches' },
    rounds: { type: 'string', default: '10' },
    requests: { type: 'string', default: '2000' },
    connections: { type: 'string', default: '50' },
    'full-mix': { type: 'boolean', default: false },
    together: { type: 'boolean', default: false },
  },
});
if (!values.before)
  throw new Error(
    '--before DIR: a checkout of the commit to compare with (see the usage at the top of bench/versus.ts)',
  );
const posts = Number(values.posts);
const rounds = Number(values.rounds);
const perRound = Number(values.requests);
const connections = Number(values.connections);

/** The scenarios this tool runs: the workload's draws of one kind, as `npm run bench` names them. */
const SCENARIOS: Record<string, (w: Awaited<ReturnType<typeof realisticWorkload>>) => string> = {
  'distinct job searches': (w) => w.jobSearch(),
  'distinct job searches with facets': (w) => `${w.jobSearch()}&facets=jobCategories,workTypes,companySizes,companyId`,
  'distinct post searches': (w) => w.postSearch(),
};
const draw = SCENARIOS[values.scenario];
if (!draw)
  throw new Error(
    `--scenario: one of ${Object.keys(SCENARIOS)
      .map((s) => JSON.stringify(s))
      .join(', ')}`,
  );

const checkouts = { before: path.resolve(values.before), after: path.resolve(values.after) };

/** The commit a checkout has out, marked when its tracked files differ from it. */
function commitOf(checkout: string): string {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: checkout, encoding: 'utf8' }).trim();
  return `${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain', '--untracked-files=no') ? ' (with changes)' : ''}`;
}

/** A checkout's own data set of this size, left as its own migrations made it. */
function ownData(checkout: string): Target {
  const name = benchDataName(posts);
  const file = path.join(checkout, 'bench/data', `${name}.sqlite`);
  if (!fs.existsSync(file))
    throw new Error(`${file} is missing: run \`npm run bench -- --posts ${posts}\` in ${checkout} once first`);
  return { databaseUrl: file, name, open: () => openDatabase({ kind: 'sqlite', url: file }) };
}

/** The query parameters a service's OpenAPI document lists for GET `route`. */
async function parametersOf(base: string, route: string): Promise<Set<string>> {
  const document = (await (await fetch(`${base}/openapi.json`)).json()) as {
    paths: Record<string, { get?: { parameters?: { name: string; in: string }[] } }>;
  };
  return new Set((document.paths[route]?.get?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name));
}

/** The request with only the parameters in `known`. */
function keepingOnly(url: string, known: Set<string>): string {
  const [route, query = ''] = url.split('?') as [string, string?];
  const kept = query.split('&').filter((pair) => known.has(decodeURIComponent(pair.split('=')[0]!)));
  return kept.length ? `${route}?${kept.join('&')}` : route;
}

// This checkout's data set (migrated like any `npm run bench` run) gives the workload; the before's is its own.
const afterTarget =
  checkouts.after === process.cwd() ? await dataset({ db: 'sqlite' }, posts) : ownData(checkouts.after);
const reader = afterTarget.open();
const w = await realisticWorkload(reader);
await reader.close();
const drawn = Array.from({ length: rounds * perRound + perRound }, () => ({ path: draw(w), headers: w.headers() }));

const services: Record<'before' | 'after', Awaited<ReturnType<typeof startService>>> = {} as never;
for (const side of ['before', 'after'] as const) {
  ensureBuilt(checkouts[side]);
  const target = side === 'after' ? afterTarget : ownData(checkouts.before);
  const runs = path.join(checkouts[side], 'bench/data');
  const dataDir = fs.mkdtempSync(path.join(runs, 'run-'));
  const copies = path.join(runs, `${target.name}.search-index`);
  fs.mkdirSync(copies, { recursive: true });
  fs.symlinkSync(copies, path.join(dataDir, 'search-index'));
  console.log(`${side}: ${checkouts[side]}`);
  services[side] = await startService(target, dataDir, undefined, {}, checkouts[side]);
}

try {
  const route = drawn[0]!.path.split('?')[0]!;
  const known = await parametersOf(services.before.base, route);
  const dropped = new Set(
    drawn
      .flatMap(({ path: p }) => (p.split('?')[1] ?? '').split('&').map((pair) => pair.split('=')[0]!))
      .filter((name) => name && !known.has(name)),
  );
  const fullMix = values['full-mix'];
  if (dropped.size)
    console.log(
      `dropped for ${fullMix ? 'the before' : 'both'} (the before does not take them): ${[...dropped].join(', ')}`,
    );
  const asked = {
    before: drawn.map((r) => ({ ...r, path: keepingOnly(r.path, known) })),
    after: fullMix ? drawn : drawn.map((r) => ({ ...r, path: keepingOnly(r.path, known) })),
  };

  const together = values.together;
  /** Sends requests [from, from + perRound) to one service; its CPU ms per request over them. */
  const run = async (side: 'before' | 'after', from: number): Promise<number> => {
    const service = services[side];
    const requests = asked[side];
    let next = from;
    const cpuBefore = cpuMs(service.child.pid);
    const result = await autocannon({
      url: service.base,
      connections: together ? Math.max(1, connections >> 1) : connections,
      amount: perRound,
      requests: [{ setupRequest: (req) => ({ ...req, method: 'GET', ...requests[next++]! }) }],
    });
    const cpu = cpuMs(service.child.pid) - cpuBefore;
    const failed = result.non2xx + result.errors;
    if (failed) throw new Error(`${side}: ${failed} of ${perRound} requests failed`);
    return cpu / perRound;
  };
  /** One round: both services in turn (the order given), or both at once with --together. */
  const round = async (order: readonly ['before' | 'after', 'before' | 'after'], from: number) => {
    if (together) {
      const [before, after] = await Promise.all([run('before', from), run('after', from)]);
      return { before, after };
    }
    const cpu = { before: 0, after: 0 };
    for (const side of order) cpu[side] = await run(side, from);
    return cpu;
  };

  // The first slice warms both (JIT, page cache, the index's first touches) and is not counted.
  await round(['before', 'after'], 0);
  const cpu = { before: [] as number[], after: [] as number[] };
  for (let n = 0; n < rounds; n++) {
    const from = (n + 1) * perRound;
    const measured = await round(n % 2 === 0 ? ['before', 'after'] : ['after', 'before'], from);
    cpu.before.push(measured.before);
    cpu.after.push(measured.after);
    console.log(
      `round ${n + 1}: before ${cpu.before.at(-1)!.toFixed(3)} ms CPU/request, after ${cpu.after.at(-1)!.toFixed(3)} (${(cpu.after.at(-1)! / cpu.before.at(-1)!).toFixed(2)}×)`,
    );
  }
  const median = (xs: number[]) => {
    const sorted = [...xs].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  };
  const ratios = cpu.after.map((a, i) => a / cpu.before[i]!).sort((a, b) => a - b);
  const summary = {
    scenario: values.scenario,
    posts,
    rounds,
    requestsPerRound: perRound,
    connections,
    together,
    dropped: [...dropped],
    fullMix,
    before: {
      checkout: checkouts.before,
      commit: commitOf(checkouts.before),
      cpuMsPerRequest: cpu.before,
      median: median(cpu.before),
    },
    after: {
      checkout: checkouts.after,
      commit: commitOf(checkouts.after),
      cpuMsPerRequest: cpu.after,
      median: median(cpu.after),
    },
    ratioOfMedians: median(cpu.after) / median(cpu.before),
    roundRatios: { min: ratios[0], median: median(ratios), max: ratios.at(-1) },
  };
  console.log(
    `\n${values.scenario}${fullMix ? ' (the after with the full mix)' : ''}${together ? ', both loaded at once' : ''}, ${posts.toLocaleString('en')} posts, ${rounds} rounds of ${perRound} requests, ${connections} connections:`,
  );
  console.log(
    `  before ${summary.before.median.toFixed(3)} ms CPU/request (median), after ${summary.after.median.toFixed(3)}: ${summary.ratioOfMedians.toFixed(2)}× (round by round ${summary.roundRatios.min!.toFixed(2)}–${summary.roundRatios.max!.toFixed(2)}×)`,
  );
  const out = path.resolve('bench/results', `versus-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(out, `${JSON.stringify(summary, null, 2)}\n`);
  console.log(`Saved ${out}`);
} finally {
  await Promise.all(Object.values(services).map((s) => s.stop()));
}
