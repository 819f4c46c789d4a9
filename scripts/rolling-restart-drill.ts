/**
 * The deployment drill of docs/deployment.md, on this machine: two instances of the compiled service on a fresh
 * PostgreSQL database with Redis, behind nginx configured by deploy/nginx/, under a steady load of reads and writes
 * sent through nginx; then deploy/rolling-restart.sh restarts both instances, one at a time. Reports every request
 * that failed (a refused connection, a 5xx, anything but the expected status) and every write that returned 201 but
 * cannot be read afterwards. Exit 0 only when there is none.
 *
 *   npm run drill:rolling-restart [-- --rounds 2 --connections 16 --json]
 *
 * Needs: nginx (Debian's nginx-light or nginx), PostgreSQL (DRILL_DATABASE_URL, else TEST_DATABASE_URL, else
 * postgres://postgres@127.0.0.1:5432/postgres: a database is created beside it and dropped after), Redis
 * (DRILL_REDIS_URL, else TEST_REDIS_URL, else redis://127.0.0.1:6379).
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { allLimitSettings } from '../src/rate-limit/limit-settings.js';
import { ensureBuilt } from '../support/build.js';
import { freePort } from '../support/free-port.js';
import { shippedNginx } from '../support/nginx.js';
import { serviceEnv, serviceNodeFlags } from '../support/service-flags.js';

const ROOT = path.resolve(new URL('..', import.meta.url).pathname);

const { values: options } = parseArgs({
  options: {
    rounds: { type: 'string', default: '1' },
    connections: { type: 'string', default: '16' },
    'writes-per-second': { type: 'string', default: '5' },
    // The instances' SHUTDOWN_DRAIN_MS (docs/deployment.md); 0 shows what the drain prevents.
    'drain-ms': { type: 'string', default: '5000' },
    json: { type: 'boolean', default: false },
  },
});
const rounds = Number(options.rounds);
const connections = Number(options.connections);
const writesPerSecond = Number(options['writes-per-second']);

const log = (line: string) => {
  if (!options.json) console.log(line);
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A fresh database on the drill's PostgreSQL server; dropped by the returned function. */
async function createDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const serverUrl =
    process.env.DRILL_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `svc_drill_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/**
 * The release the drill deploys in `dir`: the project's compiled dist/ (built first when it is not the build of the
 * sources beside it), package.json, node_modules and views.
 */
function release(dir: string): void {
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'));
  for (const linked of ['node_modules', 'views']) fs.symlinkSync(path.join(ROOT, linked), path.join(dir, linked));
  ensureBuilt(ROOT);
  fs.symlinkSync(path.join(ROOT, 'dist'), path.join(dir, 'dist'));
}

/**
 * What a supervisor (systemd, a container runtime) does for the drill: `instance.sh start PORT` starts an instance
 * in the background, `instance.sh restart PORT` sends it SIGTERM, waits until it has exited, and starts it again.
 */
function writeInstanceScript(dir: string, env: Record<string, string>): string {
  const script = path.join(dir, 'instance.sh');
  // The environment and node flags `npm start` gives the service.
  const asStarted = Object.entries(serviceEnv())
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  const exports = Object.entries(env)
    .map(([k, v]) => `export ${k}='${v}'`)
    .join('\n');
  fs.writeFileSync(
    script,
    `#!/usr/bin/env bash
set -euo pipefail
${exports}
cd '${dir}'
start() {
  PORT=$1 DATA_DIR='${dir}'/data-$1 INSTANCE_NAME=drill-$1 ${asStarted} nohup '${process.execPath}' ${serviceNodeFlags().join(' ')} dist/server.js >> instance-$1.log 2>&1 < /dev/null &
  echo $! > instance-$1.pid
}
stop() {
  local pid; pid=$(cat instance-$1.pid)
  kill -TERM "$pid" 2>/dev/null || return 0
  while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
}
case $1 in
  start) start "$2" ;;
  restart) stop "$2"; start "$2" ;;
  stop) stop "$2" ;;
