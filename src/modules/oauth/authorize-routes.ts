import cookie from '@fastify/cookie';
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { hashSecret } from '../../shared/keys.js';
import type { WebSessions } from './web-session.js';
import { consentPage, errorPage, loginPage, PAGE_CSS, pageText, type PageLanguage } from './pages.js';
import type { OAuthClient, OAuthRepository } from './oauth-repository.js';
import { ClientMetadataError, type ClientMetadataDocuments } from './client-metadata.js';
import { redirectUriAllowed } from './redirect-uris.js';
import { covers, requestedScopes, unknownScopes } from './scopes.js';
import { pageLanguage } from '../../shared/page-language.js';

export interface AuthorizeOptions {
  oauth: OAuthRepository;
  sessions: WebSessions;
  issuer: string;
  codeSeconds: number;
  clock: () => number;
  /** Clients known by a metadata document at their client_id URL. */
  metadata: ClientMetadataDocuments;
  /**
   * The HTTP API's audience (a `resource` naming it is the default), the MCP endpoint's (the default of clients that
   * exist only for agents), and every other resource tokens may be for.
   */
  resources: { api: string; mcp: string; others: string[] };
}

const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
type SignedInUser = NonNullable<Awaited<ReturnType<WebSessions['user']>>>;

const str = (description: string) => Type.Optional(Type.String({ description }));
const AuthorizeQuery = Type.Object({
  response_type: str('Must be `code`'),
  client_id: str('The client id'),
  redirect_uri: str("Exactly one of the client's registered redirect URIs"),
  scope: str('Space-separated scopes'),
  state: str('Opaque value returned with the response'),
  code_challenge: str('PKCE S256 challenge: base64url(SHA-256(code_verifier)), 43 characters'),
  code_challenge_method: str('Must be `S256`'),
  resource: str('The resource the tokens are for (RFC 8707): this API (the default) or the MCP endpoint (`/mcp`)'),
});
const HTML = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });

type Query = Record<string, string | undefined>;
type Validated =
  | { kind: 'page'; message: string }
  | { kind: 'redirect'; client: OAuthClient; redirectUri: string; error: string; description: string; state?: string }
  | {
      kind: 'ok';
      client: OAuthClient;
      redirectUri: string;
      scopes: string[];
      state?: string;
      challenge: string;
      resource: string | null;
    };

/**
 * GET /oauth/authorize (Authorization Code + PKCE S256), the sign-in form and the consent form.
 * Errors before the client and redirect URI are verified show a page and never redirect; later ones
 * redirect with error, error_description, state and iss (RFC 9207).
 */
