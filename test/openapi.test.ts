import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './helpers/test-app.js';

describe('OpenAPI document', () => {
  let t: TestContext;
  let doc: Record<string, any>;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { seed: false });
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    doc = res.json();
  });
  afterAll(async () => { await t?.close(); });

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0 beta');
  });

  it('declares the security schemes and the shared ErrorResponse', () => {
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-SVC-API-Key' });
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(Object.keys(doc.components.schemas.ErrorResponse.properties).sort()).toEqual(['code', 'details', 'message', 'timestamp']);
  });

  it('documents every public operation with its security, 401, 429 and 500 errors, and the ErrorResponse', () => {
    const operations = Object.entries(doc.paths as Record<string, Record<string, any>>)
      .filter(([path]) => path.startsWith('/api/v1/'))
      .flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })));
    expect(operations.map((o) => `${o.method.toUpperCase()} ${o.path}`)).toEqual(expect.arrayContaining([
      'GET /api/v1/posts', 'GET /api/v1/posts/{postId}', 'GET /api/v1/jobs', 'GET /api/v1/jobs/{jobId}',
      'GET /api/v1/events', 'GET /api/v1/events/{eventId}', 'GET /api/v1/codes/job-categories', 'GET /api/v1/codes/event-subjects',
    ]));
    for (const { path, method, op } of operations) {
      const optionalBearer = path.startsWith('/api/v1/posts') && method === 'get';
      const publicRead = method === 'get' && !path.startsWith('/api/v1/me') && !path.endsWith('/accessible');
      const expected = optionalBearer ? [{ apiKey: [] }, { apiKey: [], bearer: [] }] : publicRead ? [{ apiKey: [] }] : [{ bearer: [] }];
      expect(op.security, `${method} ${path}`).toEqual(expected);
      expect(Object.keys(op.responses).some((status) => status.startsWith('2')), `${method} ${path}`).toBe(true);
      for (const status of ['401', '429', '500']) expect(op.responses[status], `${method} ${path} ${status}`).toBeDefined();
      expect(JSON.stringify(op.responses['401'])).toContain('#/components/schemas/ErrorResponse');
      expect(op.tags.length).toBe(1);
    }
  });

  it('documents the OAuth endpoints', () => {
    for (const [path, method] of [['/oauth/authorize', 'get'], ['/oauth/token', 'post'], ['/oauth/revoke', 'post'], ['/oauth/userinfo', 'get'],
      ['/oauth/jwks', 'get'], ['/.well-known/oauth-authorization-server', 'get']] as const) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
    expect(doc.paths['/oauth/token'].post.requestBody.content['application/x-www-form-urlencoded']).toBeDefined();
    expect(doc.paths['/oauth/userinfo'].get.security).toEqual([{ bearer: [] }]);
  });

  it('documents the writes with request examples, multipart included, and the Idempotency-Key header', () => {
    const multipartOps = [['/api/v1/posts', 'post'], ['/api/v1/posts/{postId}', 'put'], ['/api/v1/jobs/platform', 'post'],
      ['/api/v1/jobs/{jobId}', 'patch'], ['/api/v1/events', 'post'], ['/api/v1/events/{eventId}', 'patch']] as const;
    for (const [path, method] of multipartOps) {
      const body = doc.paths[path][method].requestBody.content['multipart/form-data'].schema;
      expect(body.properties.request.examples?.length, `${method} ${path}`).toBeGreaterThan(0);
    }
    expect(doc.paths['/api/v1/posts'].post.requestBody.content['multipart/form-data'].schema.properties.images.items.format).toBe('binary');
    const jsonExamples = (path: string, method: string) => {
      const media = doc.paths[path][method].requestBody.content['application/json'];
      return Object.keys(media.examples ?? {}).length + (media.example ? 1 : 0) + (media.schema.examples?.length ?? 0);
    };
    expect(jsonExamples('/api/v1/jobs/{jobId}/active', 'put')).toBeGreaterThan(0);
    expect(jsonExamples('/api/v1/events/{eventId}/tickets/free', 'post')).toBeGreaterThan(0);
    for (const path of ['/api/v1/posts', '/api/v1/jobs/platform', '/api/v1/events', '/api/v1/events/{eventId}/tickets/free']) {
      const names = doc.paths[path].post.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`);
      expect(names, path).toContain('header:idempotency-key');
    }
  });

  it('documents query parameters with their rules', () => {
    const params = doc.paths['/api/v1/jobs'].get.parameters as Array<Record<string, any>>;
    const schemaOf = (name: string) => params.find((p) => p.name === name)?.schema;
    expect(schemaOf('keyword').maxLength).toBe(100);
    expect(schemaOf('companyId').pattern).toBe('^[A-Za-z0-9_-]*$');
    expect(schemaOf('seniorities').items.enum).toEqual(['BEGINNER', 'JUNIOR', 'MIDLEVEL', 'SENIOR', 'EXECUTIVE']);
    expect(schemaOf('pageSize')).toMatchObject({ minimum: 1, maximum: 50, default: 20 });
  });

  it('serves an interactive reference at /docs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
  });
});
