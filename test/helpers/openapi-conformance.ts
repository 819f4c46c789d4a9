import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { LightMyRequestResponse } from 'fastify';
import type { App } from '../../src/app.js';
import { routedPath } from '../../src/net/drop-in-aliases.js';

interface OpenApiDoc {
  paths: Record<
    string,
    Record<
      string,
      {
        responses?: Record<
          string,
          { headers?: Record<string, unknown>; content?: Record<string, { schema?: unknown }> }
        >;
      }
    >
  >;
}

/** Response headers of the service's own that the document must declare wherever a response sends them. */
const DOCUMENTED_HEADERS = [
  'etag',
  'retry-after',
  'location',
  'x-request-id',
  'ratelimit',
  'ratelimit-policy',
  'x-svc-ratelimit-remaining',
  'x-svc-ratelimit-scope-remaining',
  'x-svc-ratelimit-scope',
  'idempotency-replayed',
  'content-language',
];

/**
 * Checks responses against the OpenAPI document the service serves: the operation must exist, the
 * status must be documented, and a JSON body must match the documented schema.
 */
export class OpenApiConformance {
  private readonly ajv: Ajv;
  private readonly routes: Array<{ pattern: RegExp; template: string }>;

  constructor(private readonly doc: OpenApiDoc) {
    this.ajv = new Ajv({ strict: false, validateSchema: false, allErrors: true });
    addFormatsModule.default(this.ajv);
    this.ajv.addSchema(doc as object, 'openapi');
    this.routes = Object.keys(doc.paths).map((template) => ({
      template,
      pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    }));
  }

  static async of(app: App): Promise<OpenApiConformance> {
    await app.ready();
    return new OpenApiConformance(app.swagger() as unknown as OpenApiDoc);
  }

  /** Returns the problems found; empty when the response matches the document. */
  check(method: string, url: string, response: LightMyRequestResponse): string[] {
    // `/v1/...` is the same operation as `/api/v1/...`, held to the same document.
    const path = routedPath(url.split('?')[0]!);
    const route = this.routes.find((r) => r.pattern.test(path));
    if (!route) return []; // unknown routes answer 404/405 with the shared ErrorResponse
    const operation = this.doc.paths[route.template]![method.toLowerCase()];
    if (!operation) return [];
    const status = String(response.statusCode);
    const documented = operation.responses?.[status];
    if (!documented) return [`${method} ${route.template}: status ${status} is not documented`];
    const declared = new Set(Object.keys(documented.headers ?? {}).map((h) => h.toLowerCase()));
    const undeclared = DOCUMENTED_HEADERS.filter((h) => response.headers[h] !== undefined && !declared.has(h));
    if (undeclared.length)
      return [`${method} ${route.template} ${status}: sends ${undeclared.join(', ')} but does not document it`];
    const schema = documented.content?.['application/json']?.schema;
    if (!schema || response.body === '') return [];
    const encoding = response.headers['content-encoding'];
    const text =
      encoding === 'gzip'
        ? gunzipSync(response.rawPayload).toString()
        : encoding === 'br'
          ? brotliDecompressSync(response.rawPayload).toString()
          : response.body;
    const pointer = [
      'paths',
      route.template,
      method.toLowerCase(),
      'responses',
      status,
      'content',
      'application/json',
      'schema',
    ]
      .map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1'))
      .join('/');
    const validate = this.ajv.getSchema(`openapi#/${pointer}`);
    if (!validate) return [`${method} ${route.template} ${status}: schema could not be compiled`];
    if (validate(JSON.parse(text))) return [];
    return [`${method} ${route.template} ${status}: ${this.ajv.errorsText(validate.errors)}`];
  }
}
