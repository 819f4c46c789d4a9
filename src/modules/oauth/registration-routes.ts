/**
 * Dynamic Client Registration (RFC 7591), the fallback most MCP hosts still use when they find no pre-registered
 * client and cannot host a metadata document: `POST /oauth/register` with the client's metadata, answered with its
 * `client_id` (and, for a confidential client, its secret, once). A host says what it is with `application_type`
 * (OpenID Connect Registration): `native` (desktop and CLI hosts: loopback redirects, on any port, and private-use
 * schemes such as `cursor://`) or `web` (https). Registration is open, so it is throttled per client address, and a
 * client that has completed no grant a day after registering is removed.
 */
import type { FastifyError, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { hashSecret, newClientSecret, randomBase62 } from '../../shared/keys.js';
import { hasHiddenCharacters } from '../../shared/text-input.js';
import { OAuthError } from './oauth-error.js';
import type { OAuthRepository } from './oauth-repository.js';
import {
  canonicalRedirectUri,
  isHttpsOrLoopback,
  isLoopbackHttp,
  isPrivateUse,
  returnTarget,
} from './redirect-uris.js';
import { SUPPORTED_SCOPES } from './scopes.js';

/** How long a registered client may go without completing a grant before it is removed. */
const UNUSED_FOR_MS = 86_400_000;
const AUTH_METHODS = ['none', 'client_secret_basic', 'client_secret_post'] as const;
type AuthMethod = (typeof AUTH_METHODS)[number];

const metadataError = (description: string) => new OAuthError('invalid_client_metadata', description);
const redirectError = (description: string) => new OAuthError('invalid_redirect_uri', description);

/** The redirect URIs a registration gives, checked for what the client says it is. */
function redirectUris(value: unknown, type: 'native' | 'web'): string[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > 10)
    throw redirectError('redirect_uris must list 1 to 10 URIs');
  return value.map((uri: unknown) => {
    if (typeof uri !== 'string' || uri.length > 2_048 || hasHiddenCharacters(uri))
      throw redirectError('Each redirect URI is a string of at most 2,048 visible characters');
    const canonical = canonicalRedirectUri(uri);
    if (typeof canonical !== 'string') throw redirectError(`Redirect URI "${uri.slice(0, 200)}" ${canonical.problem}`);
    const url = new URL(canonical);
    const allowed =
      type === 'native'
        ? url.protocol === 'https:' || isLoopbackHttp(url) || isPrivateUse(url)
        : isHttpsOrLoopback(url);
    if (!allowed) {
      throw redirectError(
        type === 'native'
          ? `Redirect URI "${uri.slice(0, 200)}" must be https, http on a loopback address, or a private-use scheme of the app's own (such as cursor://; never a browser's)`
          : `Redirect URI "${uri.slice(0, 200)}" must be https (http only on 127.0.0.1, localhost or [::1])`,
      );
    }
    return canonical;
  });
}

/** `application_type` as given, or as the rest implies: a public client with only loopback or private-use redirects is native. */
function applicationType(body: Record<string, unknown>, method: AuthMethod): 'native' | 'web' {
  const given = body.application_type;
  if (given === 'native' || given === 'web') return given;
  if (given !== undefined) throw metadataError('application_type must be native or web');
  const uris = Array.isArray(body.redirect_uris) ? body.redirect_uris : [];
  const local = uris.every((uri) => {
    try {
      const url = new URL(String(uri));
      return isLoopbackHttp(url) || isPrivateUse(url);
    } catch {
      return false;
    }
  });
  return method === 'none' && local ? 'native' : 'web';
}

function stringList(
  body: Record<string, unknown>,
  name: string,
  allowed: readonly string[],
  fallback: string[],
): string[] {
  const value = body[name];
  if (value === undefined) return fallback;
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string' || !allowed.includes(item))) {
    throw metadataError(`${name} may list only ${allowed.join(', ')}`);
  }
  return [...new Set(value as string[])];
}

const Registration = Type.Object(
  {
    redirect_uris: Type.Array(Type.String(), {
      description:
        '1 to 10 redirect URIs: https; for `native` clients also http on a loopback address (matched on any port) and private-use schemes',
    }),
    client_name: Type.Optional(
      Type.String({ description: 'Shown on the sign-in and consent pages, marked as registered by the client itself' }),
    ),
    application_type: Type.Optional(
      Type.String({
        description:
          '`native` or `web` (default: `native` for a public client whose redirects are all loopback or private-use, else `web`)',
      }),
    ),
    token_endpoint_auth_method: Type.Optional(
      Type.String({
        description: '`none` (a public client: PKCE only), `client_secret_basic` (the default) or `client_secret_post`',
      }),
    ),
    grant_types: Type.Optional(Type.Array(Type.String(), { description: '`authorization_code` and `refresh_token`' })),
    response_types: Type.Optional(Type.Array(Type.String(), { description: '`code`' })),
    scope: Type.Optional(
      Type.String({
        description: 'Space-separated scopes the client may ask for (default: every scope); unknown ones are left out',
      }),
    ),
  },
  { title: 'ClientRegistrationRequest', additionalProperties: true },
);

