import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { generateDemoData } from '../src/demo/demo-generator.js';
import { freePort } from '../support/free-port.js';
import { realWait } from './helpers/real-time.js';

const hasRedisServer = (() => {
  try {
    return fs.existsSync('/usr/bin/redis-server') || fs.existsSync('/usr/local/bin/redis-server');
  } catch {
    return false;
  }
})();
const RUN = Boolean(process.env.TEST_REDIS_URL) && hasRedisServer;
if (!RUN) console.warn('Shared rate-limit test skipped: it needs TEST_REDIS_URL and a redis-server binary.');

async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await realWait(100, 'poll');
  }
  throw new Error('timed out waiting');
}

describe.skipIf(!RUN)('two server processes sharing one Redis', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-shared-'));
  let redisPort = 0;
  let redis: ChildProcess | null = null;
  const servers: Array<{ process: ChildProcess; base: string }> = [];
  let apiKey = '';

  const startRedis = async () => {
    redis = spawn(
      'redis-server',
      ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    const client = new Redis({
      port: redisPort,
      host: '127.0.0.1',
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    client.on('error', () => undefined);
    try {
      await waitFor(async () => {
        await client.connect().catch(() => undefined);
        return (await client.ping()) === 'PONG';
      }, 10_000);
    } finally {
      client.disconnect();
    }
  };
  const stopRedis = async () => {
    redis?.kill('SIGKILL');
    await new Promise((r) => redis?.once('exit', r));
    redis = null;
  };
  const get = (base: string) =>
    fetch(`${base}/api/v1/codes/work-types`, { headers: { 'x-svc-api-key': apiKey } }).then((r) => r.status);

  beforeAll(async () => {
    redisPort = await freePort();
    await startRedis();
    const file = path.join(dir, 'service.sqlite');
    const database = openDatabase({ kind: 'sqlite', url: file });
    await migrateToLatest(database);
    apiKey = (await generateDemoData(database, { now: Date.now(), posts: 20, jobs: 20, events: 5 })).apiKey;
    await database.close();
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
        env: {
          ...process.env,
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: dir,
          DATABASE_URL: file,
          LOG_LEVEL: 'silent',
          REDIS_URL: `redis://127.0.0.1:${redisPort}`,
          RATE_LIMIT_GLOBAL_PER_MINUTE: '60',
          RATE_LIMIT_GLOBAL_PER_DAY: '100000',
          SIGNING_KEY_SECRET: 'shared-test-signing-secret-0123456789abc',
        },
        stdio: 'ignore',
      });
      const base = `http://127.0.0.1:${port}`;
      servers.push({ process: child, base });
      await waitFor(async () => (await fetch(`${base}/healthz`)).ok, 30_000);
    }
  }, 90_000);

  afterAll(async () => {
    for (const s of servers) s.process.kill('SIGTERM');
    await Promise.all(
      servers.map((s) => new Promise((r) => (s.process.exitCode !== null ? r(null) : s.process.once('exit', r)))),
    );
    if (redis) await stopRedis();
    fs.rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  it('admit exactly the limit together, keep serving while Redis is down, and share the budget again when it is back', async () => {
    // Stay clear of a minute boundary, so the whole burst falls in one window.
    if (new Date().getUTCSeconds() > 50) await realWait((61 - new Date().getUTCSeconds()) * 1000, 'clock');
    const statuses = await Promise.all(Array.from({ length: 100 }, (_, i) => get(servers[i % 2]!.base)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(60);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40);

    await stopRedis();
    // Redis is gone: both instances keep answering, counting in the database they share (which has not seen this
    // minute's Redis count), so together they admit at most one limit more in this minute, not one per instance.
    expect(await get(servers[0]!.base)).toBe(200);
    expect(await get(servers[1]!.base)).toBe(200);
    const whileDown = await Promise.all(Array.from({ length: 100 }, (_, i) => get(servers[i % 2]!.base)));
    expect(whileDown.filter((s) => s === 200).length).toBeLessThanOrEqual(58);
    for (const s of servers) {
      const ready = await fetch(`${s.base}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({
        status: 'degraded',
        rateLimits: expect.stringContaining('Redis unreachable'),
      });
    }

    await startRedis();
    await realWait(2_500, 'clock');
    // Back on Redis: the counters live there again, and readiness says so.
    expect([200, 429]).toContain(await get(servers[0]!.base));
    await waitFor(
      async () => ((await (await fetch(`${servers[0]!.base}/readyz`)).json()) as { status: string }).status === 'ready',
      10_000,
    );
    const client = new Redis({ port: redisPort, host: '127.0.0.1' });
    client.on('error', () => undefined);
    try {
      await waitFor(async () => {
        await get(servers[1]!.base);
        return (await client.keys('svc:rl:global:*')).length > 0;
      }, 10_000);
    } finally {
      client.disconnect();
    }
  }, 60_000);

  it('says on /readyz that Redis is gone before any request meets it, and that it is back, by asking Redis itself', async () => {
    const readiness = async (base: string) =>
      (await (await fetch(`${base}/readyz`)).json()) as { status: string; rateLimits?: string };
    for (const s of servers) expect(await readiness(s.base)).toEqual({ status: 'ready' });
    await stopRedis();
    // No API request in between: readiness finds out on its own.
    for (const s of servers)
      expect(await readiness(s.base)).toMatchObject({
        status: 'degraded',
        rateLimits: expect.stringContaining('Redis unreachable'),
      });
    await startRedis();
    for (const s of servers) await waitFor(async () => (await readiness(s.base)).status === 'ready', 10_000);
  }, 30_000);
});
