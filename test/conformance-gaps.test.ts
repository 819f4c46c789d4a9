import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { png } from './helpers/images.js';
import { imagePart, jsonPart, multipart, type Part } from './helpers/multipart.js';
import { createTestApp, GENEROUS_LIMITS, type TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';
import { accessToken, bearer, createUser } from './helpers/tokens.js';

/** Behaviour a client of the real service relies on (issue 13, "conformance gaps found from outside"). */
describe.each(ENGINES)('conformance on %s', (engine) => {
  let t: TestContext;
  let token: string;
  let event: string;
  beforeAll(async () => {
    t = await createTestApp(engine, {
      config: { ...GENEROUS_LIMITS, RATE_LIMIT_POST_CREATE_PER_MINUTE: '2', RATE_LIMIT_JOB_CREATE_PER_MINUTE: '1' },
    });
    token = await accessToken(t, 'post:write job:write event:write');
    event = (
      await t.db.database.db
        .selectFrom('events')
        .innerJoin('companies', 'companies.id', 'events.company_id')
        .select('events.id')
        .where('companies.handle', '=', 'acme-labs')
        .where('events.status', '=', 'published')
        .executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(async () => {
    await t?.close();
  });

  const send = (url: string, parts: Part[]) => {
    const body = multipart(parts);
    return t.request({ method: 'POST', url, headers: { ...body.headers, ...bearer(token) }, payload: body.payload });
  };

  it('counts an operation limit only for requests whose multipart body passed validation', async () => {
    const malformed: Part[][] = [
      [],
      [{ name: 'request', value: '{not json' }],
      [jsonPart({ text: 'x', unknown: 1 })],
      [jsonPart({ text: 'x' }), imagePart(Buffer.from('not an image'))],
    ];
    for (const parts of malformed) expect((await send('/api/v1/posts', parts)).statusCode).toBe(400);
    for (let i = 0; i < 2; i++) {
      const ok = await send('/api/v1/posts', [jsonPart({ text: `budget ${i}` })]);
      expect(ok.statusCode, ok.body).toBe(201);
    }
    const third = await send('/api/v1/posts', [jsonPart({ text: 'over budget' })]);
    expect(third.statusCode).toBe(429);
    expect(third.headers['x-svc-ratelimit-scope']).toBe('post.create');

    expect(
      (await send('/api/v1/jobs/platform?companyId=acme-labs', [jsonPart({ jobTitle: 'no category' })])).statusCode,
    ).toBe(400);
    const job = await send('/api/v1/jobs/platform?companyId=acme-labs', [
      jsonPart({
        jobTitle: '백엔드',
        jobCategory: 'dev',
        seniorities: ['JUNIOR'],
        employmentTypes: ['FULL_TIME'],
        jobBio: 'bio',
        jobResponse: 'duty',
      }),
    ]);
    expect(job.statusCode, job.body).toBe(201);
  });

  it('answers every event sub-resource create with 201 and the Location of what it made', async () => {
    const json = (url: string, body: unknown) =>
      t.request({
        method: 'POST',
        url,
        headers: { ...bearer(token), 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
    const cases: Array<[string, unknown, string]> = [
      ['tickets/free', { ticketName: '입장권' }, 'ticketId'],
      ['sessions', { title: '세션' }, 'sessionId'],
      ['faqs', { question: '주차?', answer: '가능' }, 'faqId'],
      ['hosts', { hostType: 'MEMBER', id: 'member-03', roles: ['SPEAKER'] }, 'hostId'],
    ];
    for (const [path, body, idName] of cases) {
      const res = await json(`/api/v1/events/${event}/${path}`, body);
      expect(res.statusCode, res.body).toBe(201);
      const kind = path.split('/')[0];
      expect(res.headers.location).toBe(`/api/v1/events/${event}/${kind}/${res.json()[idName]}`);
    }
  });

  it('lets any site embed the images it serves (Cross-Origin-Resource-Policy: cross-origin)', async () => {
    const author = await accessToken(t, 'post:write', await createUser(t, 'embedder'));
    const body = multipart([jsonPart({ text: 'embeddable' }), imagePart(png(4, 4))]);
    const created = await t.request({
      method: 'POST',
      url: '/api/v1/posts',
      headers: { ...body.headers, ...bearer(author) },
      payload: body.payload,
    });
    const image = await t.app.inject({ method: 'GET', url: new URL(created.json().images[0].url).pathname });
    expect(image.statusCode).toBe(200);
    expect(image.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect((await t.get('/api/v1/posts/1')).headers['cross-origin-resource-policy']).toBe('same-origin');
  });

  it('takes a company handle of 255 characters on every path and query that names a company, and refuses 256', async () => {
    const reader = await accessToken(
      t,
      'job:manage:read company:manage:read job:write',
      await createUser(t, 'handle-reader'),
    );
    const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: string) =>
      t.request({
        method,
        url,
        payload,
        headers: {
          'x-svc-api-key': t.demo.apiKey,
          ...bearer(reader),
          ...(payload ? { 'content-type': 'application/json' } : {}),
        },
      });
    for (const [handle, ok] of [
      ['a'.repeat(255), true],
      ['a'.repeat(256), false],
    ] as const) {
      const answers = [
        await call('GET', `/api/v1/companies/${handle}/jobs/accessible`),
        await call('GET', `/api/v1/me/company-permissions/${handle}/resource-roles`),
        await call('GET', `/api/v1/jobs?companyId=${handle}`),
        await call('GET', `/api/v1/posts?companyId=${handle}`),
        await call('GET', `/api/v1/events?companyId=${handle}`),
        await call('PUT', `/api/v1/jobs/${t.demo.jobs.draft}/active?companyId=${handle}`, '{"startDate":"2026-12-01"}'),
      ];
      for (const res of answers) {
        if (ok) {
          expect([200, 403, 404], res.body).toContain(res.statusCode);
        } else {
          expect(res.statusCode, res.body).toBe(400);
          expect(['C0002', 'C0005']).toContain(res.json().code);
        }
      }
    }
  });

  it('answers a CORS preflight with 204 and no CORS headers when no origin is allowed', async () => {
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/posts',
      headers: { origin: 'https://builder.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.body).toBe('');
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.headers.allow).toBe('GET, POST');
  });
});
