import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { authorizeUrl, createPkcePair, exchangeCode } from '../sdk/src/index.js';
import { buildApp } from '../src/app.js';
import { recordChanges } from '../src/change-feed/change-log.js';
import { FIELDS_ADDED_SINCE_FIRST_RELEASE } from '../src/change-feed/stored-data.js';
import { PREVIOUS_RELEASE } from '../support/releases.js';
import { generateDemoData } from '../src/demo/demo-generator.js';
import { jsonPart, multipart, type Part } from './helpers/multipart.js';
import { Browser, fetchSend } from './helpers/oauth-browser.js';
import { createTestApp, TEST_NOW, testConfig, type TestContext } from './helpers/test-app.js';
import { createTestDatabase, ENGINES } from './helpers/test-database.js';
import {
  startListeningApp,
  startSecondInstance,
  type ListeningApp,
  type SecondInstance,
} from './helpers/listening-app.js';
import { accessToken, bearer } from './helpers/tokens.js';
import { realWait } from './helpers/real-time.js';

interface OpenApi {
  components: { schemas: Record<string, { properties: Record<string, unknown>; required: string[] }> };
}

/** The OpenAPI document the previous release shipped (from git; null where this is no git checkout). */
function releaseDocument(): OpenApi | null {
  try {
    return JSON.parse(
      execFileSync('git', ['show', `${PREVIOUS_RELEASE.commit}:sdk/openapi.json`], {
        cwd: import.meta.dirname,
        encoding: 'utf8',
        maxBuffer: 1 << 28,
        stdio: ['ignore', 'pipe', 'ignore'],
      }),
    ) as OpenApi;
  } catch {
    return null;
  }
}

const NEW_JOB = {
  jobTitle: '변경 피드 백엔드',
  jobCategory: 'dev',
  seniorities: ['JUNIOR'],
  employmentTypes: ['FULL_TIME'],
  jobBio: 'API를 만듭니다.',
  jobResponse: 'API 설계',
  jobSubtitle: '판교',
  jobMinimumQual: '경력 2년',
  jobPreferQual: 'PostgreSQL',
  jobBenefit: '유연 근무',
  jobHireProcess: '서류 → 면접',
  jobHireNotes: '수습 3개월',
  email: 'jobs@acme.example',
  notifyEmails: [],
  military: false,
  veteran: false,
  settings: [],
  workType: 'REMOTE',
};
const NEW_EVENT = {
  eventName: '변경 피드 밋업',
  description: '동기화 이야기',
  startAt: '2026-12-05T19:00:00+09:00',
  endAt: '2026-12-05T21:00:00+09:00',
  eventOpenType: 'OFFLINE',
  country: 'KR',
  region: '경기',
  locality: '성남시 분당구',
  locationTitle: 'Acme 라운지',
  locationAddress: '판교역로 1',
  locationDetail: '3층',
  locationDescription: '판교역 1번 출구',
  locationHidden: false,
  guestHidden: false,
  eventCategories: ['NETWORKING'],
  eventSubjects: ['TECHNOLOGY'],
};

interface Change {
  id: string;
  type: string;
  occurredAt: string;
  resource: { type: string; id: string; webUrl: string; companyId: string | null };
  data: unknown;
}
interface ChangePage {
  items: Change[];
  nextCursor: string;
  hasMore: boolean;
}

