import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { SigningKeys } from './signing-keys.js';
import { SIGNING_ALGORITHM } from './signing-keys.js';
import { SUPPORTED_SCOPES } from './scopes.js';

/** RFC 8414 metadata and the JWKS of the access-token signing keys. */
export const discoveryRoutes: FastifyPluginAsyncTypebox<{ issuer: string; keys: SigningKeys }> = async (
  app,
  { issuer, keys },
) => {
  const metadata = {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    registration_endpoint: `${issuer}/oauth/register`,
    userinfo_endpoint: `${issuer}/oauth/userinfo`,
    jwks_uri: `${issuer}/oauth/jwks`,
    scopes_supported: SUPPORTED_SCOPES,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: true,
    service_documentation: `${issuer}/docs`,
  };

  app.get(
    '/.well-known/oauth-authorization-server',
    {
      schema: {
        tags: ['OAuth Authorization'],
        operationId: 'getAuthorizationServerMetadata',
        summary: 'Authorization server metadata (RFC 8414)',
        response: { 200: Type.Object({ issuer: Type.String() }, { additionalProperties: true }) },
      },
    },
    async (_request, reply) => reply.header('Cache-Control', 'public, max-age=3600').send(metadata),
  );

  app.get(
    '/oauth/jwks',
    {
      schema: {
        tags: ['OAuth Authorization'],
        operationId: 'getJwks',
        summary: 'Public keys that sign access tokens (JWKS)',
        description: `Keys are ${SIGNING_ALGORITHM}. A retired key stays here until every token it signed has expired.`,
        response: { 200: Type.Object({ keys: Type.Array(Type.Object({}, { additionalProperties: true })) }) },
      },
    },
    async (_request, reply) => reply.header('Cache-Control', 'public, max-age=60').send(await keys.jwks()),
  );
};
