import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import type { buildApp } from '../src/app.js';
import { rateLimitStoreFor } from '../src/rate-limit/rate-limit-store-factory.js';
import { AppKeyService } from '../src/modules/accounts/app-key-service.js';
import { AccountsRepository } from '../src/modules/accounts/accounts-repository.js';
import { jsonPart, multipart } from './helpers/multipart.js';
import {
  anotherInstance,
  createTestApp,
  GENEROUS_LIMITS,
  TEST_NOW,
  testConfig,
  type TestContext,
} from './helpers/test-app.js';
import { accessToken, bearer } from './helpers/tokens.js';
import { createTestDatabase, ENGINES } from './helpers/test-database.js';

const STORES = process.env.TEST_REDIS_URL ? (['memory', 'redis'] as const) : (['memory'] as const);
if (!process.env.TEST_REDIS_URL) console.warn('TEST_REDIS_URL is not set: the Redis rate-limit cases are skipped.');

// The minute starts 10 s after the test clock's start, so "seconds until reset" is predictable.
const MINUTE_START = Math.ceil(TEST_NOW / 60_000) * 60_000;

describe.each(STORES)('rate limits with the %s store', (store) => {
  let t: TestContext;
  const settings = (extra: Record<string, string> = {}) => ({
    ...GENEROUS_LIMITS,
    RATE_LIMIT_GLOBAL_PER_MINUTE: '60',
    RATE_LIMIT_GLOBAL_PER_DAY: '5000',
    RATE_LIMIT_POST_CREATE_PER_MINUTE: '2',
    RATE_LIMIT_POST_CREATE_PER_HOUR: '10',
    RATE_LIMIT_POST_CREATE_PER_DAY: '50',
    ...(store === 'redis'
      ? { REDIS_URL: process.env.TEST_REDIS_URL!, RATE_LIMIT_REDIS_PREFIX: `test:${randomBytes(6).toString('hex')}:` }
      : {}),
    ...extra,
  });

  beforeAll(async () => {
    t = await createTestApp('sqlite', { config: settings() });
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(() => {
    t.clock.now = TEST_NOW;
  });

  const newKey = async () =>
    (
      await new AppKeyService(new AccountsRepository(t.db.database.db, () => t.clock.now), 0).createApp(
        `app-${randomBytes(3).toString('hex')}`,
      )
    ).apiKey;
  const read = (key: string, url = '/api/v1/codes/work-types', headers: Record<string, string> = {}) =>
    t.request({ method: 'GET', url, headers: { 'x-svc-api-key': key, ...headers } });

  it('admits 60 requests a minute per app, counting down, then answers 429 C0010 with Retry-After', async () => {
    t.clock.now = MINUTE_START + 10_000;
    const key = await newKey();
    for (let i = 1; i <= 60; i++) {
      const res = await read(key);
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-svc-ratelimit-remaining']).toBe(String(60 - i));
    }
    const refused = await read(key);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'C0010', details: 'minute' });
    expect(refused.json().message).toContain('60 requests per minute');
    expect(refused.headers['retry-after']).toBe('50');
    expect(refused.headers['ratelimit-policy']).toBe('"minute";q=60;w=60, "day";q=5000;w=86400');
    expect(refused.headers.ratelimit).toBe(
      '"minute";r=0;t=50, "day";r=4940;t=' +
        String(Math.ceil(((Math.floor(t.clock.now / 86_400_000) + 1) * 86_400_000 - t.clock.now) / 1000)),
    );
    // Another app is not affected; the next minute starts afresh.
    expect((await read(await newKey())).statusCode).toBe(200);
    t.clock.now = MINUTE_START + 60_000;
    expect((await read(key)).headers['x-svc-ratelimit-remaining']).toBe('59');
  });

  it('admits exactly the limit of a burst of 200 concurrent requests', async () => {
    t.clock.now = MINUTE_START + 5_000;
    const key = await newKey();
    const statuses = (await Promise.all(Array.from({ length: 200 }, () => read(key)))).map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(60);
    expect(statuses.filter((s) => s === 429)).toHaveLength(140);
  });

  it('counts Bearer calls against the OAuth client, and post.create per user: 2 a minute, then 429 naming the scope', async () => {
    t.clock.now = MINUTE_START + 1_000;
    const token = await accessToken(t, 'post:write');
    const create = () => {
      const body = multipart([jsonPart({ text: `limited ${randomBytes(4).toString('hex')}` })]);
      return t.request({
        method: 'POST',
        url: '/api/v1/posts',
        headers: { ...body.headers, ...bearer(token) },
        payload: body.payload,
      });
    };
    const first = await create();
    expect(first.statusCode).toBe(201);
    expect(first.headers['x-svc-ratelimit-scope-remaining']).toBe('1');
    expect(first.headers['ratelimit-policy']).toContain(
      '"post.create-minute";q=2;w=60, "post.create-hour";q=10;w=3600, "post.create-day";q=50;w=86400',
    );
    expect((await create()).headers['x-svc-ratelimit-scope-remaining']).toBe('0');
    const refused = await create();
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['x-svc-ratelimit-scope']).toBe('post.create');
    expect(refused.headers['retry-after']).toBe('59');
    expect(refused.json()).toMatchObject({ code: 'C0010', details: 'post.create-minute' });
  });

  it('enforces the hour window across minutes', async () => {
    const hourStart = (Math.floor(TEST_NOW / 3_600_000) + 1) * 3_600_000;
    t.clock.now = hourStart + 500;
    const token = await accessToken(t, 'post:write');
    const create = () => {
      const body = multipart([jsonPart({ text: `hourly ${randomBytes(4).toString('hex')}` })]);
      return t.request({
        method: 'POST',
        url: '/api/v1/posts',
        headers: { ...body.headers, ...bearer(token) },
        payload: body.payload,
      });
    };
    for (let minute = 0; minute < 5; minute++) {
      t.clock.now = hourStart + minute * 60_000 + 1_000;
      expect((await create()).statusCode).toBe(201);
      expect((await create()).statusCode).toBe(201);
    }
    t.clock.now = hourStart + 6 * 60_000;
    const refused = await create();
    expect(refused.statusCode).toBe(429);
    expect(refused.json().details).toBe('post.create-hour');
    expect(refused.headers['retry-after']).toBe(String(54 * 60));
  });

  it('answers conditional requests with 304, which do not count', async () => {
    t.clock.now = MINUTE_START + 2_000;
    const key = await newKey();
    const first = await read(key, '/api/v1/codes/seniorities');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect((await read(await newKey(), '/api/v1/codes/seniorities')).headers.etag).toBe(etag);
    expect((await read(key, '/api/v1/codes/seniorities', { 'accept-language': 'en' })).headers.etag).not.toBe(etag);
    const remainingBefore = Number((await read(key, '/api/v1/codes/seniorities')).headers['x-svc-ratelimit-remaining']);
    for (let i = 0; i < 5; i++) {
      const notModified = await read(key, '/api/v1/codes/seniorities', { 'if-none-match': etag });
      expect(notModified.statusCode).toBe(304);
      expect(notModified.body).toBe('');
    }
    expect(Number((await read(key, '/api/v1/codes/seniorities')).headers['x-svc-ratelimit-remaining'])).toBe(
      remainingBefore - 1,
    );
  });
});

