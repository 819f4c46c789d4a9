/**
 * What the request pipeline costs: one response (the job-categories catalog, which reads nothing from the
 * database) served three ways, each in its own process, rounds alternated so machine drift hits all three alike:
 *   bare     node:http writing the bytes;
 *   fastify  Fastify with no plugins or hooks writing the same bytes;
 *   service  the service itself (compiled, as npm start runs it), with every hook a public read passes;
 *   bare+N   node:http again, spinning the CPU for N µs before each response (`--work`, N in µs, comma-separated):
 *            servers whose own work per request is known, to read off what rate a given cost leaves here.
 * Each server's CPU time over its runs (user + system, all its threads) is divided by the requests it served:
 * CPU per request moves less than req/s on a machine whose speed drifts. The latency columns (each round's p50 and p99,
 * their range over the rounds) show what a given cost per request leaves of the latency targets at these connections.
 * Usage: npm run bench:pipeline [-- --seconds 5 --rounds 2 --work 50,100]
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { DEMO_API_KEY } from '../src/demo/demo-generator.js';
import { allLimitSettings } from '../src/rate-limit/limit-settings.js';
import { referenceServer } from './reference-servers.js';
import { cpuMs } from './run.js';
import { serviceEnv, serviceNodeFlags } from '../support/service-flags.js';
import { ensureBuilt } from '../support/build.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '2' },
    connections: { type: 'string', default: '50' },
    work: { type: 'string', default: '50,100' },
  },
});
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const connections = Number(values.connections);
const works = values.work.split(',').filter(Boolean).map(Number);
const headers = { 'x-svc-api-key': DEMO_API_KEY, 'accept-language': 'en' };

ensureBuilt(process.cwd());

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-pipeline-'));
const port = 20_000 + Math.floor(Math.random() * 10_000);
const service = spawn(process.execPath, [...serviceNodeFlags(), 'dist/cli/main.js', 'demo'], {
  env: {
    ...process.env,
    ...serviceEnv(),
    ...allLimitSettings(1_000_000_000),
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    LOG_LEVEL: 'warn',
    REDIS_URL: '',
    DATABASE_URL: '',
  },
  stdio: 'ignore',
});
const serviceUrl = `http://127.0.0.1:${port}/api/v1/codes/job-categories`;
for (let i = 0; i < 600; i++) {
  try {
    if ((await fetch(serviceUrl, { headers })).ok) break;
  } catch {
    /* starting */
  }
  await new Promise((r) => setTimeout(r, 100));
}
// The demo writes its media files after it starts serving: measure once the service is idle (under 5% of a core
// over a second), so that this work does not count against the pipeline.
for (let second = 0; second < 60; second++) {
  const before = cpuMs(service.pid);
  await new Promise((r) => setTimeout(r, 1000));
  if (!(cpuMs(service.pid) - before > 50)) break;
}
const sample = await fetch(serviceUrl, { headers });
const body = Buffer.from(await sample.arrayBuffer());
const contentType = sample.headers.get('content-type') ?? 'application/json';

const serving = (kind: 'bare' | 'fastify', workMicros?: number) =>
  referenceServer(kind, 200, { 'content-type': contentType }, body, workMicros);
const bare = await serving('bare');
const fastify = await serving('fastify');
const spun = await Promise.all(works.map((micros) => serving('bare', micros)));

const targets: Record<string, { url: string; pid: number | undefined }> = {
  bare,
  fastify,
  service: { url: serviceUrl, pid: service.pid },
  ...Object.fromEntries(works.map((micros, i) => [`bare+${micros}µs`, spun[i]!])),
};
const totals: Record<string, { rates: number[]; p50s: number[]; p99s: number[]; cpuMs: number; requests: number }> = {};
for (let round = 0; round < rounds; round++) {
  for (const [name, { url, pid }] of Object.entries(targets)) {
    const cpuBefore = cpuMs(pid);
    const result = await autocannon({ url, connections, duration: seconds, headers });
    const total = (totals[name] ??= { rates: [], p50s: [], p99s: [], cpuMs: 0, requests: 0 });
    total.rates.push(result.requests.average);
    total.p50s.push(result.latency.p50);
    total.p99s.push(result.latency.p99);
    total.cpuMs += cpuMs(pid) - cpuBefore;
    total.requests += result.requests.total;
    console.log(
      `  round ${round + 1} ${name}: ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms`,
    );
  }
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const bareRate = mean(totals.bare!.rates);
const range = (xs: number[]) =>
  Math.min(...xs) === Math.max(...xs) ? `${xs[0]}` : `${Math.min(...xs)}–${Math.max(...xs)}`;
console.log(
  '\n| served by | req/s | share of bare | CPU µs per request | p50 ms | p99 ms |\n|---|---:|---:|---:|---:|---:|',
);
for (const [name, { rates, p50s, p99s, cpuMs: used, requests }] of Object.entries(totals)) {
  const perRequest = Number.isFinite(used) && requests > 0 ? ((1000 * used) / requests).toFixed(0) : '—';
  console.log(
    `| ${name} | ${Math.round(mean(rates))} | ${Math.round((100 * mean(rates)) / bareRate)}% | ${perRequest} | ${range(p50s)} | ${range(p99s)} |`,
  );
}

await Promise.all([bare, fastify, ...spun].map((server) => server.close()));
service.kill('SIGTERM');
await new Promise((r) => service.once('exit', r));
fs.rmSync(dir, { recursive: true, force: true });
