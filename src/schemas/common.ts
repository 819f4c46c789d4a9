import { Type, type Static, type TObject, type TSchema, type SchemaOptions } from '@sinclair/typebox';
import { ERROR_STATUS, type ErrorCode } from '../shared/api-error.js';

/** The one error body of every non-2xx response under /api/v1 (docs/api.md Errors). */
export const ErrorResponse = Type.Object(
  {
    code: Type.String({
      description: 'Error code for client branching (docs/api.md lists them all)',
      enum: Object.keys(ERROR_STATUS),
      examples: ['C0005'],
    }),
    message: Type.String({ description: 'What rule was violated, naming the input value' }),
    timestamp: Type.String({ description: 'UTC date-time without zone suffix', examples: ['2026-11-21T04:40:00.123'] }),
    details: Type.Union([Type.String(), Type.Null()], {
      description: 'The problem field or reason; null when unavailable',
    }),
  },
  { $id: 'ErrorResponse', title: 'ErrorResponse', additionalProperties: false },
);

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid input (`C0002` body or path format, `C0005` query parameter, `P0010` too many images, `P0011` an image too large, `P0012` not an image that decodes)',
  401: 'Missing or invalid credential (`C0001` app key, `C0003` Bearer token)',
  403: "Forbidden (`C0011` the token lacks the scope, `C0004` the user lacks the capability or role, `P0003` someone else's post, `C0004` an app key used from a web origin its app does not allow)",
  404: 'Not found (`P0002` post, `R0001` job, `EV001` event, `C0008` other)',
  405: 'Method not allowed on this path (`C0012`)',
  409: 'State conflict (`C0009`; `EV022` an event with tickets or guests)',
  410: "The change feed's cursor is older than the changes kept (`C0013`): read the current state again, then follow from `after=now`",
  413: 'Request body too large (`C0006`)',
  415: 'Unsupported content type (`C0007`)',
  429: 'Rate limit exceeded (`C0010`); see `Retry-After`',
  500: 'Server error (`C9999`)',
  502: 'An image could not be stored (`P0013`); nothing was saved',
  503: "The app's images waited too long to be processed, or the database is unavailable (`C9998`); see `Retry-After`",
};

/** Error responses a route can return, each referring to the shared ErrorResponse schema. */
export function errorResponses(...statuses: number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = {};
  // Any route can meet an unexpected error (500) or a database that does not answer (503).
  for (const status of new Set([...statuses, 500, 503])) {
    out[status] = Type.Ref(ErrorResponse, { description: STATUS_TEXT[status] ?? 'Error' });
  }
  return out;
}

/** Errors of a write that takes images: those of every write, and 502 P0013 when an image cannot be stored. */
export const WRITE_ERRORS = errorResponses(400, 401, 403, 404, 409, 413, 415, 429);
export const UPLOAD_WRITE_ERRORS = errorResponses(400, 401, 403, 404, 409, 413, 415, 429, 502);

/** Public reads answer If-None-Match with 304 when their ETag still matches. */
export const NOT_MODIFIED = {
  304: Type.Null({
    description: 'Not modified: the ETag in If-None-Match still matches (does not count against the limit)',
  }),
};

/** Errors every app-key route can return (403: the key used from a browser origin its app does not allow). */
export const PUBLIC_READ_ERRORS = [401, 403, 429] as const;

/** The optional Idempotency-Key header of create operations. */
export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description:
        'Retrying with the same key and request within 24 hours returns the first response without creating again; the same key with another request is 409 C0009.',
    }),
  ),
});

/**
 * An id in a request: a positive int64 that a JavaScript number holds exactly (at most 2^53 - 1), so both
 * engines see the same valid number and a larger one is a 400, never a database error.
 */
export const RequestId = (options: SchemaOptions = {}) =>
  Type.Integer({ format: 'int64', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, ...options });

export const PageQuery = {
  page: Type.Integer({
    minimum: 1,
    maximum: 2_147_483_647,
    default: 1,
    format: 'int32',
    description: 'Page number from 1; values below 1 are read as 1',
  }),
  pageSize: Type.Integer({
    minimum: 1,
    maximum: 50,
    default: 20,
    format: 'int32',
    description: 'Items per page, 1 to 50; values outside are brought into range',
  }),
};

/** One value of a facet and how many of a search's matches hold it (docs/decisions.md "Search results"). */
export const FacetCount = Type.Object(
  {
    value: Type.String({
      description: 'The value as the filter takes it: a catalog code, an enum value, a company handle, or true/false',
    }),
    count: Type.Integer({ format: 'int64', minimum: 1, description: 'Matches holding the value' }),
  },
  { title: 'FacetCount', additionalProperties: false },
);

/** The `facets` parameter of a search whose filters `names` can be counted; companyId gives its `top` companies. */
export const FacetsQuery = <const T extends readonly string[]>(names: T, top: number) =>
  Type.Optional(
    Type.Array(StringEnum(names), {
      maxItems: 20,
      description:
        'Filters to count matches by, besides the page (repeat the parameter or give a comma list). The response then has ' +
        "`facets`: for each, the matches per value, most first, values without a match left out, the query's own filter on that " +
        `facet left out; companyId gives its ${top} most frequent companies`,
    }),
  );

export type FacetCountsDto = Record<string, Array<Static<typeof FacetCount>>>;

