import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { png } from './images.js';
import { multipart, type Part } from './multipart.js';

/** Just enough of an OpenAPI 3.1 schema to generate values for it. */
export interface JsonSchema {
  type?: string | string[];
  $ref?: string;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  format?: string;
  examples?: unknown[];
}

export interface Operation {
  method: string;
  path: string;
  parameters: Array<{ in: string; name: string; schema: JsonSchema }>;
  body: { type: 'json' | 'multipart' | 'form'; schema: JsonSchema } | null;
}

/** Every operation of the served document. */
export function operationsOf(doc: {
  paths: Record<
    string,
    Record<
      string,
      { parameters?: Operation['parameters']; requestBody?: { content: Record<string, { schema: JsonSchema }> } }
    >
  >;
}): Operation[] {
  const out: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const content = op.requestBody?.content ?? {};
      const [type, media] = Object.entries(content)[0] ?? [];
      const kind =
        type === 'application/json' ? 'json' : type === 'multipart/form-data' ? 'multipart' : type ? 'form' : null;
      out.push({
        method: method.toUpperCase(),
        path,
        parameters: op.parameters ?? [],
        body: kind && media ? { type: kind, schema: media.schema } : null,
      });
    }
  }
  return out;
}

/** Percent-encodes like a client would; a lone surrogate (which no client can encode) becomes U+FFFD. */
const encode = (value: string) =>
  encodeURIComponent(
    value.replace(/[\uD800-\uDFFF]/g, (c, i: number, all: string) => {
      const code = c.charCodeAt(0);
      const pairs = code < 0xdc00 ? /[\uDC00-\uDFFF]/.test(all[i + 1] ?? '') : /[\uD800-\uDBFF]/.test(all[i - 1] ?? '');
      return pairs ? c : '\uFFFD';
    }),
  );

/** Text that has broken parsers, databases and full-text engines somewhere. */
const HOSTILE_TEXT = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '"',
  "'",
  '`',
  '\\',
  '%',
  '_',
  '*',
  '-',
  ':',
  '^',
  '~',
  '&',
  '|',
  '!',
  '(',
  ')',
  '()',
  'NEAR(a b)',
  'a OR b',
  'a AND NOT b',
  '"unterminated',
  'col:term',
  '{a b}',
  'a:*',
  '!!a',
  'a & | b',
  '<->',
  "'a':*",
  '\uD800',
  '\uDFFF',
  '😀',
  '\u202E',
  '\uFEFF',
  'ㄱ',
  '다',
  '가'.repeat(5_000),
  'x'.repeat(2_100),
  'a '.repeat(3_000),
  '1e400',
  '-1',
  '0',
  '9'.repeat(30),
  'NaN',
  'null',
  'true',
  '[]',
  '{}',
  '<script>alert(1)</script>',
  "'; DROP TABLE posts;--",
  '../../etc/passwd',
  '%00',
  '%zz',
  '{{7*7}}',
  '${7*7}',
  '\r\nX-Injected: 1',
];
const HOSTILE_NUMBERS = [0, -1, 1.5, -0, 2 ** 31, 2 ** 53, 2 ** 63, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2];

export const hostileText = fc.oneof(
  fc.constantFrom(...HOSTILE_TEXT),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ maxLength: 300 }),
);
const hostileScalar = fc.oneof(hostileText, fc.constantFrom<unknown>(...HOSTILE_NUMBERS, true, false, null, [], {}));

/** A value for `schema`: mostly of its shape (examples, enums, bounds), often hostile in type or content. */
export function valueFor(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  const shaped = shapedValue(schema, depth);
  return depth > 3 ? shaped : fc.oneof({ arbitrary: shaped, weight: 3 }, { arbitrary: hostileScalar, weight: 1 });
}

function shapedValue(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  const examples = schema.examples?.length ? [fc.constantFrom(...schema.examples)] : [];
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.oneof(fc.constantFrom(...schema.enum), hostileText);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((s) => valueFor(s, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      if (schema.format === 'date')
        return fc.oneof(
          ...examples,
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
          hostileText,
        );
      if (schema.format === 'date-time')
        return fc.oneof(
          ...examples,
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
          hostileText,
        );
      return fc.oneof(...examples, fc.string({ maxLength: Math.min(schema.maxLength ?? 50, 300) }), hostileText);
    case 'integer':
    case 'number':
      return fc.oneof(
        ...examples,
        fc.integer({ min: schema.minimum ?? -10, max: Math.min(schema.maximum ?? 1_000_000, 1_000_000_000) }),
        fc.constantFrom(...HOSTILE_NUMBERS),
      );
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(valueFor(schema.items ?? {}, depth + 1), { maxLength: 12 });
    case 'object': {
      const props = Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([k, s]) => [k, valueFor(s, depth + 1)]),
      );
      const record = fc.record(props, { requiredKeys: [] });
      return fc.oneof(
        ...examples,
        record,
        fc.tuple(record, fc.dictionary(hostileText, hostileScalar, { maxKeys: 2 })).map(([a, b]) => ({ ...b, ...a })),
      );
    }
    default:
      return hostileScalar;
  }
}

