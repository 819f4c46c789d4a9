/** The facts of an OpenAPI document that a client depends on, flattened so two documents can be compared. */

type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  required?: string[];
};
type Parameter = { $ref?: string; name: string; in: string; required?: boolean; schema?: Schema };
type Operation = {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { $ref?: string; content?: Record<string, { schema?: Schema }> }>;
};
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components?: {
    schemas?: Record<string, Schema>;
    parameters?: Record<string, Parameter>;
    responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
  };
}

/** One field: its JSON type(s) (sorted, `null` included when nullable) and its enum, if any. */
export interface FieldFact {
  types: string[];
  enum?: string[];
}
export interface OperationFacts {
  operationId?: string;
  parameters: Record<string, FieldFact & { in: string; required: boolean }>;
  /** Request body fields by dotted path (`request.jobTitle`, `formFields[].type`); `(body)` is the body itself. */
  request: Record<string, FieldFact>;
  /** Response fields of the success status, by dotted path. */
  response: Record<string, FieldFact>;
  statuses: string[];
}
export interface Facts {
  operations: Record<string, OperationFacts>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
/** Headers every operation may carry, described by the spec rather than per operation. */
const IGNORED_PARAMETERS = new Set(['Accept-Language', 'accept-language', 'Authorization', 'authorization']);

function resolve<T extends { $ref?: string }>(doc: OpenApiDocument, value: T): T {
  let current: T = value;
  for (let i = 0; current.$ref && i < 10; i++) {
    const [, , section, name] = current.$ref.split('/');
    current = (doc.components as Record<string, Record<string, T>>)[section!]![name!]!;
  }
  return current;
}

function typeOf(doc: OpenApiDocument, schema: Schema): FieldFact {
  const s = resolve(doc, schema);
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) {
    const facts = alternatives.map((a) => typeOf(doc, a));
    const enums = facts.flatMap((f) => f.enum ?? []);
    return {
      types: [...new Set(facts.flatMap((f) => f.types))].sort(),
      ...(enums.length ? { enum: [...new Set(enums)].sort() } : {}),
    };
  }
  if (s.allOf?.length === 1) return typeOf(doc, s.allOf[0]!);
  const raw = s.type ?? (s.properties ? 'object' : s.items ? 'array' : s.const !== undefined ? typeof s.const : 'any');
  const types = (Array.isArray(raw) ? raw : [raw]).map((t) => (t === 'integer' ? 'number' : t)).sort();
  const values = s.enum ?? (s.const !== undefined ? [s.const] : undefined);
  return { types, ...(values ? { enum: values.map(String).sort() } : {}) };
}

/** Every field below `schema`, by dotted path; arrays add `[]`. */
function fields(
  doc: OpenApiDocument,
  schema: Schema | undefined,
  prefix: string,
  out: Record<string, FieldFact>,
  depth = 0,
): void {
  if (!schema || depth > 8) return;
  const s = resolve(doc, schema);
  const alternatives = (s.anyOf ?? s.oneOf ?? s.allOf ?? []).filter((a) => resolve(doc, a).type !== 'null');
  for (const a of alternatives) fields(doc, a, prefix, out, depth + 1);
  for (const [name, property] of Object.entries(s.properties ?? {})) {
    const at = prefix ? `${prefix}.${name}` : name;
    out[at] = typeOf(doc, property);
    fields(doc, property, at, out, depth + 1);
  }
  if (s.items) fields(doc, s.items, `${prefix}[]`, out, depth + 1);
}

export function flattenSchema(doc: OpenApiDocument): Facts {
  const operations: Record<string, OperationFacts> = {};
  for (const [route, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      if (!METHODS.includes(method)) continue;
      const parameters: OperationFacts['parameters'] = {};
      for (const p of (op.parameters ?? []).map((x) => resolve(doc, x))) {
        if (IGNORED_PARAMETERS.has(p.name) || p.in === 'header') continue;
        parameters[p.name] = { in: p.in, required: Boolean(p.required), ...typeOf(doc, p.schema ?? {}) };
      }
      const request: Record<string, FieldFact> = {};
      for (const media of Object.values(op.requestBody?.content ?? {})) fields(doc, media.schema, '', request);
      const statuses = Object.keys(op.responses ?? {}).sort();
      const success = statuses.find((s) => s.startsWith('2'));
      const response: Record<string, FieldFact> = {};
      const ok = success ? resolve(doc, op.responses![success]!) : undefined;
      for (const media of Object.values(ok?.content ?? {})) fields(doc, media.schema, '', response);
      operations[`${method.toUpperCase()} ${route}`] = {
        operationId: op.operationId,
        parameters,
        request,
        response,
        statuses,
      };
    }
  }
  return { operations };
}
