/**
 * What the rate limiter costs on the request path: the same service and the same requests, with the
 * in-process limiter counting (limits raised so nothing is refused) and with it swapped out, alternated
 * in one run so that machine drift hits both. Usage: npm run bench:limiter [-- --seconds 5 --rounds 2]
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { generateDemoData } from '../src/demo/demo-generator.js';
import { allLimitSettings } from '../src/rate-limit/limit-settings.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '2' },
    connections: { type: 'string', default: '50' },
  },
});
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const connections = Number(values.connections);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-'));
const file = path.join(dir, 'bench.sqlite');
const database = openDatabase({ kind: 'sqlite', url: file });
await migrateToLatest(database);
const demo = await generateDemoData(database, { now: Date.now() });
await database.close();

const raised = allLimitSettings(1_000_000_000);

async function serve(limiter: 'on' | 'off', port: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/bench-server.ts'], {
    env: {
      ...process.env,
      ...raised,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      DATABASE_URL: file,
      LOG_LEVEL: 'silent',
      BENCH_LIMITER: limiter,
      REDIS_URL: '',
    },
    stdio: 'inherit',
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      /* starting */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

const scenarios = [
  { name: 'code catalog', path: '/api/v1/codes/job-categories' },
  { name: 'post detail', path: `/api/v1/posts/${demo.posts.withImages}` },
];
const results: Record<string, Record<'on' | 'off', number[]>> = {};
let port = 18_000 + Math.floor(Math.random() * 1000);
for (let round = 0; round < rounds; round++) {
  for (const limiter of ['on', 'off'] as const) {
    const server = await serve(limiter, port++);
    for (const scenario of scenarios) {
      await autocannon({
        url: `${server.base}${scenario.path}`,
        connections,
        duration: 1,
        headers: { 'x-svc-api-key': demo.apiKey },
      });
      const run = await autocannon({
        url: `${server.base}${scenario.path}`,
        connections,
        duration: seconds,
        headers: { 'x-svc-api-key': demo.apiKey },
      });
      if (run.non2xx > 0) throw new Error(`${scenario.name}: ${run.non2xx} responses were not 2xx`);
      (results[scenario.name] ??= { on: [], off: [] })[limiter].push(run.requests.average);
    }
    await server.stop();
  }
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
console.log(
  `\nRate limiter cost (${rounds} rounds × ${seconds} s, ${connections} connections, one service process, SQLite)\n`,
);
console.log('| scenario | limiter on (req/s) | limiter off (req/s) | cost |');
console.log('|---|---:|---:|---:|');
for (const [name, r] of Object.entries(results)) {
  const on = mean(r.on);
  const off = mean(r.off);
  console.log(`| ${name} | ${on.toFixed(0)} | ${off.toFixed(0)} | ${(((off - on) / off) * 100).toFixed(1)}% |`);
}
fs.rmSync(dir, { recursive: true, force: true });
