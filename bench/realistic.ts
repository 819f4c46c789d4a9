/**
 * The default scenarios of `npm run bench`: traffic as a population of apps sends it (bench/workload.ts),
 * every request drawn from thousands of distinct ones, and writes arriving alongside through the API.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type autocannon from 'autocannon';
import { sql } from 'kysely';
import { AccountsRepository } from '../src/modules/accounts/accounts-repository.js';
import { hashSecret, secretHint } from '../src/shared/keys.js';
import type { Database } from '../src/db/database.js';
import { workload, type Workload } from './workload.js';
import type { WriteMessage, WritePlan, WriteReady } from './write-client.js';
import type { WriteStats } from './write-stats.js';

export interface Prepared {
  /** The measured load. */
  load: autocannon.Options;
  /** A load run at the same time and not measured (broad searches beside detail reads). */
  alongside?: autocannon.Options;
  /** Writes through the API at a steady rate while the load runs. */
  writes?: Writer;
  /** One request of the scenario, served byte for byte by the bare server for the ratio. */
  sample: { path: string; headers: Record<string, string> };
}

/** Writes through the API at a steady rate, sent and timed by a process of their own (bench/write-client.ts). */
export class Writer {
  private readonly child: ChildProcess;
  /** Once the write client has sent its first upload: that write's time. */
  readonly ready: Promise<WriteReady>;

  constructor(plan: WritePlan) {
    this.child = fork(fileURLToPath(new URL('./write-client.ts', import.meta.url)), [], {
      execArgv: ['--import', 'tsx'],
    });
    this.ready = new Promise((resolve, reject) => {
      this.child.once('message', (message: WriteReady) => resolve(message));
      this.child.once('exit', (code) => reject(new Error(`the write client exited (${code}) before it was ready`)));
    });
    this.child.send({ plan } satisfies WriteMessage);
  }

  async start(): Promise<void> {
    await this.ready;
    this.child.send('start' satisfies WriteMessage);
  }

  /** Counts afresh from now: the writes sent from here on. */
  count(): void {
    this.child.send('count' satisfies WriteMessage);
  }

  stop(): Promise<WriteStats> {
    return new Promise((resolve, reject) => {
      this.child.once('message', (stats: WriteStats) => resolve(stats));
      this.child.once('exit', (code) => reject(new Error(`the write client exited (${code}) before it reported`)));
      this.child.send('stop' satisfies WriteMessage);
    });
  }
}

/** Eight app keys of their own (created once per data set), so the limiter keeps several apps' counters. */
async function benchKeys(database: Database): Promise<string[]> {
  const accounts = new AccountsRepository(database.db, Date.now);
  const keys = Array.from({ length: 8 }, (_, i) => `svck_Bench${String(i).padStart(27, '0')}`);
  for (const key of keys) {
    if (await accounts.findActiveKey(hashSecret(key), Date.now())) continue;
    const appId = await accounts.createApp(`Benchmark app ${key.slice(-1)}`);
    await accounts.addAppKey(appId, hashSecret(key), secretHint(key));
  }
  return keys;
}

export interface RealisticContext {
  base: string;
  database: Database;
  /** Bearer tokens of the demo user with post:write and job:write. */
  writeToken: string;
}

/** What the data set offers the workload: the ids of posts and of the jobs a detail read finds. */
export async function realisticWorkload(database: Database): Promise<Workload> {
  const { db } = database;
  const postIds = Int32Array.from((await db.selectFrom('posts').select('id').execute()).map((r) => r.id));
  const jobIds = (
    await db
      .selectFrom('jobs')
      .select('id')
      .where('status', 'in', ['published', 'finish'])
      .orderBy(sql`random()`)
      .limit(50_000)
      .execute()
  ).map((r) => r.id);
  const companyHandles = (
    await db.selectFrom('companies').select('handle').orderBy(sql`random()`).limit(50_000).execute()
  ).map((r) => r.handle);
  const profileHandles = (
    await db
      .selectFrom('profiles as p')
      .innerJoin('users as u', 'u.id', 'p.user_id')
      .select('u.handle')
      .where('p.visibility', '=', 'PUBLIC')
      .orderBy(sql`random()`)
      .limit(50_000)
      .execute()
  ).map((r) => r.handle);
  return workload({ postIds, jobIds, apiKeys: await benchKeys(database), companyHandles, profileHandles });
}

export const readMix = (w: Workload) => {
  const draws = [
    w.postSearch,
    w.postSearch,
    w.postSearch,
    w.jobSearch,
    w.jobSearch,
    w.postDetail,
    w.postDetail,
    w.postDetail,
    w.jobDetail,
    w.jobDetail,
  ];
  return () => draws[Math.floor(Math.random() * draws.length)]!();
};

/** A load whose every request is drawn anew from `path()`. */
export function drawn(base: string, w: Workload, path: () => string): autocannon.Options {
  return {
    url: base,
    requests: [{ setupRequest: (req) => ({ ...req, method: 'GET', path: path(), headers: w.headers() }) }],
  };
}