/**
 * The page envelope of every list and search (docs/api.md Pagination). A search that can count facets names
 * them: its envelope may then carry `facets`, only when the request asked for them.
 */
export function Page<T extends TSchema>(item: T, name: string, facets: readonly string[] = []) {
  const envelope = {
    totalItems: Type.Integer({ format: 'int64', minimum: 0 }),
    totalPages: Type.Integer({ format: 'int32', minimum: 0 }),
    page: Type.Integer({ format: 'int32', minimum: 1 }),
    pageSize: Type.Integer({ format: 'int32', minimum: 1, maximum: 50 }),
    items: Type.Array(item),
  };
  if (facets.length === 0) return Type.Object(envelope, { title: name, additionalProperties: false });
  const counts = Type.Object(
    Object.fromEntries(facets.map((facet) => [facet, Type.Optional(Type.Array(FacetCount))])),
    {
      title: `${name}Facets`,
      additionalProperties: false,
      description: 'Present when the request named facets: the counts of each',
    },
  );
  return Type.Object({ ...envelope, facets: Type.Optional(counts) }, { title: name, additionalProperties: false });
}

export interface PageResult<T> {
  totalItems: number;
  totalPages: number;
  page: number;
  pageSize: number;
  items: T[];
  facets?: FacetCountsDto;
  didYouMean?: string;
}

/** A page of a list or search; `facets` only when the request asked for them (else the contract's envelope). */
export function pageOf<T>(
  items: T[],
  totalItems: number,
  page: number,
  pageSize: number,
  facets?: FacetCountsDto,
): PageResult<T> {
  const result: PageResult<T> = { totalItems, totalPages: Math.ceil(totalItems / pageSize), page, pageSize, items };
  if (facets) result.facets = facets;
  return result;
}

/** Search parameters of post and job search beyond the contract (docs/search.md "Typos", "Highlights"). */
export const KeywordQuery = {
  typoTolerance: Type.Optional(
    Type.Boolean({
      description:
        'Keyword words of 5 letters or more also match at one edit, of 9 or more at two, Korean words of 3 syllables or more at one letter; such matches come after the exact ones. Default false',
    }),
  ),
  highlight: Type.Optional(
    Type.Boolean({
      description:
        'Each item gains `highlights`: the fields whose shown text holds the keyword, with fragments and the matched spans. Default false',
    }),
  ),
};

export const Highlight = Type.Object(
  {
    field: Type.String({
      description: "The item field the fragments come from (a job's `description` is in its detail)",
    }),
    fragments: Type.Array(
      Type.Object(
        {
          text: Type.String({ maxLength: 161, description: 'Up to 160 characters of the field, as shown' }),
          matches: Type.Array(Type.Array(Type.Integer({ minimum: 0 }), { minItems: 2, maxItems: 2 }), {
            description: 'The matched spans as [start, end) offsets in UTF-16 code units of `text`',
          }),
        },
        { title: 'HighlightFragment' },
      ),
      { maxItems: 3 },
    ),
  },
  { title: 'Highlight' },
);

/** An item's `highlights` (present when the search asked for them). */
export const Highlights = Type.Optional(
  Type.Array(Highlight, { description: 'With `highlight=true`: why the item matched; empty without a keyword' }),
);

/** A search page's envelope with `didYouMean` (post and job search, whose typos may be tolerated). */
export function CorrectedPage<P extends TObject>(page: P) {
  return Type.Object(
    {
      ...page.properties,
      didYouMean: Type.Optional(
        Type.String({
          description:
            'With typoTolerance, when no item matches the keyword exactly: the keyword as corrected, whose matches `items` holds',
        }),
      ),
    },
    { title: page.title, additionalProperties: false },
  );
}

/** A search page with the keyword its typo tolerance corrected, when there is one. */
export function withCorrection<T>(page: PageResult<T>, didYouMean: string | undefined): PageResult<T> {
  if (didYouMean !== undefined) page.didYouMean = didYouMean;
  return page;
}

/** How many completions a suggestions operation gives. */
export const SuggestionPageSize = Type.Optional(
  Type.Integer({ minimum: 1, maximum: 10, default: 10, description: 'How many suggestions at most' }),
);

/** A handle of a company or member: 1 to 255 of `[A-Za-z0-9_-]`. */
export const Handle = (description: string) =>
  Type.String({ minLength: 0, maxLength: 255, pattern: '^[A-Za-z0-9_-]*$', description });

/** A string enum as JSON Schema `enum` (clear validation messages, and an enum in the OpenAPI document). */
export const StringEnum = <const T extends readonly string[]>(values: T, options: SchemaOptions = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });

/**
 * A value or null. Null comes first: requests are validated with type coercion, which would turn a null into the first
 * branch's type it tries (0 for a number, '' for a text) before it reached a later null branch.
 */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([Type.Null(), schema]);

export const DateTimeUtc = (description?: string) =>
  Type.String({
    format: 'date-time',
    description: description ?? 'ISO 8601 UTC',
    examples: ['2026-11-21T04:40:00.000Z'],
  });

/** A list item's date-time as the real service prints it: UTC wall-clock time, no zone, seconds only when not zero. */
export const ListDateTime = (description: string) =>
  Type.String({
    pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2})?$',
    description: `${description}; UTC wall-clock time without zone, YYYY-MM-DDTHH:mm (:ss only when the seconds are not zero), as in every list`,
    examples: ['2026-08-23T15:00'],
  });

export type { ErrorCode };
