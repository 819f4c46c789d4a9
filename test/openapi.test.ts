import fs from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUPPORTED_SCOPES } from '../src/modules/oauth/scopes.js';
import { KOREAN_OPERATIONS, KOREAN_TAGS } from '../src/openapi/korean.js';
import { createTestApp, type TestContext } from './helpers/test-app.js';

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];
type Operation = Record<string, any>;
const operationsOf = (doc: Record<string, any>) =>
  Object.entries(doc.paths as Record<string, Record<string, Operation>>).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ path, method, op: item[method]! })),
  );

describe('OpenAPI document', () => {
  let t: TestContext;
  let doc: Record<string, any>;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { seed: false });
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    doc = res.json();
  });
  afterAll(async () => {
    await t?.close();
  });
  const schemaAt = (schema: Record<string, any>): Record<string, any> =>
    schema.$ref ? doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')] : schema;

  it('is served with its prose in Korean at /openapi.ko.json: the same contract, every operation and tag in Korean', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/openapi.ko.json' });
    expect(res.statusCode).toBe(200);
    const ko = res.json();
    const hangul = /[\uAC00-\uD7A3]/;
    const withoutProse = (items: Record<string, Record<string, Operation>>) =>
      Object.fromEntries(
        Object.entries(items).map(([path, item]) => [
          path,
          Object.fromEntries(
            Object.entries(item).map(([method, op]) => [method, { ...op, summary: '', description: '' }]),
          ),
        ]),
      );
    const prose = (d: Record<string, any>) => ({
      ...d,
      info: { ...d.info, description: '' },
      tags: d.tags.map((tag: Operation) => tag.name),
      paths: withoutProse(d.paths),
      webhooks: withoutProse(d.webhooks),
    });
    // Everything but the prose is the English document's: paths, parameters, schemas, security, codes.
    expect(prose(ko)).toEqual(prose(doc));
    expect(ko.info.description).toMatch(hangul);
    for (const tag of ko.tags) expect(tag.description, tag.name).toMatch(hangul);
    const all = (d: Record<string, any>) => [...operationsOf(d), ...operationsOf({ paths: d.webhooks })];
    const operations = all(ko);
    for (const { op } of operations) {
      expect(op.summary, op.operationId).toMatch(hangul);
      if (all(doc).find((o) => o.op.operationId === op.operationId)!.op.description)
        expect(op.description, op.operationId).toMatch(hangul);
    }
    // The tables hold exactly the operations and tags the service has: none missing, none left over.
    expect(Object.keys(KOREAN_OPERATIONS).sort()).toEqual(operations.map((o) => o.op.operationId).sort());
    expect(Object.keys(KOREAN_TAGS).sort()).toEqual(doc.tags.map((tag: Operation) => tag.name).sort());
  });

  it('describes every webhook the service sends: its Standard Webhooks headers and the change it carries', async () => {
    const { CHANGE_TYPES } = await import('../src/change-feed/change-log.js');
    expect(Object.keys(doc.webhooks).sort()).toEqual([...CHANGE_TYPES, 'webhook.ping'].sort());
    for (const type of CHANGE_TYPES) {
      const op = doc.webhooks[type].post;
      expect(op.parameters.map((p: Operation) => p.name)).toEqual([
        'webhook-id',
        'webhook-timestamp',
        'webhook-signature',
      ]);
      // The change, as the feed's item of that type; or a console test event with no resource (resource and data null).
      const [change, testWithoutResource] = op.requestBody.content['application/json'].schema.anyOf;
      expect(change.allOf).toEqual([{ $ref: '#/components/schemas/ChangeEvent' }]);
      expect(change.properties.type).toEqual({ const: type });
      expect(testWithoutResource.properties).toMatchObject({
        type: { const: type },
        test: { const: true },
        resource: { type: 'null' },
        data: { type: 'null' },
      });
      expect(doc.components.schemas.ChangeEvent.properties.type.enum).toContain(type);
    }
  });

  it("offers both definitions on /docs, with the script that picks the browser's language", async () => {
    const initializer = await t.app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
    expect(initializer.body).toContain('/openapi.ko.json');
    const page = await t.app.inject({ method: 'GET', url: '/docs/' });
    const script = /src="([^"]*docs-language\.js)"/.exec(page.body)?.[1];
    expect(script).toBeDefined();
    const served = await t.app.inject({ method: 'GET', url: new URL(script!, 'http://x/docs/').pathname });
    expect(served.statusCode).toBe(200);
    expect(served.body).toContain('urls.primaryName');
    // Evaluated as the browser would, the script's language test is a working regular expression.
    expect(served.body).toContain('/^(ko|en)\\b/i');
  });

  it('says what the service does with a zone-less time in postedAfter and postedBefore: UTC, as list items print times', () => {
    const parameters = doc.paths['/api/v1/posts'].get.parameters as Array<{ name: string; description: string }>;
    for (const name of ['postedAfter', 'postedBefore']) {
      const description = parameters.find((p) => p.name === name)!.description;
      expect(description, name).toMatch(/without a zone, UTC/);
      expect(description, name).not.toMatch(/no zone: service time zone/);
    }
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
    // One version everywhere: the release package.json names, as /healthz and /metrics give it.
    expect(doc.info.version).toBe(
      JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version,
    );
  });

  it('declares the security schemes and the shared ErrorResponse', () => {
    expect(doc.components.securitySchemes.apiKey).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-SVC-API-Key',
    });
    const oauth2 = doc.components.securitySchemes.oauth2;
    expect(oauth2.type).toBe('oauth2');
    expect(oauth2.flows.authorizationCode).toMatchObject({
      authorizationUrl: 'https://api.test.example/oauth/authorize',
      tokenUrl: 'https://api.test.example/oauth/token',
    });
    expect(Object.keys(oauth2.flows.authorizationCode.scopes).sort()).toEqual([...SUPPORTED_SCOPES].sort());
    expect(Object.keys(doc.components.schemas.ErrorResponse.properties).sort()).toEqual([
      'code',
      'details',
      'message',
      'timestamp',
    ]);
  });

  it('documents every public operation with its security, 401, 429 and 500 errors, and the ErrorResponse', () => {
    const operations = Object.entries(doc.paths as Record<string, Record<string, any>>)
      .filter(([path]) => path.startsWith('/api/v1/'))
      .flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })));
    expect(operations.map((o) => `${o.method.toUpperCase()} ${o.path}`)).toEqual(
      expect.arrayContaining([
        'GET /api/v1/posts',
        'GET /api/v1/posts/{postId}',
        'GET /api/v1/jobs',
        'GET /api/v1/jobs/{jobId}',
        'GET /api/v1/events',
        'GET /api/v1/events/{eventId}',
        'GET /api/v1/codes/job-categories',
        'GET /api/v1/codes/event-subjects',
      ]),
    );
    for (const { path, method, op } of operations) {
      const optionalBearer = path.startsWith('/api/v1/posts') && method === 'get';
      const publicRead = method === 'get' && !path.startsWith('/api/v1/me') && !path.endsWith('/accessible');
      const scope = op.security[0]?.oauth2?.[0];
      const expected = optionalBearer
        ? [{ apiKey: [] }, { apiKey: [], oauth2: [] }]
        : publicRead
          ? [{ apiKey: [] }]
          : [{ oauth2: [scope] }];
      expect(op.security, `${method} ${path}`).toEqual(expected);
      if (!optionalBearer && !publicRead) expect(SUPPORTED_SCOPES, `${method} ${path}`).toContain(scope);
      expect(
        Object.keys(op.responses).some((status) => status.startsWith('2')),
        `${method} ${path}`,
      ).toBe(true);
      for (const status of ['401', '429', '500'])
        expect(op.responses[status], `${method} ${path} ${status}`).toBeDefined();
      expect(JSON.stringify(op.responses['401'])).toContain('#/components/schemas/ErrorResponse');
      expect(op.tags.length).toBe(1);
    }
  });

  it('documents the OAuth endpoints', () => {
    for (const [path, method] of [
      ['/oauth/authorize', 'get'],
      ['/oauth/token', 'post'],
      ['/oauth/revoke', 'post'],
      ['/oauth/userinfo', 'get'],
      ['/oauth/jwks', 'get'],
      ['/.well-known/oauth-authorization-server', 'get'],
    ] as const) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
    expect(doc.paths['/oauth/token'].post.requestBody.content['application/x-www-form-urlencoded']).toBeDefined();
    expect(doc.paths['/oauth/userinfo'].get.security).toEqual([{ oauth2: ['profile'] }]);
    expect(doc.paths['/oauth/token'].post.security).toEqual([{ clientBasic: [] }, {}]);
  });

  it('documents the writes with request examples, multipart included, and the Idempotency-Key header', () => {
    const multipartOps = [
      ['/api/v1/posts', 'post'],
      ['/api/v1/posts/{postId}', 'put'],
      ['/api/v1/jobs/platform', 'post'],
      ['/api/v1/jobs/{jobId}', 'patch'],
      ['/api/v1/events', 'post'],
      ['/api/v1/events/{eventId}', 'patch'],
    ] as const;
    for (const [path, method] of multipartOps) {
      const body = schemaAt(doc.paths[path][method].requestBody.content['multipart/form-data'].schema);
      expect(schemaAt(body.properties.request).examples?.length, `${method} ${path}`).toBeGreaterThan(0);
    }
    expect(
      schemaAt(doc.paths['/api/v1/posts'].post.requestBody.content['multipart/form-data'].schema).properties.images
        .items.format,
    ).toBe('binary');
    const jsonExamples = (path: string, method: string) => {
      const media = doc.paths[path][method].requestBody.content['application/json'];
      return (
        Object.keys(media.examples ?? {}).length +
        (media.example ? 1 : 0) +
        (schemaAt(media.schema).examples?.length ?? 0)
      );
    };
    expect(jsonExamples('/api/v1/jobs/{jobId}/active', 'put')).toBeGreaterThan(0);
    expect(jsonExamples('/api/v1/events/{eventId}/tickets/free', 'post')).toBeGreaterThan(0);
    for (const path of [
      '/api/v1/posts',
      '/api/v1/jobs/platform',
      '/api/v1/events',
      '/api/v1/events/{eventId}/tickets/free',
    ]) {
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
    expect(schemaOf('employmentTypes').items.enum).toEqual([
      'FULL_TIME',
      'FIXED_TERM',
      'COMMISSIONED',
      'INTERN',
      'FREELANCER',
      'SELF_EMPLOYED',
    ]);
  });

  it("marks the parameters kept under this service's first names deprecated, and only those", () => {
    const deprecated = Object.entries(
      doc.paths as Record<string, Record<string, { parameters?: Array<Record<string, any>> }>>,
    ).flatMap(([path, item]) =>
      Object.entries(item).flatMap(([method, op]) =>
        (op.parameters ?? [])
          .filter((p) => p.deprecated === true)
          .map((p) => `${method.toUpperCase()} ${path} ${p.name}`),
      ),
    );
    expect(deprecated.sort()).toEqual([
      'GET /api/v1/events eventCategories',
      'GET /api/v1/events eventOpenTypes',
      'GET /api/v1/events eventSubjects',
    ]);
  });

  it("names every operation: unique verb-first camelCase ids, the real service's own where it has the operation", () => {
    const reference = JSON.parse(
      fs.readFileSync(new URL('./fixtures/reference-contract.json', import.meta.url), 'utf8'),
    ) as { operations: Record<string, { operationId?: string }> };
    const referenceIds = new Map(
      Object.entries(reference.operations).map(([key, op]) => [
        key.replace(/^(\w+) /, (m) => m.toLowerCase()),
        op.operationId,
      ]),
    );
    expect(referenceIds.size).toBeGreaterThan(40);
    const ids = operationsOf(doc).map(({ path, method, op }) => {
      expect(op.operationId, `${method} ${path}`).toMatch(/^[a-z][A-Za-z0-9]+$/);
      const theirs = referenceIds.get(`${method} ${path}`);
      if (theirs) expect(op.operationId, `${method} ${path}`).toBe(theirs);
      return op.operationId;
    });
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(
      expect.arrayContaining([
        'searchPosts',
        'getPost',
        'createPost',
        'searchJobs',
        'getEventFaqs',
        'getJobCategories',
      ]),
    );
  });

  it('keeps every titled schema as a named component, with request and 2xx bodies named', () => {
    const inlineTitles: string[] = [];
    const walk = (node: unknown, where: string): void => {
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${where}/${i}`));
      if (typeof node !== 'object' || node === null) return;
      const object = node as Record<string, unknown>;
      if (typeof object.title === 'string' && !('$ref' in object)) inlineTitles.push(`${where}: ${object.title}`);
      for (const [key, value] of Object.entries(object))
        if (key !== 'examples' && key !== 'example') walk(value, `${where}/${key}`);
    };
    walk(doc.paths, '#/paths');
    expect(inlineTitles).toEqual([]);
    for (const { path, method, op } of operationsOf(doc)) {
      for (const media of Object.values(op.requestBody?.content ?? {}) as Operation[])
        expect(media.schema.$ref, `${method} ${path} request`).toBeDefined();
      for (const [status, response] of Object.entries(op.responses as Record<string, Operation>)) {
        const json = response.content?.['application/json'];
        if (status.startsWith('2') && json?.schema.type !== 'null' && json)
          expect(json.schema.$ref, `${method} ${path} ${status}`).toBeDefined();
      }
    }
    expect(doc.components.schemas.PostDetail).toBeDefined();
    expect(doc.components.schemas.CreatePostResponse ?? doc.components.schemas.PostWriteResponse).toBeDefined();
  });

  it('makes parameters with a default optional, and documents the headers the service reads and sends', () => {
    for (const { path, method, op } of operationsOf(doc)) {
      for (const param of op.parameters ?? []) {
        if (param.schema?.default !== undefined && param.in !== 'path')
          expect(param.required, `${method} ${path} ${param.name}`).toBe(false);
      }
      const responses = op.responses as Record<string, Operation>;
      for (const [status, response] of Object.entries(responses)) {
        expect(response.headers?.['X-Request-Id'], `${method} ${path} ${status}`).toBeDefined();
        if (status === '429') expect(response.headers['Retry-After'], `${method} ${path} 429`).toBeDefined();
      }
      if (!path.startsWith('/api/v1/')) continue;
      expect(
        op.parameters.some((p: Operation) => p.$ref === '#/components/parameters/AcceptLanguage'),
        `${method} ${path}`,
      ).toBe(true);
      if (method === 'get' && responses['304']) {
        expect(responses['200']!.headers.ETag, `${method} ${path}`).toBeDefined();
        expect(
          op.parameters.some((p: Operation) => p.$ref === '#/components/parameters/IfNoneMatch'),
          `${method} ${path}`,
        ).toBe(true);
      }
      if (responses['201']) expect(responses['201'].headers.Location, `${method} ${path}`).toBeDefined();
    }
    const page = doc.paths['/api/v1/posts'].get.parameters.find((p: Operation) => p.name === 'page');
    expect(page).toMatchObject({ required: false, schema: { default: 1 } });
  });

  it('has security on every operation, tag descriptions, a license, and an example per 2xx JSON response that its schema accepts', () => {
    const ajv = new Ajv({ strict: false, validateSchema: false });
    addFormatsModule.default(ajv);
    ajv.addSchema(doc, 'openapi');
    for (const { path, method, op } of operationsOf(doc)) {
      expect(Array.isArray(op.security), `${method} ${path}`).toBe(true);
      for (const [status, response] of Object.entries(op.responses as Record<string, Operation>)) {
        const json = response.content?.['application/json'];
        if (!status.startsWith('2') || !json) continue;
        expect(json.example, `${method} ${path} ${status}`).toBeDefined();
        const pointer = ['paths', path, method, 'responses', status, 'content', 'application/json', 'schema']
          .map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1'))
          .join('/');
        const validate = ajv.getSchema(`openapi#/${pointer}`)!;
        expect(validate(json.example), `${method} ${path} ${status}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      }
    }
    for (const tag of doc.tags) expect(tag.description, tag.name).toBeTruthy();
    expect(doc.info.license.identifier).toBe('MIT');
  });

  it('serves an interactive reference at /docs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
  });
});
