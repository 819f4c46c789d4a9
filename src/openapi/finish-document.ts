/**
 * The last pass over the OpenAPI document that @fastify/swagger builds from the route schemas, so that it
 * generates good clients (docs/api.md, "The OpenAPI document"):
 *
 * - every titled schema becomes a named component, and an untitled request or 2xx body is named after its
 *   operation (`CreatePostResponse`), so generators emit named types instead of anonymous ones;
 * - a parameter with a default is optional (the service fills the default in), and one whose schema is
 *   deprecated is a deprecated parameter;
 * - the headers the service reads and sends are documented on every operation they apply to;
 * - every 2xx JSON response carries an example, built from the schema's own examples and formats.
 *
 * It changes how the document reads, never what it says: the same shapes, the same rules.
 */
import { exampleOf, resolve } from './schema-example.js';
import { RECORDED_EXAMPLES } from './recorded-examples.js';
import { addCodeSamples } from './code-samples.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an OpenAPI document: untyped JSON, walked by key
type Json = Record<string, any>;

const REQUEST_ID = { $ref: '#/components/headers/X-Request-Id' };
const RATE_LIMIT_HEADERS = {
  RateLimit: { $ref: '#/components/headers/RateLimit' },
  'RateLimit-Policy': { $ref: '#/components/headers/RateLimit-Policy' },
  'X-SVC-RateLimit-Remaining': { $ref: '#/components/headers/X-SVC-RateLimit-Remaining' },
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
};

/** The response headers, once, referred to from every response that sends them. */
export const RESPONSE_HEADERS: Json = {
  'X-Request-Id': {
    description: 'The id of this request, as the service logs it: quote it when reporting a problem',
    schema: { type: 'string' },
  },
  RateLimit: {
    description:
      'What is left of each rate-limit window and the seconds until it resets (IETF draft-ietf-httpapi-ratelimit-headers), e.g. `"minute";r=59;t=42, "day";r=9999;t=3600`',
    schema: { type: 'string' },
  },
  'RateLimit-Policy': {
    description:
      'The rate-limit windows that apply: quota `q` per `w` seconds, e.g. `"minute";q=60;w=60, "day";q=10000;w=86400`',
    schema: { type: 'string' },
  },
  'X-SVC-RateLimit-Remaining': {
    description: 'Requests this app may still make before its global limit (the smallest of its windows)',
    schema: { type: 'integer', minimum: 0 },
  },
  'X-RateLimit-Limit': {
    description:
      'The size of the tightest rate-limit window this request was counted in (the one with the fewest left)',
    schema: { type: 'integer', minimum: 1 },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in that window',
    schema: { type: 'integer', minimum: 0 },
  },
  'X-RateLimit-Reset': {
    description: 'When that window resets, in Unix seconds',
    schema: { type: 'integer', minimum: 0 },
  },
  'X-SVC-RateLimit-Scope-Remaining': {
    description: 'Requests this app and user may still make to this operation in the current minute',
    schema: { type: 'integer', minimum: 0 },
  },
  'X-SVC-RateLimit-Scope': {
    description: "The operation whose limit was reached (absent when it was the app's global limit)",
    schema: { type: 'string' },
  },
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 1 } },
  ETag: {
    description: 'The version of this representation: send it back in `If-None-Match` to get 304 while it is unchanged',
    schema: { type: 'string' },
  },
  'Content-Language': {
    description: 'The language the texts are in, chosen from `lang` or `Accept-Language`',
    schema: { type: 'string' },
  },
  Location: { description: 'The address of the created resource', schema: { type: 'string', format: 'uri' } },
  'Idempotency-Replayed': {
    description: '`true` when this is the stored response of an earlier request with the same `Idempotency-Key`',
    schema: { type: 'string', enum: ['true'] },
  },
};

/** Request headers as parameters, once, referred to from every operation that reads them. */
export const HEADER_PARAMETERS: Json = {
  AcceptLanguage: {
    name: 'Accept-Language',
    in: 'header',
    required: false,
    description: 'Language of the texts (ko, en, ja, zh-CN, zh-TW, …); Korean when absent or not available',
    schema: { type: 'string', examples: ['en'] },
  },
  Lang: {
    name: 'lang',
    in: 'query',
    required: false,
    description:
      'Language of the texts, as `Accept-Language` picks it, and taking its place when both are sent; an unsupported value leaves the choice to `Accept-Language`',
    schema: { type: 'string', examples: ['en'] },
  },
  PerPage: {
    name: 'per_page',
    in: 'query',
    required: false,
    description: 'Another name of `pageSize`; both with different values are 400 C0005',
    schema: { type: 'integer', format: 'int32', minimum: 1 },
  },
  IfNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description: 'The `ETag` of a representation you hold: 304 without a body while it is unchanged',
    schema: { type: 'string' },
  },
};

