import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `{ type: 'null' }`, as `Type.Null()` makes it (TypeBox's own keys are symbols, not copied here). */
const isNull = (schema: unknown): boolean =>
  isSchema(schema) && schema.type === 'null' && Object.keys(schema).length === 1;

/**
 * The schema a response is serialized with: the response schema, with each nullable value (`Nullable(S)`, an
 * `anyOf` of S and null) written as S with `nullable: true`. fast-json-stringify serializes an `anyOf` by running
 * a schema validator over the value for each branch until one matches (a post's card, its author's image and
 * counts, a job's end: several validators per item of every page, compiled at the first response of each route,
 * a cost of its own); a nullable schema is one `=== null` test. The bytes written are the same. The validation schemas and
 * the OpenAPI document keep the `anyOf` (OpenAPI 3.1 has no `nullable`).
 */
export function serializationSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(serializationSchema);
  if (!isSchema(schema)) return schema;
  const copy: Schema = {};
  for (const [key, value] of Object.entries(schema)) copy[key] = serializationSchema(value);
  const branches = copy.anyOf;
  if (!Array.isArray(branches) || branches.length !== 2) return copy;
  const valueBranch = isNull(branches[1]) ? branches[0] : isNull(branches[0]) ? branches[1] : undefined;
  // Only a value of one plain type: unions of several types, and references, keep their anyOf.
  if (!isSchema(valueBranch) || typeof valueBranch.type !== 'string' || valueBranch.type === 'null') return copy;
  const { anyOf: _branches, ...siblings } = copy;
  return { ...siblings, ...valueBranch, nullable: true };
}

/**
 * Fastify's own serializer compiler (fast-json-stringify, with the same options and shared schemas), given the
 * serialization schema of each response (`compilersFactory.buildSerializer` of the server's schema controller).
 */
export function buildResponseSerializer(
  externalSchemas?: unknown,
  options?: Parameters<ReturnType<typeof SerializerSelector>>[1],
) {
  const compile = SerializerSelector()(externalSchemas, options);
  return (route: Parameters<typeof compile>[0]) => compile({ ...route, schema: serializationSchema(route.schema) });
}
