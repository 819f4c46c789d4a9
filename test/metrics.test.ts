import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';

/** The value of one series in Prometheus' text format, or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe.each(ENGINES)('/metrics on %s', (engine) => {
  let t: TestContext | undefined;
  afterEach(async () => { await t?.close(); t = undefined; });

  it('is not served unless the settings turn it on', async () => {
    t = await createTestApp(engine, { seed: false });
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
  });

  it('counts requests by route pattern and status with their latency, rate-limit refusals, pools, search indexes and the process', async () => {
    t = await createTestApp(engine, { config: { METRICS: 'on', RATE_LIMIT_GLOBAL_PER_MINUTE: '4' } });
    const key = { 'x-svc-api-key': t.demo.apiKey };
    for (const url of ['/api/v1/posts/1', '/api/v1/posts/2', '/api/v1/posts?keyword=%EA%B0%9C%EB%B0%9C']) {
      expect((await t.app.inject({ method: 'GET', url, headers: key })).statusCode).toBe(200);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/posts/999999', headers: key })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/posts/3', headers: key })).statusCode).toBe(429);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/posts/4', headers: key })).statusCode).toBe(429);

    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    const text = res.body;
    // Ids never become labels: both details count under the route's pattern.
    expect(sample(text, 'http_requests_total{method="GET",route="/api/v1/posts/:postId",status="200"}')).toBe(2);
    expect(sample(text, 'http_requests_total{method="GET",route="/api/v1/posts/:postId",status="404"}')).toBe(1);
    expect(sample(text, 'http_requests_total{method="GET",route="/api/v1/posts",status="200"}')).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_count{method="GET",route="/api/v1/posts/:postId",status_class="2xx"}')).toBe(2);
    expect(sample(text, 'rate_limit_refusals_total{scope="global"}')).toBe(2);
    expect(text).not.toMatch(/route="[^"]*999999/);
    expect(sample(text, 'search_index_items{index="posts"}')).toBe(t.demo.posts.total);
    expect(sample(text, 'search_index_bytes{index="jobs"}')).toBeGreaterThan(0);
    expect(text).toMatch(/^db_pool_waiting\{pool="[a-z-]+"\} 0$/m);
    expect(text).toMatch(/^svc_build_info\{version="\d+\.\d+\.\d+"\} 1$/m);
    for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes']) {
      expect(text, name).toMatch(new RegExp(`^${name} `, 'm'));
    }
  });

  it('answers only the Bearer METRICS_TOKEN when one is set, in the ErrorResponse body otherwise', async () => {
    const token = 'metrics-token-0123456789abcdef';
    t = await createTestApp(engine, { seed: false, config: { METRICS: 'on', METRICS_TOKEN: token } });
    for (const authorization of [undefined, 'Bearer wrong', `Bearer ${token}x`, token]) {
      const refused = await t.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(refused.statusCode, String(authorization)).toBe(401);
      expect(refused.json()).toMatchObject({ code: 'C0003' });
      expect(refused.body).not.toContain(token);
    }
    const allowed = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${token}` } });
    expect(allowed.statusCode).toBe(200);
    expect(allowed.body).toContain('http_requests_total');
  });
});
