import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../src/app.js';
import { loggerOptions } from '../src/shared/log-options.js';
import { createTestApp, type TestContext } from './helpers/test-app.js';
import { accessToken } from './helpers/tokens.js';

/** Everything the service logs at the most verbose level, while credentials of every kind pass through it. */
describe('logs', () => {
  let t: TestContext;
  let app: App;
  let logged = '';
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    const stream = new Writable({
      write(chunk, _encoding, done) {
        logged += String(chunk);
        done();
      },
    });
    app = await buildApp({
      config: t.config,
      database: t.db.database,
      clock: () => t.clock.now,
      logger: { ...loggerOptions('trace'), stream },
    });
  });
  afterAll(async () => {
    await app?.close();
    await t?.close();
  });

  it('name their level and write their time in ISO 8601 UTC, one JSON object a line', async () => {
    const before = logged.length;
    await app.inject({ method: 'GET', url: '/healthz' });
    const lines = logged
      .slice(before)
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { level: unknown; time: unknown; msg?: string });
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(['trace', 'debug', 'info', 'warn', 'error', 'fatal']).toContain(line.level);
      expect(line.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    }
  });

  it('never carry a key, token, secret, password or cookie', async () => {
    const token = await accessToken({ ...t, app } as TestContext, 'post:write profile');
    await app.inject({
      method: 'GET',
      url: '/api/v1/posts?keyword=x',
      headers: { 'x-svc-api-key': t.demo.apiKey, authorization: `Bearer ${token}` },
    });
    await app.inject({ method: 'GET', url: '/api/v1/posts/1', headers: { 'x-svc-api-key': `${t.demo.apiKey}-wrong` } });
    // The real service's header names, on its `/v1` paths: a key in each, and two that disagree.
    await app.inject({
      method: 'GET',
      url: '/v1/jobs?keyword=x',
      headers: { 'x-rp-api-key': `${t.demo.apiKey}-rp-wrong` },
    });
    await app.inject({
      method: 'GET',
      url: '/v1/jobs?keyword=y',
      headers: { 'x-oba-api-key': t.demo.apiKey, 'x-svc-api-key': `${t.demo.apiKey}-svc-other` },
    });
    await app.inject({
      method: 'GET',
      url: '/oauth/userinfo',
      headers: { authorization: `Bearer ${token}x`, cookie: 'svc_session=cookie-secret-value' },
    });
    await app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: 'refresh-secret-value',
        client_id: t.demo.client.clientId,
        client_secret: t.demo.client.clientSecret,
      }).toString(),
    });
    await app.inject({
      method: 'POST',
      url: '/oauth/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ email: t.demo.user.email, password: 'password-guess-value' }).toString(),
    });
    await app.inject({
      method: 'GET',
      url: '/api/v1/posts?keyword=x&code=code-secret-value&refresh_token=refresh-in-url-value',
      headers: { 'x-svc-api-key': t.demo.apiKey },
    });
    // A reset link, an OAuth state and a key in the query, as a page or a careless client sends them.
    await app.inject({ method: 'GET', url: '/console/reset-password?token=reset-link-secret-value' });
    await app.inject({
      method: 'GET',
      url: '/oauth/authorize?client_id=x&state=state-secret-value&api_key=key-in-query-value&other%5Ftoken=encoded-name-value',
    });
    // An agent's calls: a public tool with the key, a user's tool with a token for the MCP endpoint (run inside with a secret header).
    const agentToken = await accessToken(
      { ...t, app } as TestContext,
      'profile',
      t.demo.user,
      `${t.config.publicBaseUrl}/mcp`,
    );
    const mcp = (headers: Record<string, string>, name: string) =>
      app.inject({
        method: 'POST',
        url: '/mcp',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        payload: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name, arguments: { catalog: 'seniorities' } },
        }),
      });
    expect((await mcp({ 'x-svc-api-key': t.demo.apiKey }, 'list_codes')).statusCode).toBe(200);
    expect((await mcp({ authorization: `Bearer ${agentToken}` }, 'get_me')).json()).toMatchObject({
      result: { structuredContent: { sub: expect.any(String) } },
    });
    expect(logged).not.toContain('x-svc-internal-call');
    expect(logged).toContain('code=[redacted]');
    // What is no secret stays readable: a search's keyword.
    expect(logged).toContain('keyword=x');
    expect(logged.length).toBeGreaterThan(1_000);
    for (const secret of [
      agentToken,
      t.demo.apiKey,
      `${t.demo.apiKey}-rp-wrong`,
      `${t.demo.apiKey}-svc-other`,
      token,
      t.demo.client.clientSecret,
      t.demo.user.password,
      'password-guess-value',
      'refresh-secret-value',
      'cookie-secret-value',
      'code-secret-value',
      'refresh-in-url-value',
      'reset-link-secret-value',
      'state-secret-value',
      'key-in-query-value',
      'encoded-name-value',
    ]) {
      expect(logged.includes(secret), `logged: ${secret.slice(0, 12)}…`).toBe(false);
    }
  });

  it('write one line a request with method, path, status, app, error code and duration', () => {
    const lines = logged
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.msg === 'request');
    const ok = lines.find((line) => line.path === '/api/v1/posts?keyword=x')!;
    expect(ok).toMatchObject({
      method: 'GET',
      status: 200,
      app: expect.stringMatching(/^app:\d+$/),
      ms: expect.any(Number),
    });
    const refused = lines.find((line) => line.path === '/api/v1/posts/1')!;
    expect(refused).toMatchObject({ method: 'GET', status: 401, code: 'C0001' });
    expect(refused.app).toBeUndefined();
    expect(lines.filter((line) => line.path === '/api/v1/posts/1')).toHaveLength(1);
    // A `/v1` call is logged with the path the client sent.
    expect(lines.find((line) => line.path === '/v1/jobs?keyword=x')).toMatchObject({ status: 401, code: 'C0001' });
    // Fastify's own two lines a request ("incoming request", "request completed") are off.
    expect(logged).not.toContain('incoming request');
  });
});
