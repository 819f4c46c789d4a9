/**
 * An example value of a JSON schema, for the OpenAPI document: the schema's own `examples`, `default`,
 * `const` or first `enum` value where it has one, otherwise a value its type and format accept.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an OpenAPI document: untyped JSON, walked by key
type Json = Record<string, any>;

const FORMATS: Record<string, string> = {
  'date-time': '2026-11-21T09:00:00Z',
  date: '2026-11-21',
  time: '09:00:00',
  uri: 'https://example.com/',
  email: 'builder@example.com',
  binary: '',
};

/** The schema a local `$ref` names (`#/components/schemas/…`), or `schema` itself when it is no such reference. */
export function resolve(schema: Json | undefined, schemas: Json): Json | undefined {
  const ref = schema?.$ref as string | undefined;
  return ref?.startsWith('#/components/schemas/') ? schemas[ref.slice('#/components/schemas/'.length)] : schema;
}

export function exampleOf(schema: Json, schemas: Json, depth = 0): unknown {
  if (depth > 20) return null;
  if (typeof schema.$ref === 'string') {
    const target = schemas[schema.$ref.replace('#/components/schemas/', '')] as Json | undefined;
    return target ? exampleOf(target, schemas, depth + 1) : null;
  }
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.example !== undefined) return schema.example;
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const variants = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (variants) {
    const first = variants.find((v) => v.type !== 'null') ?? variants[0]!;
    return exampleOf(first, schemas, depth + 1);
  }
  if (Array.isArray(schema.allOf))
    return Object.assign({}, ...schema.allOf.map((s: Json) => exampleOf(s, schemas, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Json = {};
      for (const [name, property] of Object.entries((schema.properties ?? {}) as Json))
        out[name] = exampleOf(property, schemas, depth + 1);
      return out;
    }
    case 'array':
      return schema.items ? [exampleOf(schema.items, schemas, depth + 1)] : [];
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? Math.max(schema.minimum, 1) : 1;
    case 'boolean':
      return false;
    case 'string':
      return FORMATS[schema.format as string] ?? (schema.minLength > 6 ? 'x'.repeat(schema.minLength) : 'string');
    case 'null':
      return null;
    default:
      return null;
  }
}
