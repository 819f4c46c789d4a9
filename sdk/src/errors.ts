import type { components } from './schema.js';

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

  constructor(readonly status: number, readonly error: string, readonly description: string | null) {
    super(description ? `${error}: ${description}` : error);
  }
}

/** An answer that is neither: a proxy's page, an empty 502. */
export class UnexpectedResponseError extends Error {
  override readonly name = 'UnexpectedResponseError';

  constructor(readonly status: number, readonly body: string) {
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
    return new SvcApiError(response.status, body.code as ErrorCode, body.message, (body.details as string | null) ?? null,
      String(body.timestamp ?? ''), response.headers.get('x-request-id'), retryAfter === null ? null : Number(retryAfter));
  }
  if (body && typeof body.error === 'string') {
    return new OAuthError(response.status, body.error, typeof body.error_description === 'string' ? body.error_description : null);
  }
  return new UnexpectedResponseError(response.status, text);
}
