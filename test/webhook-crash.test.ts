import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { generateDemoData, type DemoManifest } from '../src/demo/demo-generator.js';
import { keyEncryptionKey } from '../src/modules/oauth/signing-keys.js';
import { WebhookEndpoints } from '../src/modules/webhooks/webhook-endpoints.js';
import { freePort } from '../support/free-port.js';
import { serverProcess } from './helpers/server-process.js';
import { jsonPart, multipart } from './helpers/multipart.js';
import { scratchStorage, type ScratchStorage } from './helpers/scratch-storage.js';
import { testConfig, type TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';
import { accessToken } from './helpers/tokens.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';
import { realWait } from './helpers/real-time.js';

/**
 * Issue 27's crash target: the real server killed with SIGKILL ten times while posts are written at about three a
 * second; after the last start every change of the feed (each acknowledged write's among them) reaches the receiver,
 * and a change received twice came with the same webhook-id and the same body.
 */
const KILLS = 10;
const SECRET = 'webhook-crash-signing-secret-0123456789abcdef';

describe.concurrent.each(ENGINES)('webhooks across SIGKILLs on %s', (engine) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-webhook-crash-'));
  let store: ScratchStorage;
  let demo: DemoManifest;
  let token = '';
  let base = '';
  let port = 0;
  let endpointSecret = '';
  let receiver: Receiver;

  const server = serverProcess(
    () => base,
    () => ({
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      DATABASE_URL: store.url,
      LOG_LEVEL: 'silent',
      PUBLIC_BASE_URL: base,
      SIGNING_KEY_SECRET: SECRET,
      INSTANCE_NAME: 'webhook-crash',
      REDIS_URL: '',
      WEBHOOKS_ALLOW_LOOPBACK: 'true',
      RATE_LIMIT_POST_CREATE_PER_MINUTE: '100000',
      RATE_LIMIT_POST_CREATE_PER_HOUR: '100000',
      RATE_LIMIT_POST_CREATE_PER_DAY: '100000',
    }),
  );
  const start = () => server.start();
  const kill = () => server.kill();

  beforeAll(async () => {
    receiver = await startReceiver();
    store = await scratchStorage(engine, dir, 'whcrash');
    port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const database = store.open();
    await migrateToLatest(database);
    demo = await generateDemoData(database, { now: Date.now(), posts: 10, jobs: 5, events: 2 });
    const app = await buildApp({
      config: testConfig({ PUBLIC_BASE_URL: base, SIGNING_KEY_SECRET: SECRET, DATA_DIR: dir }),
      database,
      logger: false,
    });
    token = await accessToken({ app, demo } as TestContext, 'post:write');
    await app.close();
    // The endpoint as the console makes it, its secret sealed under the key the server derives from SIGNING_KEY_SECRET.
    const endpoints = new WebhookEndpoints(database.db, keyEncryptionKey(SECRET, dir), 10);
    const { id: appId } = await database.db.selectFrom('apps').select('id').orderBy('id').executeTakeFirstOrThrow();
    const made = await endpoints.create(appId, receiver.url(), [], Date.now());
    endpointSecret = made.secret;
    await database.close();
  }, 120_000);

  afterAll(async () => {
    if (server.running) await kill();
    await receiver?.close();
    await store?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('delivers every change after ten kills at three writes a second: none lost, a repeat only with its webhook-id', async ({
    expect,
  }) => {
    const acknowledged = new Map<string, number>();
    let stopWriting = false;
    let sequence = 0;
    /** Writes a post about every 330 ms, each retried with its Idempotency-Key until the service acknowledges it. */
    const writer = (async () => {
      const waiting: string[] = [];
      while (!stopWriting || waiting.length > 0) {
        if (!stopWriting) waiting.push(`webhook-crash-${sequence++}`);
        for (const key of [...waiting]) {
          const body = multipart([jsonPart({ text: `웹훅 크래시 ${key}` })]);
          const res = await fetch(`${base}/api/v1/posts`, {
            method: 'POST',
            headers: { ...body.headers, authorization: `Bearer ${token}`, 'idempotency-key': key },
            body: body.payload,
          }).catch(() => null);
          if (res?.status === 201) {
            acknowledged.set(key, ((await res.json()) as { postId: number }).postId);
            waiting.splice(waiting.indexOf(key), 1);
          }
        }
        await realWait(330, 'pace');
      }
    })();

    for (let kill_ = 0; kill_ < KILLS; kill_++) {
      await start();
      await realWait(400 + Math.floor(Math.random() * 1_200), 'pace');
      await kill();
    }
    await start();
    stopWriting = true;
    await writer;

    // Every change of the feed, read from the restarted server, reaches the receiver.
    const feed: Array<{ id: string; type: string; resource: { id: string } }> = [];
    for (let after = ''; ; ) {
      const res = await fetch(`${base}/api/v1/changes?pageSize=500${after ? `&after=${after}` : ''}`, {
        headers: { 'x-svc-api-key': demo.apiKey },
      });
      const page = (await res.json()) as { items: typeof feed; nextCursor: string; hasMore: boolean };
      feed.push(...page.items);
      after = page.nextCursor;
      if (!page.hasMore) break;
    }
    for (const postId of acknowledged.values())
      expect(feed.some((c) => c.type === 'post.created' && c.resource.id === String(postId))).toBe(true);
    const received = () => receiver.received.map((r) => ({ id: r.headers['webhook-id']!, body: r.body }));
    await expect
      .poll(() => feed.filter((c) => !received().some((r) => r.id === c.id)).length, { timeout: 30_000, interval: 100 })
      .toBe(0);

    // Every delivery signed with the endpoint's secret, checked by the standardwebhooks package.
    for (const r of receiver.received)
      expect(() => new Webhook(endpointSecret).verify(r.body, r.headers)).not.toThrow();

    // A repeat carries the same webhook-id and the same body; nothing arrives that the feed does not have.
    const bodies = new Map<string, Set<string>>();
    for (const r of received()) bodies.set(r.id, (bodies.get(r.id) ?? new Set()).add(r.body));
    for (const [id, set] of bodies) {
      expect(set.size, id).toBe(1);
      expect(feed.some((c) => c.id === id)).toBe(true);
    }
    const repeats = receiver.received.length - bodies.size;
    console.warn(
      `webhook crash ${engine}: ${KILLS} kills, ${acknowledged.size} writes acknowledged, ${feed.length} changes, ` +
        `all ${bodies.size} delivered, ${repeats} delivered twice (same webhook-id and body)`,
    );
    expect(acknowledged.size).toBeGreaterThan(KILLS);
  }, 420_000);
});
