import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { generateDemoData, type DemoManifest } from '../src/demo/demo-generator.js';
import { AppKeyService } from '../src/modules/accounts/app-key-service.js';
import { AccountsRepository } from '../src/modules/accounts/accounts-repository.js';
import { png } from './helpers/images.js';
import { imagePart, jsonPart, multipart } from './helpers/multipart.js';
import { testConfig, type TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';
import { scratchStorage, type ScratchStorage } from './helpers/scratch-storage.js';
import { JobIndex } from '../src/modules/jobs/job-index.js';
import { PostIndex } from '../src/modules/posts/post-index.js';
import { registerClient } from '../src/modules/oauth/client-admin.js';
import { OAuthRepository } from '../src/modules/oauth/oauth-repository.js';
import { queryTerms } from '../src/search/search-text.js';
import { accessToken } from './helpers/tokens.js';
import { freePort } from '../support/free-port.js';
import { serverProcess } from './helpers/server-process.js';
import { realWait } from './helpers/real-time.js';

/**
 * The real server, killed with SIGKILL at random moments while writes are in flight, then started again on
 * the same data: every acknowledged write is intact and servable, every retry with its Idempotency-Key gets an
 * answer (the original one for an acknowledged write), no key is left in progress, and the rate limits admit
 * no more than their limit across the restarts. A second instance runs beside it all along and writes too: at
 * the end it, and the restarted server, serve what a post index built afresh from the tables serves.
 */
const ROUNDS = 6;
const READ_LIMIT_PER_DAY = 200;
const SECRET = 'crash-test-signing-secret-0123456789abcdef';

interface Write {
  key: string;
  kind: 'post' | 'job';
  text: string;
  acknowledged: unknown | null;
}

describe.concurrent.each(ENGINES)('crashes of the real server on %s', (engine) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-crash-'));
  let store: ScratchStorage;
  let demo: DemoManifest;
  let token = '';
  let readKey = '';
  let followerKey = '';
  /** Reads of the restarted server at the end, on a key of their own (the follower's reserve units of the shared counters). */
  let checkKey = '';
  /** The follower's own OAuth client: its writes count against its own limits, not the crashing server's client's. */
  let followerToken = '';
  let port = 0;
  let base = '';

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
      INSTANCE_NAME: 'crash-test',
      REDIS_URL: '',
      RATE_LIMIT_GLOBAL_PER_MINUTE: '100000',
      RATE_LIMIT_GLOBAL_PER_DAY: String(READ_LIMIT_PER_DAY),
      RATE_LIMIT_POST_CREATE_PER_MINUTE: '100000',
      RATE_LIMIT_POST_CREATE_PER_HOUR: '100000',
      RATE_LIMIT_POST_CREATE_PER_DAY: '100000',
      RATE_LIMIT_JOB_CREATE_PER_MINUTE: '100000',
      RATE_LIMIT_JOB_CREATE_PER_HOUR: '100000',
      RATE_LIMIT_JOB_CREATE_PER_DAY: '100000',
      RATE_LIMIT_JOB_PUBLISH_PER_MINUTE: '100000',
      RATE_LIMIT_JOB_PUBLISH_PER_HOUR: '100000',
      RATE_LIMIT_JOB_PUBLISH_PER_DAY: '100000',
    }),
  );
  const start = () => server.start();
  const kill = () => server.kill();

  beforeAll(async () => {
    store = await scratchStorage(engine, dir, 'crash');
    port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const database = store.open();
    await migrateToLatest(database);
    demo = await generateDemoData(database, { now: Date.now(), posts: 30, jobs: 20, events: 5 });
    readKey = (await new AppKeyService(new AccountsRepository(database.db, Date.now), 0).createApp('crash-reader'))
      .apiKey;
    const followerApp = await new AppKeyService(new AccountsRepository(database.db, Date.now), 0).createApp(
      'crash-follower',
    );
    followerKey = followerApp.apiKey;
    checkKey = (await new AppKeyService(new AccountsRepository(database.db, Date.now), 0).createApp('crash-checker'))
      .apiKey;
    // A token from the same issuer and keys the server uses, through the real authorize and token endpoints.
    const app = await buildApp({
      config: testConfig({ PUBLIC_BASE_URL: base, SIGNING_KEY_SECRET: SECRET, DATA_DIR: dir }),
      database,
      logger: false,
    });
    token = await accessToken({ app, demo } as TestContext, 'post:write job:write');
    const second = await registerClient(
      new OAuthRepository(database.db),
      {
        name: 'crash follower',
        redirectUris: [demo.client.redirectUri],
        scopes: ['post:write'],
        public: false,
        // A client of an app counts against its own limits; one without an app would share the demo user's with the
        // crashing server's client (oauth/token-caller.ts).
        appId: followerApp.appId,
      },
      Date.now(),
    );
    followerToken = await accessToken(
      {
        app,
        demo: { ...demo, client: { ...demo.client, ...second, clientSecret: second.clientSecret! } },
      } as TestContext,
      'post:write',
    );
    await app.close();
    await database.close();
  }, 120_000);

  afterAll(async () => {
    if (server.running) await kill();
    await store?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('keeps every acknowledged write and answers every retry, with no key stranded and no limit exceeded', async ({
    expect,
  }) => {
    const writes: Write[] = [];
    /** Jobs whose publish was acknowledged: they must be published at the end. */
    const published = new Set<number>();
    /** Jobs a publish was sent for, answered or not (one cut off by a kill may still have committed). */
    const publishSent = new Set<number>();
    const publish = async (jobId: number) => {
      publishSent.add(jobId);
      const res = await fetch(`${base}/api/v1/jobs/${jobId}/active?companyId=${demo.companyId}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{}',
      });
      if (res.status === 200) published.add(jobId);
      return res.status;
    };
    let readsAdmitted = 0;
    let readsTried = 0;
    const auth = { authorization: `Bearer ${token}` };
    const send = async (w: Write) => {
      const body =
        w.kind === 'post'
          ? multipart([jsonPart({ text: w.text }), imagePart(png(8, 6))])
          : multipart([
              jsonPart({
                jobTitle: w.text,
                jobCategory: 'dev',
                seniorities: ['JUNIOR'],
                employmentTypes: ['FULL_TIME'],
                jobBio: 'bio',
                jobResponse: 'duty',
              }),
            ]);
      const url =
        w.kind === 'post' ? `${base}/api/v1/posts` : `${base}/api/v1/jobs/platform?companyId=${demo.companyId}`;
      const res = await fetch(url, {
        method: 'POST',
        headers: { ...body.headers, ...auth, 'idempotency-key': w.key },
        body: body.payload,
      });
      return {
        status: res.status,
        replayed: res.headers.get('idempotency-replayed') === 'true',
        body: (await res.json()) as unknown,
      };
    };
    const read = async () => {
      readsTried++;
      const res = await fetch(`${base}/api/v1/codes/work-types`, { headers: { 'x-svc-api-key': readKey } });
      if (res.status === 200) readsAdmitted++;
    };

    // The second instance: in this process, never killed, following what the server writes, writing too.
    const followerDb = store.open();
    const follower = await buildApp({
      config: testConfig({ PUBLIC_BASE_URL: base, SIGNING_KEY_SECRET: SECRET }),
      database: followerDb,
      logger: false,
    });
    const followerPosts: number[] = [];
    const followerWrite = async (round: number) => {
      const body = multipart([jsonPart({ text: `팔로워 글 ${round}` })]);
      const res = await follower.inject({
        method: 'POST',
        url: '/api/v1/posts',
        headers: { ...body.headers, authorization: `Bearer ${followerToken}` },
        payload: body.payload,
      });
      expect(res.statusCode, res.body).toBe(201);
      followerPosts.push(res.json<{ postId: number }>().postId);
      if (followerPosts.length > 2) {
        const gone = followerPosts.shift()!;
        const deleted = await follower.inject({
          method: 'DELETE',
          url: `/api/v1/posts/${gone}`,
          headers: { authorization: `Bearer ${followerToken}` },
        });
        expect(deleted.statusCode, deleted.body).toBe(204);
      }
    };

    try {
      for (let round = 0; round < ROUNDS; round++) {
        await start();
        await followerWrite(round);
        // Retries first: every write not acknowledged yet is sent again with its key, as a client would.
        for (const w of writes.filter((x) => x.acknowledged === null)) {
          const again = await send(w);
          expect(again.status, JSON.stringify(again.body)).toBe(201);
          w.acknowledged = again.body;
        }
        // An acknowledged write retried gets its original answer.
        for (const w of writes.filter((x) => x.acknowledged !== null).slice(-3)) {
          const again = await send(w);
          expect(again.status).toBe(201);
          expect(again.replayed).toBe(true);
          expect(again.body).toEqual(w.acknowledged);
        }
        // One draft published and acknowledged before the crash, so every run checks at least one publish
        // across a kill (the ones in flight below may all be cut off on a slow machine). It is a job no publish
        // was ever sent for: one cut off by a kill may have committed, and publishing again is then 409.
        const draft = writes
          .map((w) => (w.kind === 'job' ? (w.acknowledged as { jobId: number } | null)?.jobId : undefined))
          .find((id): id is number => id !== undefined && !publishSent.has(id));
        if (draft !== undefined) expect(await publish(draft)).toBe(200);
        const fresh = Array.from(
          { length: 12 },
          (_, i): Write => ({
            key: `crash-${round}-${i}`,
            kind: i % 4 === 3 ? 'job' : 'post',
            text: `크래시 시험 ${round}-${i} ${randomBytes(3).toString('hex')}`,
            acknowledged: null,
          }),
        );
        writes.push(...fresh);
        const drafts = writes
          .filter((w) => w.kind === 'job' && w.acknowledged !== null)
          .map((w) => (w.acknowledged as { jobId: number }).jobId)
          .filter((id) => !published.has(id));
        const inFlight = [
          ...fresh.map((w) =>
            send(w).then(
              (r) => {
                if (r.status === 201) w.acknowledged = r.body;
              },
              () => undefined,
            ),
          ),
          ...drafts.map((id) => publish(id).catch(() => undefined)),
          ...Array.from({ length: 60 }, () => read().catch(() => undefined)),
          followerWrite(round + 0.5),
        ];
        await realWait(20 + Math.floor(Math.random() * 400), 'pace');
        await kill();
        await Promise.all(inFlight);
      }

      // A last start: finish what the last crash interrupted, then check everything through the API.
      await start();
      for (const w of writes.filter((x) => x.acknowledged === null)) {
        const again = await send(w);
        expect(again.status).toBe(201);
        w.acknowledged = again.body;
      }
      for (const w of writes) {
        const ack = w.acknowledged as {
          postId?: number;
          jobId?: number;
          images?: Array<{ url: string }>;
          title?: string;
        };
        if (w.kind === 'post') {
          const post = await fetch(`${base}/api/v1/posts/${ack.postId}`, { headers: { 'x-svc-api-key': demo.apiKey } });
          expect(post.status).toBe(200);
          const body = (await post.json()) as { content: string; images: Array<{ url: string }> };
          expect(body.content).toBe(w.text);
          const image = await fetch(new URL(new URL(body.images[0]!.url).pathname, base));
          expect(image.status).toBe(200);
        } else {
          expect(ack.title).toBe(w.text);
        }
      }
      expect(published.size).toBeGreaterThan(0);
      for (const jobId of published) {
        const job = await fetch(`${base}/api/v1/jobs/${jobId}`, { headers: { 'x-svc-api-key': demo.apiKey } });
        expect(job.status).toBe(200);
        expect(await job.json()).toMatchObject({ status: 'published' });
      }
      // The change feed: each acknowledged write's change is there once and complete, whether or not the run that
      // wrote it lived to complete it (the read completes what a killed writer left).
      const changes: Array<{ type: string; resource: { id: string }; data: { content?: string } | null }> = [];
      for (let after = ''; ; ) {
        const res = await fetch(`${base}/api/v1/changes?pageSize=500${after ? `&after=${after}` : ''}`, {
          headers: { 'x-svc-api-key': checkKey },
        });
        expect(res.status).toBe(200);
        const page = (await res.json()) as { items: typeof changes; nextCursor: string; hasMore: boolean };
        changes.push(...page.items);
        after = page.nextCursor;
        if (!page.hasMore) break;
      }
      for (const w of writes.filter((x) => x.kind === 'post')) {
        const created = changes.filter(
          (c) => c.type === 'post.created' && c.resource.id === String((w.acknowledged as { postId: number }).postId),
        );
        expect(created).toHaveLength(1);
        expect(created[0]!.data?.content).toBe(w.text);
      }
      for (const jobId of published)
        expect(changes.some((c) => c.type === 'job.published' && c.resource.id === String(jobId))).toBe(true);

      // Both instances' post indexes equal one built afresh from the tables: the restarted server's (built at
      // its start) and the follower's (kept up by the change log through every kill).
      const fresh = new PostIndex(followerDb);
      await fresh.ready();
      for (const [query, keyword] of [
        ['keyword=%ED%81%AC%EB%9E%98%EC%8B%9C&sort=RECENT', '크래시'],
        ['keyword=%ED%8C%94%EB%A1%9C%EC%9B%8C', '팔로워'],
        ['sort=RECENT', null],
      ] as const) {
        const expected = await fresh.search({
          terms: keyword ? queryTerms(keyword) : null,
          order: query.includes('RECENT') ? 'recent' : 'rank',
          limit: 50,
          offset: 0,
        });
        const viaFollower = await follower.inject({
          method: 'GET',
          url: `/api/v1/posts?${query}&pageSize=50`,
          headers: { 'x-svc-api-key': followerKey },
        });
        const viaServer = await fetch(`${base}/api/v1/posts?${query}&pageSize=50`, {
          headers: { 'x-svc-api-key': checkKey },
        });
        for (const served of [
          viaFollower.json<{ totalItems: number; items: Array<{ postId: number }> }>(),
          (await viaServer.json()) as { totalItems: number; items: Array<{ postId: number }> },
        ]) {
          expect(served.totalItems, `${query} ${JSON.stringify(served)}`).toBe(expected.total);
          expect(
            served.items.map((p) => p.postId),
            query,
          ).toEqual(expected.ids);
        }
      }
      expect((await fresh.search({ terms: queryTerms('팔로워'), order: 'recent', limit: 50, offset: 0 })).ids).toEqual(
        [...followerPosts].reverse(),
      );
      // And the job indexes: the published ones are found, and both serve what one built afresh serves.
      const freshJobs = new JobIndex(followerDb);
      await freshJobs.ready();
      for (const [query, keyword] of [
        ['keyword=%ED%81%AC%EB%9E%98%EC%8B%9C&sort=DATE_DESC', '크래시'],
        ['sort=POPULARITY_DESC', null],
      ] as const) {
        const expected = await freshJobs.search({
          terms: keyword ? queryTerms(keyword) : null,
          order: keyword ? 'date' : 'popularity',
          now: Date.now(),
          limit: 50,
          offset: 0,
        });
        const viaFollower = await follower.inject({
          method: 'GET',
          url: `/api/v1/jobs?${query}&pageSize=50`,
          headers: { 'x-svc-api-key': followerKey },
        });
        const viaServer = await fetch(`${base}/api/v1/jobs?${query}&pageSize=50`, {
          headers: { 'x-svc-api-key': checkKey },
        });
        for (const served of [
          viaFollower.json<{ totalItems: number; items: Array<{ jobId: number }> }>(),
          (await viaServer.json()) as { totalItems: number; items: Array<{ jobId: number }> },
        ]) {
          expect(served.totalItems, `${query} ${JSON.stringify(served)}`).toBe(expected.total);
          expect(
            served.items.map((j) => j.jobId),
            query,
          ).toEqual(expected.ids);
        }
        if (keyword) {
          // Every acknowledged publish, and no job a publish was never sent for (one cut off may have committed).
          for (const jobId of published) expect(expected.ids).toContain(jobId);
          for (const jobId of expected.ids) expect(publishSent.has(jobId)).toBe(true);
        }
      }
    } finally {
      await follower.close();
      await followerDb.close();
    }
    await kill();

    const database = store.open();
    try {
      const stranded = await database.db
        .selectFrom('idempotency_keys')
        .select('idempotency_key')
        .where('response_status', 'is', null)
        .execute();
      expect(stranded).toEqual([]);
      const jobs = await database.db
        .selectFrom('jobs')
        .select(['id', 'title'])
        .where('title', 'like', '크래시 시험%')
        .execute();
      for (const w of writes.filter((x) => x.kind === 'job')) {
        expect(jobs.some((j) => j.id === (w.acknowledged as { jobId: number }).jobId && j.title === w.text)).toBe(true);
      }
      const posts = await database.db
        .selectFrom('posts')
        .select('content')
        .where('content', 'like', '크래시 시험%')
        .execute();
      const duplicates = posts.length + jobs.length - writes.length;
      console.warn(
        `crash ${engine}: ${ROUNDS} kills, ${writes.length} writes acknowledged, 0 lost, ${stranded.length} keys stranded, ` +
          `${duplicates} created twice, ${published.size} publishes acknowledged and kept, reads admitted ${readsAdmitted} of ${readsTried} against a day limit of ${READ_LIMIT_PER_DAY}`,
      );
      // A create that committed and died before answering is answered from its claim, never made again.
      expect(duplicates).toBe(0);
    } finally {
      await database.close();
    }
    expect(readsAdmitted).toBeLessThanOrEqual(READ_LIMIT_PER_DAY);
  }, 300_000);
});
