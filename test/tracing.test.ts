/**
 * OpenTelemetry traces from the real server (docs/deployment.md, "Traces"), read by an OTLP/HTTP receiver of the
 * test's own: a job search is one trace from the HTTP request through Fastify's route to the search in the index (and
 * on PostgreSQL its statements, and Redis's commands); a post written is one trace that goes on to its webhook
 * delivery, the POST to the receiver under it. With no endpoint configured, nothing is sent.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { generateDemoData, type DemoManifest } from '../src/demo/demo-generator.js';
import { keyEncryptionKey } from '../src/modules/oauth/signing-keys.js';
import { WebhookEndpoints } from '../src/modules/webhooks/webhook-endpoints.js';
import { freePort } from '../support/free-port.js';
import { jsonPart, multipart } from './helpers/multipart.js';
import { scratchStorage, type ScratchStorage } from './helpers/scratch-storage.js';
import { serverProcess } from './helpers/server-process.js';
import { testConfig, type TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';
import { accessToken } from './helpers/tokens.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';
import { Browser, fetchSend, hiddenField } from './helpers/oauth-browser.js';
import { linkIn, startSmtpInbox, type SmtpInbox } from './helpers/smtp-inbox.js';
import { realWait } from './helpers/real-time.js';

const SECRET = 'tracing-test-signing-secret-0123456789abcdef';

interface Span {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: { key: string; value: Record<string, unknown> }[];
}

/** An OTLP/HTTP receiver (JSON): every span it was sent. */
async function otlpReceiver() {
  const spans: Span[] = [];
  let posts = 0;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      posts++;
      if (request.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          resourceSpans: { scopeSpans: { spans: Span[] }[] }[];
        };
        for (const resource of body.resourceSpans) for (const scope of resource.scopeSpans) spans.push(...scope.spans);
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    get posts() {
      return posts;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe.each(ENGINES)('traces from the real server on %s', (engine) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-tracing-'));
  let store: ScratchStorage;
  let demo: DemoManifest;
  let token = '';
  let base = '';
  let port = 0;
  let receiver: Receiver;
  let otlp: Awaited<ReturnType<typeof otlpReceiver>>;
  let inbox: SmtpInbox;
  let tracing = true;
  const server = serverProcess(
    () => base,
    () => ({
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      DATABASE_URL: store.url,
      LOG_LEVEL: 'silent',
      PUBLIC_BASE_URL: base,
      SIGNING_KEY_SECRET: SECRET,
      INSTANCE_NAME: 'tracing',
      WEBHOOKS_ALLOW_LOOPBACK: 'true',
      SMTP_URL: inbox.url,
      MAIL_FROM: 'console@svc.example',
      REDIS_URL: engine === 'postgres' ? (process.env.TEST_REDIS_URL ?? '') : '',
      ...(tracing
        ? {
            OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
            OTEL_SERVICE_NAME: 'svc-tracing-test',
            OTEL_BSP_SCHEDULE_DELAY: '100',
          }
        : {}),
    }),
  );

  beforeAll(async () => {
    receiver = await startReceiver();
    otlp = await otlpReceiver();
    inbox = await startSmtpInbox();
    store = await scratchStorage(engine, dir, 'tracing');
    port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const database = store.open();
    await migrateToLatest(database);
    demo = await generateDemoData(database, { now: Date.now(), posts: 20, jobs: 20, events: 2 });
    const app = await buildApp({
      config: testConfig({ PUBLIC_BASE_URL: base, SIGNING_KEY_SECRET: SECRET, DATA_DIR: dir }),
      database,
      logger: false,
    });
    token = await accessToken({ app, demo } as TestContext, 'post:write');
    await app.close();
    const endpoints = new WebhookEndpoints(database.db, keyEncryptionKey(SECRET, dir), 10);
    const { id: appId } = await database.db.selectFrom('apps').select('id').orderBy('id').executeTakeFirstOrThrow();
    await endpoints.create(appId, receiver.url('/traced'), ['post.created'], Date.now());
    await database.close();
    await server.start();
  }, 120_000);

  afterAll(async () => {
    if (server.running) await server.kill();
    await receiver?.close();
    await otlp?.close();
    await inbox?.close();
    await store?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  const trace = (traceId: string) => otlp.spans.filter((span) => span.traceId === traceId);
  const attribute = (span: Span, key: string) => span.attributes.find((a) => a.key === key)?.value;

  it('sends a job search as one trace: the request, its route, the search in the index, and the database under it', async () => {
    const res = await fetch(`${base}/api/v1/jobs?keyword=backend&pageSize=5`, {
      headers: { 'x-svc-api-key': demo.apiKey },
    });
    expect(res.status).toBe(200);
    await expect
      .poll(() => otlp.spans.some((s) => s.name === 'search index'), { timeout: 15_000, interval: 100 })
      .toBe(true);
    const search = otlp.spans.find((s) => s.name === 'search index')!;
    expect(attribute(search, 'svc.index')).toEqual({ stringValue: 'jobs' });
    // The search's span ends before the request's, so the request's may come in a later batch.
    await expect
      .poll(() => trace(search.traceId).some((s) => !s.parentSpanId), { timeout: 15_000, interval: 100 })
      .toBe(true);
    const spans = trace(search.traceId);
    const root = spans.find((s) => !s.parentSpanId)!;
    expect(root.name).toMatch(/^GET/);
    expect(attribute(root, 'http.route') ?? attribute(root, 'url.path')).toBeDefined();
    // Fastify's route span sits between the request and the handler's work.
    expect(spans.some((s) => /^(?:request|handler)/.test(s.name) || s.name.includes('/api/v1/jobs'))).toBe(true);
    if (engine === 'postgres') {
      expect(
        spans.some(
          (s) =>
            attribute(s, 'db.system')?.stringValue === 'postgresql' ||
            attribute(s, 'db.system.name')?.stringValue === 'postgresql',
        ),
      ).toBe(true);
      expect(
        spans.some(
          (s) =>
            attribute(s, 'db.system')?.stringValue === 'redis' ||
            attribute(s, 'db.system.name')?.stringValue === 'redis',
        ),
      ).toBe(true);
    }
    // Probes are not traced.
    await fetch(`${base}/readyz`);
    await realWait(400, 'quiet');
    expect(
      otlp.spans.some(
        (s) =>
          attribute(s, 'url.path')?.stringValue === '/readyz' || attribute(s, 'http.target')?.stringValue === '/readyz',
      ),
    ).toBe(false);
  }, 60_000);

  it('sends a post written and its webhook delivery as one trace, the POST to the receiver under the delivery', async () => {
    const body = multipart([jsonPart({ text: 'traced from the write to the delivery' })]);
    const res = await fetch(`${base}/api/v1/posts`, {
      method: 'POST',
      headers: { ...body.headers, authorization: `Bearer ${token}` },
      body: body.payload,
    });
    expect(res.status).toBe(201);
    await expect
      .poll(() => receiver.received.filter((r) => r.path === '/traced').length, { timeout: 20_000, interval: 100 })
      .toBeGreaterThan(0);
    // The write's trace: its HTTP span, then the delivery of its change under the handler, and the POST under that.
    await expect
      .poll(() => otlp.spans.some((s) => s.name === 'POST /api/v1/posts' && !s.parentSpanId), {
        timeout: 15_000,
        interval: 100,
      })
      .toBe(true);
    const write = otlp.spans.find((s) => s.name === 'POST /api/v1/posts' && !s.parentSpanId)!;
    await expect
      .poll(() => trace(write.traceId).some((s) => s.name === 'webhook delivery'), { timeout: 15_000, interval: 100 })
      .toBe(true);
    const delivery = trace(write.traceId).find((s) => s.name === 'webhook delivery')!;
    expect(attribute(delivery, 'svc.change_id')?.stringValue).toMatch(/^evt_/);
    await expect
      .poll(() => trace(write.traceId).some((s) => s.parentSpanId === delivery.spanId && /^POST/.test(s.name)), {
        timeout: 10_000,
        interval: 100,
      })
      .toBe(true);
    const sent = trace(write.traceId).find((s) => s.parentSpanId === delivery.spanId)!;
    expect(JSON.stringify(sent.attributes)).toContain('/traced');
  }, 60_000);

  it('sends no secret of a query string: a reset link followed and used, an OAuth state, a key', async () => {
    const browser = new Browser(fetchSend(base));
    const forgot = await browser.request('GET', '/console/forgot-password');
    await browser.request('POST', '/console/forgot-password', {
      csrf_token: hiddenField(forgot.body, 'csrf_token'),
      email: demo.user.email,
    });
    await expect.poll(() => inbox.to(demo.user.email).length, { timeout: 15_000, interval: 50 }).toBe(1);
    const link = linkIn(inbox.to(demo.user.email)[0]!, `${base}/console/reset-password?token=`);
    const resetToken = new URL(link).searchParams.get('token')!;
    const form = await browser.request('GET', link.slice(base.length));
    expect(form.status).toBe(200);
    const done = await browser.request('POST', '/console/reset-password', {
      csrf_token: hiddenField(form.body, 'csrf_token'),
      token: hiddenField(form.body, 'token'),
      password: 'a traced but secret passphrase 7',
    });
    expect(done.status).toBe(303);
    const state = 'state-secret-in-a-span';
    await fetch(`${base}/oauth/authorize?client_id=${demo.client.clientId}&state=${state}&api_key=key-in-a-span`, {
      redirect: 'manual',
    });
    await fetch(`${base}/api/v1/jobs?keyword=otter`, { headers: { 'x-svc-api-key': demo.apiKey } });
    // Every request above is in the receiver once the search's keyword is: the spans of one batch, or of earlier ones.
    await expect
      .poll(() => otlp.spans.some((s) => JSON.stringify(s).includes('keyword=otter')), {
        timeout: 15_000,
        interval: 100,
      })
      .toBe(true);
    await expect
      .poll(() => otlp.spans.some((s) => JSON.stringify(s).includes('state=[redacted]')), {
        timeout: 15_000,
        interval: 100,
      })
      .toBe(true);
    const sent = JSON.stringify(otlp.spans);
    expect(sent).toContain('/console/reset-password?token=[redacted]');
    for (const secret of [resetToken, state, 'key-in-a-span', 'a traced but secret passphrase 7'])
      expect(sent.includes(secret), secret).toBe(false);
  }, 60_000);

  it('sends nothing when no OTLP endpoint is configured', async () => {
    await server.kill();
    tracing = false;
    await server.start();
    const before = otlp.posts;
    expect(
      (await fetch(`${base}/api/v1/jobs?keyword=backend`, { headers: { 'x-svc-api-key': demo.apiKey } })).status,
    ).toBe(200);
    // Four times the batch delay the traced server used.
    await realWait(400, 'quiet');
    expect(otlp.posts).toBe(before);
  }, 60_000);
});
