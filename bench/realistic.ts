/**
 * The default scenarios of `npm run bench`: traffic as a population of apps sends it (bench/workload.ts),
 * every request drawn from thousands of distinct ones, and writes arriving alongside through the API.
 */
import { randomBytes } from 'node:crypto';
import type autocannon from 'autocannon';
import { sql } from 'kysely';
import { AccountsRepository } from '../src/modules/accounts/accounts-repository.js';
import { hashSecret, secretHint } from '../src/shared/keys.js';
import { solidPng } from '../src/media/png.js';
import type { Database } from '../src/db/database.js';
import { workload, type Workload } from './workload.js';

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

export interface WriteStats { count: number; failed: number; latencies: number[] }

/** Sends one write every 1000/perSecond ms until stopped; each write is timed. */
export class Writer {
  private timer: NodeJS.Timeout | null = null;
  private readonly inFlight = new Set<Promise<void>>();
  readonly stats: WriteStats = { count: 0, failed: 0, latencies: [] };

  constructor(private readonly perSecond: number, private readonly send: () => Promise<Response>) {}

  start(): void {
    this.timer = setInterval(() => {
      const started = performance.now();
      const write = this.send().then(async (res) => {
        await res.arrayBuffer();
        this.stats.count++;
        if (!res.ok) this.stats.failed++;
        this.stats.latencies.push(performance.now() - started);
      }, () => { this.stats.count++; this.stats.failed++; }).finally(() => this.inFlight.delete(write));
      this.inFlight.add(write);
    }, 1000 / this.perSecond);
  }

  async stop(): Promise<WriteStats> {
    if (this.timer) clearInterval(this.timer);
    await Promise.all(this.inFlight);
    return this.stats;
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
  const jobIds = (await db.selectFrom('jobs').select('id').where('status', 'in', ['published', 'finish'])
    .orderBy(sql`random()`).limit(50_000).execute()).map((r) => r.id);
  return workload({ postIds, jobIds, apiKeys: await benchKeys(database) });
}

export const readMix = (w: Workload) => {
  const draws = [w.postSearch, w.postSearch, w.postSearch, w.jobSearch, w.jobSearch, w.postDetail, w.postDetail, w.postDetail, w.jobDetail, w.jobDetail];
  return () => draws[Math.floor(Math.random() * draws.length)]!();
};

/** A load whose every request is drawn anew from `path()`. */
export function drawn(base: string, w: Workload, path: () => string): autocannon.Options {
  return { url: base, requests: [{ setupRequest: (req) => ({ ...req, method: 'GET', path: path(), headers: w.headers() }) }] };
}

/** Post creates and job deactivate/publish pairs, in turn, through the API. */
export async function writes(ctx: RealisticContext, perSecond: number): Promise<Writer> {
  const { db } = ctx.database;
  const acme = await db.selectFrom('companies').select('id').where('handle', '=', 'acme-labs').executeTakeFirstOrThrow();
  const jobs = (await db.selectFrom('jobs').select(['id', 'status']).where('company_id', '=', acme.id)
    .where('status', 'in', ['published', 'finish']).orderBy('id', 'desc').limit(200).execute());
  const auth = { authorization: `Bearer ${ctx.writeToken}` };
  const png = solidPng(64, 48, [200, 80, 40]);
  let turn = 0;
  return new Writer(perSecond, () => {
    turn++;
    if (turn % 2 === 0 && jobs.length > 0) {
      const job = jobs[turn % jobs.length]!;
      const url = `${ctx.base}/api/v1/jobs/${job.id}/active?companyId=acme-labs`;
      if (job.status === 'published') {
        job.status = 'finish';
        return fetch(url, { method: 'DELETE', headers: auth });
      }
      job.status = 'published';
      return fetch(url, { method: 'PUT', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ startDate: new Date().toISOString().slice(0, 10) }) });
    }
    const form = new FormData();
    form.append('request', JSON.stringify({ text: `벤치마크 ${randomBytes(3).toString('hex')} 개발자 채용 TypeScript 경험을 나눴습니다` }));
    if (turn % 3 === 0) form.append('images', new Blob([png], { type: 'image/png' }), 'a.png');
    return fetch(`${ctx.base}/api/v1/posts`, { method: 'POST', headers: { ...auth, 'idempotency-key': `bench-${randomBytes(8).toString('hex')}` }, body: form });
  });
}

export interface RealisticScenario {
  name: string;
  prepare(ctx: RealisticContext, w: Workload): Promise<Prepared>;
}

export const REALISTIC: RealisticScenario[] = [
  { name: 'distinct post searches', prepare: async ({ base }, w) => ({ load: drawn(base, w, w.postSearch), sample: { path: w.postSearch(), headers: w.headers() } }) },
  { name: 'distinct job searches', prepare: async ({ base }, w) => ({ load: drawn(base, w, w.jobSearch), sample: { path: w.jobSearch(), headers: w.headers() } }) },
  {
    // The job searches above, each asking for the counts of a filter menu as well.
    name: 'distinct job searches with facets',
    prepare: async ({ base }, w) => {
      const faceted = () => `${w.jobSearch()}&facets=jobCategories,workTypes,companySizes,companyId`;
      return { load: drawn(base, w, faceted), sample: { path: faceted(), headers: w.headers() } };
    },
  },
  { name: 'random post detail', prepare: async ({ base }, w) => ({ load: drawn(base, w, w.postDetail), sample: { path: w.postDetail(), headers: w.headers() } }) },
  { name: 'random job detail', prepare: async ({ base }, w) => ({ load: drawn(base, w, w.jobDetail), sample: { path: w.jobDetail(), headers: w.headers() } }) },
  {
    // Detail reads measured while 5 more connections search the broadest keywords (single syllables, any page).
    name: 'random post detail beside broad searches',
    prepare: async ({ base }, w) => {
      const broad = () => `/api/v1/posts?keyword=${encodeURIComponent(w.broadest)}&sort=${Math.random() < 0.5 ? 'RELEVANCE' : 'RECENT'}&page=${1 + Math.floor(Math.random() * 50)}&hasImages=${Math.random() < 0.5}`;
      return { load: drawn(base, w, w.postDetail), alongside: { ...drawn(base, w, broad), connections: 5 }, sample: { path: w.postDetail(), headers: w.headers() } };
    },
  },
  {
    name: 'mixed: 90% distinct reads + 3 writes/s',
    prepare: async (ctx, w) => ({ load: drawn(ctx.base, w, readMix(w)), writes: await writes(ctx, 3), sample: { path: w.postSearch(), headers: w.headers() } }),
  },
];