describe('limits across windows and restarts', () => {
  it('enforces the day window, and a 429 consumes nothing', async () => {
    const t = await createTestApp('sqlite', {
      config: { ...GENEROUS_LIMITS, RATE_LIMIT_GLOBAL_PER_MINUTE: '3', RATE_LIMIT_GLOBAL_PER_DAY: '5' },
    });
    try {
      t.clock.now = MINUTE_START;
      for (let i = 0; i < 3; i++) expect((await t.get('/api/v1/codes/work-types')).statusCode).toBe(200);
      expect((await t.get('/api/v1/codes/work-types')).statusCode).toBe(429);
      expect((await t.get('/api/v1/codes/work-types')).statusCode).toBe(429);
      t.clock.now = MINUTE_START + 60_000;
      // The two refused requests did not count against the day: two more fit.
      expect((await t.get('/api/v1/codes/work-types')).statusCode).toBe(200);
      expect((await t.get('/api/v1/codes/work-types')).statusCode).toBe(200);
      const refused = await t.get('/api/v1/codes/work-types');
      expect(refused.json().details).toBe('day');
      const dayEnd = (Math.floor(t.clock.now / 86_400_000) + 1) * 86_400_000;
      expect(refused.headers['retry-after']).toBe(String(Math.ceil((dayEnd - t.clock.now) / 1000)));
    } finally {
      await t.close();
    }
  });

  it("keeps a day's counts across a restart of the single-instance server", async () => {
    const t = await createTestApp('sqlite', { config: { ...GENEROUS_LIMITS, RATE_LIMIT_GLOBAL_PER_DAY: '5' } });
    try {
      for (let i = 0; i < 3; i++) expect((await t.get('/api/v1/codes/work-types')).statusCode).toBe(200);
      await t.app.close();
      const restarted = await anotherInstance(t, testConfig({ ...GENEROUS_LIMITS, RATE_LIMIT_GLOBAL_PER_DAY: '5' }));
      try {
        const get = () =>
          restarted.inject({
            method: 'GET',
            url: '/api/v1/codes/work-types',
            headers: { 'x-svc-api-key': t.demo.apiKey },
          });
        expect((await get()).statusCode).toBe(200);
        expect((await get()).statusCode).toBe(200);
        expect((await get()).statusCode).toBe(429);
      } finally {
        await restarted.close();
      }
    } finally {
      await t.db.database.close();
      await t.db.drop();
    }
  });
});

