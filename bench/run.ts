/**
 * The benchmark: npm run bench -- [--db sqlite|postgres] [--scenario 'NAME|NAME'] [--hot] [--quick] [--posts N] [--sizes 10000,100000] [--profile DIR]
 *
 * Starts the service as its own process (limits raised) on a generated data set and drives each scenario with
 * autocannon. The default scenarios are realistic traffic (bench/realistic.ts): every request drawn from
 * thousands of distinct ones, detail reads over the whole id range, writes alongside. `--hot` runs instead the
 * scenarios that repeat one request, which the response caches answer (labelled "hot:"). In the same run a bare
 * node:http server serves the exact bytes of one response of each scenario: that is the limit of this runtime
 * on this machine, and every result is reported as a ratio to it. Prints a table and saves it as JSON under
 * bench/results/.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { openDatabase, type Database } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { DEMO_API_KEY, DEMO_CLIENT } from '../src/demo/demo-generator.js';
import { solidPng } from '../src/media/png.js';
import { allLimitSettings } from '../src/rate-limit/limit-settings.js';
import { OAuthRepository } from '../src/modules/oauth/oauth-repository.js';
import { keyEncryptionKey, SigningKeys } from '../src/modules/oauth/signing-keys.js';
import { TokenService } from '../src/modules/oauth/token-service.js';
import { benchDataCounts, benchDataName, fileInPageCache, schemaInPageCache } from './bench-data.js';
import { generateBenchData } from './generate-data.js';
import { REALISTIC, realisticWorkload, type Prepared } from './realistic.js';
import { referenceServer } from './reference-servers.js';
import { serviceEnv, serviceNodeFlags } from '../support/service-flags.js';
import { ensureBuilt } from '../support/build.js';
import { anonymousRssMb, childrenOf, peakRssMb, processCpuMs, statFields } from '../support/proc.js';
import { WRITE_KINDS, type WriteKind, type WriteStats } from './write-stats.js';

export interface BenchOptions {
  db: 'sqlite' | 'postgres';
  quick: boolean;
  posts: number;
  scenario?: string;
  sizes?: number[];
  connections?: number;
  seconds?: number;
  dataDir?: string;
  /** Run the single-request scenarios (hot caches) instead of the realistic ones. */
  hot?: boolean;
  /** Write a V8 CPU profile of the service process into this directory (`npm run bench:profile` reads it). */
  profile?: string;
}

export interface ScenarioResult {
  scenario: string;
  posts: number;
  requestsPerSecond: number;
  /** Milliseconds of the scenario's first request on a freshly started service (nothing cached yet). */
  firstMs: number | null;
  p50: number;
  p99: number;
  bareRequestsPerSecond: number;
  ratio: number;
  peakRssMb: number;
  /**
   * The most anonymous resident memory (its heaps and allocations, sampled every 250 ms since the start) the service
   * held up to the scenario's end: RSS also counts the pages of the SQLite file it read through its memory map, which
   * are the system's file cache.
   */
  peakAnonMb?: number;
  /** The image process's, when the scenario uploaded images (it is not in peakRssMb). */
  imagesPeakRssMb?: number;
  /** The service's CPU time (user + system, its image process's included) over the measured run, divided by the measured requests. */
  cpuMsPerRequest?: number;
  /** Non-2xx responses and connection errors (a random job id is never a draft, so every read should be 2xx). */
  errors: number;
  /** Requests the load generator gave up on after 10 s. */
  timeouts: number;
  /** Writes sent alongside the load (mixed scenario): how many, how many failed, their p50 and p99; and the
   * first upload of the service, sent before (it loads the image library, once in a process's life). */
  writes?: WritesResult;
}

/** Writes as a result reports them: all of them, and by kind (a job's publish or deactivate, a post, a post with an image). */
interface WritesResult {
  count: number;
  failed: number;
  p50: number;
  p99: number;
  firstUploadMs: number;
  byKind: Record<WriteKind, { count: number; p50: number; p99: number }>;
}

function writesResult(stats: WriteStats, firstUploadMs: number): WritesResult {
  const byKind = Object.fromEntries(
    WRITE_KINDS.map((kind) => {
      const latencies = stats.byKind[kind];
      return [kind, { count: latencies.length, p50: percentile(latencies, 50), p99: percentile(latencies, 99) }];
    }),
  ) as WritesResult['byKind'];
  return {
    count: stats.count,
    failed: stats.failed,
    p50: percentile(stats.latencies, 50),
    p99: percentile(stats.latencies, 99),
    firstUploadMs,
    byKind,
  };
}

