import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.js';
import { AppCredentials } from '../src/modules/apps/app-credentials.js';
import { AppRepository } from '../src/modules/apps/app-repository.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';
import { ConsoleForms } from './helpers/console-forms.js';
import { png } from './helpers/images.js';
import { imagePart, jsonPart, multipart, type Part } from './helpers/multipart.js';
import { injectSend } from './helpers/oauth-browser.js';
import { anotherInstance, createTestApp, testConfig, type TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';
import { accessToken, bearer, consentPage, createUser } from './helpers/tokens.js';

/**
 * The company directory over HTTP on the demo (issue 88): the detail and its 404, suggestions, the parameters' errors,
 * highlights and typos, the `/v1` alias and `lang`; and a company kept by its people: PATCH with `company:write` and
 * ENT_COMPANY_EDIT, seen by job search on another instance, in the change feed and by a webhook.
 */
describe.each(ENGINES)('companies on %s', (engine) => {
  let t: TestContext;
  let other: App;
  let owner: { id: number; email: string; password: string };
  let receiver: Receiver;
  beforeAll(async () => {
    t = await createTestApp(engine, {
      config: { WEBHOOKS_ALLOW_LOOPBACK: 'true', WEBHOOK_TIMEOUT_MS: '2000' },
      // One of the demo's events is data-bridge's (none is), so that its logo is seen on an event too.
      prepare: async ({ db }) => {
        const company = await db
          .selectFrom('companies')
          .select('id')
          .where('handle', '=', 'data-bridge')
          .executeTakeFirstOrThrow();
        const event = await db
          .selectFrom('events')
          .select('id')
          .where('status', '=', 'published')
          .orderBy('id')
          .executeTakeFirstOrThrow();
        await db.updateTable('events').set({ company_id: company.id }).where('id', '=', event.id).execute();
      },
    });
    other = await anotherInstance(t);
    owner = await createUser(t, 'data-bridge-owner');
    const company = await t.db.database.db
      .selectFrom('companies')
      .select('id')
      .where('handle', '=', 'data-bridge')
      .executeTakeFirstOrThrow();
    await t.db.database.db
      .insertInto('company_roles')
      .values({ company_id: company.id, user_id: owner.id, role: 'OWNER', created_at: t.clock.now })
      .execute();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await other?.close();
    await t?.close();
    await receiver?.close();
  });

  it('reads a company with every field, its industries named in the language asked, and hiringJobCount as job search counts', async () => {
    const res = await t.get('/api/v1/companies/data-bridge', { 'accept-language': 'en' });
    expect(res.statusCode, res.body).toBe(200);
    const company = res.json();
    expect(company).toMatchObject({
      companyId: 'data-bridge',
      name: '데이터브릿지',
      industry: 'IT_AI',
      industryName: 'IT · Artificial Intelligence',
      size: 'SMALL',
      employeeCount: 38,
      foundedYear: 2022,
      fundingStage: 'PRE_SEED',
      website: 'https://data-bridge.example.com',
      certificated: true,
      webUrl: 'https://www.test.example/companies/data-bridge',
      language: 'en',
      links: [{ type: 'GITHUB', url: 'https://github.com/data-bridge-example' }],
      offices: [{ name: '판교 본사', country: 'KR', region: '경기' }],
      location: { country: 'KR', region: '경기', latitude: 37.4012, longitude: 127.1086 },
    });
    expect(company.description).toMatch(/^Data Bridge makes an AI analytics platform/);
    expect(company.industries.map((i: { code: string }) => i.code)).toEqual(['IT_AI', 'IT_SOFTWARE']);
    expect(company.logoUrl).toMatch(/^https:\/\/api\.test\.example\/media\/demo\/logos\/data-bridge\.png$/);
    const jobs = await t.get('/api/v1/jobs?companyId=data-bridge&pageSize=1');
    expect(company.hiringJobCount).toBe(jobs.json().totalItems);
    // In Korean: the original description, the industry's Korean name.
    const korean = (await t.get('/api/v1/companies/data-bridge')).json();
    expect(korean).toMatchObject({ language: 'ko', industryName: expect.stringMatching(/[가-힣]/) });
    expect(korean.description).toMatch(/^데이터브릿지는/);
    // A company with only what every company has: the optional fields null or empty.
    expect((await t.get('/api/v1/companies/pixel-studio')).json()).toMatchObject({
      description: null,
      location: null,
      employeeCount: null,
      foundedYear: null,
      fundingStage: null,
      website: null,
      links: [],
      offices: [],
    });
  });

  it('answers 404 C0008 for a handle that names no company, 400 for one that cannot be a handle; /v1 and lang alike', async () => {
    const missing = await t.get('/api/v1/companies/no-such-company');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'C0008', details: 'companyId' });
    expect((await t.get('/api/v1/companies/bad%20handle!')).statusCode).toBe(400);
    const alias = await t.get('/v1/companies/data-bridge?lang=en', { 'accept-language': 'ko' });
    expect(alias.statusCode).toBe(200);
    expect(alias.json()).toMatchObject({ language: 'en' });
    expect((await t.get('/v1/companies?per_page=3')).json()).toMatchObject({ pageSize: 3, totalItems: 12 });
    // A lang answer and a header answer are kept apart (each asked twice: the second is the kept one).
    for (let round = 0; round < 2; round++) {
      expect((await t.get('/api/v1/companies?keyword=데이터&lang=en')).json().items[0].description).toMatch(/^Data/);
      expect((await t.get('/api/v1/companies?keyword=데이터')).json().items[0].description).toMatch(/^데이터/);
    }
  });

  it('refuses parameters it cannot read with 400 C0005 naming them', async () => {
    for (const [query, details] of [
      ['industries=NOT_AN_INDUSTRY', 'industries'],
      ['foundedFrom=2020&foundedTo=2010', 'foundedFrom'],
      ['radiusKm=5', 'radiusKm'],
      ['near=95,10', 'near'],
      ['sort=POPULAR', 'sort'],
      ['fundingStages=IPO', 'fundingStages'],
      ['facets=size', 'facets'],
      ['per_page=3&pageSize=4', 'per_page'],
    ]) {
      const res = await t.get(`/api/v1/companies?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().code, query).toMatch(/^C000[25]$/);
      expect(res.json().details, query).toContain(details);
    }
  });

  it('highlights why a company matched, tolerates typos when asked, and suggests names as Korean is typed', async () => {
    const page = (
      await t.get('/api/v1/companies?keyword=logistics&highlight=true', { 'accept-language': 'en' })
    ).json();
    // By name, by an industry's name (DIST_LOGISTICS), by the English translation of a Korean description.
    expect(page.items.map((c: { companyId: string }) => c.companyId).sort()).toEqual([
      'blue-mobility',
      'data-bridge',
      'k-logistics',
    ]);
    const fields = (handle: string) =>
      page.items
        .find((c: { companyId: string }) => c.companyId === handle)
        .highlights.map((h: { field: string }) => h.field);
    expect(fields('k-logistics')).toContain('name');
    expect(fields('data-bridge')).toEqual(['description']);
    expect(fields('blue-mobility')).toEqual([]);
    const strict = (await t.get('/api/v1/companies?keyword=logistcs')).json();
    expect(strict.totalItems).toBe(0);
    const tolerant = (await t.get('/api/v1/companies?keyword=logistcs&typoTolerance=true')).json();
    expect(tolerant.totalItems).toBeGreaterThan(0);
    expect(tolerant.didYouMean).toBe('logistics');
    for (const prefix of ['데이', 'ㄷㅇㅌ', '데ㅇ']) {
      const res = await t.get(`/api/v1/companies/suggestions?prefix=${encodeURIComponent(prefix)}`);
      expect(res.json(), prefix).toContainEqual({ text: '데이터브릿지', type: 'COMPANY', count: 1 });
    }
    expect((await t.get('/api/v1/companies/suggestions?prefix=acme')).json()[0]).toMatchObject({ text: 'Acme Labs' });
    expect((await t.get('/api/v1/companies/suggestions?prefix=%20')).statusCode).toBe(400);
  });

  const patch = (token: string, parts: Part[], handle = 'data-bridge') => {
    const body = multipart(parts);
    return t.request({
      method: 'PATCH',
      url: `/api/v1/companies/${handle}`,
      headers: { ...bearer(token), ...body.headers },
      payload: body.payload,
    });
  };

  it('refuses a write without the scope, without the capability, for no company, or with bad fields, changing nothing', async () => {
    const noScope = await accessToken(t, 'profile', owner);
    expect((await patch(noScope, [jsonPart({ employeeCount: 40 })])).statusCode).toBe(403);
    // The demo user is a RECRUITER at acme-labs: it may post jobs, not edit the company.
    const recruiter = await accessToken(t, 'company:write');
    const forbidden = await patch(recruiter, [jsonPart({ employeeCount: 40 })], 'acme-labs');
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toMatchObject({ code: 'C0004' });
    expect(forbidden.json().message).toContain('ENT_COMPANY_EDIT');
    const token = await accessToken(t, 'company:write', owner);
    expect((await patch(token, [jsonPart({ employeeCount: 40 })], 'no-such-company')).statusCode).toBe(404);
    // data-bridge's OWNER is no one at acme-labs; no token at all is 401.
    expect((await patch(token, [jsonPart({ employeeCount: 40 })], 'acme-labs')).json()).toMatchObject({
      code: 'C0004',
    });
    const body = multipart([jsonPart({ employeeCount: 40 })]);
    const anonymous = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/companies/data-bridge',
      headers: body.headers,
      payload: body.payload,
    });
    expect(anonymous.statusCode).toBe(401);
    for (const [body, field] of [
      [{ industries: ['NOT_AN_INDUSTRY'] }, 'request.industries'],
      [{ name: 'A new name' }, 'request'],
      [{ location: { country: 'XX' } }, 'request.location.country'],
      [{ website: 'ftp://files.example' }, 'request.website'],
      [{ foundedYear: 1700 }, 'request.foundedYear'],
    ] as const) {
      const res = await patch(token, [jsonPart(body)]);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().details, JSON.stringify(body)).toContain(field);
    }
    expect((await t.get('/api/v1/companies/data-bridge')).json().employeeCount).toBe(38);
  });

  it('takes a profile and a logo from ENT_COMPANY_EDIT; job search on another instance, the feed and a webhook see it', async () => {
    const forms = new ConsoleForms(injectSend(t.app));
    await forms.signIn(t.demo.user);
    const { appId } = await forms.createApp('회사 웹훅');
    const { secret } = await forms.createEndpoint(appId, receiver.url(), ['company.updated']);
    const cursor = (await t.get('/api/v1/changes?after=now')).json().nextCursor as string;
    const jobsBefore = (
      await other.inject({
        method: 'GET',
        url: '/api/v1/jobs?companyId=data-bridge&companySizes=MEDIUM',
        headers: { 'x-svc-api-key': t.demo.apiKey },
      })
    ).json();
    expect(jobsBefore.totalItems).toBe(0);
    // Posts, events and a job of the company, read twice on the other instance: their answers are kept there.
    const shown = async () => {
      const get = async (url: string) =>
        (await other.inject({ method: 'GET', url, headers: { 'x-svc-api-key': t.demo.apiKey } })).json();
      const posts = await get('/api/v1/posts?companyId=data-bridge&pageSize=1');
      const events = await get('/api/v1/events?companyId=data-bridge&pageSize=1');
      const jobs = await get('/api/v1/jobs?companyId=data-bridge&pageSize=1');
      const job = await get(`/api/v1/jobs/${jobs.items[0].jobId}`);
      return [
        posts.items[0].author.imageUrl,
        events.items[0].company.logoUrl,
        jobs.items[0].company.logoUrl,
        job.company.logoUrl,
      ];
    };
    await shown();
    const logosBefore = await shown();
    expect(new Set(logosBefore)).toEqual(new Set([expect.stringMatching(/demo\/logos\/data-bridge\.png$/)]));

    const token = await accessToken(t, 'company:write', owner);
    const res = await patch(token, [
      jsonPart({
        description: '데이터브릿지는 물류 데이터를 위한 AI 플랫폼을 만듭니다.',
        size: 'MEDIUM',
        employeeCount: 61,
        fundingStage: 'SEED',
        links: [{ type: 'CAREERS', url: 'https://data-bridge.example.com/careers' }],
        location: { country: 'KR', region: '서울', locality: '중구', latitude: 37.5663, longitude: 126.9779 },
      }),
      imagePart(png(200, 200), 'logo.png', 'logo'),
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ companyId: 'data-bridge', webUrl: 'https://www.test.example/companies/data-bridge' });
    expect(res.headers['x-svc-ratelimit-scope-remaining']).toBeDefined();

    // The other instance: the detail, a company search, and the company's jobs by their new size, with the new logo.
    const read = (url: string, headers: Record<string, string> = {}) =>
      other.inject({ method: 'GET', url, headers: { 'x-svc-api-key': t.demo.apiKey, ...headers } });
    const detail = (await read('/api/v1/companies/data-bridge', { 'accept-language': 'en' })).json();
    expect(detail).toMatchObject({ size: 'MEDIUM', employeeCount: 61, fundingStage: 'SEED', language: 'ko' });
    // The old description's English translation went with it.
    expect(detail.description).toBe('데이터브릿지는 물류 데이터를 위한 AI 플랫폼을 만듭니다.');
    expect(detail.logoUrl).toMatch(/\/media\/companies\/.+/);
    expect(detail.updatedAt).not.toBe(detail.createdAt);
    expect((await read('/api/v1/companies?regions=서울&keyword=물류')).json().items[0].companyId).toBe('data-bridge');
    const jobsAfter = (await read('/api/v1/jobs?companyId=data-bridge&companySizes=MEDIUM')).json();
    expect(jobsAfter.totalItems).toBe(detail.hiringJobCount);
    expect(jobsAfter.totalItems).toBeGreaterThan(0);
    expect(jobsAfter.items[0].company).toMatchObject({ id: 'data-bridge', size: 'MEDIUM', logoUrl: detail.logoUrl });
    expect(await shown()).toEqual([detail.logoUrl, detail.logoUrl, detail.logoUrl, detail.logoUrl]);
    const mine = await t.get(
      '/api/v1/me/company-permissions',
      bearer(await accessToken(t, 'company:manage:read', owner)),
    );
    expect(mine.json().companies[0].company).toMatchObject({ permalink: 'data-bridge', logoUrl: detail.logoUrl });

    // The change feed: company.updated with the company as its read shows it, known by its handle.
    const changes = (await t.get(`/api/v1/changes?after=${cursor}&types=company.updated`)).json();
    expect(changes.items).toHaveLength(1);
    expect(changes.items[0]).toMatchObject({
      type: 'company.updated',
      resource: { type: 'company', id: 'data-bridge', companyId: 'data-bridge', webUrl: detail.webUrl },
      data: { companyId: 'data-bridge', employeeCount: 61 },
    });
    // The webhook, verified by the standardwebhooks package.
    await t.app.webhooks.settle();
    expect(receiver.received).toHaveLength(1);
    const delivery = receiver.received[0]!;
    const body = new Webhook(secret).verify(delivery.body, delivery.headers) as { type: string; data: unknown };
    expect(body).toMatchObject({ type: 'company.updated', data: { companyId: 'data-bridge' } });
  });

  it('stops company writes at the company.update limit with 429 and its headers, changing nothing', async () => {
    // An instance with the limit at its defaults (the others raise every limit), a day on: every window is new.
    const limited = await anotherInstance(
      t,
      testConfig({
        RATE_LIMIT_COMPANY_UPDATE_PER_MINUTE: '5',
        RATE_LIMIT_COMPANY_UPDATE_PER_HOUR: '40',
        RATE_LIMIT_COMPANY_UPDATE_PER_DAY: '300',
      }),
    );
    try {
      t.clock.now += 86_400_000;
      const token = await accessToken(t, 'company:write', owner);
      const write = (employeeCount: number) => {
        const body = multipart([jsonPart({ employeeCount })]);
        return limited.inject({
          method: 'PATCH',
          url: '/api/v1/companies/data-bridge',
          headers: { ...bearer(token), ...body.headers },
          payload: body.payload,
        });
      };
      for (let count = 1; count <= 5; count++) {
        const res = await write(100 + count);
        expect(res.statusCode).toBe(200);
        expect(res.headers['x-ratelimit-remaining']).toBe(String(5 - count));
      }
      const refused = await write(999);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ code: 'C0010' });
      expect(refused.headers['retry-after']).toBeDefined();
      expect(refused.headers['x-ratelimit-remaining']).toBe('0');
      expect((await t.get('/api/v1/companies/data-bridge')).json().employeeCount).toBe(105);
      t.clock.now += 60_000;
      expect((await write(38)).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('reads nothing for a request without an app key, or with one that was revoked', async () => {
    for (const url of [
      '/api/v1/companies',
      '/api/v1/companies/data-bridge',
      '/api/v1/companies/suggestions?prefix=da',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(401);
      expect(res.json(), url).toMatchObject({ code: 'C0001' });
      expect(res.body, url).not.toContain('data-bridge');
    }
    const db = t.db.database.db;
    const appId = (await db.selectFrom('apps').select('id').where('name', '=', 'Demo app').executeTakeFirstOrThrow())
      .id;
    const credentials = new AppCredentials(db);
    const { apiKey } = await credentials.rotateKey(appId, 'none', null, t.clock.now);
    const read = (key: string) =>
      t.app.inject({ method: 'GET', url: '/api/v1/companies/data-bridge', headers: { 'x-svc-api-key': key } });
    expect((await read(apiKey)).statusCode).toBe(200);
    const keys = await new AppRepository(db).keysOf(appId);
    await credentials.revokeKey(appId, keys.at(-1)!.id, null, t.clock.now);
    // Revoked here in the tables, not through the console that publishes it: refused within the key cache's time.
    t.clock.now += 5_001;
    const revoked = await read(apiKey);
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json()).toMatchObject({ code: 'C0001' });
    expect(revoked.body).not.toContain('data-bridge');
  });

  it('offers company:write on the consent page and in the server metadata', async () => {
    const metadata = (await t.app.inject({ url: '/.well-known/oauth-authorization-server' })).json();
    expect(metadata.scopes_supported).toContain('company:write');
    const user = await createUser(t, 'consent-reader');
    const page = await consentPage(t.app, t.demo.client, 'company:write', user);
    expect(page.body).toContain('관리 권한이 있는 회사의 소개, 로고, 위치 등 회사 정보 수정');
  });
});