describe.each(ENGINES)('rate limits across a crash on %s', (engine) => {
  it('admit no second burst after a crash right after the first, for the global and the operation limits', async () => {
    const limits = { ...GENEROUS_LIMITS, RATE_LIMIT_GLOBAL_PER_MINUTE: '60', RATE_LIMIT_POST_CREATE_PER_MINUTE: '2' };
    const t = await createTestApp(engine, { config: limits });
    let restarted: Awaited<ReturnType<typeof buildApp>> | null = null;
    try {
      const token = await accessToken(t, 'post:write');
      const read = (app: typeof t.app) =>
        app.inject({ method: 'GET', url: '/api/v1/codes/work-types', headers: { 'x-svc-api-key': t.demo.apiKey } });
      const create = (app: typeof t.app, n: number) => {
        const body = multipart([jsonPart({ text: `burst ${n}` })]);
        return app.inject({
          method: 'POST',
          url: '/api/v1/posts',
          headers: { ...body.headers, ...bearer(token) },
          payload: body.payload,
        });
      };
      const first = await Promise.all(Array.from({ length: 60 }, () => read(t.app)));
      expect(first.map((r) => r.statusCode)).toEqual(Array(60).fill(200));
      expect((await create(t.app, 1)).statusCode).toBe(201);
      expect((await create(t.app, 2)).statusCode).toBe(201);

      // The first process "crashes": it is never closed, so nothing of it is saved or given back. A new
      // process on the same database must still know every request it admitted.
      restarted = await anotherInstance(t, testConfig(limits));
      const second = await Promise.all(Array.from({ length: 60 }, () => read(restarted!)));
      expect(second.filter((r) => r.statusCode === 200)).toHaveLength(0);
      expect(second.every((r) => r.json().code === 'C0010')).toBe(true);
      // Creates count against the OAuth client's global budget (2 used of 60): what refuses them is post.create.
      const refused = await create(restarted, 3);
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['x-svc-ratelimit-scope']).toBe('post.create');
    } finally {
      await restarted?.close();
      await t.close();
    }
  });
});

describe.skipIf(!process.env.TEST_REDIS_URL)('an instance starting with Redis', () => {
  it('is connected before it serves: its first request is counted in Redis with the other instances', async () => {
    const prefix = `test:${randomBytes(6).toString('hex')}:`;
    const test = await createTestDatabase('sqlite');
    const redis = new Redis(process.env.TEST_REDIS_URL!);
    const store = await rateLimitStoreFor(
      testConfig({ REDIS_URL: process.env.TEST_REDIS_URL!, RATE_LIMIT_REDIS_PREFIX: prefix }),
      test.database,
      () => TEST_NOW,
      pino({ level: 'silent' }),
    );
    try {
      // The first request, the moment the store is handed to the service: counted in Redis, not in the
      // database apart from the instances that count in Redis (together they would admit twice the limit).
      const result = await store.consume('app:1', [{ name: 'minute', ms: 60_000, limit: 60 }], TEST_NOW);
      expect(result.allowed).toBe(true);
      expect(await store.check()).toBeNull();
      expect(await redis.keys(`${prefix}*`)).toHaveLength(1);
    } finally {
      await store.close();
      redis.disconnect();
      await test.database.close();
      await test.drop();
    }
  });
});
