import { Type, type TSchema } from '@sinclair/typebox';

/**
 * The documented parts of a multipart request: a JSON part and file parts. Handlers read the parts
 * themselves (shared/multipart-body.ts); this schema describes them in the OpenAPI document.
 */
export function MultipartBody(
  jsonPart: TSchema,
  files: Record<string, { max: number; description: string }>,
  title: string,
) {
  const fileProps = Object.fromEntries(
    Object.entries(files).map(([name, f]) => [
      name,
      Type.Optional(
        f.max === 1
          ? Type.String({ format: 'binary', description: f.description })
          : Type.Array(Type.String({ format: 'binary' }), { maxItems: f.max, description: f.description }),
      ),
    ]),
  );
  return Type.Object(
    {
      request: Type.Optional(
        Type.Unsafe({
          ...jsonPart,
          description: 'JSON (a text field, or a file part with Content-Type application/json). Required.',
        }),
      ),
      ...fileProps,
    },
    { title },
  );
}
