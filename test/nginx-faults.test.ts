import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { generateDemoData } from '../src/demo/demo-generator.js';
import { freePort } from '../support/free-port.js';
import { NGINX_BINARY, shippedNginx } from '../support/nginx.js';
import { ownPostgres, postgresPrograms } from './helpers/own-postgres.js';
import { serverProcess } from './helpers/server-process.js';

const PROGRAMS = postgresPrograms();
const RUNS = Boolean(PROGRAMS && (NGINX_BINARY || process.env.CI_REQUIRE_NGINX));

interface Answer {
  status: number;
  type: string;
  retryAfter: string | null;
  code?: string;
}

/**
 * Issue 85 rows 5 and 7: two compiled instances behind the shipped deploy/nginx files, on a PostgreSQL of the test's
 * own. A client's own X-Forwarded-For never passes for its address. While PostgreSQL is down, every answer is the service's own 503 C9998 with Retry-After, passed through by
 * nginx (never its HTML 502 because it took both instances out), and both serve the moment it is back. A stalled
 * instance (SIGSTOP) costs a read one read timeout, then nginx stops feeding it. No timing is asserted.
 */
describe.runIf(RUNS)('the shipped nginx files in front of two instances', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-nginx-faults-'));
  let postgres: Awaited<ReturnType<typeof ownPostgres>>;
  let nginx: ReturnType<typeof shippedNginx>;
  let base = '';
  let apiKey = '';
  const ports = [0, 0] as [number, number];
  const instances = [0, 1].map((i) =>
    serverProcess(
      () => `http://127.0.0.1:${ports[i]}`,
      () => ({
        PORT: String(ports[i]),
        HOST: '127.0.0.1',
        DATA_DIR: path.join(dir, `instance-${i}`),
        DATABASE_URL: postgres.url,
        LOG_LEVEL: 'silent',
        PUBLIC_BASE_URL: base,
        SIGNING_KEY_SECRET: 'nginx-faults-signing-secret-0123456789abcdef',
        INSTANCE_NAME: `nginx-${i}`,
        REDIS_URL: '',
        TRUST_PROXY: 'true',
        DATABASE_CONNECT_TIMEOUT_MS: '1000',
        DATABASE_QUERY_TIMEOUT_MS: '3000',
      }),
    ),
  );

  beforeAll(async () => {
    postgres = await ownPostgres(PROGRAMS!);
    ports[0] = await freePort();
    ports[1] = await freePort();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const database = openDatabase({ kind: 'postgres', url: postgres.url, poolSize: 2 });
    await migrateToLatest(database);
    apiKey = (await generateDemoData(database, { now: Date.now(), posts: 20, jobs: 10, events: 3 })).apiKey;
    await database.close();
    for (const instance of instances) await instance.start();
    nginx = shippedNginx(path.join(dir, 'nginx'), port, ports);
    nginx.start();
  }, 180_000);
  afterAll(async () => {
    nginx?.stop();
    for (const instance of instances) await instance.kill();
    await postgres?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  const reads = ['/api/v1/posts?pageSize=3', '/api/v1/jobs', '/api/v1/events', '/api/v1/posts?keyword=개발'];
  const read = async (url: string): Promise<Answer> => {
    const res = await fetch(`${base}${url}`, { headers: { 'x-svc-api-key': apiKey } });
    const type = res.headers.get('content-type') ?? '';
    const body = await res.text();
    return {
      status: res.status,
      type,
      retryAfter: res.headers.get('retry-after'),
      ...(type.includes('json') ? { code: (JSON.parse(body) as { code?: string }).code } : {}),
    };
  };

  it('takes the address nginx saw, never an X-Forwarded-For the client wrote (issue 86 row 4)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      const res = await fetch(`${base}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${i}` },
        body: JSON.stringify({ redirect_uris: ['http://127.0.0.1/cb'], token_endpoint_auth_method: 'none' }),
      });
      statuses.push(res.status);
    }
    // One address (this machine's, as nginx saw it) for all 21: the per-address limit of 20 holds.
    expect(statuses.slice(0, 20).every((status) => status === 201)).toBe(true);
    expect(statuses[20]).toBe(429);
  });

  it("passes the service's own 503 through while PostgreSQL is down, and both instances serve once it is back", async () => {
    for (const url of reads) expect((await read(url)).status).toBe(200);
    postgres.stop();
    const away: Answer[] = [];
    for (let i = 0; i < 12; i++) away.push(await read(reads[i % reads.length]!));
    postgres.start();
    for (const answer of away) {
      expect(answer).toMatchObject({ status: 503, code: 'C9998' });
      expect(answer.type).toContain('application/json');
      expect(answer.retryAfter).toMatch(/^\d+$/);
    }
    // Back: the pools open new connections; a few answers may still be 503 while they do, none is nginx's own.
    const settling: Answer[] = [];
    for (let i = 0; i < 40 && settling.at(-1)?.status !== 200; i++) settling.push(await read(reads[0]!));
    expect(settling.at(-1)?.status).toBe(200);
    for (const answer of settling) expect(answer.type).toContain('application/json');
    // Neither instance was taken out: every read from now on is answered.
    for (let i = 0; i < 12; i++) expect((await read(reads[i % reads.length]!)).status).toBe(200);
  }, 120_000);

  it('stops feeding a stalled instance after one read timeout, and reads go on', async () => {
    const stalled = instances[1]!.pid!;
    process.kill(stalled, 'SIGSTOP');
    try {
      for (let i = 0; i < 8; i++) expect((await read(reads[i % reads.length]!)).status).toBe(200);
    } finally {
      process.kill(stalled, 'SIGCONT');
    }
  }, 120_000);
});
