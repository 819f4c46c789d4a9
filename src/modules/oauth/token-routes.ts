import { createHash } from 'node:crypto';
import type { FastifyError } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { hashSecret } from '../../shared/keys.js';
import { authenticateClient } from './client-auth.js';
import { OAuthError } from './oauth-error.js';
import type { OAuthClient, OAuthRepository } from './oauth-repository.js';
import { OAuthErrorBody, RevokeRequest, TokenRequest, TokenResponseSchema } from './oauth-schemas.js';
import { covers, requestedScopes } from './scopes.js';
import type { TokenResponse, TokenService } from './token-service.js';

const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
type Form = Record<string, string | undefined>;

function need(body: Form, name: string): string {
  const value = body[name];
  if (!value) throw new OAuthError('invalid_request', `${name} is required`);
  return value;
}

const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

/** POST /oauth/token and POST /oauth/revoke, answering errors as `{error, error_description}`. */
export const tokenRoutes: FastifyPluginAsyncTypebox<{
  oauth: OAuthRepository;
  tokens: TokenService;
  clock: () => number;
}> = async (app, opts) => {
  const { oauth, tokens, clock } = opts;

  app.setErrorHandler((error: FastifyError | OAuthError, request, reply) => {
    let oauthError: OAuthError;
    if (error instanceof OAuthError) oauthError = error;
    else if ('validation' in error && error.validation) oauthError = new OAuthError('invalid_request', error.message);
    else if (error.statusCode !== undefined && error.statusCode < 500)
      oauthError = new OAuthError('invalid_request', error.message);
    else {
      request.log.error({ err: error }, 'token endpoint failed');
      oauthError = new OAuthError('server_error', 'The server could not complete the request', 500);
    }
    return reply
      .status(oauthError.statusCode)
      .headers({ ...NO_STORE, ...oauthError.headers })
      .send({ error: oauthError.error, error_description: oauthError.description });
  });

  app.addHook('preValidation', async (request) => {
    if (!request.headers['content-type']?.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
      throw new OAuthError('invalid_request', 'The body must be application/x-www-form-urlencoded');
    }
  });

  const errors = { 400: OAuthErrorBody, 401: OAuthErrorBody, 500: OAuthErrorBody };

  app.post(
    '/oauth/token',
    {
      schema: {
        tags: ['OAuth Token'],
        operationId: 'oauthToken',
        summary: 'Exchange an authorization code, or a refresh token, for tokens',
        description:
          'Client authentication: HTTP Basic (form-urlencoded id and secret) or client_id/client_secret in the body; public clients send client_id only.',
        consumes: ['application/x-www-form-urlencoded'],
        body: TokenRequest,
        response: { 200: TokenResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const body = request.body as Form;
      const client = await authenticateClient(request, body, oauth, clock());
      reply.headers(NO_STORE);
      switch (body.grant_type) {
        case 'authorization_code':
          return exchangeCode(client.clientId, body);
        case 'refresh_token':
          return refresh(client, body);
        case undefined:
        case '':
          throw new OAuthError('invalid_request', 'grant_type is required');
        default:
          throw new OAuthError(
            'unsupported_grant_type',
            `grant_type ${JSON.stringify(body.grant_type)} is not supported; use authorization_code or refresh_token`,
          );
      }
    },
  );

  async function exchangeCode(clientId: string, body: Form): Promise<TokenResponse> {
    const code = need(body, 'code');
    const redirectUri = need(body, 'redirect_uri');
    const verifier = need(body, 'code_verifier');
    if (!VERIFIER.test(verifier)) {
      throw new OAuthError('invalid_request', 'code_verifier must be 43 to 128 characters of A-Z a-z 0-9 . _ ~ -');
    }
    const codeHash = hashSecret(code);
    const now = clock();
    const outcome = await oauth.transaction(async (repo) => {
      // Bound to its client before anything changes (RFC 9700 2.2.1, 4.14): another client that holds a leaked
      // code is refused and spends nothing, so the code's own client can still use it.
      const issued = await repo.findCode(codeHash);
      if (!issued || issued.client_id !== clientId)
        return { kind: 'error', error: 'The authorization code is not valid for this client' } as const;
      const row = await repo.consumeCode(codeHash, now);
      if (!row) {
        if (issued.grant_id) {
          await repo.revokeGrant(issued.grant_id, 'authorization code replayed', now);
          return { kind: 'replayed', grantId: issued.grant_id } as const;
        }
        return { kind: 'error', error: 'The authorization code is expired or already used' } as const;
      }
      if (row.expires_at <= now)
        return { kind: 'error', error: 'The authorization code is expired or already used' } as const;
      if (row.redirect_uri !== redirectUri)
        return { kind: 'error', error: 'redirect_uri does not match the authorization request' } as const;
      if (s256(verifier) !== row.code_challenge)
        return { kind: 'error', error: 'code_verifier does not match the code_challenge' } as const;
      if (body.resource !== undefined && body.resource !== tokens.audienceOf(row.resource)) {
        // Thrown: the transaction rolls back, and the code is not spent on a refused request.
        throw new OAuthError('invalid_target', 'resource is not the one of the authorization request');
      }
      const opened = await tokens.openGrant(
        repo,
        row.user_id,
        clientId,
        row.scopes.split(' ').filter(Boolean),
        row.resource,
      );
      await repo.linkCodeToGrant(codeHash, opened.grantId);
      return { kind: 'ok', tokens: opened.tokens } as const;
    });
    if (outcome.kind === 'ok') return outcome.tokens;
    if (outcome.kind === 'replayed') {
      tokens.forgetGrant(outcome.grantId);
      throw new OAuthError(
        'invalid_grant',
        'The authorization code is expired or already used; the tokens issued from it are revoked',
      );
    }
    throw new OAuthError('invalid_grant', outcome.error);
  }

  async function refresh(client: OAuthClient, body: Form): Promise<TokenResponse> {
    const { clientId } = client;
    const tokenHash = hashSecret(need(body, 'refresh_token'));
    const requested = body.scope === undefined ? null : requestedScopes(body.scope);
    const now = clock();
    const outcome = await oauth.transaction(async (repo) => {
      // Bound to its client before anything changes: a leaked refresh token sent by another client is refused
      // without being consumed, so it cannot be spent to make the real client's next refresh look like reuse.
      const known = await repo.findRefreshToken(tokenHash);
      const grant = known && (await repo.findGrant(known.grant_id));
      if (!known || !grant || grant.client_id !== clientId)
        return { kind: 'error', error: new OAuthError('invalid_grant', 'The refresh token is not valid') } as const;
      const row = await repo.consumeRefreshToken(tokenHash, now);
      if (!row) {
        await repo.revokeGrant(grant.id, 'refresh token reused', now);
        return { kind: 'reused', grantId: grant.id } as const;
      }
      if (grant.revoked_at !== null)
        return { kind: 'error', error: new OAuthError('invalid_grant', 'The refresh token was revoked') } as const;
      if (row.expires_at <= now)
        return { kind: 'error', error: new OAuthError('invalid_grant', 'The refresh token expired') } as const;
      // What the user granted, less what the client may no longer ask for (its builder narrowed its scopes).
      const granted = grant.scopes
        .split(' ')
        .filter(Boolean)
        .filter((scope) => covers(client.allowedScopes, [scope]));
      // Thrown, not returned: the transaction rolls back, so the refresh token is not spent on a refused request.
      if (granted.length === 0)
        throw new OAuthError('invalid_scope', 'The client may no longer ask for any scope of this grant');
      if (requested !== null && (requested.length === 0 || !covers(granted, requested))) {
        throw new OAuthError('invalid_scope', `A refresh may only narrow the granted scopes (${granted.join(' ')})`);
      }
      if (body.resource !== undefined && body.resource !== tokens.audienceOf(grant.resource)) {
        throw new OAuthError('invalid_target', 'resource is not the one the grant was made for');
      }
      return {
        kind: 'ok',
        tokens: await tokens.issue(repo, {
          grantId: grant.id,
          userId: grant.user_id,
          clientId,
          scopes: requested ?? granted,
          resource: grant.resource,
        }),
      } as const;
    });
    if (outcome.kind === 'ok') return outcome.tokens;
    if (outcome.kind === 'reused') {
      tokens.forgetGrant(outcome.grantId);
      throw new OAuthError(
        'invalid_grant',
        'The refresh token was already used; every token of its grant is now revoked',
      );
    }
    throw outcome.error;
  }

  app.post(
    '/oauth/revoke',
    {
      schema: {
        tags: ['OAuth Token'],
        operationId: 'oauthRevoke',
        summary: 'Revoke a refresh token (RFC 7009)',
        description:
          "Ends the token's grant: its refresh tokens and access tokens stop working at once. Unknown or already revoked tokens are a success too.",
        consumes: ['application/x-www-form-urlencoded'],
        body: RevokeRequest,
        response: { 200: Type.Object({}, { description: 'Revoked (or nothing to revoke)' }), ...errors },
      },
    },
    async (request, reply) => {
      const body = request.body as Form;
      const client = await authenticateClient(request, body, oauth, clock());
      const token = need(body, 'token');
      reply.headers(NO_STORE);
      const refreshToken = await oauth.findRefreshToken(hashSecret(token));
      if (refreshToken) {
        const grant = await oauth.findGrant(refreshToken.grant_id);
        if (grant && grant.client_id === client.clientId) await tokens.revokeGrant(grant.id, 'revoked by the client');
        return {};
      }
      for (const audience of tokens.audiences) {
        try {
          const claims = await tokens.verify(token, audience);
          if (claims.clientId === client.clientId) await tokens.revokeGrant(claims.grantId, 'revoked by the client');
          break;
        } catch {
          // Not a token of ours for this resource, or already invalid: nothing to revoke (RFC 7009 2.2).
        }
      }
      return {};
    },
  );
};
