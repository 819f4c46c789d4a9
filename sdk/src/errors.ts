import type { components } from './schema.js';

/**
 * Every error code of the API by name, to branch on `SvcApiError.code` without spelling codes:
 * `if (err.code === ErrorCode.RateLimited) …`. The service's docs (docs/api.md, "Errors") say when each is answered.
 */
export const ErrorCode = {
  /** 401: the app key is missing, malformed, unknown or revoked. */
  InvalidApiKey: 'C0001',
  /** 400: a path parameter or the body is malformed. */
  MalformedRequest: 'C0002',
  /** 401: the Bearer token is missing, malformed, expired, or its grant was revoked. */
  InvalidToken: 'C0003',
  /** 403: the user lacks the capability at the company, or the role on the job or event. */
  NotPermitted: 'C0004',
  /** 400: a query parameter breaks its rule. */
  InvalidParameter: 'C0005',
  /** 413: the request body is over its limit. */
  PayloadTooLarge: 'C0006',
  /** 415: the wrong content type for the operation. */
  UnsupportedMediaType: 'C0007',
  /** 404: a company, ticket, session, FAQ, host or route that does not exist. */
  NotFound: 'C0008',
  /** 409: a transition not allowed, or an Idempotency-Key reused with another request or still in progress. */
  Conflict: 'C0009',
  /** 429: a rate limit; `retryAfter` says when to try again. */
  RateLimited: 'C0010',
  /** 403: the token lacks the operation's scope. */
  InsufficientScope: 'C0011',
  /** 405: the path exists, but not with this method. */
  MethodNotAllowed: 'C0012',
  /** 410: a change-feed cursor no longer kept (or of another copy of the data): read the state again, then follow from `now`. */
  CursorExpired: 'C0013',
  /** 503: the service's database did not answer in time; try again after `retryAfter`. */
  ServiceUnavailable: 'C9998',
  /** 500: something unexpected; quote `requestId` when reporting it. */
  InternalError: 'C9999',
  /** 404: no such post. */
  PostNotFound: 'P0002',
  /** 403: the post is someone else's. */
  NotPostAuthor: 'P0003',
  /** 400: more than 10 images in one request. */
  TooManyImages: 'P0010',
  /** 400: an image over the size or pixel limits. */
  ImageTooLarge: 'P0011',
  /** 400: a file that is not a JPEG, PNG, WebP or GIF that decodes. */
  NotAnImage: 'P0012',
  /** 502: the images could not be processed or stored; nothing was saved, try again. */
  ImagesNotStored: 'P0013',
  /** 404: no such job posting. */
  JobNotFound: 'R0001',
  /** 404: no such event. */
  EventNotFound: 'EV001',
  /** 409: the event has tickets or guests, so it cannot be deleted. */
  EventHasTicketsOrGuests: 'EV022',
} as const satisfies Record<string, components['schemas']['ErrorResponse']['code']>;

/** Every error code of the API (its ErrorResponse `code`). */
export type ErrorCode = components['schemas']['ErrorResponse']['code'];

/** A non-2xx answer of the API, with the ErrorResponse fields: branch on `code`. */
export class SvcApiError extends Error {
  override readonly name = 'SvcApiError';

  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details: string | null,
    readonly timestamp: string,
    /** The service's id of the request (X-Request-Id): quote it when reporting a problem. */
    readonly requestId: string | null,
    /** Seconds from Retry-After, when the answer carries one (429, and 409 for a key still in progress). */
    readonly retryAfter: number | null,
  ) {
    super(message);
  }
}

/** An OAuth 2.0 error of the token, revoke or userinfo endpoints (RFC 6749 section 5.2). */
export class OAuthError extends Error {
  override readonly name = 'OAuthError';

  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string | null,
  ) {
    super(description ? `${error}: ${description}` : error);
  }
}

/** An answer that is neither: a proxy's page, an empty 502. */
export class UnexpectedResponseError extends Error {
  override readonly name = 'UnexpectedResponseError';

  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`Unexpected ${status} response: ${body.slice(0, 200)}`);
  }
}

export async function errorOf(response: Response): Promise<Error> {
  const text = await response.text();
  let body: Record<string, unknown> | null;
  try {
    body = JSON.parse(text) as Record<string, unknown> | null;
  } catch {
    return new UnexpectedResponseError(response.status, text);
  }
  const retryAfter = response.headers.get('retry-after');
  if (body && typeof body.code === 'string' && typeof body.message === 'string') {
    return new SvcApiError(
      response.status,
      body.code as ErrorCode,
      body.message,
      (body.details as string | null) ?? null,
      String(body.timestamp ?? ''),
      response.headers.get('x-request-id'),
      retryAfter === null ? null : Number(retryAfter),
    );
  }
  if (body && typeof body.error === 'string') {
    return new OAuthError(
      response.status,
      body.error,
      typeof body.error_description === 'string' ? body.error_description : null,
    );
  }
  return new UnexpectedResponseError(response.status, text);
}
