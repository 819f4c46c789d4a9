import type { FastifyRequest } from 'fastify';
import type { Static, TSchema } from '@sinclair/typebox';
import { Ajv, type ValidateFunction } from 'ajv';
import { ApiError } from './api-error.js';
import { MAX_JSON_DEPTH, parseJsonInput } from './text-input.js';
import { describeIssue, firstIssue, type ValidationIssue } from './validation-message.js';

export interface UploadedFile {
  filename: string;
  bytes: Buffer;
}

export interface MultipartSpec {
  /** Name of the JSON part (`request`). */
  jsonPart: string;
  /** File parts and how many of each are allowed. */
  fileParts: Record<string, number>;
  maxRequestBytes: number;
  maxFileBytes: number;
}

/**
 * Reads a multipart request whose JSON part may come as a text field, a field typed application/json or a file
 * part (with or without a filename), plus file parts,
 * enforcing counts and sizes as it streams: too many images 400 P0010, an image too large 400 P0011, the request
 * too large 413 C0006, not multipart 415 C0007, a malformed body or JSON that does not parse 400 C0002.
 */
export async function readMultipart(
  request: FastifyRequest,
  spec: MultipartSpec,
): Promise<{ json: unknown; files: Record<string, UploadedFile[]> }> {
  if (!request.isMultipart()) {
    throw new ApiError(
      'C0007',
      `The body must be multipart/form-data with a "${spec.jsonPart}" part, got ${JSON.stringify(request.headers['content-type'] ?? 'none')}`,
      'Content-Type',
    );
  }
  const files: Record<string, UploadedFile[]> = Object.fromEntries(Object.keys(spec.fileParts).map((k) => [k, []]));
  let jsonText: string | undefined;
  let total = 0;
  const count = (bytes: number) => {
    total += bytes;
    if (total > spec.maxRequestBytes)
      throw new ApiError('C0006', `The request is larger than ${spec.maxRequestBytes} bytes`, null);
  };
  try {
    for await (const part of request.parts()) {
      if (part.fieldname === spec.jsonPart) {
        const text =
          part.type === 'file'
            ? (await part.toBuffer()).toString('utf8')
            : fieldText(part.value, part.mimetype, spec.jsonPart);
        count(Buffer.byteLength(text));
        jsonText = text;
        continue;
      }
      if (part.type !== 'file') continue;
      const list = files[part.fieldname];
      if (!list) {
        await part.toBuffer();
        throw new ApiError(
          'C0002',
          `Unknown file part "${part.fieldname}"; expected ${Object.keys(spec.fileParts).join(' or ')}`,
          part.fieldname,
        );
      }
      const max = spec.fileParts[part.fieldname]!;
      if (list.length >= max)
        throw new ApiError(
          'P0010',
          `At most ${max} "${part.fieldname}" image${max === 1 ? '' : 's'} may be sent`,
          part.fieldname,
        );
      const bytes = await part.toBuffer();
      count(bytes.length);
      list.push({ filename: part.filename, bytes });
    }
  } catch (err) {
    if (err instanceof ApiError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw new ApiError(
        'P0011',
        `Each image may be at most ${spec.maxFileBytes} bytes`,
        Object.keys(spec.fileParts)[0] ?? null,
      );
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT')
      throw new ApiError('C0002', 'Too many parts in the request', null);
    if (code === 'FST_INVALID_JSON_FIELD_ERROR') {
      throw new ApiError(
        'C0002',
        `Part "${spec.jsonPart}" is typed application/json but does not hold JSON (or is longer than a part may be)`,
        spec.jsonPart,
      );
    }
    // Anything else raised while the parts are read is the body's own fault: no boundary, a part header that
    // does not parse, a body that ends before its closing boundary.
    throw new ApiError('C0002', `The multipart body is malformed: ${(err as Error).message}`, 'body');
  }
  if (jsonText === undefined) return { json: undefined, files };
  return { json: parseJsonInput(jsonText, `Part "${spec.jsonPart}"`, [spec.jsonPart]), files };
}

/**
 * The text of a field part. A part typed `application/json` (curl's `-F 'request={…};type=application/json'`, Spring's
 * `MultipartBodyBuilder`) arrives already parsed by the multipart reader: it is written back to text so that it
 * passes the same checks (nesting, U+0000) as a plain text part. Nesting too deep to write back is refused as such.
 */
function fieldText(value: unknown, mimetype: string, partName: string): string {
  if (mimetype !== 'application/json') return String(value);
  try {
    return JSON.stringify(value);
  } catch {
    throw new ApiError('C0002', `Part "${partName}" nests deeper than ${MAX_JSON_DEPTH} levels`, partName);
  }
}

/**
 * A body read and checked in the route's own preHandler. The rate-limit plugin runs the operation limit just
 * before it, so a spent limit refuses before the body is read or its images decoded, and gives the count back
 * when the body is refused: a malformed body never spends the operation's budget (docs/decisions.md: authenticate,
 * global limit, validate, operation limit, act). The handler takes it with `of`.
 */
export function bodyStage<T>(read: (request: FastifyRequest) => Promise<T>) {
  const bodies = new WeakMap<FastifyRequest, T>();
  return {
    preHandler: async (request: FastifyRequest): Promise<void> => {
      bodies.set(request, await read(request));
    },
    of: (request: FastifyRequest): T => bodies.get(request)!,
  };
}

const ajv = new Ajv({ allErrors: false, strict: false });
// OpenAPI's integer widths: documentation for clients; the bounds are in minimum and maximum.
ajv.addFormat('int32', true).addFormat('int64', true);
const compiled = new WeakMap<TSchema, ValidateFunction>();

/** Checks a JSON part against its schema; the first problem becomes 400 C0002 naming the field. */
export function checkJson<T extends TSchema>(schema: T, value: unknown, partName: string): Static<T> {
  let validate = compiled.get(schema);
  if (!validate) compiled.set(schema, (validate = ajv.compile(schema)));
  if (validate(value)) return value as Static<T>;
  const { message, field } = describeIssue(
    'Field',
    [partName],
    firstIssue(validate.errors as ValidationIssue[]),
    value,
  );
  throw new ApiError('C0002', message, field);
}
