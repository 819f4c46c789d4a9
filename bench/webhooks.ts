/**
 * Webhook delivery, measured: npm run bench:webhooks -- [--db sqlite|postgres] [--posts N] [--seconds S] [--connections C]
 *
 * Issue 27's targets, on the compiled service (`node dist/server.js`, as `npm start`) over a generated data set:
 *
 * 1. **Latency under load**: three healthy endpoints while the realistic read mix runs from C connections (every
 *    request drawn from thousands of distinct ones) and posts and job changes are written at 3 a second through
 *    the API; the time to each endpoint from the change's `occurredAt` (stamped as the write began: an upper
 *    bound), from the write's answer (a lower bound), and on PostgreSQL with `track_commit_timestamp = on` from the
 *    writing transaction's commit itself (created posts): p50, p99.
 * 2. **Isolation**: the same, with an endpoint that answers after 10 s and one that answers 500 added: the healthy
 *    endpoints' p99 beside phase 1's.
 * 2b. **Fairness between builders**: the same again, those two removed, beside 200 endpoints of another builder
 *    (20 apps of 10) that each answer after 10 s: the healthy endpoints' p99 beside phase 1's (target ≤ 1.5×).
 * 3. **Throughput**: a replay of every post created so far (up to 10,000, one change per resource) to three
 *    endpoints at once: deliveries a second at the receivers, from the first arrival to the last.
 *
 * Receivers are node:http servers in a process of their own; every delivery's signature is checked with the
 * `standardwebhooks` package. Prints a table and saves it under bench/results/.
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { AccountsRepository } from '../src/modules/accounts/accounts-repository.js';
import { keyEncryptionKey } from '../src/modules/oauth/signing-keys.js';
import { WebhookEndpoints } from '../src/modules/webhooks/webhook-endpoints.js';
import type { Received } from '../support/webhook-receiver.js';
import { drawn, readMix, realisticWorkload, writes } from './realistic.js';
import { dataset, issueTokens, percentile, SECRET, startService } from './run.js';
import { ensureBuilt } from '../support/build.js';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    posts: { type: 'string', default: '100000' },
    seconds: { type: 'string', default: '30' },
    connections: { type: 'string', default: '50' },
  },
});
const db = values.db === 'postgres' ? 'postgres' : 'sqlite';
const posts = Number(values.posts);
const seconds = Number(values.seconds);
const connections = Number(values.connections);

interface Arrival {
  endpoint: string;
  id: string;
  type: string;
  resourceId: string;
  latencyMs: number;
  at: number;
}

/** The receivers (bench/webhook-receivers.ts, a process of their own); each delivery's signature checked here with the `standardwebhooks` package. */
async function receivers(secrets: () => Map<string, string>) {
  const arrivals: Arrival[] = [];
  let badSignatures = 0;
  const child = fork(path.resolve('bench/webhook-receivers.ts'));
  const base = await new Promise<string>((resolve) => {
    child.on('message', (message: { url?: string } & Received) => {
      if (message.url !== undefined) return resolve(message.url);
      const name = message.path.slice(1);
      try {
        const change = new Webhook(secrets().get(name)!).verify(message.body, message.headers) as {
          id: string;
          type: string;
          occurredAt: string;
          resource: { id: string };
        };
        // Each endpoint's ping when it is added is no change: not counted.
        if (change.type === 'webhook.ping') return;
        arrivals.push({
          endpoint: name,
          id: change.id,
          type: change.type,
          resourceId: change.resource.id,
          latencyMs: message.at - Date.parse(change.occurredAt),
          at: message.at,
        });
      } catch {
        badSignatures++;
      }
    });
  });
  return {
    url: (name: string) => `${base.replace(/\/$/, '')}/${name}`,
    arrivals,
    bad: () => badSignatures,
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.disconnect();
      }),
  };
}

const HEALTHY = ['healthy-1', 'healthy-2', 'healthy-3'];