export const SECRET = 'bench-signing-key-secret-0123456789abcdef';
const RAISED = allLimitSettings(1_000_000_000);

/** A data set: how the service reaches it, and its name (the post index's saved copy is kept under it). */
export interface Target {
  databaseUrl: string;
  name: string;
  open(): Database;
}

/** A data set kept from an earlier run gets the migrations that landed since. */
async function upToDate(open: () => Database): Promise<void> {
  const database = open();
  try {
    await migrateToLatest(database);
  } finally {
    await database.close();
  }
}

/** What each search index of a running service holds (`search_index_bytes` from its metrics), for the record. */
async function indexBytes(base: string): Promise<string> {
  try {
    const text = await (await fetch(`${base}/metrics`)).text();
    const found = [...text.matchAll(/^search_index_bytes\{index="(\w+)"\} ([\d.e+]+)/gm)];
    const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
    const total = found.reduce((sum, [, , bytes]) => sum + Number(bytes), 0);
    return `${found.map(([, name, bytes]) => `${name} ${mb(Number(bytes))}`).join(', ')} (${mb(total)} in all)`;
  } catch (err) {
    return `unknown (${(err as Error).message})`;
  }
}

export async function dataset(options: Pick<BenchOptions, 'db' | 'dataDir'>, posts: number): Promise<Target> {
  const counts = benchDataCounts(posts);
  const name = benchDataName(posts);
  if (options.db === 'sqlite') {
    const dir = options.dataDir ?? path.resolve('bench/data');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${name}.sqlite`);
    const open = () => openDatabase({ kind: 'sqlite', url: file });
    if (!fs.existsSync(file)) {
      console.log(`Generating ${name} (SQLite, kept at ${file} for later runs)…`);
      const database = open();
      await migrateToLatest(database);
      await generateBenchData(database, counts);
      await database.close();
    }
    await upToDate(open);
    fileInPageCache(file);
    return { databaseUrl: file, name, open };
  }
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('Set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a PostgreSQL database for --db postgres');
  const schema = name.replace(/-/g, '_');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const exists =
    (await client.query('SELECT 1 FROM information_schema.schemata WHERE schema_name = $1', [schema])).rowCount === 1;
  if (!exists) await client.query(`CREATE SCHEMA ${schema}`);
  await client.end();
  const open = () => openDatabase({ kind: 'postgres', url, searchPath: schema });
  if (!exists) {
    console.log(`Generating ${name} (PostgreSQL schema ${schema}, kept for later runs)…`);
    const database = open();
    await migrateToLatest(database);
    await generateBenchData(database, counts);
    await database.close();
  }
  await upToDate(open);
  const warm = open();
  await schemaInPageCache(warm, schema).finally(() => warm.close());
  const separator = url.includes('?') ? '&' : '?';
  return {
    databaseUrl: `${url}${separator}options=${encodeURIComponent(`-c search_path=${schema}`)}`,
    name: `${name}-postgres`,
    open,
  };
}

/** The service as `npm start` runs it (`node <its flags> dist/server.js`), on `target`, with every limit raised. */
export async function startService(
  target: Target,
  dataDir: string,
  profile?: string,
  env: Record<string, string> = {},
  checkout = process.cwd(),
): Promise<{ base: string; child: ChildProcess; stop(): Promise<void> }> {
  const port = 20_000 + Math.floor(Math.random() * 10_000);
  // The same heap limits as `npm start` (package.json): V8 then collects before the heap balloons. A profile is
  // written when the process exits (SIGTERM below); it covers the whole process, start-up included.
  const profiling = profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profile)}`] : [];
  const child = spawn(process.execPath, [...serviceNodeFlags(checkout), ...profiling, 'dist/server.js'], {
    env: {
      ...process.env,
      ...serviceEnv(checkout),
      ...RAISED,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: target.databaseUrl,
      DATA_DIR: dataDir,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
      // On loopback, without a token: the run reads how much the search indexes take.
      METRICS: 'on',
      SIGNING_KEY_SECRET: SECRET,
      REDIS_URL: '',
      ...env,
    },
    stdio: 'inherit',
    cwd: checkout,
  });
  const base = `http://127.0.0.1:${port}`;
  const started = Date.now();
  // A first start on a data set builds the post index from the tables (minutes at millions of posts); later
  // starts load the copy it saved (docs/search.md).
  for (let i = 0; i < 6000; i++) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) break;
    } catch {
      /* starting */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  console.log(`  service ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log(`  search indexes: ${await indexBytes(base)}`);
  return {
    base,
    child,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * CPU time (user + system) a process has used so far, in ms, with its children's: those that ended (cutime,
 * cstime) and those still running. The service decodes uploads in its image process, whose CPU is the service's.
 */
export function cpuMs(pid: number | undefined): number {
  try {
    const own = statFields(pid!);
    const live = childrenOf(pid!).reduce((sum, child) => sum + processCpuMs(child), 0);
    return (own[11]! + own[12]! + own[13]! + own[14]!) * 10 + live;
  } catch {
    return Number.NaN;
  }
}

/** The peak resident memory of the service's image process, when it runs (0 when none). */
function imagesPeakRssMb(pid: number | undefined): number {
  return Math.max(0, ...childrenOf(pid!).map(peakRssMb));
}

interface Scenario {
  name: string;
  /** Part of the scale curve (--sizes). */
  searches?: boolean;
  prepare(ctx: { target: Target; base: string; demo: { postId: number; jobId: number } }): Promise<autocannon.Options>;
}

export async function issueTokens(
  target: Target,
  issuer: string,
  scope: string,
  count: number,
): Promise<Array<{ access: string; refresh: string }>> {
  const database = target.open();
  try {
    const oauth = new OAuthRepository(database.db);
    const keys = new SigningKeys(database.db, keyEncryptionKey(SECRET, '/nonexistent'), Date.now, 3600);
    await keys.init();
    const tokens = new TokenService(
      oauth,
      keys,
      { issuer, audience: `${issuer}/api`, otherResources: [], accessTokenSeconds: 3600, refreshTokenSeconds: 86_400 },
      Date.now,
    );
    const out: Array<{ access: string; refresh: string }> = [];
    for (let i = 0; i < count; i++) {
      const { tokens: issued } = await tokens.openGrant(oauth, 1, DEMO_CLIENT.clientId, scope.split(' '));
      out.push({ access: issued.access_token, refresh: issued.refresh_token });
    }
    return out;
  } finally {
    await database.close();
  }
}

const key = { 'x-svc-api-key': DEMO_API_KEY };
const SCENARIOS: Scenario[] = [
  {
    name: 'hot: post detail',
    prepare: async ({ base, demo }) => ({ url: `${base}/api/v1/posts/${demo.postId}`, headers: key }),
  },
  {
    name: 'hot: job detail',
    prepare: async ({ base, demo }) => ({ url: `${base}/api/v1/jobs/${demo.jobId}`, headers: key }),
  },
  {
    name: 'hot: job search, 3 filters',
    searches: true,
    prepare: async ({ base }) => ({
      url: `${base}/api/v1/jobs?jobCategories=dev,dataAi&seniorities=JUNIOR,MIDLEVEL&workTypes=REMOTE,HYBRID`,
      headers: key,
    }),
  },
  {
    name: 'hot: job search, English keyword',
    searches: true,
    prepare: async ({ base }) => ({ url: `${base}/api/v1/jobs?keyword=backend`, headers: key }),
  },
  {
    name: 'hot: post search, Korean 개발',
    searches: true,
    prepare: async ({ base }) => ({ url: `${base}/api/v1/posts?keyword=${encodeURIComponent('개발')}`, headers: key }),
  },
  {
    name: 'hot: post search RECENT p1',
    searches: true,
    prepare: async ({ base }) => ({ url: `${base}/api/v1/posts?sort=RECENT&page=1`, headers: key }),
  },
  {
    name: 'hot: post search RECENT p2000',
    searches: true,
    prepare: async ({ base }) => ({ url: `${base}/api/v1/posts?sort=RECENT&page=2000`, headers: key }),
  },
  {
    name: 'hot: job categories (en)',
    prepare: async ({ base }) => ({
      url: `${base}/api/v1/codes/job-categories`,
      headers: { ...key, 'accept-language': 'en' },
    }),
  },
  {
    name: 'token refresh',
    prepare: async ({ target, base }) => {
      const tokens = await issueTokens(target, base, 'profile', 2_000);
      const basic = `Basic ${Buffer.from(`${DEMO_CLIENT.clientId}:${DEMO_CLIENT.clientSecret}`).toString('base64')}`;
      return {
        url: `${base}/oauth/token`,
        method: 'POST',
        amount: tokens.length,
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic },
        requests: [
          {
            setupRequest: (req) => ({
              ...req,
              body: `grant_type=refresh_token&refresh_token=${tokens.pop()?.refresh ?? ''}`,
            }),
          },
        ],
      };
    },
  },
  {
    name: 'post create, one image',
    prepare: async ({ target, base }) => {
      const [token] = await issueTokens(target, base, 'post:write', 1);
      const boundary = `bench${randomBytes(6).toString('hex')}`;
      const body = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="request"\r\n\r\n{"text":"벤치마크 글"}\r\n--${boundary}\r\nContent-Disposition: form-data; name="images"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        solidPng(320, 200, [10, 120, 200]),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      return {
        url: `${base}/api/v1/posts`,
        method: 'POST',
        body,
        headers: {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          authorization: `Bearer ${token!.access}`,
        },
      };
    },
  },
];

/** Connections kept open between the requests `timeOne` times, as a client's would be. */
const timedAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** The time of one request, from sending it to its last byte (node:http: undici's fetch adds milliseconds of its own). */
async function timeOne(url: string, headers: Record<string, string>): Promise<number> {
  const started = performance.now();
  await new Promise<void>((resolve, reject) => {
    http
      .get(url, { headers, agent: timedAgent }, (res) => {
        res.on('data', () => undefined);
        res.on('end', resolve);
        res.on('error', reject);
      })
      .on('error', reject);
  });
  return Math.round(performance.now() - started);
}

/** Requests per second over the whole run (autocannon's per-second average rounds short runs to whole seconds). */
const rate = (result: autocannon.Result) => result.requests.total / result.duration;

async function measure(options: autocannon.Options): Promise<autocannon.Result> {
  return autocannon(options);
}

export const percentile = (values: number[], p: number) => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!);
};

/** A hot scenario's single request in the shape of a prepared one. */
function hotPrepared(request: autocannon.Options): Prepared {
  const url = new URL(String(request.url));
  return {
    load: request,
    sample: { path: `${url.pathname}${url.search}`, headers: (request.headers ?? {}) as Record<string, string> },
  };
}

interface Named {
  name: string;
  searches?: boolean;
  prepare(): Promise<Prepared>;
}

export async function runBenchmark(options: BenchOptions): Promise<ScenarioResult[]> {
  const connections = options.connections ?? (options.quick ? 10 : 50);
  const seconds = options.seconds ?? (options.quick ? 2 : 10);
  const results: ScenarioResult[] = [];
  const sizes = options.sizes ?? [options.posts];
  ensureBuilt(process.cwd());
  for (const size of sizes) {
    const target = await dataset(options, size);
    const reader = target.open();
    const postId = (
      await reader.db
        .selectFrom('posts')
        .select('id')
        .where('image_count', '>', 0)
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirstOrThrow()
    ).id;
    const jobId = (
      await reader.db
        .selectFrom('jobs')
        .select('id')
        .where('status', '=', 'published')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirstOrThrow()
    ).id;
    const w = await realisticWorkload(reader);
    const runsDir = options.dataDir ?? path.resolve('bench/data');
    fs.mkdirSync(runsDir, { recursive: true });
    const dataDir = fs.mkdtempSync(path.join(runsDir, 'run-'));
    // The post index's saved copy outlives the run, beside the data set, so the next run starts from it.
    const copies = path.join(runsDir, `${target.name}.search-index`);
    fs.mkdirSync(copies, { recursive: true });
    fs.symlinkSync(copies, path.join(dataDir, 'search-index'));
    const service = await startService(target, dataDir, options.profile);
    let peakAnon = 0;
    const anonSampler = setInterval(() => {
      peakAnon = Math.max(peakAnon, anonymousRssMb(service.child.pid!));
    }, 250);
    try {
      // The broadest single-syllable keyword, asked for the first time: the service has started its search
      // workers and served other searches (so this is not the process's start-up), but has nothing of it kept.
      // One app key and language for all four: what is timed is the keyword's first search, not the first
      // request of an app key the service has not seen yet (its lookup, ~3 ms on PostgreSQL).
      const caller = w.headers();
      for (const keyword of ['서울', 'kotlin', '東京'])
        await timeOne(`${service.base}/api/v1/posts?keyword=${encodeURIComponent(keyword)}`, caller);
      const broadUrl = `${service.base}/api/v1/posts?keyword=${encodeURIComponent(w.broadest)}`;
      const broadFirst = await timeOne(broadUrl, caller);
      console.log(`  first request of the broadest keyword (${w.broadest}): ${broadFirst} ms`);
      const [writeToken] = await issueTokens(target, service.base, 'post:write job:write', 1);
      const ctx = { base: service.base, database: reader, writeToken: writeToken!.access };
      const all: Named[] = [
        ...(options.hot
          ? SCENARIOS.filter((s) => s.name.startsWith('hot:')).map((s) => ({
              name: s.name,
              searches: s.searches,
              prepare: async () =>
                hotPrepared(await s.prepare({ target, base: service.base, demo: { postId, jobId } })),
            }))
          : REALISTIC.map((s) => ({
              name: s.name,
              searches: s.name.includes('searches') && !s.name.includes('beside'),
              prepare: () => s.prepare(ctx, w),
            }))),
        ...SCENARIOS.filter((s) => !s.name.startsWith('hot:')).map((s) => ({
          name: s.name,
          prepare: async () => hotPrepared(await s.prepare({ target, base: service.base, demo: { postId, jobId } })),
        })),
      ];
      const wanted = options.scenario?.split('|');
      const chosen = all.filter(
        (s) => (!wanted || wanted.some((name) => s.name.includes(name))) && (sizes.length === 1 || s.searches),
      );
      for (const scenario of chosen) {
        const prepared = await scenario.prepare();
        // Writes flow from the warm-up on; those sent during the timed run are counted.
        await prepared.writes?.start();
        const request = prepared.load;
        const timed = request.amount ? {} : { duration: seconds };
        const sampleUrl = `${service.base}${prepared.sample.path}`;
        // A hot scenario's first request runs before anything of it is cached: what it costs cold.
        const firstMs =
          request.amount || request.method === 'POST' ? null : await timeOne(sampleUrl, prepared.sample.headers);
        if (!request.amount) await measure({ ...request, connections, duration: 1 });
        // One response of the scenario, served byte for byte by the bare server.
        const sample = await fetch(sampleUrl, {
          method: request.method ?? 'GET',
          headers: prepared.sample.headers,
          body: request.method === 'POST' && !request.amount ? (request.body as Buffer) : undefined,
        });
        const sampleBody = Buffer.from(await sample.arrayBuffer());
        // The same bytes from plain node:http in its own process: the limit of this runtime on this machine.
        const bare = await referenceServer(
          'bare',
          sample.status,
          { 'content-type': sample.headers.get('content-type') ?? 'application/json' },
          sampleBody,
        );
        const measureBare = (duration: number) =>
          measure({
            url: bare.url,
            connections,
            duration,
            method: request.method ?? 'GET',
            ...(request.method === 'POST' ? { body: 'x' } : {}),
          });
        // A timed run is bracketed by two half runs of the bare server, so that drift of the machine during the
        // scenario moves both figures alike (single bare runs of equal responses differed by up to a quarter).
        const bareBefore = request.amount ? null : await measureBare(seconds / 2);
        prepared.writes?.count();
        const cpuBefore = cpuMs(service.child.pid);
        const [run] = await Promise.all([
          measure({ ...request, connections, ...timed }),
          prepared.alongside ? measure({ ...prepared.alongside, duration: seconds }) : null,
        ]);
        const cpuUsed = cpuMs(service.child.pid) - cpuBefore;
        const writeStats = await prepared.writes?.stop();
        const writes = writeStats && writesResult(writeStats, (await prepared.writes!.ready).firstUploadMs);
        const bareAfter = await measureBare(request.amount ? Math.max(1, Math.round(run.duration)) : seconds / 2);
        await bare.close();
        const bareRuns = [bareBefore, bareAfter].filter((r) => r !== null);
        const bareRate =
          bareRuns.reduce((sum, r) => sum + r.requests.total, 0) / bareRuns.reduce((sum, r) => sum + r.duration, 0);
        results.push({
          scenario: scenario.name,
          posts: size,
          requestsPerSecond: Math.round(rate(run)),
          firstMs,
          p50: run.latency.p50,
          p99: run.latency.p99,
          bareRequestsPerSecond: Math.round(bareRate),
          ratio: rate(run) / bareRate,
          peakRssMb: Math.round(peakRssMb(service.child.pid!)),
          peakAnonMb: Math.round(Math.max(peakAnon, anonymousRssMb(service.child.pid!))),
          imagesPeakRssMb: Math.round(imagesPeakRssMb(service.child.pid)),
          errors: run.non2xx + run.errors,
          timeouts: run.timeouts,
          cpuMsPerRequest:
            Number.isFinite(cpuUsed) && run.requests.total > 0
              ? Number((cpuUsed / run.requests.total).toFixed(3))
              : undefined,
          ...(writes ? { writes } : {}),
        });
        const writesNote = writes
          ? `; writes ${writes.count} (${writes.failed} failed), p50 ${writes.p50} ms, p99 ${writes.p99} ms (${WRITE_KINDS.map((kind) => `${kind} ${writes.byKind[kind].count}: p50 ${writes.byKind[kind].p50}, p99 ${writes.byKind[kind].p99}`).join('; ')}; the service's first upload, before: ${writes.firstUploadMs} ms)`
          : '';
        const cpuNote =
          Number.isFinite(cpuUsed) && run.requests.total > 0
            ? `, CPU ${(cpuUsed / run.requests.total).toFixed(2)} ms/req`
            : '';
        console.log(
          `  ${scenario.name}: ${Math.round(rate(run))} req/s${cpuNote}, p50 ${run.latency.p50} ms, p99 ${run.latency.p99} ms, errors ${run.non2xx + run.errors}, timeouts ${run.timeouts}${writesNote}`,
        );
      }
      results.push({
        scenario: `first request, broadest keyword (${w.broadest})`,
        posts: size,
        requestsPerSecond: 0,
        firstMs: broadFirst,
        p50: 0,
        p99: 0,
        bareRequestsPerSecond: 0,
        ratio: 0,
        peakRssMb: Math.round(peakRssMb(service.child.pid!)),
        errors: 0,
        timeouts: 0,
      });
    } finally {
      clearInterval(anonSampler);
      await service.stop();
      await reader.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return results;
}

export function table(results: ScenarioResult[]): string {
  const lines = [
    '| scenario | posts | req/s | CPU ms/req | p50 ms | p99 ms | bare req/s | ratio | peak RSS MB | peak anon MB | errors | timeouts | writes (failed) p99 ms | first request ms |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of results) {
    const writes = r.writes ? `${r.writes.count} (${r.writes.failed}) ${r.writes.p99}` : '—';
    lines.push(
      `| ${r.scenario} | ${r.posts.toLocaleString('en')} | ${r.requestsPerSecond} | ${r.cpuMsPerRequest ?? '—'} | ${r.p50} | ${r.p99} | ${r.bareRequestsPerSecond} | ${(r.ratio * 100).toFixed(0)}% | ${r.peakRssMb}${r.imagesPeakRssMb ? ` (+${r.imagesPeakRssMb} image process)` : ''} | ${r.peakAnonMb ?? '—'} | ${r.errors} | ${r.timeouts} | ${writes} | ${r.firstMs ?? '—'} |`,
    );
  }
  return lines.join('\n');
}

if (process.argv[1]?.endsWith('run.ts')) {
  const { values } = parseArgs({
    options: {
      db: { type: 'string', default: 'sqlite' },
      scenario: { type: 'string' },
      quick: { type: 'boolean', default: false },
      hot: { type: 'boolean', default: false },
      posts: { type: 'string' },
      sizes: { type: 'string' },
      connections: { type: 'string' },
      seconds: { type: 'string' },
      profile: { type: 'string' },
    },
  });
  const quick = values.quick === true;
  const options: BenchOptions = {
    db: values.db === 'postgres' ? 'postgres' : 'sqlite',
    quick,
    posts: Number(values.posts ?? (quick ? 5_000 : 1_000_000)),
    scenario: values.scenario,
    hot: values.hot === true,
    sizes: values.sizes ? values.sizes.split(',').map(Number) : undefined,
    connections: values.connections ? Number(values.connections) : undefined,
    seconds: values.seconds ? Number(values.seconds) : undefined,
    profile: values.profile,
  };
  const results = await runBenchmark(options);
  const rendered = table(results);
  console.log(`\n${rendered}\n`);
  const file = path.resolve(
    'bench/results',
    `${options.db}-${new Date().toISOString().replace(/[:.]/g, '-')}${options.hot ? '-hot' : ''}${quick ? '-quick' : ''}.json`,
  );
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(
    file,
    `${JSON.stringify({ options, machine: { cpus: (await import('node:os')).cpus().length, node: process.version }, results }, null, 2)}\n`,
  );
  console.log(`Saved ${file}`);
}
