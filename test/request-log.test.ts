import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleForms } from './helpers/console-forms.js';
import { startListeningApp, type ListeningApp } from './helpers/listening-app.js';
import { ENGINES } from './helpers/test-database.js';
import { accessToken, bearer, createUser } from './helpers/tokens.js';
import type { TestContext } from './helpers/test-app.js';

/** The rows of the request log's table: when, operation, status, code, ms, request id. */
function rows(html: string): string[][] {
  const body = /<table class="requests">[^]*?<tbody>([^]*?)<\/tbody>/.exec(html)?.[1] ?? '';
  return [...body.matchAll(/<tr>([^]*?)<\/tr>/g)].map((row) =>
    [...row[1]!.matchAll(/<td>(?:<code>)?([^<]*)(?:<\/code>)?<\/td>/g)].map((cell) => cell[1]!),
  );
}

describe.each(ENGINES)("the console's request log on %s", (engine) => {
  let s: ListeningApp;
  let forms: ConsoleForms;
  let app: { appId: number; apiKey: string };

  beforeAll(async () => {
    s = await startListeningApp(engine, { REQUEST_LOG_PER_APP: '12' });
    forms = new ConsoleForms(s.base);
    await forms.signIn(s.demo.user);
    app = await forms.createApp('요청 기록 앱');
  });
  afterAll(async () => {
    await s?.close();
  });

  const call = async (path: string, headers: Record<string, string> = { 'x-svc-api-key': app.apiKey }) => {
    const res = await fetch(`${s.base}${path}`, { headers });
    await res.arrayBuffer();
    return { status: res.status, requestId: res.headers.get('x-request-id')! };
  };
  const page = async (query = '') => {
    const res = await forms.browser.request('GET', `/console/apps/${app.appId}/requests${query}`);
    expect(res.status).toBe(200);
    return res.body;
  };

  it("lists the app's latest requests with time, operation, status, error code, latency and request id, and nothing secret", async () => {
    expect(await page()).toContain('아직 기록된 요청이 없습니다.'); // the console speaks Korean without Accept-Language
    const ok = await call('/api/v1/jobs?pageSize=5&keyword=secret-query-value');
    const missing = await call('/api/v1/posts/987654321');
    const invalid = await call('/api/v1/posts?sort=SIDEWAYS');
    const own = await call('/api/v1/jobs', { 'x-svc-api-key': app.apiKey, 'x-request-id': 'builder-trace-42' });
    // Another app's requests are not this app's.
    await call('/api/v1/jobs', { 'x-svc-api-key': s.demo.apiKey });
    await s.app.requestLog.flush();

    const html = await page();
    const shown = rows(html);
    expect(shown.map((r) => r.slice(1, 4))).toEqual([
      ['searchJobs', '200', ''],
      ['searchPosts', '400', 'C0005'],
      ['getPost', '404', 'P0002'],
      ['searchJobs', '200', ''],
    ]);
    expect(shown.map((r) => r[5])).toEqual([own.requestId, invalid.requestId, missing.requestId, ok.requestId]);
    expect(own.requestId).toBe('builder-trace-42');
    for (const row of shown) {
      expect(row[0]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      expect(Number(row[4])).toBeGreaterThan(0); // milliseconds with a tenth: a search takes more than 0.05 ms
    }
    expect(html).not.toContain(app.apiKey);
    expect(html).not.toContain('secret-query-value');
    expect(html).not.toContain('SIDEWAYS');
  });

  it("shows the requests of the app's OAuth tokens too, and filters by status", async () => {
    // A Bearer token of the app's own OAuth client counts for the app.
    const redirectUri = `${s.base}/callback`;
    const client = await forms.createClient(app.appId, redirectUri, ['company:manage:read']);
    const token = await accessToken(
      {
        app: s.app,
        demo: { ...s.demo, client: { ...client, redirectUri, scopes: ['company:manage:read'] } },
      } as TestContext,
      'company:manage:read',
    );
    const withToken = await call('/api/v1/me/company-permissions', bearer(token));
    expect(withToken.status).toBe(200);
    await s.app.requestLog.flush();
    expect(rows(await page())[0]!.slice(1, 3)).toEqual(['getMyCompanyPermissions', '200']);
    expect(rows(await page())[0]![5]).toBe(withToken.requestId);
    expect(await page()).not.toContain(token);

    const errors = rows(await page('?status=errors'));
    expect(errors.map((r) => r[2])).toEqual(['400', '404']);
    expect(rows(await page('?status=4xx')).map((r) => r[2])).toEqual(['400', '404']);
    expect(rows(await page('?status=2xx')).map((r) => r[2])).toEqual(['200', '200', '200']);
    expect(await page('?status=5xx')).toContain('이 조건에 맞는 요청이 없습니다.');
    // An unknown filter shows everything.
    expect(rows(await page('?status=teapot'))).toHaveLength(5);
  });

  it("keeps each app's latest REQUEST_LOG_PER_APP requests and no more", async () => {
    for (let i = 0; i < 20; i++) await call(`/api/v1/posts/${900_000 + i}`);
    await s.app.requestLog.flush();
    const kept = await s.db.database.db
      .selectFrom('app_requests')
      .select('id')
      .where('app_id', '=', app.appId)
      .execute();
    expect(kept).toHaveLength(12);
    const shown = rows(await page());
    expect(shown).toHaveLength(12);
    expect(shown.every((r) => r[1] === 'getPost' && r[3] === 'P0002')).toBe(true);
    expect(await page()).toContain('앱마다 최근 12건을 보관');
  });

  it("is the owner's alone", async () => {
    const other = await createUser({ db: s.db, clock: { now: Date.now() } } as unknown as TestContext, 'log-stranger');
    const stranger = new ConsoleForms(s.base);
    await stranger.signIn(other);
    expect((await stranger.browser.request('GET', `/console/apps/${app.appId}/requests`)).status).toBe(404);
  });

  it("lists the MCP endpoint's tools on the app's page, and logs a tool call under its API operation", async () => {
    const appPage = (await forms.browser.request('GET', `/console/apps/${app.appId}`)).body;
    expect(appPage).toContain(`<code>${s.base}/mcp</code>`);
    for (const name of ['search_posts', 'list_changes', 'get_me', 'create_post'])
      expect(appPage).toContain(`<code>${name}</code>`);
    expect(appPage).toMatch(/<code>create_post<\/code><\/td><td>[^<]+<\/td><td>[^<]*post:write<\/td>/);
    const call = await fetch(`${s.base}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'x-svc-api-key': app.apiKey,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'list_codes', arguments: { catalog: 'work-types' } },
      }),
    });
    expect(call.status).toBe(200);
    await s.app.requestLog.flush();
    expect(rows(await page())[0]).toEqual([
      expect.any(String),
      'getWorkTypes',
      '200',
      '',
      expect.any(String),
      expect.any(String),
    ]);
  });
});
