/** An OAuth 2.0 error (RFC 6749 5.2 / RFC 7009), answered as `{error, error_description}`. */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly statusCode: number = 400,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
    this.name = 'OAuthError';
  }

  static invalidClient(description: string): OAuthError {
    return new OAuthError('invalid_client', description, 401, {
      'WWW-Authenticate': 'Basic realm="oauth", charset="UTF-8"',
    });
  }
}
