import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/test-database.js';
import { createTestApp, type TestContext } from './helpers/test-app.js';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/;

describe.each(ENGINES)('errors and request handling on %s', (engine) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp(engine);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers an unknown route with 404 C0008 in the ErrorResponse body', async () => {
    const res = await t.get('/api/v1/nothing-here');
    expect(res.statusCode).toBe(404);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['code', 'details', 'message', 'timestamp']);
    expect(body).toMatchObject({ code: 'C0008', details: 'path' });
    expect(body.timestamp).toMatch(TIMESTAMP);
    expect(body.message).toContain('/api/v1/nothing-here');
  });

  it('answers a wrong method on an existing path with 405 C0012 and Allow', async () => {
    const res = await t.request({
      method: 'PUT',
      url: '/api/v1/codes/seniorities',
      headers: { 'x-svc-api-key': t.demo.apiKey },
    });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET');
    expect(res.json()).toMatchObject({ code: 'C0012' });
  });

  it('answers paths the router refuses (a malformed escape, an over-long parameter) in the ErrorResponse body', async () => {
    const bad = await t.get('/api/v1/posts/%zz');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'C0002', details: 'path' });
    expect(Object.keys(bad.json()).sort()).toEqual(['code', 'details', 'message', 'timestamp']);
    const huge = await t.get(`/api/v1/posts/${'1'.repeat(600)}`);
    expect(huge.statusCode).toBe(400);
    expect(huge.json()).toMatchObject({ code: 'C0002' });
    expect(huge.body).not.toContain('FST_ERR');
  });

  it('takes a company handle of 255 characters in a path, as the spec allows', async () => {
    const handle = 'a'.repeat(255);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/companies/${handle}/jobs/accessible`,
      headers: { 'x-svc-api-key': t.demo.apiKey },
    });
    expect(res.body).not.toContain('FST_ERR');
    expect(res.json()).toHaveProperty('code');
    expect(res.statusCode).not.toBe(414);
  });

  it('uses the clock for the error timestamp, UTC without zone', async () => {
    t.clock.now = Date.parse('2026-11-21T04:40:00.123Z');
    const res = await t.get('/api/v1/posts/0');
    expect(res.json().timestamp).toBe('2026-11-21T04:40:00.123');
  });

  it('echoes a plain request id, and replaces one that could forge log lines', async () => {
    const kept = await t.get('/api/v1/codes/seniorities', { 'x-request-id': 'client-abc.123' });
    expect(kept.headers['x-request-id']).toBe('client-abc.123');
    const replaced = await t.get('/api/v1/codes/seniorities', { 'x-request-id': 'evil\nline' });
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('serves /healthz and /readyz', async () => {
    expect((await t.request({ method: 'GET', url: '/healthz' })).json()).toEqual({
      status: 'ok',
      version: JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version,
      commit: expect.stringMatching(/^(?:[0-9a-f]{12}|unknown)$/),
    });
    expect((await t.request({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ready' });
  });
});

describe('server errors', () => {
  it('answer 500 C9999 with a generic message that leaks no SQL, and readiness fails', async () => {
    const t = await createTestApp('sqlite');
    try {
      await t.db.database.close();
      const res = await t.get('/api/v1/posts?keyword=x');
      expect(res.statusCode).toBe(500);
      const body = res.json();
      expect(body).toMatchObject({ code: 'C9999', details: null });
      expect(body.message).not.toMatch(/select|sqlite|database|from/i);
      expect(res.body).not.toMatch(/at .*\.ts:\d+/);
      const ready = await t.request({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
    } finally {
      await t.app.close();
      await t.db.drop();
    }
  });
});
