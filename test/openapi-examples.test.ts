/**
 * The reference's examples: each GET an app key may call shows what the demo answered (npm run examples:record),
 * never a made-up "string", and every example in the document is valid against its own schema.
 */
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORDED_EXAMPLES } from '../src/openapi/recorded-examples.js';
import { createTestApp, type TestContext } from './helpers/test-app.js';

type Json = Record<string, any>;

describe('the examples of the OpenAPI document', () => {
  let t: TestContext;
  let doc: Json;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  });
  afterAll(async () => {
    await t?.close();
  });

  const operations = () =>
    Object.entries(doc.paths as Json).flatMap(([path, item]) =>
      Object.entries(item as Json).map(([method, op]) => ({ path, method, op: op as Json })),
    );

  it("are the demo's answers for every GET an app key may call", () => {
    const readable = operations().filter(
      ({ path, method, op }) =>
        method === 'get' &&
        path.startsWith('/api/v1/') &&
        (op.security as Json[] | undefined)?.some((s) => 'apiKey' in s),
    );
    expect(readable.length).toBeGreaterThan(15);
    for (const { op } of readable) {
      expect(RECORDED_EXAMPLES[op.operationId as string], op.operationId).toBeDefined();
      const example = op.responses['200'].content['application/json'].example;
      expect(example, op.operationId).toEqual(RECORDED_EXAMPLES[op.operationId as string]);
      expect(JSON.stringify(example), op.operationId).not.toContain('"string"');
    }
  });

  it('are each valid against the schema of its response', () => {
    const ajv = new Ajv({ strict: false, validateSchema: false, allErrors: true });
    addFormatsModule.default(ajv);
    ajv.addSchema(doc, 'openapi');
    let checked = 0;
    for (const { path, method, op } of operations()) {
      for (const [status, response] of Object.entries((op.responses ?? {}) as Json)) {
        const media = (response as Json).content?.['application/json'];
        if (media?.example === undefined || !media.schema) continue;
        const pointer = ['paths', path, method, 'responses', status, 'content', 'application/json', 'schema']
          .map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1'))
          .join('/');
        const validate = ajv.getSchema(`openapi#/${pointer}`)!;
        expect(validate(media.example), `${method} ${path} ${status}: ${ajv.errorsText(validate.errors)}`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(30);
  });
});
