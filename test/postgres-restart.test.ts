import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { generateDemoData } from '../src/demo/demo-generator.js';
import { freePort } from '../support/free-port.js';
import { ownPostgres, postgresPrograms } from './helpers/own-postgres.js';
import { scratchStorage, type ScratchStorage } from './helpers/scratch-storage.js';
import { serverProcess } from './helpers/server-process.js';
import { realWait } from './helpers/real-time.js';

const POSTGRES = process.env.TEST_DATABASE_URL;
const PROGRAMS = postgresPrograms();

/**
 * The real server on PostgreSQL survives the server closing its connections (docs/security.md, "PostgreSQL
 * restarting or closing connections"): every idle pooled connection and the listening one ended with
 * `pg_terminate_backend`, and a PostgreSQL of the test's own stopped, started and restarted under it. While the
 * database is away, requests are 503 `C9998` and `/readyz` says `database unavailable`; once it is back the same
 * process serves again, never having exited. No timing is asserted: each wait is a bounded loop.
 */
function drill(
  label: string,
  setUp: (
    dir: string,
  ) => Promise<{ url: string; drop(): Promise<void>; restart?: () => void; stop?: () => void; start?: () => void }>,
) {
  describe(label, () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-pg-restart-'));
    let storage: Awaited<ReturnType<typeof setUp>>;
    let base = '';
    let port = 0;
    let apiKey = '';
    const server = serverProcess(
      () => base,
      () => ({
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dir,
        DATABASE_URL: storage.url,
        LOG_LEVEL: 'silent',
        PUBLIC_BASE_URL: base,
        REDIS_URL: '',
        INSTANCE_NAME: 'pg-restart',
        DATABASE_CONNECT_TIMEOUT_MS: '1000',
        DATABASE_QUERY_TIMEOUT_MS: '3000',
      }),
    );

    beforeAll(async () => {
      storage = await setUp(dir);
      port = await freePort();
      base = `http://127.0.0.1:${port}`;
      const database = openDatabase({ kind: 'postgres', url: storage.url, poolSize: 2 });
      await migrateToLatest(database);
      apiKey = (await generateDemoData(database, { now: Date.now(), posts: 20, jobs: 10, events: 3 })).apiKey;
      await database.close();
      await server.start();
    }, 180_000);
    afterAll(async () => {
      await server.kill();
      await storage?.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    }, 60_000);

    const read = async () => {
      const res = await fetch(`${base}/api/v1/posts?pageSize=2`, { headers: { 'x-svc-api-key': apiKey } }).catch(
        () => null,
      );
      return res ? { status: res.status, body: (await res.json()) as { code?: string } } : null;
    };
    let lastReady: unknown = null;
    const ready = async () => {
      lastReady = await fetch(`${base}/readyz`).then(
        (res) => res.json() as Promise<{ status: string }>,
        () => ({ status: 'no answer' }),
      );
      return (lastReady as { status: string }).status;
    };
    /** Reads until one is 200, at most 60 times, 250 ms apart: the answers before it. */
    const untilServing = async () => {
      const before: Array<number | null> = [];
      for (let i = 0; i < 60; i++) {
        const answer = await read();
        if (answer?.status === 200) return before;
        before.push(answer?.status ?? null);
        await realWait(250, 'poll');
      }
      throw new Error(`never served again: ${before.join(', ')}`);
    };

    it('serves on after every one of its connections is terminated', async () => {
      expect((await read())?.status).toBe(200);
      const admin = new pg.Client({ connectionString: storage.url });
      await admin.connect();
      const { rows } = await admin.query<{ pid: number }>(
        'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = $1',
        ['client backend'],
      );
      expect(rows.length).toBeGreaterThan(0);
      await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
      );
      await admin.end();
      // Idle connections ended: the pools let them go and open new ones; the process never stops.
      await untilServing();
      for (let i = 0; i < 10; i++) expect((await read())?.status).toBe(200);
      expect(server.exitCode).toBeNull();
      expect(server.running).toBe(true);
    }, 60_000);

    it.runIf(label.includes('own'))(
      'answers 503 C9998 while PostgreSQL is down, and serves again once it is back, then through a restart',
      async () => {
        expect((await read())?.status).toBe(200);
        storage.stop!();
        const away = await read();
        expect(away?.status).toBe(503);
        expect(away?.body.code).toBe('C9998');
        expect(await ready()).toBe('database unavailable');
        expect(server.exitCode).toBeNull();
        storage.start!();
        await untilServing();
        // The listening connection (revocations on every instance) comes back too: /readyz is ready again.
        let status = '';
        for (let i = 0; i < 160 && status !== 'ready'; i++) {
          status = await ready();
          if (status !== 'ready') await realWait(250, 'poll');
        }
        expect(status, JSON.stringify(lastReady)).toBe('ready');

        storage.restart!();
        await untilServing();
        expect(server.exitCode).toBeNull();
        expect(server.running).toBe(true);
      },
      120_000,
    );
  });
}

if (POSTGRES) {
  drill('the real server when PostgreSQL terminates its connections', async (dir) => {
    const scratch: ScratchStorage = await scratchStorage('postgres', dir, 'pgrestart');
    return { url: scratch.url, drop: () => scratch.drop() };
  });
}

if (PROGRAMS && POSTGRES) {
  drill('the real server on a PostgreSQL of its own that stops, starts and restarts', async () => {
    const own = await ownPostgres(PROGRAMS);
    return { url: own.url, drop: () => own.close(), restart: own.restart, stop: own.stop, start: own.start };
  });
} else {
  describe('the real server on a PostgreSQL of its own', () => {
    it.skip(`needs TEST_DATABASE_URL and PostgreSQL's programs under /usr/lib/postgresql (found: ${PROGRAMS ?? 'none'})`, () =>
      undefined);
  });
}
