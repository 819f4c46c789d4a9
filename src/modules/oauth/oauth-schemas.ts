import { Type } from '@sinclair/typebox';

/** Every OAuth form field: codes, tokens, URIs and ids are all far shorter than this bound. */
const field = (description: string) => Type.Optional(Type.String({ description, maxLength: 2048 }));

export const TokenRequest = Type.Object(
  {
    grant_type: field('`authorization_code` or `refresh_token`'),
    code: field('The one-time code from the authorize step'),
    redirect_uri: field('Exactly the redirect_uri of the authorize step'),
    code_verifier: field('PKCE verifier: 43 to 128 characters of A-Z a-z 0-9 . _ ~ -'),
    refresh_token: field('The refresh token (one-time use)'),
    scope: field('On refresh: a subset of the granted scopes'),
    resource: field('The resource the tokens are for (RFC 8707), if sent: the one of the authorization request'),
    client_id: field('Optional with Basic authentication'),
    client_secret: field('Optional with Basic authentication'),
  },
  { title: 'TokenRequest' },
);

export const RevokeRequest = Type.Object(
  {
    token: field('The refresh token (or access token) to revoke'),
    token_type_hint: field('For example refresh_token'),
    client_id: field('Optional with Basic authentication'),
    client_secret: field('Optional with Basic authentication'),
  },
  { title: 'RevokeRequest' },
);

export const TokenResponseSchema = Type.Object(
  {
    access_token: Type.String({ description: 'Bearer access token, an RFC 9068 JWT' }),
    token_type: Type.Literal('Bearer'),
    expires_in: Type.Integer({ description: 'Lifetime in seconds' }),
    refresh_token: Type.String({ description: 'One-time refresh token' }),
    scope: Type.String({ description: 'Issued scopes, space-separated' }),
  },
  { title: 'TokenResponse' },
);

export const OAuthErrorBody = Type.Object(
  {
    error: Type.String({ examples: ['invalid_grant'] }),
    error_description: Type.String(),
  },
  { title: 'OAuthError' },
);