export interface Known {
  apiKey: string;
  bearer: string;
  postId: number;
  jobId: number;
  eventId: string;
  company: string;
}

/** A path parameter: a real id, or anything at all, escaped or not. */
function pathValue(name: string, schema: JsonSchema, known: Known): fc.Arbitrary<string> {
  const real =
    name === 'postId'
      ? String(known.postId)
      : name === 'jobId'
        ? String(known.jobId)
        : name === 'eventId'
          ? known.eventId
          : /company/i.test(name)
            ? known.company
            : '1';
  const hostile = fc.oneof(
    hostileText.map(encode),
    fc.constantFrom('%zz', '%', '%00', '..', '9'.repeat(25), '-5', '0', '1.5', '1e3', 'x'.repeat(600), '%2F'),
  );
  return fc.oneof(
    { arbitrary: fc.constant(real), weight: 2 },
    { arbitrary: valueFor(schema).map((v) => encode(String(v))), weight: 1 },
    { arbitrary: hostile, weight: 1 },
  );
}

function queryPairs(parameters: Operation['parameters']): fc.Arbitrary<Array<[string, string]>> {
  const perParam = parameters
    .filter((p) => p.in === 'query')
    .map((p) =>
      fc.option(
        fc.oneof(
          valueFor(p.schema).map(
            (v) => [[p.name, Array.isArray(v) ? v.join(',') : String(v)]] as Array<[string, string]>,
          ),
          fc
            .array(valueFor(p.schema.items ?? p.schema), { minLength: 2, maxLength: 3 })
            .map((vs) => vs.map((v) => [p.name, String(v)] as [string, string])),
        ),
        { freq: 2 },
      ),
    );
  return fc
    .tuple(...perParam, fc.option(fc.tuple(hostileText, hostileText), { freq: 4 }))
    .map((all) =>
      all.flatMap((x) =>
        x === null ? [] : Array.isArray(x[0]) ? (x as Array<[string, string]>) : [x as [string, string]],
      ),
    );
}

const credentials = (known: Known) =>
  fc.constantFrom<Record<string, string>>(
    { 'x-svc-api-key': known.apiKey, authorization: `Bearer ${known.bearer}` },
    { 'x-svc-api-key': known.apiKey, authorization: `Bearer ${known.bearer}` },
    { 'x-svc-api-key': known.apiKey },
    { authorization: `Bearer ${known.bearer}` },
    {},
    { 'x-svc-api-key': 'svck_' + 'A'.repeat(32), authorization: 'Bearer not.a.jwt' },
    { 'x-svc-api-key': 'x'.repeat(10_000), authorization: `Basic ${'a'.repeat(10_000)}` },
  );

const extraHeaders = fc.option(
  fc.record(
    {
      'accept-language': fc.oneof(
        fc.constantFrom('en', 'ko;q=0.1, zh-TW', '*', 'x'.repeat(8_000), ',;q=,', 'en;q=abc'),
        hostileText,
      ),
      'idempotency-key': fc.oneof(fc.constantFrom('k-1', 'x'.repeat(300), ' '), hostileText),
      'if-none-match': fc.oneof(fc.constantFrom('*', '"abc"', 'W/"x", "y"'), hostileText),
    },
    { requiredKeys: [] },
  ),
  { freq: 2 },
);

