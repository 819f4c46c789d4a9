/**
 * Webhook delivery, measured: npm run bench:webhooks -- [--db sqlite|postgres] [--posts N] [--seconds S] [--connections C]
 *
 * Issue 27's targets, on the compiled service (`node dist/server.js`, as `npm start`) over a generated data set:
 *
 * 1. **Latency under load**: three healthy endpoints while the realistic read mix runs from C connections (every
 *    request drawn from thousands of distinct ones) and posts and job changes are written at 3 a second through
 *    the API; the time from a change's commit (`occurredAt`) to its arrival at each endpoint: p50, p99.
 * 2. **Isolation**: the same, with an endpoint that answers after 10 s and one that answers 500 added: the healthy
 *    endpoints' p99 beside phase 1's.
 * 3. **Throughput**: a replay of every change so far to three endpoints at once (up to 10,000 each): deliveries a
 *    second at the receivers, from the first arrival to the last.
 *
 * Receivers are node:http servers in this process; every delivery's signature is checked with the
 * `standardwebhooks` package. Prints a table and saves it under bench/results/.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { Webhook } from 'standardwebhooks';
import { keyEncryptionKey } from '../src/modules/oauth/signing-keys.js';
import { WebhookEndpoints } from '../src/webhooks/webhook-endpoints.js';
import { drawn, readMix, realisticWorkload, writes } from './realistic.js';
import { buildService, dataset, issueTokens, percentile, SECRET, startService } from './run.js';

const { values } = parseArgs({
  options: { db: { type: 'string', default: 'sqlite' }, posts: { type: 'string', default: '100000' }, seconds: { type: 'string', default: '30' }, connections: { type: 'string', default: '50' } },
});
const db = values.db === 'postgres' ? 'postgres' : 'sqlite';
const posts = Number(values.posts);
const seconds = Number(values.seconds);
const connections = Number(values.connections);

interface Arrival { endpoint: string; id: string; latencyMs: number; at: number }

/** One server for every endpoint (told apart by path): healthy ones answer 204, `/slow` after 10 s, `/failing` 500. */
async function receivers(secrets: () => Map<string, string>) {
  const arrivals: Arrival[] = [];
  let badSignatures = 0;
  const server = http.createServer({ keepAliveTimeout: 60_000 }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const at = Date.now();
      const name = (request.url ?? '/').slice(1);
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        const change = new Webhook(secrets().get(name)!).verify(body, request.headers as Record<string, string>) as { id: string; occurredAt: string };
        arrivals.push({ endpoint: name, id: change.id, latencyMs: at - Date.parse(change.occurredAt), at });
      } catch {
        badSignatures++;
      }
      if (name === 'slow') setTimeout(() => { if (!response.destroyed) response.writeHead(204).end(); }, 10_000);
      else response.writeHead(name === 'failing' ? 500 : 204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: (name: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}/${name}`,
    arrivals, bad: () => badSignatures,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

const HEALTHY = ['healthy-1', 'healthy-2', 'healthy-3'];

buildService();
const target = await dataset({ db }, posts);
const database = target.open();
const runsDir = path.resolve('bench/data');
fs.mkdirSync(runsDir, { recursive: true });
const dataDir = fs.mkdtempSync(path.join(runsDir, 'webhooks-'));
const copies = path.join(runsDir, `${target.name}.search-index`);
fs.mkdirSync(copies, { recursive: true });
fs.symlinkSync(copies, path.join(dataDir, 'search-index'));
const endpoints = new WebhookEndpoints(database.db, keyEncryptionKey(SECRET, dataDir));
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

  /** The read mix and 3 writes a second for the phase; the healthy endpoints' latencies of the changes written in it. */
  const phase = async (label: string) => {
    const from = rx.arrivals.length;
    const writer = await writes(ctx, 3);
    writer.start();
    const load = await autocannon({ ...drawn(service.base, w, readMix(w)), connections, duration: seconds });
    const written = await writer.stop();
    // Deliveries of the last writes may still be on their way: wait until they arrive (or 15 s).
    const expected = written.count - written.failed;
    for (let i = 0; i < 150 && rx.arrivals.slice(from).filter((a) => a.endpoint === 'healthy-1').length < expected; i++) await new Promise((r) => setTimeout(r, 100));
    const healthy = rx.arrivals.slice(from).filter((a) => HEALTHY.includes(a.endpoint)).map((a) => a.latencyMs);
    const row = {
      reads: Math.round(load.requests.total / load.duration), readP99: load.latency.p99, readErrors: load.non2xx + load.errors, writes: written.count, writesFailed: written.failed,
      deliveries: healthy.length, deliveryP50: percentile(healthy, 50), deliveryP99: percentile(healthy, 99), deliveryMax: percentile(healthy, 100),
    };
    console.log(`  ${label}: ${JSON.stringify(row)}`);
    results[label] = row;
    return row;
  };

  console.log(`Webhooks on ${db}, ${posts.toLocaleString('en')} posts, ${connections} connections, ${seconds} s a phase`);
  const alone = await phase('3 healthy endpoints, reads + 3 writes/s');
  await add('slow');
  await add('failing');
  const beside = await phase('the same, beside a 10 s endpoint and a 500 endpoint');
  results.isolation = { healthyP99Alone: alone.deliveryP99, healthyP99Beside: beside.deliveryP99, ratio: Number((beside.deliveryP99 / Math.max(1, alone.deliveryP99)).toFixed(2)) };

  // Throughput: the slow and failing endpoints removed; every change so far replayed to the three healthy ones.
  await endpoints.delete(appId, ids.get('slow')!);
  await endpoints.delete(appId, ids.get('failing')!);
  await new Promise((r) => setTimeout(r, 1_000));
  const start = rx.arrivals.length;
  let queued = 0;
  for (const name of HEALTHY) {
    const endpoint = (await endpoints.find(appId, ids.get(name)!))!;
    queued += await endpoints.replay(endpoint, 0, Date.now(), Date.now()).catch(async () => endpoints.replay(endpoint, Date.now() - 600_000, Date.now(), Date.now()));
  }
  for (let i = 0; i < 1_200 && rx.arrivals.length - start < queued; i++) await new Promise((r) => setTimeout(r, 100));
  const burst = rx.arrivals.slice(start);
  const span = burst.length > 1 ? (burst.at(-1)!.at - burst[0]!.at) / 1000 : 0;
  results.throughput = { queued, delivered: burst.length, seconds: Number(span.toFixed(2)), perSecond: Math.round(burst.length / Math.max(span, 0.001)) };
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
fs.writeFileSync(file, `${JSON.stringify({ options: { db, posts, seconds, connections }, machine: { cpus: os.cpus().length, node: process.version }, results }, null, 2)}\n`);
console.log(`Saved ${file}`);
