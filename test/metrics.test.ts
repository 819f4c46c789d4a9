import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './helpers/test-app.js';
import { ConsoleForms } from './helpers/console-forms.js';
import { jsonPart, multipart } from './helpers/multipart.js';
import { injectSend } from './helpers/oauth-browser.js';
import { ENGINES } from './helpers/test-database.js';
import { accessToken, bearer } from './helpers/tokens.js';
import { startReceiver } from '../support/webhook-receiver.js';

/** The value of one series in Prometheus' text format, or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe.each(ENGINES)('/metrics on %s', (engine) => {
  let t: TestContext | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

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
    expect(
      sample(
        text,
        'http_request_duration_seconds_count{method="GET",route="/api/v1/posts/:postId",status_class="2xx"}',
      ),
    ).toBe(2);
    expect(sample(text, 'rate_limit_refusals_total{scope="global"}')).toBe(2);
    expect(text).not.toMatch(/route="[^"]*999999/);
    expect(sample(text, 'search_index_items{index="posts"}')).toBe(t.demo.posts.total);
    expect(sample(text, 'search_index_bytes{index="jobs"}')).toBeGreaterThan(0);
    expect(sample(text, 'search_index_failing_reads{index="posts"}')).toBe(0);
    expect(sample(text, 'search_index_items_mended{index="jobs"}')).toBe(0);
    expect(text).toMatch(/^db_pool_waiting\{pool="[a-z-]+"\} 0$/m);
    expect(text).toMatch(
      /^svc_build_info\{version="\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?",commit="(?:[0-9a-f]{12}|unknown)"\} 1$/m,
    );
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect(text, name).toMatch(new RegExp(`^${name} `, 'm'));
    }
  });

  it('answers only the Bearer METRICS_TOKEN when one is set, in the ErrorResponse body otherwise', async () => {
    const token = 'metrics-token-0123456789abcdef';
    t = await createTestApp(engine, { seed: false, config: { METRICS: 'on', METRICS_TOKEN: token } });
    for (const authorization of [undefined, 'Bearer wrong', `Bearer ${token}x`, token]) {
      const refused = await t.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      expect(refused.statusCode, String(authorization)).toBe(401);
      expect(refused.json()).toMatchObject({ code: 'C0003' });
      expect(refused.body).not.toContain(token);
    }
    const allowed = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(allowed.statusCode).toBe(200);
    expect(allowed.body).toContain('http_requests_total');
  });

  it("counts webhook attempts by outcome with their latency, and shows the backlog, the endpoints by state and the feed's lag", async () => {
    t = await createTestApp(engine, { config: { METRICS: 'on', WEBHOOKS_ALLOW_LOOPBACK: 'true' } });
    const receiver = await startReceiver();
    try {
      const forms = new ConsoleForms(injectSend(t.app));
      await forms.signIn(t.demo.user);
      const { appId } = await forms.createApp('지표');
      await forms.createEndpoint(appId, receiver.url('/failing'));
      const off = await forms.createEndpoint(appId, receiver.url('/off'));
      await t.app.webhooks.settle();
      expect(
        (await forms.post(`/console/apps/${appId}/webhooks/${off.endpointId}/disable`, { confirm: 'yes' })).status,
      ).toBe(200);
      receiver.answer(() => ({ status: 500 }));
      const body = multipart([jsonPart({ text: '지표에 보이는 배달' })]);
      expect(
        (
          await t.request({
            method: 'POST',
            url: '/api/v1/posts',
            headers: { ...body.headers, ...bearer(await accessToken(t, 'post:write')) },
            payload: body.payload,
          })
        ).statusCode,
      ).toBe(201);
      await t.app.webhooks.settle();

      const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
      // The two pings answered 204, the post's change answered 500 (its retry waits).
      expect(sample(text, 'webhook_attempts_total{outcome="delivered"}')).toBe(2);
      expect(sample(text, 'webhook_attempts_total{outcome="refused"}')).toBe(1);
      expect(sample(text, 'webhook_attempt_duration_seconds_count{outcome="refused"}')).toBe(1);
      expect(sample(text, 'webhook_backlog{state="retrying"}')).toBe(1);
      expect(sample(text, 'webhook_backlog{state="due"}')).toBe(0);
      expect(sample(text, 'webhook_backlog_oldest_due_seconds')).toBe(0);
      expect(sample(text, 'webhook_endpoints{state="failing"}')).toBe(1);
      expect(sample(text, 'webhook_endpoints{state="disabled"}')).toBe(1);
      expect(sample(text, 'webhook_endpoints{state="active"}')).toBe(0);
      expect(sample(text, 'change_feed_completion_lag_seconds')).toBe(0);
    } finally {
      await receiver.close();
    }
  });
});