const pascal = (id: string) => id[0]!.toUpperCase() + id.slice(1);
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Keywords whose values are data, not schemas. */
const DATA_KEYWORDS = new Set(['examples', 'example', 'default', 'enum', 'const']);

/** Replaces every titled schema under `node` with a reference to a component of that name. */
function liftTitled(node: unknown, schemas: Json): unknown {
  if (Array.isArray(node)) return node.map((item) => liftTitled(item, schemas));
  if (!isObject(node)) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node))
    out[key] = DATA_KEYWORDS.has(key) ? value : liftTitled(value, schemas);
  if (typeof out.title !== 'string' || !/^[A-Za-z][A-Za-z0-9]*$/.test(out.title) || '$ref' in out) return out;
  const { description, ...shape } = out;
  const existing = schemas[out.title] as Json | undefined;
  if (existing) {
    const { description: _kept, ...existingShape } = existing;
    if (JSON.stringify(existingShape) !== JSON.stringify(shape))
      throw new Error(`OpenAPI: two different schemas are titled ${out.title}`);
  } else {
    schemas[out.title] = out;
  }
  const ref: Json = { $ref: `#/components/schemas/${out.title}` };
  if (description !== undefined && description !== schemas[out.title].description) ref.description = description;
  return ref;
}

/** A top-level request or response body without a title gets one from its operation, so it is lifted too. */
function nameBodies(operationId: string, operation: Json): void {
  const name = (media: Json | undefined, suffix: string) => {
    const schema = media?.schema as Json | undefined;
    if (schema && schema.type === 'object' && schema.title === undefined && !('$ref' in schema))
      schema.title = `${pascal(operationId)}${suffix}`;
  };
  for (const media of Object.values((operation.requestBody?.content ?? {}) as Json)) name(media, 'Request');
  for (const [status, response] of Object.entries((operation.responses ?? {}) as Json)) {
    if (status.startsWith('2')) name(response.content?.['application/json'], 'Response');
  }
}

/** The headers each response of an operation sends (see src/rate-limit/rate-limit-plugin.ts, src/plugins/conditional-get.ts, src/db/idempotency.ts). */
function documentHeaders(path: string, method: string, operation: Json): void {
  const api = path.startsWith('/api/v1/');
  const read = method === 'get';
  const params = (operation.parameters ??= []) as Json[];
  if (api) {
    params.push({ $ref: '#/components/parameters/AcceptLanguage' }, { $ref: '#/components/parameters/Lang' });
    if (params.some((p) => p.in === 'query' && p.name === 'pageSize'))
      params.push({ $ref: '#/components/parameters/PerPage' });
    if (read && operation.responses?.['304']) params.push({ $ref: '#/components/parameters/IfNoneMatch' });
  }
  for (const [status, response] of Object.entries((operation.responses ?? {}) as Json)) {
    // Every response says its language; a request counted against the rate limits (all of /api/v1 once the
    // credential is known, whatever the outcome) carries the limits' fields.
    const headers: Json = {
      'X-Request-Id': REQUEST_ID,
      'Content-Language': { $ref: '#/components/headers/Content-Language' },
    };
    if (api) Object.assign(headers, RATE_LIMIT_HEADERS);
    if (api && !read)
      headers['X-SVC-RateLimit-Scope-Remaining'] = { $ref: '#/components/headers/X-SVC-RateLimit-Scope-Remaining' };
    if (api && (status === '200' || status === '304') && read) headers.ETag = { $ref: '#/components/headers/ETag' };
    if (status === '201') {
      headers.Location = { $ref: '#/components/headers/Location' };
      headers['Idempotency-Replayed'] = { $ref: '#/components/headers/Idempotency-Replayed' };
    }
    if (status === '429' || status === '409' || status === '503')
      headers['Retry-After'] = { $ref: '#/components/headers/Retry-After' };
    if (status === '429') headers['X-SVC-RateLimit-Scope'] = { $ref: '#/components/headers/X-SVC-RateLimit-Scope' };
    response.headers = { ...headers, ...response.headers };
  }
}

/**
 * Parameters with a default are optional to the caller: the service fills the default in. A parameter whose
 * schema is marked deprecated (an alias kept for clients of this service's first names) is marked deprecated
 * itself, where generators and reference pages look for it.
 */
function parameterFlags(operation: Json): void {
  for (const param of (operation.parameters ?? []) as Json[]) {
    if (param.in !== 'path' && param.schema?.default !== undefined) param.required = false;
    if (param.schema?.deprecated === true) param.deprecated = true;
  }
}