const Registered = Type.Object(
  {
    client_id: Type.String(),
    client_secret: Type.Optional(Type.String({ description: 'Only for a confidential client, shown this once' })),
    client_id_issued_at: Type.Integer(),
    client_secret_expires_at: Type.Optional(Type.Integer({ description: '0: the secret does not expire' })),
    client_name: Type.String(),
    redirect_uris: Type.Array(Type.String()),
    application_type: Type.String(),
    token_endpoint_auth_method: Type.String(),
    grant_types: Type.Array(Type.String()),
    response_types: Type.Array(Type.String()),
    scope: Type.String(),
  },
  { title: 'ClientRegistrationResponse' },
);

const RegistrationError = Type.Object(
  { error: Type.String({ examples: ['invalid_redirect_uri'] }), error_description: Type.String() },
  { title: 'ClientRegistrationError' },
);

export const registrationRoutes: FastifyPluginAsyncTypebox<{
  oauth: OAuthRepository;
  clock: () => number;
  /** Whether this client address may register one more client now (the sign-in throttle's windows). */
  allowed: (request: FastifyRequest) => Promise<boolean>;
}> = async (app, opts) => {
  const { oauth, clock } = opts;

  app.setErrorHandler((error: FastifyError | OAuthError, request, reply) => {
    let refused: OAuthError;
    if (error instanceof OAuthError) refused = error;
    else if (error.statusCode !== undefined && error.statusCode < 500) refused = metadataError(error.message);
    else {
      request.log.error({ err: error }, 'client registration failed');
      refused = new OAuthError('server_error', 'The server could not complete the request', 500);
    }
    return reply
      .status(refused.statusCode)
      .header('Cache-Control', 'no-store')
      .send({ error: refused.error, error_description: refused.description });
  });

  app.post(
    '/oauth/register',
    {
      schema: {
        tags: ['OAuth Authorization'],
        operationId: 'registerOAuthClient',
        summary: 'Register a client (RFC 7591 Dynamic Client Registration)',
        description:
          'For agent hosts with no pre-registered client and no Client ID Metadata Document. No credentials: throttled per client address; a client that completes no grant within a day of registering is removed.',
        body: Registration,
        response: { 201: Registered, 400: RegistrationError, 429: RegistrationError },
      },
      // The body's own rules (RFC 7591's error codes) are checked below, not by the schema's validation.
      attachValidation: true,
    },
    async (request, reply) => {
      const body = (
        typeof request.body === 'object' && request.body !== null && !Array.isArray(request.body) ? request.body : {}
      ) as Record<string, unknown>;
      const method = (body.token_endpoint_auth_method ?? 'client_secret_basic') as AuthMethod;
      if (!AUTH_METHODS.includes(method))
        throw metadataError(`token_endpoint_auth_method must be one of ${AUTH_METHODS.join(', ')}`);
      const type = applicationType(body, method);
      const uris = redirectUris(body.redirect_uris, type);
      const grantTypes = stringList(
        body,
        'grant_types',
        ['authorization_code', 'refresh_token'],
        ['authorization_code', 'refresh_token'],
      );
      if (!grantTypes.includes('authorization_code'))
        throw metadataError('grant_types must include authorization_code');
      const responseTypes = stringList(body, 'response_types', ['code'], ['code']);
      const name = body.client_name === undefined ? '' : body.client_name;
      if (typeof name !== 'string' || name.length > 100 || hasHiddenCharacters(name))
        throw metadataError('client_name is at most 100 visible characters');
      if (body.scope !== undefined && typeof body.scope !== 'string')
        throw metadataError('scope is a space-separated string');
      const scopes =
        typeof body.scope === 'string'
          ? body.scope.split(' ').filter((scope) => SUPPORTED_SCOPES.includes(scope))
          : SUPPORTED_SCOPES;
      if (scopes.length === 0)
        throw metadataError(`scope names none of the scopes this server has (${SUPPORTED_SCOPES.join(' ')})`);
      if (!(await opts.allowed(request)))
        throw new OAuthError(
          'too_many_requests',
          'Too many clients registered from this address: wait a while and try again',
          429,
        );

      const now = clock();
      // Registrations that were never used are cleared as new ones come: nothing else needs a timer for it.
      await oauth.removeUnusedRegistrations(now - UNUSED_FOR_MS);
      const clientId = `svcd_${randomBase62(24)}`;
      const secret = method === 'none' ? null : newClientSecret();
      // Where it sends users back stands beside the name it chose, wherever the name is shown (sign-in, consent,
      // Connected apps), as a metadata document's host does: no registration can pass itself off as another app by
      // name. Every place it may send them, not only the first: it chooses which at each authorization.
      const where = [...new Set(uris.map(returnTarget))].join(', ');
      const clientName = name.trim() ? `${name.trim()} (${where})` : where;
      await oauth.createClient(
        {
          clientId,
          name: clientName,
          secretHash: secret === null ? null : hashSecret(secret),
          redirectUris: uris,
          allowedScopes: scopes,
          appId: null,
          registeredAt: now,
          applicationType: type,
          registeredFrom: request.ip,
        },
        now,
      );
      return reply
        .status(201)
        .header('Cache-Control', 'no-store')
        .send({
          client_id: clientId,
          ...(secret === null ? {} : { client_secret: secret, client_secret_expires_at: 0 }),
          client_id_issued_at: Math.floor(now / 1000),
          client_name: clientName,
          redirect_uris: uris,
          application_type: type,
          token_endpoint_auth_method: method,
          grant_types: grantTypes,
          response_types: responseTypes,
          scope: scopes.join(' '),
        });
    },
  );
};