/**
 * When each post's creating transaction committed (ms since the epoch), by id: PostgreSQL only, with
 * `track_commit_timestamp = on` (postgresql.conf; a restart applies it). Empty where the engine cannot say.
 */
async function commitTimes(postIds: number[]): Promise<Map<string, number>> {
  if (db !== 'postgres' || postIds.length === 0) return new Map();
  const {
    rows: [setting],
  } = await sql<{ on: string }>`SELECT current_setting('track_commit_timestamp') AS on`.execute(database.db);
  if (setting?.on !== 'on') return new Map();
  const { rows } = await sql<{ id: number; committed: number | null }>`
    SELECT id, extract(epoch FROM pg_xact_commit_timestamp(xmin)) * 1000 AS committed FROM posts WHERE id = ANY(${[...new Set(postIds)]})`.execute(
    database.db,
  );
  return new Map(rows.flatMap((r) => (r.committed === null ? [] : [[String(r.id), Number(r.committed)]])));
}

ensureBuilt(process.cwd());
const target = await dataset({ db }, posts);
const database = target.open();
const runsDir = path.resolve('bench/data');
fs.mkdirSync(runsDir, { recursive: true });
const dataDir = fs.mkdtempSync(path.join(runsDir, 'webhooks-'));
const copies = path.join(runsDir, `${target.name}.search-index`);
fs.mkdirSync(copies, { recursive: true });
fs.symlinkSync(copies, path.join(dataDir, 'search-index'));
const endpoints = new WebhookEndpoints(database.db, keyEncryptionKey(SECRET, dataDir), 10);
const { id: appId } = await database.db.selectFrom('apps').select('id').orderBy('id').executeTakeFirstOrThrow();
// Endpoints of earlier runs on this data set go first.
await database.db.deleteFrom('webhook_endpoints').where('url', 'like', 'http://127.0.0.1:%').execute();
const secrets = new Map<string, string>();
const ids = new Map<string, string>();
const rx = await receivers(() => secrets);
const add = async (name: string) => {
  const made = await endpoints.create(appId, rx.url(name), [], Date.now());
  secrets.set(name, made.secret);
  ids.set(name, made.id);
};