/** An example for every 2xx JSON response that has none. */
const AT = '2026-12-01T09:00:00.000';
/** An error body of each status as the service words it (for the reference: the schema alone would say "string"). */
const ERROR_EXAMPLES: Record<string, (path: string) => Json> = {
  400: (path) =>
    path.includes('/changes')
      ? {
          code: 'C0005',
          message: 'Query parameter "after" is not a cursor of this feed: "zzz"; pass a nextCursor as it was given',
          timestamp: AT,
          details: 'after',
        }
      : /\{(?:postId|jobId)\}$/.test(path)
        ? {
            code: 'C0002',
            message: `Path parameter "${/\{(\w+)\}$/.exec(path)![1]}" must be a whole number of at most 16 digits, got "abc"`,
            timestamp: AT,
            details: /\{(\w+)\}$/.exec(path)![1],
          }
        : path.includes('/events')
          ? {
              code: 'C0005',
              message:
                'Query parameter "startDateFrom" must be a date such as 2026-12-01 or an ISO date-time, got "tomorrow"',
              timestamp: AT,
              details: 'startDateFrom',
            }
          : path.includes('/jobs')
            ? {
                code: 'C0005',
                message:
                  'Query parameter "workTypes" must hold codes of the work-types catalog (ONSITE, HYBRID, REMOTE; GET /api/v1/codes/work-types), got "OFFICE"',
                timestamp: AT,
                details: 'workTypes',
              }
            : {
                code: 'C0005',
                message:
                  'Query parameter "postedAfter" must be an ISO 8601 date-time such as 2026-11-01T09:00:00Z, got "yesterday"',
                timestamp: AT,
                details: 'postedAfter',
              },
  401: () => ({
    code: 'C0001',
    message: 'The X-SVC-API-Key header is required for this operation',
    timestamp: AT,
    details: 'X-SVC-API-Key',
  }),
  403: () => ({
    code: 'C0011',
    message: 'The access token lacks the scope "post:write"',
    timestamp: AT,
    details: 'scope',
  }),
  404: (path) =>
    path.includes('/jobs')
      ? { code: 'R0001', message: 'Job 99999 does not exist', timestamp: AT, details: 'jobId' }
      : path.includes('/events')
        ? { code: 'EV001', message: 'Event evt_missing does not exist', timestamp: AT, details: 'eventId' }
        : { code: 'P0002', message: 'Post 99999 does not exist', timestamp: AT, details: 'postId' },
  429: () => ({
    code: 'C0010',
    message: 'Rate limit exceeded: this app may make 600 requests per minute; retry in 17 s',
    timestamp: AT,
    details: 'minute',
  }),
  500: () => ({
    code: 'C9999',
    message: 'The search took too long and was stopped. Narrow it (a longer keyword, more filters) or try again.',
    timestamp: AT,
    details: null,
  }),
  503: () => ({
    code: 'C9998',
    message:
      "The service's database cannot take requests right now (connection refused). Retry after the time in Retry-After; a write sent with an Idempotency-Key is safe to send again.",
    timestamp: AT,
    details: null,
  }),
};

const isErrorResponse = (schema: Json | undefined) =>
  schema?.$ref === 'ErrorResponse#' || schema?.$ref === '#/components/schemas/ErrorResponse';

function addExamples(path: string, operation: Json, schemas: Json): void {
  for (const [status, response] of Object.entries((operation.responses ?? {}) as Json)) {
    const media = response.content?.['application/json'] as Json | undefined;
    if (!media?.schema || media.example !== undefined || media.examples !== undefined) continue;
    if (!status.startsWith('2')) {
      if (ERROR_EXAMPLES[status] && isErrorResponse(media.schema)) media.example = ERROR_EXAMPLES[status](path);
      continue;
    }
    // What the demo answered, where it was recorded; else a value the schema accepts.
    const recorded =
      status === '200' && typeof operation.operationId === 'string'
        ? RECORDED_EXAMPLES[operation.operationId]
        : undefined;
    media.example = recorded ?? exampleOf(resolve(media.schema, schemas)!, schemas);
  }
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options'];

export function finishDocument(doc: Json): Json {
  const components = (doc.components ??= {}) as Json;
  const schemas = (components.schemas ??= {}) as Json;
  for (const item of Object.values(doc.paths as Json)) {
    for (const method of METHODS) {
      const operation = item[method] as Json | undefined;
      if (!operation) continue;
      if (operation.operationId) nameBodies(operation.operationId, operation);
      parameterFlags(operation);
    }
  }
  doc.paths = liftTitled(doc.paths, schemas);
  for (const [path, item] of Object.entries(doc.paths as Json)) {
    for (const method of METHODS) {
      const operation = item[method] as Json | undefined;
      if (!operation) continue;
      documentHeaders(path, method, operation);
      addExamples(path, operation, schemas);
    }
  }
  components.headers = { ...RESPONSE_HEADERS, ...components.headers };
  components.parameters = { ...HEADER_PARAMETERS, ...components.parameters };
  components.schemas = Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b)));
  addCodeSamples(doc);
  return doc;
}