export const authorizeRoutes: FastifyPluginAsyncTypebox<AuthorizeOptions> = async (app, opts) => {
  // Cookies (the sign-in session and the form token) exist only on these pages: parsed here, nowhere else.
  await app.register(cookie);
  const { oauth, sessions, issuer, clock } = opts;
  const csrfToken = (request: FastifyRequest, reply: FastifyReply) => sessions.csrfToken(request, reply);

  const language = (request: FastifyRequest): PageLanguage => pageLanguage(request, 'en');

  function validate(query: Query, client: OAuthClient | null): Validated {
    if (!query.client_id || !client)
      return { kind: 'page', message: 'Unknown client_id: the application is not registered.' };
    if (!query.redirect_uri || !redirectUriAllowed(client, query.redirect_uri)) {
      return { kind: 'page', message: 'redirect_uri is missing or is not registered for this application.' };
    }
    const base = { client, redirectUri: query.redirect_uri, state: query.state };
    if (query.response_type !== 'code') {
      return {
        kind: 'redirect',
        ...base,
        error: 'unsupported_response_type',
        description: 'response_type must be code',
      };
    }
    if (!query.code_challenge)
      return {
        kind: 'redirect',
        ...base,
        error: 'invalid_request',
        description: 'code_challenge is required (PKCE with S256)',
      };
    if (query.code_challenge_method !== 'S256') {
      return { kind: 'redirect', ...base, error: 'invalid_request', description: 'code_challenge_method must be S256' };
    }
    if (!CHALLENGE.test(query.code_challenge)) {
      return {
        kind: 'redirect',
        ...base,
        error: 'invalid_request',
        description: 'code_challenge must be 43 base64url characters',
      };
    }
    const scopes = requestedScopes(query.scope);
    if (scopes.length === 0)
      return { kind: 'redirect', ...base, error: 'invalid_scope', description: 'scope is required' };
    const unknown = unknownScopes(scopes);
    if (unknown.length)
      return { kind: 'redirect', ...base, error: 'invalid_scope', description: `Unknown scope: ${unknown.join(' ')}` };
    if (!covers(client.allowedScopes, scopes)) {
      return {
        kind: 'redirect',
        ...base,
        error: 'invalid_scope',
        description: 'The application may not request these scopes',
      };
    }
    // Without `resource`: this API, except for a client known by its metadata document or one that registered itself,
    // which exist for agents (hosts such as Cursor and VS Code often send none): the MCP endpoint.
    const forAgents = opts.metadata.isClientId(client.clientId) || (client.registeredAt ?? null) !== null;
    const asked = query.resource ?? (forAgents ? opts.resources.mcp : undefined);
    const resource = asked === undefined || asked === opts.resources.api ? null : asked;
    if (resource !== null && !opts.resources.others.includes(resource)) {
      return {
        kind: 'redirect',
        ...base,
        error: 'invalid_target',
        description: `resource must be ${[opts.resources.api, ...opts.resources.others].join(' or ')}`,
      };
    }
    return {
      kind: 'ok',
      client,
      redirectUri: query.redirect_uri,
      scopes,
      state: query.state,
      challenge: query.code_challenge,
      resource,
    };
  }

  function redirectWith(
    reply: FastifyReply,
    redirectUri: string,
    params: Record<string, string | undefined>,
    status: 302 | 303,
  ) {
    const url = new URL(redirectUri);
    for (const [key, value] of Object.entries({ ...params, iss: issuer }))
      if (value !== undefined) url.searchParams.set(key, value);
    return reply.header('Cache-Control', 'no-store').redirect(url.toString(), status);
  }

  /**
   * An HTML page. `formTarget`: the redirect URI its form may end at. Browsers hold every hop of a form's redirects to
   * `form-action` (Chrome does), and both forms end at the app: consent directly, sign-in through /oauth/authorize
   * when a prior consent covers the scopes. So the page allows the service and that one origin, nothing more.
   */
  function page(reply: FastifyReply, status: number, html: string, formTarget?: string) {
    // A private-use scheme (`cursor://…`) has no origin: the scheme itself is the source.
    const target = formTarget ? new URL(formTarget) : null;
    const formAction = target
      ? `'self' ${['http:', 'https:'].includes(target.protocol) ? target.origin : target.protocol}`
      : `'self'`;
    return reply
      .status(status)
      .type('text/html; charset=utf-8')
      .headers({
        'Cache-Control': 'no-store',
        'Content-Security-Policy': `default-src 'none'; style-src 'self'; img-src 'self'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
        'X-Frame-Options': 'DENY',
        'Referrer-Policy': 'no-referrer',
      })
      .send(html);
  }

  /**
   * An account whose address nobody has proven gives no client anything: the page says so and nothing is redirected.
   * Anyone can sign up with an address they do not own; a grant made then would outlive its owner taking the account.
   */
  function unproven(request: FastifyRequest, reply: FastifyReply, user: SignedInUser) {
    return user.email_verified
      ? null
      : page(reply, 403, errorPage(language(request), pageText(language(request)).confirmFirst(user.email)));
  }

  /** Signed in and validated: skip consent when a prior one covers the scopes, else ask. */
  async function proceed(
    request: FastifyRequest,
    reply: FastifyReply,
    request_: Extract<Validated, { kind: 'ok' }>,
    user: SignedInUser,
    authorizeQuery: string,
    status: 302 | 303,
  ) {
    const refused = unproven(request, reply, user);
    if (refused) return refused;
    const userId = user.id;
    const userName = user.name;
    const consented = await oauth.consentedScopes(userId, request_.client.clientId);
    if (covers(consented, request_.scopes)) return issueCode(reply, request_, userId, status);
    // A client known by its metadata document has no app: the page says where it describes itself.
    // A client that registered itself has neither: the page says so, when and from which address it registered, and
    // the whole address it will send the user back to.
    const t = pageText(language(request));
    const { registeredAt, registeredFrom } = request_.client;
    const app = request_.client.appId
      ? await oauth.appProfile(request_.client.appId)
      : opts.metadata.isClientId(request_.client.clientId)
        ? {
            name: request_.client.name,
            description: t.identifiedBy(request_.client.clientId),
            homepageUrl: null,
            privacyUrl: null,
          }
        : registeredAt !== null && registeredAt !== undefined
          ? {
              name: request_.client.name,
              description: t.registeredItself(
                new Date(registeredAt).toISOString().slice(0, 10),
                registeredFrom ?? null,
                // The whole URI: a scheme alone (`x-app:`) or a host alone hides where the code goes.
                request_.redirectUri,
              ),
              homepageUrl: null,
              privacyUrl: null,
            }
          : null;
    return page(
      reply,
      200,
      consentPage({
        lang: language(request),
        clientName: request_.client.name,
        app,
        userName,
        scopes: request_.scopes,
        csrf: csrfToken(request, reply),
        authorizeQuery,
      }),
      request_.redirectUri,
    );
  }

  async function issueCode(
    reply: FastifyReply,
    r: Extract<Validated, { kind: 'ok' }>,
    userId: number,
    status: 302 | 303,
  ) {
    const code = randomBytes(32).toString('base64url');
    const now = clock();
    await oauth.createCode({
      codeHash: hashSecret(code),
      clientId: r.client.clientId,
      userId,
      redirectUri: r.redirectUri,
      scopes: r.scopes,
      codeChallenge: r.challenge,
      now,
      expiresAt: now + opts.codeSeconds * 1000,
      resource: r.resource,
    });
    return redirectWith(reply, r.redirectUri, { code, state: r.state }, status);
  }

  async function validated(query: Query, request: FastifyRequest): Promise<Validated> {
    if (query.client_id && opts.metadata.isClientId(query.client_id)) {
      try {
        return validate(
          query,
          await opts.metadata.resolve(query.client_id, () => sessions.metadataFetchAllowed(request), request.log),
        );
      } catch (err) {
        if (err instanceof ClientMetadataError) return { kind: 'page', message: err.message };
        throw err;
      }
    }
    return validate(query, query.client_id ? await oauth.findClient(query.client_id) : null);
  }

  /**
   * An error is redirected to the client only where its redirect URI can be trusted: that of a client an app's builder
   * or the operator registered, or that of a client anyone could make (one known by its metadata document, or one that
   * registered itself) which the signed-in user has already approved. Anyone can publish such a document or register
   * such a client listing any https URL; redirecting its errors unasked would make the service an open redirector
   * (RFC 9700 4.11.2), so until a user has approved it its errors are shown on the service's own page.
   */
  async function mayRedirect(request: FastifyRequest, client: OAuthClient): Promise<boolean> {
    const anyoneCouldMake = opts.metadata.isClientId(client.clientId) || (client.registeredAt ?? null) !== null;
    if ((client.appId ?? null) !== null || !anyoneCouldMake) return true;
    const user = await sessions.user(request);
    return user !== null && (await oauth.consentedScopes(user.id, client.clientId)).length > 0;
  }

  /** A validation that ended in a redirect: the redirect, or the page when the client's redirect URI is not trusted yet. */
  async function refuse(
    request: FastifyRequest,
    reply: FastifyReply,
    checked: Extract<Validated, { kind: 'redirect' }>,
    status: 302 | 303,
  ) {
    if (!(await mayRedirect(request, checked.client)))
      return page(reply, 400, errorPage(language(request), `${checked.error}: ${checked.description}`));
    return redirectWith(
      reply,
      checked.redirectUri,
      { error: checked.error, error_description: checked.description, state: checked.state },
      status,
    );
  }

  app.get('/oauth/assets/page.css', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('Cache-Control', 'public, max-age=86400').send(PAGE_CSS),
  );

  app.get(
    '/oauth/authorize',
    {
      schema: {
        tags: ['OAuth Authorization'],
        operationId: 'oauthAuthorize',
        summary: 'Start the Authorization Code + PKCE (S256) flow',
        description:
          'Shows the sign-in and consent pages, then redirects to redirect_uri with code, state and iss. A prior consent that covers the requested scopes skips the consent page.',
        querystring: AuthorizeQuery,
        response: {
          200: HTML('Sign-in or consent page'),
          302: { description: 'Redirect to redirect_uri with `code` (or `error`), `state` and `iss`', type: 'null' },
          400: HTML('Error page: unknown client or unregistered redirect_uri (no redirect)'),
        },
      },
    },
    async (request, reply) => {
      const query = request.query as Query;
      const checked = await validated(query, request);
      if (checked.kind === 'page') return page(reply, 400, errorPage(language(request), checked.message));
      if (checked.kind === 'redirect') return refuse(request, reply, checked, 302);
      const authorizeQuery = new URLSearchParams(query as Record<string, string>).toString();
      const user = await sessions.user(request);
      if (!user) {
        return page(
          reply,
          200,
          loginPage({
            lang: language(request),
            clientName: checked.client.name,
            csrf: csrfToken(request, reply),
            authorizeQuery,
          }),
          checked.redirectUri,
        );
      }
      return proceed(request, reply, checked, user, authorizeQuery, 302);
    },
  );

  const LoginBody = Type.Object({
    email: Type.Optional(Type.String({ maxLength: 320 })),
    password: Type.Optional(Type.String({ maxLength: 1024 })),
    csrf_token: Type.Optional(Type.String()),
    authorize_query: Type.Optional(Type.String({ maxLength: 8192 })),
  });

  app.post(
    '/oauth/login',
    {
      schema: {
        tags: ['OAuth Authorization'],
        operationId: 'submitOAuthSignIn',
        summary: 'Sign in (the form of the sign-in page)',
        consumes: ['application/x-www-form-urlencoded'],
        body: LoginBody,
        response: {
          200: HTML('Sign-in page again'),
          303: { description: 'Back to /oauth/authorize', type: 'null' },
          401: HTML('Wrong credentials'),
          403: HTML('Form expired'),
          429: HTML('Too many attempts'),
        },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const lang = language(request);
      const t = pageText(lang);
      const authorizeQuery = new URLSearchParams(body.authorize_query ?? '').toString();
      const query = Object.fromEntries(new URLSearchParams(authorizeQuery)) as Query;
      const checked = await validated(query, request);
      if (checked.kind === 'page') return page(reply, 400, errorPage(lang, checked.message));
      const clientName = checked.kind === 'ok' ? checked.client.name : '';
      const again = (status: number, error: string) =>
        page(
          reply,
          status,
          loginPage({
            lang,
            clientName,
            csrf: csrfToken(request, reply),
            authorizeQuery,
            email: body.email,
            error,
          }),
          checked.redirectUri,
        );

      if (!sessions.csrfValid(request, body.csrf_token)) return again(403, t.expired);
      const signedIn = await sessions.signIn(request, reply, body.email, body.password);
      if (signedIn.kind === 'throttled') return again(429, t.tooMany);
      if (signedIn.kind === 'refused') return again(401, t.badCredentials);
      return reply.redirect(`/oauth/authorize?${authorizeQuery}`, 303);
    },
  );

  const DecisionBody = Type.Object({
    csrf_token: Type.Optional(Type.String()),
    authorize_query: Type.Optional(Type.String({ maxLength: 8192 })),
    decision: Type.Optional(Type.String({ description: '`allow` or `deny`' })),
  });

  app.post(
    '/oauth/authorize',
    {
      schema: {
        tags: ['OAuth Authorization'],
        operationId: 'submitOAuthConsent',
        summary: 'Allow or deny (the form of the consent page)',
        consumes: ['application/x-www-form-urlencoded'],
        body: DecisionBody,
        response: {
          303: { description: 'Redirect to redirect_uri with `code`, or `error=access_denied`', type: 'null' },
          400: HTML('Error page'),
          403: HTML('Form expired'),
        },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const lang = language(request);
      const authorizeQuery = new URLSearchParams(body.authorize_query ?? '').toString();
      const query = Object.fromEntries(new URLSearchParams(authorizeQuery)) as Query;
      const checked = await validated(query, request);
      if (checked.kind === 'page') return page(reply, 400, errorPage(lang, checked.message));
      if (checked.kind === 'redirect') return refuse(request, reply, checked, 303);
      if (!sessions.csrfValid(request, body.csrf_token))
        return page(reply, 403, errorPage(lang, pageText(lang).expired));
      const user = await sessions.user(request);
      if (!user) return reply.redirect(`/oauth/authorize?${authorizeQuery}`, 303);
      const refused = unproven(request, reply, user);
      if (refused) return refused;
      if (body.decision !== 'allow') {
        return redirectWith(
          reply,
          checked.redirectUri,
          { error: 'access_denied', error_description: 'The user denied the request', state: checked.state },
          303,
        );
      }
      const previous = await oauth.consentedScopes(user.id, checked.client.clientId);
      await oauth.saveConsent(
        user.id,
        checked.client.clientId,
        [...new Set([...previous, ...checked.scopes])],
        clock(),
      );
      return issueCode(reply, checked, user.id, 303);
    },
  );
};
