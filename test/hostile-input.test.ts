import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { jsonPart, multipart, type Part } from './helpers/multipart.js';
import { createTestApp, type TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';
import { accessToken, bearer } from './helpers/tokens.js';

const JOB = {
  jobTitle: '백엔드개발자',
  jobCategory: 'dev',
  seniorities: ['JUNIOR'],
  employmentTypes: ['FULL_TIME'],
  jobBio: 'TypeScript로 API를 만듭니다.',
  jobResponse: 'API 설계',
};
const EVENT = {
  eventName: '판교 밋업',
  description: '이야기',
  startAt: '2026-12-05T19:00:00+09:00',
  endAt: '2026-12-05T21:00:00+09:00',
  eventOpenType: 'OFFLINE',
  eventCategories: ['NETWORKING'],
  eventSubjects: ['TECHNOLOGY'],
};
const NUL = '\u0000';

/** A client error in the spec's ErrorResponse body, with no trace of the engine behind it. */
function expectRefused(res: LightMyRequestResponse, status: number, code: string): void {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json();
  expect(body).toMatchObject({ code, message: expect.any(String), timestamp: expect.any(String) });
  expect(res.body).not.toMatch(/sqlite|postgres|syntax error|invalid byte sequence|stack|at .*\.ts:/i);
}

/** Input that once reached the database unchecked (a 500 on PostgreSQL): each engine must see the same valid input. */
describe.each(ENGINES)('hostile input on %s', (engine) => {
  let t: TestContext;
  let token: string;
  let event: string;
  beforeAll(async () => {
    t = await createTestApp(engine, { config: { MEDIA_STORE: 'database' } });
    token = await accessToken(t, 'post:write job:write event:write company:manage:read');
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

  const send = (method: 'POST' | 'PATCH', url: string, parts: Part[]) => {
    const body = multipart(parts);
    return t.request({ method, url, headers: { ...body.headers, ...bearer(token) }, payload: body.payload });
  };
  const json = (method: 'POST' | 'PATCH', url: string, payload: string) =>
    t.request({ method, url, headers: { ...bearer(token), 'content-type': 'application/json' }, payload });

  it('refuses ids beyond what an int64 or a JavaScript number holds with 400 C0002', async () => {
    for (const url of [
      '/api/v1/posts/99999999999999999999',
      '/api/v1/jobs/99999999999999999999',
      '/api/v1/posts/9223372036854775808',
      '/api/v1/posts/1e400',
      '/api/v1/jobs/1e400',
      '/api/v1/posts/1e3',
      '/api/v1/posts/-1',
    ]) {
      expectRefused(await t.get(url), 400, 'C0002');
    }
    expectRefused(
      await send('POST', '/api/v1/posts', [{ name: 'request', value: '{"repostedPostId":99999999999999999999}' }]),
      400,
      'C0002',
    );
    expectRefused(
      await json('PATCH', `/api/v1/events/${event}/tickets/99999999999999999999`, '{"ticketName":"x"}'),
      400,
      'C0002',
    );
  });

  it('refuses U+0000 in any text with 400, and stores nothing', async () => {
    const before = await t.db.database.db
      .selectFrom('posts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const refused = [
      await send('POST', '/api/v1/posts', [jsonPart({ text: `안녕${NUL}하세요` })]),
      await send('POST', '/api/v1/jobs/platform?companyId=acme-labs', [jsonPart({ ...JOB, jobTitle: `title${NUL}` })]),
      await send('POST', '/api/v1/events?companyId=acme-labs', [jsonPart({ ...EVENT, eventName: `${NUL}event` })]),
      await json('POST', `/api/v1/events/${event}/tickets/free`, JSON.stringify({ ticketName: `a${NUL}b` })),
      await send('POST', '/api/v1/posts', [jsonPart({ [`te${NUL}xt`]: 'a key with a NUL' })]),
    ];
    for (const res of refused) expectRefused(res, 400, 'C0002');
    expect(refused[0]!.json().details).toBe('request.text');
    const after = await t.db.database.db
      .selectFrom('posts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('refuses U+0000 in the path and the query with 400', async () => {
    expectRefused(await t.get('/api/v1/posts?keyword=%00'), 400, 'C0005');
    expectRefused(await t.get('/api/v1/jobs?keyword=dev%00ops'), 400, 'C0005');
    expectRefused(await t.get('/api/v1/events?keyword=%00'), 400, 'C0005');
    const roles = await t.request({
      method: 'GET',
      url: '/api/v1/me/company-permissions/acme-labs/resource-roles?resourceType=JOB&resourceId=1%00',
      headers: bearer(token),
    });
    expectRefused(roles, 400, 'C0005');
    const media = await t.app.inject({ method: 'GET', url: '/media/x%00/y.png' });
    expect(media.statusCode).toBe(400);
    expect(media.json()).toMatchObject({ code: 'C0002' });
  });

  it('refuses U+0000 in OAuth fields with an OAuth error, not a 500', async () => {
    const token = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=refresh_token&refresh_token=abc&client_id=demo%00client&client_secret=x',
    });
    expect(token.statusCode).toBe(400);
    expect(token.json()).toMatchObject({ error: 'invalid_request' });
    const authorize = await t.app.inject({
      method: 'GET',
      url: '/oauth/authorize?response_type=code&client_id=a%00b&redirect_uri=https://x.example/cb',
    });
    expect(authorize.statusCode).toBe(400);
  });

  it('takes a 2,100-character word in a post or a job and keeps it searchable by its other words', async () => {
    const word = 'ㄱ'.repeat(10) + 'a'.repeat(2_100);
    const post = await send('POST', '/api/v1/posts', [jsonPart({ text: `긴단어검증 ${word}` })]);
    expect(post.statusCode, post.body).toBe(201);
    const job = await send('POST', '/api/v1/jobs/platform?companyId=acme-labs', [
      jsonPart({ ...JOB, jobBio: `${word} 긴소개검증` }),
    ]);
    expect(job.statusCode, job.body).toBe(201);
    const found = await t.get(`/api/v1/posts?keyword=${encodeURIComponent('긴단어검증')}`);
    expect(found.json().items.map((p: { postId: number }) => p.postId)).toContain(post.json().postId);
  });
});

/** Bodies the parsers refuse: each a 4xx in the spec's ErrorResponse body, never a 500 or a framework body. */
describe.each(ENGINES)('malformed bodies on %s', (engine) => {
  let t: TestContext;
  let token: string;
  let event: string;
  beforeAll(async () => {
    t = await createTestApp(engine);
    token = await accessToken(t, 'post:write event:write');
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

  const raw = (url: string, contentType: string, payload: string | Buffer) =>
    t.request({ method: 'POST', url, headers: { ...bearer(token), 'content-type': contentType }, payload });

  it('refuses JSON nested thousands of levels deep with 400 C0002', async () => {
    const deep = `{"ticketName":"x","formFields":${'['.repeat(4_500)}${']'.repeat(4_500)}}`;
    expectRefused(await raw(`/api/v1/events/${event}/tickets/free`, 'application/json', deep), 400, 'C0002');
    const deepPart = multipart([{ name: 'request', value: `{"text":${'{"a":'.repeat(4_500)}1${'}'.repeat(4_500)}}` }]);
    expectRefused(
      await t.request({
        method: 'POST',
        url: '/api/v1/posts',
        headers: { ...deepPart.headers, ...bearer(token) },
        payload: deepPart.payload,
      }),
      400,
      'C0002',
    );
  });

  it('refuses JSON that does not parse, the wrong content type and an oversized body in the ErrorResponse body', async () => {
    expectRefused(
      await raw(`/api/v1/events/${event}/tickets/free`, 'application/json', '{"ticketName":'),
      400,
      'C0002',
    );
    expectRefused(await raw(`/api/v1/events/${event}/tickets/free`, 'text/plain', 'ticketName=x'), 415, 'C0007');
    expectRefused(
      await raw(
        `/api/v1/events/${event}/tickets/free`,
        'application/json',
        JSON.stringify({ ticketName: 'x'.repeat(2_000_000) }),
      ),
      413,
      'C0006',
    );
    expectRefused(
      await raw(`/api/v1/events/${event}/tickets/free`, 'application/json', '{"__proto__":{"x":1},"ticketName":"x"}'),
      400,
      'C0002',
    );
  });

  it('refuses multipart with no boundary, or with no closing boundary, with 400 C0002', async () => {
    expectRefused(
      await raw(
        '/api/v1/posts',
        'multipart/form-data',
        '--x\r\nContent-Disposition: form-data; name="request"\r\n\r\n{"text":"a"}\r\n--x--\r\n',
      ),
      400,
      'C0002',
    );
    const unclosed = '--b0undary\r\nContent-Disposition: form-data; name="request"\r\n\r\n{"text":"unclosed"}\r\n';
    expectRefused(await raw('/api/v1/posts', 'multipart/form-data; boundary=b0undary', unclosed), 400, 'C0002');
    const badHeader =
      '--b0undary\r\nContent-Disposition form-data name=request\r\n\r\n{"text":"x"}\r\n--b0undary--\r\n';
    const res = await raw('/api/v1/posts', 'multipart/form-data; boundary=b0undary', badHeader);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('C0002');
  });
});