/** A multipart body: the JSON part (shaped, garbage, or missing, once or twice) and images (real, random, or many). */
function multipartBody(
  schema: JsonSchema,
): fc.Arbitrary<{ payload: Buffer | string; headers: Record<string, string> }> {
  const jsonSchema = schema.properties?.request ?? {};
  const fileName = Object.keys(schema.properties ?? {}).find((k) => k !== 'request') ?? 'images';
  const jsonPart = fc.oneof(
    valueFor(jsonSchema).map((v) => ({ name: 'request', value: JSON.stringify(v) ?? 'null' }) as Part),
    hostileText.map((v) => ({ name: 'request', value: v }) as Part),
    valueFor(jsonSchema).map(
      (v) =>
        ({
          name: 'request',
          value: JSON.stringify(v) ?? 'null',
          filename: 'r.json',
          contentType: 'application/json',
        }) as Part,
    ),
  );
  const image = fc.oneof(
    fc.constant<Part>({ name: fileName, value: png(3, 2), filename: 'a.png', contentType: 'image/png' }),
    fc
      .uint8Array({ maxLength: 64 })
      .map((b) => ({ name: fileName, value: Buffer.from(b), filename: 'x.png', contentType: 'image/png' }) as Part),
    fc.constant<Part>({ name: fileName, value: Buffer.concat([png(2, 2).subarray(0, 30)]), filename: 'cut.png' }),
    hostileText.map((n) => ({ name: n || 'unnamed', value: Buffer.from('data'), filename: n }) as Part),
  );
  const parts = fc
    .tuple(fc.array(jsonPart, { maxLength: 2 }), fc.array(image, { maxLength: 3 }))
    .map(([a, b]) => [...a, ...b]);
  return fc.oneof(
    { arbitrary: parts.map((p) => multipart(p)), weight: 5 },
    {
      arbitrary: fc.constant({
        payload: '--b\r\nContent-Disposition: form-data; name="request"\r\n\r\n{}',
        headers: { 'content-type': 'multipart/form-data; boundary=b' },
      }),
      weight: 1,
    },
    { arbitrary: fc.constant({ payload: '{}', headers: { 'content-type': 'multipart/form-data' } }), weight: 1 },
    {
      arbitrary: valueFor(jsonSchema).map((v) => ({
        payload: JSON.stringify(v) ?? 'null',
        headers: { 'content-type': 'application/json' },
      })),
      weight: 1,
    },
  );
}

function jsonBody(schema: JsonSchema): fc.Arbitrary<{ payload: Buffer | string; headers: Record<string, string> }> {
  return fc.oneof(
    {
      arbitrary: valueFor(schema).map((v) => ({
        payload: JSON.stringify(v) ?? 'null',
        headers: { 'content-type': 'application/json' },
      })),
      weight: 6,
    },
    { arbitrary: hostileText.map((v) => ({ payload: v, headers: { 'content-type': 'application/json' } })), weight: 1 },
    {
      arbitrary: fc
        .integer({ min: 10, max: 3_000 })
        .map((n) => ({ payload: '['.repeat(n) + ']'.repeat(n), headers: { 'content-type': 'application/json' } })),
      weight: 1,
    },
    {
      arbitrary: fc
        .constantFrom(
          'text/plain',
          'application/xml',
          'application/x-www-form-urlencoded',
          'application/json; charset=latin1',
        )
        .map((type) => ({ payload: 'a=1', headers: { 'content-type': type } })),
      weight: 1,
    },
  );
}

function formBody(schema: JsonSchema): fc.Arbitrary<{ payload: Buffer | string; headers: Record<string, string> }> {
  return fc.oneof(
    valueFor(schema).map((v) => ({
      payload: new URLSearchParams(
        Object.entries(typeof v === 'object' && v !== null ? v : { v }).map(
          ([k, x]) => [k, String(x)] as [string, string],
        ),
      ).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })),
    hostileText.map((v) => ({ payload: v, headers: { 'content-type': 'application/x-www-form-urlencoded' } })),
  );
}

/** One request to `op`, with valid credentials most of the time and hostile values throughout. */
export function requestFor(op: Operation, known: Known): fc.Arbitrary<InjectOptions & { url: string }> {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const path = fc
    .tuple(...pathParams.map((p) => pathValue(p.name, p.schema, known)))
    .map((values) => values.reduce((url, value, i) => url.replace(`{${pathParams[i]!.name}}`, value), op.path));
  const body = !op.body
    ? fc.constant(null)
    : op.body.type === 'multipart'
      ? multipartBody(op.body.schema)
      : op.body.type === 'json'
        ? jsonBody(op.body.schema)
        : formBody(op.body.schema);
  return fc
    .tuple(path, queryPairs(op.parameters), credentials(known), extraHeaders, body)
    .map(([url, query, auth, extra, b]) => {
      const search = query.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&');
      // Only what an HTTP client can send: Node's parser refuses other header bytes before the service sees them.
      const sendable = Object.fromEntries(
        Object.entries(extra ?? {}).filter(([, v]) => /^[\t\x20-\x7e\x80-\xff]*$/.test(String(v))),
      );
      return {
        method: op.method as InjectOptions['method'],
        url: search ? `${url}?${search}` : url,
        headers: { ...auth, ...sendable, ...(b?.headers ?? {}) },
        ...(b ? { payload: b.payload } : {}),
      };
    });
}
