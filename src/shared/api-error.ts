/** Every error code the API returns, with its HTTP status (docs/api.md Errors and docs/decisions.md). */
export const ERROR_STATUS = {
  C0001: 401,
  C0002: 400,
  C0003: 401,
  C0004: 403,
  C0005: 400,
  C0006: 413,
  C0007: 415,
  C0008: 404,
  C0009: 409,
  C0010: 429,
  C0011: 403,
  C0012: 405,
  C0013: 410,
  C9998: 503,
  C9999: 500,
  P0002: 404,
  P0003: 403,
  P0010: 400,
  P0011: 400,
  P0012: 400,
  P0013: 502,
  R0001: 404,
  EV001: 404,
  EV022: 409,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** The one error type of the API: a spec error code, a message naming rule and input, and the field. */
export class ApiError extends Error {
  readonly statusCode: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: string | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.statusCode = ERROR_STATUS[code];
  }
}

export const notFound = {
  post: (id: unknown) => new ApiError('P0002', `Post ${String(id)} does not exist`, 'postId'),
  job: (id: unknown) => new ApiError('R0001', `Job ${String(id)} does not exist`, 'jobId'),
  event: (id: unknown) => new ApiError('EV001', `Event ${String(id)} does not exist`, 'eventId'),
  user: (id: unknown) => new ApiError('C0008', `User ${String(id)} does not exist`, 'sub'),
};