esac
`,
    { mode: 0o755 },
  );
  return script;
}

async function waitReady(url: string, seconds: number): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await sleep(200);
  }
  throw new Error(`${url} was not ready after ${seconds} s`);
}

/** An access token of the demo user, through the authorize and token endpoints as a browser and a client would. */
async function accessToken(
  base: string,
  credentials: {
    user: { email: string; password: string };
    client: { clientId: string; clientSecret: string; redirectUri: string };
  },
): Promise<string> {
  const cookies = new Map<string, string>();
  const send = async (method: 'GET' | 'POST', url: string, form?: Record<string, string>) => {
    const res = await fetch(new URL(url, base), {
      method,
      redirect: 'manual',
      headers: {
        cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      cookies.set(pair!.slice(0, pair!.indexOf('=')), pair!.slice(pair!.indexOf('=') + 1));
    }
    return { status: res.status, location: res.headers.get('location'), body: await res.text() };
  };
  const field = (html: string, name: string) =>
    (new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '')
      .replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'");
  const verifier = randomBytes(32).toString('base64url');
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: credentials.client.clientId,
    redirect_uri: credentials.client.redirectUri,
    scope: 'post:write',
    state: 'drill',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  });
  let page = await send('GET', `/oauth/authorize?${query.toString()}`);
  for (let step = 0; step < 4 && page.status !== 303; step++) {
    const form = { csrf_token: field(page.body, 'csrf_token'), authorize_query: field(page.body, 'authorize_query') };
    page = page.body.includes('action="/oauth/login"')
      ? await send('POST', '/oauth/login', {
          ...form,
          email: credentials.user.email,
          password: credentials.user.password,
        })
      : await send('POST', '/oauth/authorize', { ...form, decision: 'allow' });
    if (page.status === 303 && page.location && !page.location.includes('code='))
      page = await send('GET', page.location);
  }
  const code = page.location ? new URL(page.location, base).searchParams.get('code') : null;
  if (!code) throw new Error(`the authorize flow ended without a code (status ${page.status})`);
  const token = await fetch(new URL('/oauth/token', base), {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${credentials.client.clientId}:${credentials.client.clientSecret}`).toString('base64')}`,
    },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: credentials.client.redirectUri,
      code_verifier: verifier,
    }).toString(),
  });
  if (!token.ok) throw new Error(`the token endpoint answered ${token.status}: ${await token.text()}`);
  return ((await token.json()) as { access_token: string }).access_token;
}

/** Runs a script to its end without blocking this process's event loop; its lines are logged as they come. */
function runScript(
  file: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ exitCode: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const take = (chunk: Buffer) => {
      output += chunk.toString();
      for (const line of chunk.toString().trimEnd().split('\n')) log(line);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.once('close', (code) => resolve({ exitCode: code ?? -1, output }));
  });
}

interface Outcome {
  kind: string;
  ok: boolean;
  detail?: string;
  ms: number;
}

/** Reads by `connections` loops and writes at `writesPerSecond`, all through `base`, until `stop()`. */
function startLoad(base: string, apiKey: string, token: string, postIds: number[]) {
  const outcomes: Outcome[] = [];
  const created: number[] = [];
  let running = true;
  const keywords = ['개발', '채용', 'TypeScript', '디자인', '데이터', '마케팅', 'backend', '스타트업'];
  const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)]!;
  const reads: Array<[string, () => string]> = [
    [
      'post search',
      () => `/api/v1/posts?keyword=${encodeURIComponent(pick(keywords))}&page=${1 + Math.floor(Math.random() * 3)}`,
    ],
    ['post detail', () => `/api/v1/posts/${pick(postIds)}`],
    ['job search', () => `/api/v1/jobs?page=${1 + Math.floor(Math.random() * 3)}`],
    ['event search', () => '/api/v1/events'],
  ];
  const record = async (kind: string, expected: number, send: () => Promise<Response>): Promise<Response | null> => {
    const started = performance.now();
    try {
      const res = await send();
      const body = await res.arrayBuffer();
      const ok = res.status === expected;
      outcomes.push({
        kind,
        ok,
        ms: performance.now() - started,
        ...(ok ? {} : { detail: `${res.status} ${Buffer.from(body).toString('utf8').slice(0, 200)}` }),
      });
      return ok ? new Response(body, { status: res.status }) : null;
    } catch (err) {
      outcomes.push({
        kind,
        ok: false,
        ms: performance.now() - started,
        detail:
          err instanceof Error ? `${err.message} ${String((err as { cause?: unknown }).cause ?? '')}` : String(err),
      });
      return null;
    }
  };
  const readers = Array.from({ length: connections }, async () => {
    while (running) {
      const [kind, url] = pick(reads);
      await record(kind, 200, () => fetch(`${base}${url()}`, { headers: { 'x-svc-api-key': apiKey } }));
    }
  });
  const writer = (async () => {
    let turn = 0;
    while (running) {
      const started = Date.now();
      turn++;
      const form = new FormData();
      form.append(
        'request',
        JSON.stringify({ text: `배포 훈련 ${turn} ${randomBytes(3).toString('hex')}: 무중단 재시작` }),
      );
      const res = await record('post create', 201, () =>
        fetch(`${base}/api/v1/posts`, {
          method: 'POST',
          body: form,
          headers: { authorization: `Bearer ${token}`, 'idempotency-key': `drill-${randomBytes(8).toString('hex')}` },
        }),
      );
      if (res) created.push(((await res.json()) as { postId: number }).postId);
      await sleep(Math.max(0, 1000 / writesPerSecond - (Date.now() - started)));
    }
  })();
  return {
    outcomes,
    created,
    async stop() {
      running = false;
      await Promise.all([...readers, writer]);
    },
  };
}

function summary(outcomes: Outcome[]) {
  const kinds = [...new Set(outcomes.map((o) => o.kind))].sort();
  return kinds.map((kind) => {
    const mine = outcomes.filter((o) => o.kind === kind);
    const times = mine.map((o) => o.ms).sort((a, b) => a - b);
    return {
      kind,
      requests: mine.length,
      failed: mine.filter((o) => !o.ok).length,
      p99Ms: Math.round(times[Math.floor(times.length * 0.99)] ?? 0),
    };
  });
}

async function main(): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-drill-'));
  const database = await createDatabase();
  const [nginxPort, ...instances] = [await freePort(), await freePort(), await freePort()] as [number, number, number];
  const base = `http://127.0.0.1:${nginxPort}`;
  const addresses = instances.map((p) => `127.0.0.1:${p}`);
  let instanceScript: string | null = null;
  let nginx: ReturnType<typeof shippedNginx> | null = null;
  try {
    log(`the release in ${dir}`);
    release(dir);
    const raise = Object.fromEntries(
      Object.entries(allLimitSettings(1_000_000)).filter(([name]) => !name.startsWith('RATE_LIMIT_GLOBAL_')),
    );
    const env: Record<string, string> = {
      ...raise,
      DATABASE_URL: database.url,
      REDIS_URL: process.env.DRILL_REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
      RATE_LIMIT_REDIS_PREFIX: `svc:drill:${process.pid}:`,
      RATE_LIMIT_GLOBAL_PER_MINUTE: '1000000',
      RATE_LIMIT_GLOBAL_PER_DAY: '1000000',
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: base,
      TRUST_PROXY: 'true',
      MEDIA_STORE: 'database',
      SHUTDOWN_DRAIN_MS: options['drain-ms'],
      SIGNING_KEY_SECRET: randomBytes(24).toString('hex'),
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      // Metrics open on the instances' loopback addresses, for a scraper on this machine; the public site hides them.
      METRICS: 'on',
    };
    execFileSync(process.execPath, ['dist/cli/main.js', 'migrate'], {
      cwd: dir,
      env: { ...process.env, ...env, DATA_DIR: path.join(dir, 'seed') },
      stdio: 'ignore',
    });
    execFileSync(process.execPath, ['dist/cli/main.js', 'seed-demo'], {
      cwd: dir,
      env: { ...process.env, ...env, DATA_DIR: path.join(dir, 'seed') },
      stdio: 'ignore',
    });
    const credentials = JSON.parse(fs.readFileSync(path.join(dir, 'seed/demo-credentials.json'), 'utf8'));

    instanceScript = writeInstanceScript(dir, env);
    for (const port of instances) execFileSync(instanceScript, ['start', String(port)]);
    nginx = shippedNginx(path.join(dir, 'nginx'), nginxPort, [instances[0], instances[1]]);
    nginx.start();
    for (const address of addresses) await waitReady(`http://${address}/readyz`, 120);
    await waitReady(`${base}/readyz`, 10);
    log(`two instances (${addresses.join(', ')}) behind nginx at ${base}, on PostgreSQL and Redis`);

    const metrics = {
      direct: (await fetch(`http://${addresses[0]}/metrics`)).status,
      throughNginx: (await fetch(`${base}/metrics`)).status,
    };
    const token = await accessToken(base, credentials);
    const page = (await fetch(`${base}/api/v1/posts?size=50`, {
      headers: { 'x-svc-api-key': credentials.apiKey },
    }).then((r) => r.json())) as { items: Array<{ postId: number }> };
    const load = startLoad(
      base,
      credentials.apiKey,
      token,
      page.items.map((p) => p.postId),
    );
    await sleep(2_000);
    const restarts: Array<{ round: number; exitCode: number; output: string }> = [];
    for (let round = 1; round <= rounds; round++) {
      log(`round ${round}: deploy/rolling-restart.sh ${addresses.join(' ')}`);
      // Asynchronously: the load runs in this process and must go on while the script runs.
      const run = await runScript(path.join(ROOT, 'deploy/rolling-restart.sh'), addresses, {
        ...process.env,
        RESTART_COMMAND: `${instanceScript} restart {port}`,
      });
      restarts.push({ round, ...run });
      await sleep(1_000);
    }
    await sleep(1_000);
    await load.stop();

    // Every write that was acknowledged can be read back, whichever instance answers.
    const lost: number[] = [];
    for (const id of load.created) {
      const res = await fetch(`${base}/api/v1/posts/${id}`, { headers: { 'x-svc-api-key': credentials.apiKey } });
      if (res.status !== 200) lost.push(id);
    }
    const byKind = summary(load.outcomes);
    const failures = load.outcomes.filter((o) => !o.ok);
    const report = {
      requests: load.outcomes.length,
      failed: failures.length,
      writesAcknowledged: load.created.length,
      writesLost: lost.length,
      restartsFailed: restarts.filter((r) => r.exitCode !== 0).length,
      byKind,
      failures: failures.slice(0, 20).map((f) => `${f.kind}: ${f.detail}`),
      lost: lost.slice(0, 20),
      metrics,
    };
    if (options.json) console.log(JSON.stringify(report));
    else {
      console.table(byKind);
      console.log(
        `requests ${report.requests}, failed ${report.failed}; writes acknowledged ${report.writesAcknowledged}, lost ${report.writesLost}; rolling restarts failed ${report.restartsFailed}`,
      );
      for (const line of report.failures) console.log(`  failed: ${line}`);
    }
    return report.failed === 0 && report.writesLost === 0 && report.restartsFailed === 0 ? 0 : 1;
  } finally {
    nginx?.stop();
    if (instanceScript)
      for (const port of instances) spawnSync(instanceScript, ['stop', String(port)], { stdio: 'ignore' });
    await database.drop().catch(() => undefined);
    if (!process.env.DRILL_KEEP) fs.rmSync(dir, { recursive: true, force: true });
    else log(`kept ${dir}`);
  }
}

process.exitCode = await main().catch((err: unknown) => {
  console.error('The drill could not run:', err instanceof Error ? err.message : err);
  return 2;
});