/** Post creates and job deactivate/publish pairs, in turn, through the API (bench/write-client.ts). */
export async function writes(ctx: RealisticContext, perSecond: number): Promise<Writer> {
  const { db } = ctx.database;
  const acme = await db
    .selectFrom('companies')
    .select('id')
    .where('handle', '=', 'acme-labs')
    .executeTakeFirstOrThrow();
  const jobs = await db
    .selectFrom('jobs')
    .select(['id', 'status'])
    .where('company_id', '=', acme.id)
    .where('status', 'in', ['published', 'finish'])
    .orderBy('id', 'desc')
    .limit(200)
    .execute();
  return new Writer({ base: ctx.base, writeToken: ctx.writeToken, perSecond, jobs });
}

export interface RealisticScenario {
  name: string;
  prepare(ctx: RealisticContext, w: Workload): Promise<Prepared>;
}

export const REALISTIC: RealisticScenario[] = [
  {
    name: 'distinct post searches',
    prepare: async ({ base }, w) => ({
      load: drawn(base, w, w.postSearch),
      sample: { path: w.postSearch(), headers: w.headers() },
    }),
  },
  {
    name: 'distinct job searches',
    prepare: async ({ base }, w) => ({
      load: drawn(base, w, w.jobSearch),
      sample: { path: w.jobSearch(), headers: w.headers() },
    }),
  },
  {
    // The job searches above, each asking for the counts of a filter menu as well.
    name: 'distinct job searches with facets',
    prepare: async ({ base }, w) => {
      const faceted = () => `${w.jobSearch()}&facets=jobCategories,workTypes,companySizes,companyId`;
      return { load: drawn(base, w, faceted), sample: { path: faceted(), headers: w.headers() } };
    },
  },
  {
    name: 'distinct company searches',
    prepare: async ({ base }, w) => ({
      load: drawn(base, w, w.companySearch),
      sample: { path: w.companySearch(), headers: w.headers() },
    }),
  },
  {
    name: 'random company detail',
    prepare: async ({ base }, w) => ({
      load: drawn(base, w, w.companyDetail),
      sample: { path: w.companyDetail(), headers: w.headers() },
    }),
  },
  {
    name: 'distinct profile searches',
    prepare: async ({ base }, w) => ({
      load: drawn(base, w, w.profileSearch),
      sample: { path: w.profileSearch(), headers: w.headers() },
    }),
  },
  {
    // The two search bounds of the directory issues, with writes alongside (posts and job status changes, 3 a second).
    name: 'distinct post searches beside 3 writes/s',
    prepare: async (ctx, w) => ({
      load: drawn(ctx.base, w, w.postSearch),
      writes: await writes(ctx, 3),
      sample: { path: w.postSearch(), headers: w.headers() },
    }),
  },
  {
    name: 'distinct profile searches beside 3 writes/s',
    prepare: async (ctx, w) => ({
      load: drawn(ctx.base, w, w.profileSearch),
      writes: await writes(ctx, 3),
      sample: { path: w.profileSearch(), headers: w.headers() },
    }),
  },
  {
    name: 'random profile detail',
    prepare: async ({ base }, w) => ({
      load: drawn(base, w, w.profileDetail),
      sample: { path: w.profileDetail(), headers: w.headers() },
    }),
  },
  {
    name: 'random post detail',
    prepare: async ({ base }, w) => ({
      load: drawn(base, w, w.postDetail),
      sample: { path: w.postDetail(), headers: w.headers() },
    }),
  },
  {
    name: 'random job detail',
    prepare: async ({ base }, w) => ({
      load: drawn(base, w, w.jobDetail),
      sample: { path: w.jobDetail(), headers: w.headers() },
    }),
  },
  {
    // Detail reads measured while 5 more connections search the broadest keywords (single syllables, any page).
    name: 'random post detail beside broad searches',
    prepare: async ({ base }, w) => {
      const broad = () =>
        `/api/v1/posts?keyword=${encodeURIComponent(w.broadest)}&sort=${Math.random() < 0.5 ? 'RELEVANCE' : 'RECENT'}&page=${1 + Math.floor(Math.random() * 50)}&hasImages=${Math.random() < 0.5}`;
      return {
        load: drawn(base, w, w.postDetail),
        alongside: { ...drawn(base, w, broad), connections: 5 },
        sample: { path: w.postDetail(), headers: w.headers() },
      };
    },
  },
  {
    // The mixed scenario's reads alone: beside it, what the writes cost the reads (each write makes the cached
    // pages and items of its kind stale on every instance).
    name: 'mixed reads alone, no writes',
    prepare: async (ctx, w) => ({
      load: drawn(ctx.base, w, readMix(w)),
      sample: { path: w.postSearch(), headers: w.headers() },
    }),
  },
  {
    name: 'mixed: 90% distinct reads + 3 writes/s',
    prepare: async (ctx, w) => ({
      load: drawn(ctx.base, w, readMix(w)),
      writes: await writes(ctx, 3),
      sample: { path: w.postSearch(), headers: w.headers() },
    }),
  },
];