describe.each(ENGINES)('the change feed on %s', (engine) => {
  let t: TestContext;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp(engine);
    token = await accessToken(t, 'post:write job:write event:write');
  });
  afterAll(async () => {
    await t?.close();
  });

  const feed = async (query: string): Promise<ChangePage> => {
    const res = await t.get(`/api/v1/changes${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  /** Every change after `cursor`, page by page; and the cursor after the last. */
  const follow = async (cursor: string, pageSize = 100, extra = ''): Promise<{ items: Change[]; cursor: string }> => {
    const items: Change[] = [];
    for (;;) {
      const page = await feed(`?after=${cursor}&pageSize=${pageSize}${extra}`);
      items.push(...page.items);
      cursor = page.nextCursor;
      if (!page.hasMore) return { items, cursor };
    }
  };
  const parts = (method: 'POST' | 'PATCH' | 'PUT', url: string, list: Part[]) => {
    const body = multipart(list);
    return t.request({ method, url, headers: { ...body.headers, ...bearer(token) }, payload: body.payload });
  };
  const json = (method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
    t.request({
      method,
      url,
      headers: { ...bearer(token), ...(body ? { 'content-type': 'application/json' } : {}) },
      payload: body ? JSON.stringify(body) : undefined,
    });
  const publicBody = async (url: string) => {
    const res = await t.get(url);
    return res.statusCode === 200 ? res.json() : null;
  };

  it('records each write of posts, jobs and events once, in order, with the resource as its public read shows it; a deletion empties its earlier changes', async () => {
    const start = (await feed('?after=now')).nextCursor;
    expect((await feed(`?after=${start}`)).items).toEqual([]);

    // A change is completed just after its write's answer, or by the next read of the feed, with the resource as it
    // is then (docs/changes.md): the feed is read before each next write, so each change shows its own write.
    const completed = () => feed(`?after=${start}`);
    /** The data of each change of `type` the feed holds now. */
    const held = async (type: string) => (await follow(start)).items.filter((c) => c.type === type).map((c) => c.data);
    const post = (await parts('POST', '/api/v1/posts', [jsonPart({ text: '변경 피드 첫 글' })])).json()
      .postId as number;
    const postAsCreated = await publicBody(`/api/v1/posts/${post}`);
    await completed();
    expect((await parts('PUT', `/api/v1/posts/${post}`, [jsonPart({ text: '변경 피드 고친 글' })])).statusCode).toBe(
      200,
    );
    const postAsUpdated = await publicBody(`/api/v1/posts/${post}`);
    await completed();
    expect(await held('post.created')).toEqual([postAsCreated]);
    expect(await held('post.updated')).toEqual([postAsUpdated]);
    const beforeDeletes = (await follow(start)).items;
    expect((await json('DELETE', `/api/v1/posts/${post}`)).statusCode).toBe(204);

    const job = (await parts('POST', '/api/v1/jobs/platform?companyId=acme-labs', [jsonPart(NEW_JOB)])).json()
      .jobId as number;
    expect((await json('PUT', `/api/v1/jobs/${job}/active`, { startDate: '2026-11-01' })).statusCode).toBe(200);
    const jobAsPublished = await publicBody(`/api/v1/jobs/${job}`);
    await completed();
    expect(
      (await parts('PATCH', `/api/v1/jobs/${job}?type=PLATFORM`, [jsonPart({ jobSubtitle: '판교, 원격 가능' })]))
        .statusCode,
    ).toBe(200);
    expect((await json('DELETE', `/api/v1/jobs/${job}/active`)).statusCode).toBe(200);
    const jobAsClosed = await publicBody(`/api/v1/jobs/${job}`);
    await completed();
    expect(await held('job.published')).toEqual([jobAsPublished]);
    expect(await held('job.closed')).toEqual([jobAsClosed]);
    expect((await json('DELETE', `/api/v1/jobs/${job}`)).statusCode).toBe(204);

    const event = (await parts('POST', '/api/v1/events?companyId=acme-labs', [jsonPart(NEW_EVENT)])).json()
      .eventId as string;
    const ticket = (
      await json('POST', `/api/v1/events/${event}/tickets/free`, {
        ticketName: '일반',
        description: '무료',
        maxCount: 10,
      })
    ).json().ticketId as number;
    const eventWithTicket = await publicBody(`/api/v1/events/${event}`);
    await completed();
    expect((await held('event.updated'))[0]).toEqual(eventWithTicket);
    expect((await json('DELETE', `/api/v1/events/${event}/tickets/${ticket}`)).statusCode).toBe(204);
    expect((await json('DELETE', `/api/v1/events/${event}`)).statusCode).toBe(204);

    const { items } = await follow(start, 3);
    expect(items.map((c) => [c.type, c.resource.id])).toEqual([
      ['post.created', String(post)],
      ['post.updated', String(post)],
      ['post.deleted', String(post)],
      // The draft's creation is not public: its publication is the first change.
      ['job.published', String(job)],
      ['job.updated', String(job)],
      ['job.closed', String(job)],
      ['job.deleted', String(job)],
      ['event.created', String(event)],
      ['event.updated', String(event)],
      ['event.updated', String(event)],
      ['event.deleted', String(event)],
    ]);
    const of = (type: string) => items.filter((c) => c.type === type);
    // Deleted means gone: every change of the three resources, all deleted now, keeps its id, type, resource and time,
    // and carries no content (the deletions never did).
    for (const change of items) expect(change.data, change.type).toBeNull();
    expect(items.slice(0, 2)).toEqual(beforeDeletes.map((c) => ({ ...c, data: null })));
    expect(of('job.published')[0]!.resource).toEqual({
      type: 'job',
      id: String(job),
      webUrl: `https://www.test.example/jobs/${job}`,
      companyId: 'acme-labs',
    });
    expect(of('post.created')[0]!.resource.companyId).toBeNull();
    expect(new Set(items.map((c) => c.id)).size).toBe(items.length);
    for (const c of items) expect(c.id).toMatch(/^evt_/);

    // Filters: by type, by company; a page ends where the filter's matches end, and the cursor moves past the rest.
    expect((await follow(start, 2, '&types=job.published,job.closed')).items.map((c) => c.type)).toEqual([
      'job.published',
      'job.closed',
    ]);
    expect(
      (await follow(start, 100, '&companyId=acme-labs')).items.every((c) => c.resource.companyId === 'acme-labs'),
    ).toBe(true);
    expect((await follow(start, 100, '&companyId=acme-labs')).items).toHaveLength(8);
    const after = await follow(start, 100);
    expect((await feed(`?after=${after.cursor}`)).items).toEqual([]);
  });

  it('answers a write without waiting for its change to be completed; the next read of the feed has it complete', async () => {
    const start = (await feed('?after=now')).nextCursor;
    const feedOf = t.app.changeFeed as unknown as { snapshots: Map<string, (id: string) => Promise<unknown>> };
    const shown = feedOf.snapshots.get('post')!;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Completing a post's change now waits until the test lets it.
    t.app.changeFeed.provide('post', async (id) => {
      await held;
      return shown(id);
    });
    try {
      const write = parts('POST', '/api/v1/posts', [jsonPart({ text: '완성을 기다리지 않는 글' })]);
      const first = await Promise.race([write.then(() => 'answered'), realWait(3_000, 'quiet').then(() => 'waiting')]);
      expect(first).toBe('answered');
      const postId = (await write).json().postId as number;
      const reading = follow(start);
      release();
      const { items } = await reading;
      expect(items.map((c) => [c.type, c.resource.id])).toEqual([['post.created', String(postId)]]);
      expect(items[0]!.data).toEqual(await publicBody(`/api/v1/posts/${postId}`));
    } finally {
      release();
      t.app.changeFeed.provide('post', shown);
    }
  });

  it('serves a job change an earlier release recorded without the fields added since, with their defaults', async () => {
    const start = (await feed('?after=now')).nextCursor;
    const job = (await parts('POST', '/api/v1/jobs/platform?companyId=acme-labs', [jsonPart(NEW_JOB)])).json()
      .jobId as number;
    expect((await json('PUT', `/api/v1/jobs/${job}/active`, { startDate: '2026-11-01' })).statusCode).toBe(200);
    const change = (await follow(start)).items.find((c) => c.type === 'job.published')!;
    expect(change.data).toHaveProperty('location');
    // As 1.0.0-beta.1 stored it (test/previous-release.test.ts has that release's own code write one).
    const { location: _, salary: __, ...asStored } = change.data as Record<string, unknown>;
    await t.db.database.db
      .updateTable('change_events')
      .set({ data: JSON.stringify(asStored) })
      .where('event_id', '=', change.id)
      .execute();
    const served = (await follow(start, 7)).items.find((c) => c.id === change.id)!;
    expect(served.data).toEqual({ ...asStored, location: null, salary: null });
  });

  it('records job.closed once when a recruiting window ends (the hiring sweep), again after a new window', async () => {
    // The demo's jobs whose windows ended before it began are closed already: its feed starts with no job.closed.
    expect(await t.app.changeFeed.sweepClosedJobs()).toBe(0);
    const start = (await feed('?after=now')).nextCursor;
    const job = (await parts('POST', '/api/v1/jobs/platform?companyId=acme-labs', [jsonPart(NEW_JOB)])).json()
      .jobId as number;
    expect(
      (await json('PUT', `/api/v1/jobs/${job}/active`, { startDate: '2026-11-01', endDate: '2026-11-25' })).statusCode,
    ).toBe(200);
    expect(await t.app.changeFeed.sweepClosedJobs()).toBe(0);
    const saved = t.clock.now;
    try {
      t.clock.now = Date.parse('2026-11-26T00:00:00Z');
      expect(await t.app.changeFeed.sweepClosedJobs()).toBe(1);
      expect(await t.app.changeFeed.sweepClosedJobs()).toBe(0);
      const closed = (await follow(start)).items.filter((c) => c.type === 'job.closed');
      expect(closed.map((c) => c.resource.id)).toEqual([String(job)]);
      expect(closed[0]!.data).toMatchObject({ jobId: job, hiring: false });
      // Published again with a new window (by a token of this later time): that one closes too.
      token = await accessToken(t, 'post:write job:write event:write');
      expect((await json('DELETE', `/api/v1/jobs/${job}/active`)).statusCode).toBe(200);
      expect(
        (await json('PUT', `/api/v1/jobs/${job}/active`, { startDate: '2026-11-26', endDate: '2026-11-27' }))
          .statusCode,
      ).toBe(200);
      t.clock.now = Date.parse('2026-11-28T00:00:00Z');
      expect(await t.app.changeFeed.sweepClosedJobs()).toBeGreaterThanOrEqual(1);
      // The window's end, the deactivation, the second window's end.
      const ours = (await follow(start)).items.filter((c) => c.resource.id === String(job)).map((c) => c.type);
      expect(ours).toEqual(['job.published', 'job.closed', 'job.closed', 'job.published', 'job.closed']);
    } finally {
      t.clock.now = saved;
      token = await accessToken(t, 'post:write job:write event:write');
    }
  });

  it("refuses a cursor that is not one of the feed's (400) and one older than what is kept (410 C0013)", async () => {
    const now = (await feed('?after=now')).nextCursor;
    const epoch = Buffer.from(now, 'base64url').toString('utf8').split('.')[1]!;
    const cursor = (text: string) => Buffer.from(text).toString('base64url');
    for (const bad of ['nonsense', cursor(`c2.${epoch}.-1`), cursor('c2.5'), cursor(`c1.${epoch}.5`)]) {
      const res = await t.get(`/api/v1/changes?after=${bad}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'C0005', details: 'after' });
    }
    expect((await t.get('/api/v1/changes?types=job.opened')).json().code).toBe('C0005');
    const old = (await feed('')).nextCursor;
    const saved = t.clock.now;
    try {
      (await parts('POST', '/api/v1/posts', [jsonPart({ text: '보관 기간 시험' })])).json();
      t.clock.now = saved + 31 * 86_400_000;
      expect(await t.app.changeFeed.prune()).toBeGreaterThan(0);
      const res = await t.get(`/api/v1/changes?after=${cursor(`c2.${epoch}.0`)}`);
      expect(res.statusCode).toBe(410);
      expect(res.json()).toMatchObject({ code: 'C0013', details: 'after' });
      expect(res.json().message).toContain('after=now');
      // A cursor ahead of the feed (data restored from an earlier copy) is as stale: the client's copy may be newer.
      const ahead = await t.get(`/api/v1/changes?after=${cursor(`c2.${epoch}.999999`)}`);
      expect(ahead.statusCode).toBe(410);
      expect(ahead.json()).toMatchObject({ code: 'C0013', details: 'after' });
      expect(ahead.json().message).toContain('ahead');
      // And a cursor of another copy of the data (a restore gives the copy a new epoch), whatever its position.
      const other = await t.get(`/api/v1/changes?after=${cursor(`c2.${Number(epoch) + 1}.1`)}`);
      expect(other.statusCode).toBe(410);
      expect(other.json().message).toContain('another copy');
      expect(old).toEqual(expect.any(String));
      // Without a cursor: from the oldest kept, which is nothing now.
      expect((await feed('')).items).toEqual([]);
    } finally {
      t.clock.now = saved;
    }
  });

  // PostgreSQL hands out sequence numbers before commit: the trap the feed's counter row closes. (SQLite has one writer.)
  it.runIf(engine === 'postgres')(
    'never shows a change before one that commits earlier with a lower position (writes at once on two connections)',
    async () => {
      const start = (await feed('?after=now')).nextCursor;
      const second = t.db.reopen();
      let release!: () => void;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let recorded!: () => void;
      const inserted = new Promise<void>((resolve) => {
        recorded = resolve;
      });
      // A writer that has recorded its change and not yet committed.
      const slow = second.db.transaction().execute(async (trx) => {
        await recordChanges(trx, [{ type: 'post.deleted', resourceId: 999_001, companyId: null }], t.clock.now);
        // Its statements are held until the transaction next waits for one (sent-later.ts): this one sends them.
        await sql`SELECT 1`.execute(trx);
        recorded();
        await held;
      });
      await inserted;
      // Another write through the API meanwhile: it waits on the counter row until the first commits.
      const quick = parts('POST', '/api/v1/posts', [jsonPart({ text: '동시에 커밋' })]);
      await realWait(300, 'quiet');
      expect((await feed(`?after=${start}`)).items).toEqual([]);
      release();
      await slow;
      const answer = await quick;
      expect(answer.statusCode, answer.body).toBe(201);
      const created = answer.json().postId as number;
      const { items } = await follow(start);
      expect(items.map((c) => [c.type, c.resource.id])).toEqual([
        ['post.deleted', '999001'],
        ['post.created', String(created)],
      ]);
      await second.close();
    },
    30_000,
  );

  it('lets a client that replays the feed rebuild exactly the public state after random writes of every kind', async () => {
    const start = (await feed('?after=now')).nextCursor;
    let seed = engine === 'sqlite' ? 7 : 11;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return Math.floor(seed / 65_536) % n;
    };
    const posts: number[] = [];
    const jobs = new Map<number, 'draft' | 'published' | 'finish' | 'deleted'>();
    const events = new Map<string, boolean>();
    const live = <K, V>(m: Map<K, V>, keep: (v: V) => boolean) => [...m].filter(([, v]) => keep(v)).map(([k]) => k);
    const pick = <T>(items: T[]): T | undefined => (items.length ? items[random(items.length)] : undefined);
    const livePosts = new Set<number>();
    for (let step = 0; step < 60; step++) {
      const post = pick([...livePosts]);
      const job = pick(live(jobs, (state) => state !== 'deleted'));
      const event = pick(live(events, (alive) => alive));
      switch (random(9)) {
        case 0: {
          const id = (await parts('POST', '/api/v1/posts', [jsonPart({ text: `재현 ${step}` })])).json()
            .postId as number;
          posts.push(id);
          livePosts.add(id);
          break;
        }
        case 1:
          if (post) await parts('PUT', `/api/v1/posts/${post}`, [jsonPart({ text: `재현 고침 ${step}` })]);
          break;
        case 2:
          if (post) {
            await json('DELETE', `/api/v1/posts/${post}`);
            livePosts.delete(post);
          }
          break;
        case 3:
          jobs.set(
            (await parts('POST', '/api/v1/jobs/platform?companyId=acme-labs', [jsonPart(NEW_JOB)])).json().jobId,
            'draft',
          );
          break;
        case 4:
          if (job && jobs.get(job) !== 'published') {
            expect((await json('PUT', `/api/v1/jobs/${job}/active`, { startDate: '2026-11-01' })).statusCode).toBe(200);
            jobs.set(job, 'published');
          } else if (job) {
            expect((await json('DELETE', `/api/v1/jobs/${job}/active`)).statusCode).toBe(200);
            jobs.set(job, 'finish');
          }
          break;
        case 5:
          if (job)
            expect(
              (await parts('PATCH', `/api/v1/jobs/${job}?type=PLATFORM`, [jsonPart({ jobSubtitle: `부제 ${step}` })]))
                .statusCode,
            ).toBe(200);
          break;
        case 6:
          if (job) {
            expect((await json('DELETE', `/api/v1/jobs/${job}`)).statusCode).toBe(204);
            jobs.set(job, 'deleted');
          }
          break;
        case 7:
          events.set(
            (await parts('POST', '/api/v1/events?companyId=acme-labs', [jsonPart(NEW_EVENT)])).json().eventId,
            true,
          );
          break;
        default:
          if (event && random(3) === 0) {
            expect((await json('DELETE', `/api/v1/events/${event}`)).statusCode).toBe(204);
            events.set(event, false);
          } else if (event)
            expect(
              (
                await json('POST', `/api/v1/events/${event}/faqs`, {
                  categoryName: '일반',
                  title: `질문 ${step}`,
                  content: '답',
                })
              ).statusCode,
            ).toBe(201);
      }
    }
    // The copy a builder keeps: each change puts the resource, a deletion takes it out.
    const copy = new Map<string, unknown>();
    for (const c of (await follow(start, 7)).items) {
      const key = `${c.resource.type}/${c.resource.id}`;
      if (c.type.endsWith('.deleted')) copy.delete(key);
      else copy.set(key, c.data);
    }
    const named = [
      ...posts.map((id) => `post/${id}`),
      ...[...jobs.keys()].map((id) => `job/${id}`),
      ...[...events.keys()].map((id) => `event/${id}`),
    ];
    expect(named.length).toBeGreaterThan(10);
    for (const key of named) {
      const [type, id] = key.split('/');
      expect(copy.get(key) ?? null, key).toEqual(await publicBody(`/api/v1/${type}s/${id}`));
    }
  }, 60_000);
});

/** An access token with post:write for the demo user, through the pages and the token endpoint. */
async function issue(s: ListeningApp): Promise<string> {
  const pkce = await createPkcePair();
  const { clientId, clientSecret, redirectUri } = s.demo.client;
  const url = new URL(
    authorizeUrl({
      baseUrl: s.base,
      clientId,
      redirectUri,
      scope: ['post:write'],
      state: 'feed',
      codeChallenge: pkce.challenge,
    }),
  );
  const callback = await new Browser(fetchSend(s.base)).authorize(url.pathname + url.search, s.demo.user);
  const tokens = await exchangeCode({
    baseUrl: s.base,
    clientId,
    clientSecret,
    code: callback.searchParams.get('code')!,
    redirectUri,
    codeVerifier: pkce.verifier,
  });
  return tokens.access_token;
}

describe.each(ENGINES)('the change feed across two instances on %s', (engine) => {
  let a: ListeningApp;
  let b: SecondInstance;
  beforeAll(async () => {
    a = await startListeningApp(engine);
    b = await startSecondInstance(a);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('shows a write made on one instance in the feed read on the other at once, complete', async () => {
    const key = { 'x-svc-api-key': a.demo.apiKey };
    const cursor = ((await (await fetch(`${a.base}/api/v1/changes?after=now`, { headers: key })).json()) as ChangePage)
      .nextCursor;
    const token = await issue(a);
    const body = multipart([jsonPart({ text: '다른 인스턴스에서 쓴 글' })]);
    const created = await fetch(`${b.base}/api/v1/posts`, {
      method: 'POST',
      headers: { ...body.headers, ...bearer(token) },
      body: body.payload,
    });
    expect(created.status).toBe(201);
    const { postId } = (await created.json()) as { postId: number };
    const page = (await (
      await fetch(`${a.base}/api/v1/changes?after=${cursor}`, { headers: key })
    ).json()) as ChangePage;
    expect(page.items.map((c) => [c.type, c.resource.id])).toEqual([['post.created', String(postId)]]);
    expect(page.items[0]!.data).toEqual(
      await (await fetch(`${a.base}/api/v1/posts/${postId}`, { headers: key })).json(),
    );
  });
});

/**
 * Every field a resource's public read requires today that the previous release's OpenAPI document did not have gets
 * a value for the changes that release recorded (src/change-feed/stored-data.ts): a new required field without one
 * fails here, before a rolling upgrade serves a 500.
 */
describe.runIf(releaseDocument())('changes recorded by the previous release', () => {
  it('get a default for every field of post, job and event detail added since', async () => {
    const before = releaseDocument()!;
    const t = await createTestApp('sqlite');
    try {
      const now = (await t.get('/openapi.json')).json<OpenApi>();
      for (const [name, type] of [
        ['PostDetail', 'post'],
        ['JobDetail', 'job'],
        ['EventDetail', 'event'],
      ] as const) {
        const had = Object.keys(before.components.schemas[name]!.properties);
        const added = now.components.schemas[name]!.required.filter((field) => !had.includes(field));
        expect(Object.keys(FIELDS_ADDED_SINCE_FIRST_RELEASE[type]).sort(), name).toEqual(added.sort());
      }
    } finally {
      await t.close();
    }
  });
});

describe("the change feed's timers", () => {
  it('start when the app is ready: a sweep never runs before every area can complete its changes', async () => {
    // One of the demo's hiring jobs has a window that ended a moment before TEST_NOW: the first sweep closes it.
    const db = await createTestDatabase('sqlite');
    const demo = await generateDemoData(db.database, { now: TEST_NOW });
    await db.database.db
      .updateTable('jobs')
      .set({ end_at: TEST_NOW - 1_000 })
      .where('id', '=', demo.jobs.hiring)
      .execute();
    const config = testConfig();
    const closed = () =>
      db.database.db
        .selectFrom('change_events')
        .select(['position', 'ready'])
        .where('type', '=', 'job.closed')
        .execute();
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const app = await buildApp({ config, database: db.database, clock: () => TEST_NOW, logger: false });
      try {
        // Built, not ready (an area may still be building its index in a real start): a minute passes, no sweep.
        await vi.advanceTimersByTimeAsync(60_000);
        expect(await closed()).toEqual([]);
        await app.ready();
        await vi.advanceTimersByTimeAsync(60_000);
        await vi.waitFor(async () => {
          const rows = await closed();
          expect(rows.length).toBeGreaterThan(0);
          expect(rows.every((row) => Number(row.ready) === 1)).toBe(true);
        });
      } finally {
        await app.close();
      }
    } finally {
      vi.useRealTimers();
      await db.database.close();
      await db.drop();
      fs.rmSync(config.dataDir, { recursive: true, force: true });
    }
  });
});
