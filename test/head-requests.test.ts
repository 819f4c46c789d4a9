import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './helpers/test-app.js';

interface OpenApi {
  paths: Record<string, Record<string, unknown>>;
}

/**
 * Issue 86 row 11: link checkers, `curl -I` and monitors send HEAD. Every operation that answers GET answers HEAD
 * alike: the same status and headers, no body, counted like the GET (it spends the same limit), never a 500.
 */
describe('HEAD on every GET operation', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A GET path of the document with its parameters filled from the demo data. */
  const filled = (path: string) =>
    path
      .replace('{postId}', String(t.demo.posts.withImages))
      .replace('{jobId}', String(t.demo.jobs.hiring))
      .replace('{eventId}', t.demo.events.first)
      .replace(/\{(companyId|companyPermalink)\}/, t.demo.companyId);

  it('answers each with the GET status and headers and no body, the listed ones 200, and spends the same limit', async () => {
    const document = (await t.get('/openapi.json')).json<OpenApi>();
    const paths = Object.entries(document.paths)
      .filter(
        ([path, operations]) =>
          'get' in operations && !/\{(?!postId|jobId|eventId|companyId|companyPermalink)/.test(path),
      )
      .map(([path]) => filled(path));
    const urls = [
      ...paths,
      '/api/v1/posts?keyword=개발',
      '/api/v1/jobs/suggestions?prefix=a',
      '/v1/jobs',
      `/v1/posts/${t.demo.posts.withImages}`,
    ];
    expect(urls.length).toBeGreaterThan(10);
    const key = { 'x-svc-api-key': t.demo.apiKey };
    for (const url of urls) {
      const get = await t.app.inject({ method: 'GET', url, headers: key });
      const head = await t.app.inject({ method: 'HEAD', url, headers: key });
      expect(head.statusCode, `HEAD ${url}: ${head.body}`).toBe(get.statusCode);
      expect(head.statusCode, url).toBeLessThan(500);
      expect(head.body, url).toBe('');
      expect(head.headers['content-type'], url).toBe(get.headers['content-type']);
    }
    for (const url of ['/api/v1/posts', '/api/v1/jobs', `/api/v1/posts/${t.demo.posts.withImages}`, '/v1/jobs']) {
      const head = await t.app.inject({ method: 'HEAD', url, headers: key });
      expect(head.statusCode, url).toBe(200);
      // Counted like the GET: the global limit's remaining calls went down by one.
      const before = Number(head.headers['x-svc-ratelimit-remaining']);
      const next = await t.app.inject({ method: 'HEAD', url, headers: key });
      expect(Number(next.headers['x-svc-ratelimit-remaining']), url).toBe(before - 1);
    }
  });
});