const service = await startService(target, dataDir, undefined, { WEBHOOKS_ALLOW_LOOPBACK: 'true' });
const results: Record<string, unknown> = {};
try {
  for (const name of HEALTHY) await add(name);
  const w = await realisticWorkload(database);
  const [writeToken] = await issueTokens(target, service.base, 'post:write job:write', 1);
  const ctx = { base: service.base, database, writeToken: writeToken!.access };

  /**
   * The read mix and 3 writes a second for the phase (the benchmark's realistic writes: posts, a third with an image,
   * and job deactivations and publications), plus a text post a second whose commit time is bounded: after its request
   * was sent and before its answer came. The healthy endpoints' latencies: from `occurredAt` (stamped as the write
   * began), and for the timed posts from their answer (after the commit: a lower bound) and from their request.
   */
  const phase = async (label: string) => {
    const from = rx.arrivals.length;
    const writer = await writes(ctx, 3);
    await writer.start();
    const timed = new Map<string, { sent: number; answered: number }>();
    let timing = true;
    const timedPosts = (async () => {
      while (timing) {
        const sent = Date.now();
        const form = new FormData();
        form.append('request', JSON.stringify({ text: `웹훅 지연 측정 ${sent}` }));
        const res = await fetch(`${service.base}/api/v1/posts`, {
          method: 'POST',
          headers: { authorization: `Bearer ${ctx.writeToken}` },
          body: form,
        });
        const answered = Date.now();
        if (res.status === 201)
          timed.set(String(((await res.json()) as { postId: number }).postId), { sent, answered });
        await new Promise((r) => setTimeout(r, Math.max(0, 1_000 - (answered - sent))));
      }
    })();
    const load = await autocannon({ ...drawn(service.base, w, readMix(w)), connections, duration: seconds });
    timing = false;
    await timedPosts;
    const written = await writer.stop();
    // Deliveries of the last writes may still be on their way: wait until they arrive (or 15 s).
    const expected = written.count - written.failed + timed.size;
    for (let i = 0; i < 150 && rx.arrivals.slice(from).filter((a) => a.endpoint === 'healthy-1').length < expected; i++)
      await new Promise((r) => setTimeout(r, 100));
    const healthy = rx.arrivals
      .slice(from)
      .filter((a) => HEALTHY.includes(a.endpoint))
      .map((a) => a.latencyMs);
    const ofTimed = rx.arrivals
      .slice(from)
      .filter((a) => HEALTHY.includes(a.endpoint) && a.type === 'post.created' && timed.has(a.resourceId));
    const afterAnswer = ofTimed.map((a) => a.at - timed.get(a.resourceId)!.answered);
    const afterRequest = ofTimed.map((a) => a.at - timed.get(a.resourceId)!.sent);
    // PostgreSQL with track_commit_timestamp on knows when each writing transaction committed: the created posts'
    // row versions (`xmin`, not updated since) give the exact time from commit to arrival.
    const created = rx.arrivals.slice(from).filter((a) => HEALTHY.includes(a.endpoint) && a.type === 'post.created');
    const committedAt = await commitTimes(created.map((a) => Number(a.resourceId)));
    const afterCommit = created.flatMap((a) => {
      const at = committedAt.get(a.resourceId);
      return at === undefined ? [] : [a.at - at];
    });
    const row = {
      reads: Math.round(load.requests.total / load.duration),
      readP99: load.latency.p99,
      readErrors: load.non2xx + load.errors,
      writes: written.count,
      writesFailed: written.failed,
      deliveries: healthy.length,
      repeated:
        healthy.length -
        new Set(
          rx.arrivals
            .slice(from)
            .filter((a) => HEALTHY.includes(a.endpoint))
            .map((a) => `${a.endpoint} ${a.id}`),
        ).size,
      deliveryP50: percentile(healthy, 50),
      deliveryP99: percentile(healthy, 99),
      deliveryMax: percentile(healthy, 100),
      timedDeliveries: ofTimed.length,
      afterAnswerP50: percentile(afterAnswer, 50),
      afterAnswerP99: percentile(afterAnswer, 99),
      afterRequestP50: percentile(afterRequest, 50),
      afterRequestP99: percentile(afterRequest, 99),
      exactDeliveries: afterCommit.length,
      afterCommitP50: afterCommit.length ? percentile(afterCommit, 50) : null,
      afterCommitP99: afterCommit.length ? percentile(afterCommit, 99) : null,
      afterCommitMax: afterCommit.length ? percentile(afterCommit, 100) : null,
    };
    console.log(`  ${label}: ${JSON.stringify(row)}`);
    results[label] = row;
    return row;
  };

  console.log(
    `Webhooks on ${db}, ${posts.toLocaleString('en')} posts, ${connections} connections, ${seconds} s a phase`,
  );
  const alone = await phase('3 healthy endpoints, reads + 3 writes/s');
  await add('slow');
  await add('failing');
  const beside = await phase('the same, beside a 10 s endpoint and a 500 endpoint');
  results.isolation = {
    healthyP99Alone: alone.deliveryP99,
    healthyP99Beside: beside.deliveryP99,
    ratio: Number((beside.deliveryP99 / Math.max(1, alone.deliveryP99)).toFixed(2)),
    afterAnswerP99Alone: alone.afterAnswerP99,
    afterAnswerP99Beside: beside.afterAnswerP99,
  };

  // Another builder's 200 slow endpoints: a user of its own with 20 apps of 10 endpoints, each answering after 10 s.
  for (const name of ['slow', 'failing']) await endpoints.delete(appId, ids.get(name)!);
  const crowdOwner = await new AccountsRepository(database.db, Date.now).createUser({
    email: `crowd-${Date.now()}@bench.example`,
    name: 'crowd',
    handle: `crowd-${Date.now()}`,
    passwordHash: null,
  });
  const crowdApps: number[] = [];
  for (let i = 0; i < 20; i++) {
    const { id } = await database.db
      .insertInto('apps')
      .values({
        name: `crowd ${i}`,
        description: '',
        owner_user_id: crowdOwner,
        created_at: Date.now(),
        homepage_url: null,
        privacy_url: null,
        deleted_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    crowdApps.push(id);
    for (let j = 0; j < 10; j++)
      secrets.set(`slow-${i}-${j}`, (await endpoints.create(id, rx.url(`slow-${i}-${j}`), [], Date.now())).secret);
  }
  const crowded = await phase('the same, beside 200 endpoints of another builder answering after 10 s');
  results.fairness = {
    healthyP99Alone: alone.deliveryP99,
    healthyP99Beside: crowded.deliveryP99,
    ratio: Number((crowded.deliveryP99 / Math.max(1, alone.deliveryP99)).toFixed(2)),
    afterAnswerP99Alone: alone.afterAnswerP99,
    afterAnswerP99Beside: crowded.afterAnswerP99,
  };
  console.log(`  fairness: ${JSON.stringify(results.fairness)}`);
  await database.db.deleteFrom('webhook_endpoints').where('app_id', 'in', crowdApps).execute();
  await database.db.deleteFrom('apps').where('id', 'in', crowdApps).execute();

  // Throughput: the phases' endpoints removed; three new ones that want post.created get a replay of every post
  // created so far (one change per post: no change waits for an earlier one of its resource).
  for (const name of HEALTHY) await endpoints.delete(appId, ids.get(name)!);
  // 1,000 more posts first, ten at a time, so that the replay has enough to send.
  let made = 0;
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (made < 1_000) {
        made++;
        const form = new FormData();
        form.append('request', JSON.stringify({ text: `웹훅 처리량 ${made}` }));
        await (
          await fetch(`${service.base}/api/v1/posts`, {
            method: 'POST',
            headers: { authorization: `Bearer ${ctx.writeToken}` },
            body: form,
          })
        ).arrayBuffer();
      }
    }),
  );
  const BURST = ['burst-1', 'burst-2', 'burst-3'];
  for (const name of BURST) {
    const made = await endpoints.create(appId, rx.url(name), ['post.created'], Date.now());
    secrets.set(name, made.secret);
    ids.set(name, made.id);
  }
  await new Promise((r) => setTimeout(r, 1_000));
  const start = rx.arrivals.length;
  let queued = 0;
  for (const name of BURST)
    queued += await endpoints.replay((await endpoints.find(appId, ids.get(name)!))!, 0, Date.now(), Date.now());
  for (let i = 0; i < 1_200 && rx.arrivals.slice(start).filter((a) => BURST.includes(a.endpoint)).length < queued; i++)
    await new Promise((r) => setTimeout(r, 100));
  // Only the replay's own endpoints: a delivery of the phases' endpoints still on its way is not counted.
  const burst = rx.arrivals.slice(start).filter((a) => BURST.includes(a.endpoint));
  const span = burst.length > 1 ? (burst.at(-1)!.at - burst[0]!.at) / 1000 : 0;
  results.throughput = {
    queued,
    delivered: burst.length,
    seconds: Number(span.toFixed(2)),
    perSecond: Math.round(burst.length / Math.max(span, 0.001)),
  };
  console.log(`  replay: ${JSON.stringify(results.throughput)}`);
  results.badSignatures = rx.bad();
} finally {
  await service.stop();
  await rx.close();
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

const file = path.resolve('bench/results', `webhooks-${db}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
fs.mkdirSync(path.dirname(file), { recursive: true });
fs.writeFileSync(
  file,
  `${JSON.stringify({ options: { db, posts, seconds, connections }, machine: { cpus: os.cpus().length, node: process.version }, results }, null, 2)}\n`,
);
console.log(`Saved ${file}`);
