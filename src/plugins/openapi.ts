import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import { addWebhooks } from '../openapi/webhooks.js';
import { finishDocument } from '../openapi/finish-document.js';
import { inKorean } from '../openapi/korean.js';
import { ErrorResponse } from '../schemas/common.js';
import { ICON_SVG, mark } from '../shared/brand.js';

type Requirement = Record<string, string[]>;

/**
 * An operation's security as the route enforces it: `bearer` in a route schema becomes the OAuth 2.0
 * scheme with the scope of the route's `config.bearerScope` (src/plugins/bearer-auth.ts), so the document
 * and the check come from one place. Operations that take no credential say so with an empty list.
 */
function securityOf(declared: Requirement[] | undefined, url: string, scope: string | undefined): Requirement[] {
  if (url === '/oauth/token' || url === '/oauth/revoke') return [{ clientBasic: [] }, {}];
  if (!declared) return [];
  return declared.map((requirement) =>
    Object.fromEntries(
      Object.keys(requirement).map((name) =>
        name === 'bearer' ? ['oauth2', scope ? [scope] : []] : [name, requirement[name]!],
      ),
    ),
  );
}

/** The /docs page's two definitions; `urls.primaryName` in the page's query picks one (the page's own selector sets it). */
const DEFINITIONS = [
  { url: '/openapi.json', name: 'English' },
  { url: '/openapi.ko.json', name: '한국어' },
];

/**
 * Runs on the /docs page before Swagger UI starts (the page's scripts run before its load event, which starts it):
 * without a choice in the address, it opens the definition of the browser's first language of the two; and it keeps
 * the OAuth redirect at /docs/static/oauth2-redirect.html when the address has a query (Swagger UI's initializer
 * would append the path to the query). It also adds the operations' code samples (`x-codeSamples`: curl,
 * JavaScript, Python, Java) under each expanded operation, as a list that opens on a click.
 */
const DOCS_LANGUAGE_SCRIPT = `(function () {
  var bundle = window.SwaggerUIBundle;
  function CodeSamples(system) {
    var h = system.React.createElement;
    return { wrapComponents: { operation: function (Original) {
      return function (props) {
        var op = props.operation && props.operation.get && props.operation.get('op');
        var samples = op && op.get && op.get('x-codeSamples');
        if (!samples || !samples.size || !props.isShown) return h(Original, props);
        var items = samples.toJS().map(function (s) {
          return h('div', { key: s.label, className: 'code-sample' }, h('h5', null, s.label), h('pre', { className: 'microlight' }, h('code', null, s.source)));
        });
        return h('div', null, h(Original, props), h('details', { className: 'code-samples' }, h('summary', null, 'Code samples: curl, JavaScript, Python, Java'), items));
      };
    } } };
  }
  function start(config) {
    config.plugins = (config.plugins || []).concat([CodeSamples]);
    config.oauth2RedirectUrl = window.location.origin + '/docs/static/oauth2-redirect.html';
    if (!new URLSearchParams(window.location.search).has('urls.primaryName')) {
      var first = (navigator.languages || [navigator.language || '']).find(function (l) { return /^(ko|en)\\b/i.test(l); }) || 'en';
      config['urls.primaryName'] = /^ko/i.test(first) ? ${JSON.stringify(DEFINITIONS[1]!.name)} : ${JSON.stringify(DEFINITIONS[0]!.name)};
    }
    return bundle(config);
  }
  window.SwaggerUIBundle = Object.assign(start, bundle);
})();
`;

/**
 * The OpenAPI 3.1 document, built from the route schemas, at /openapi.json, the same with its prose in Korean at
 * /openapi.ko.json, and a reference at /docs in the browser's language (Korean or English, with a selector).
 */
/** The top bar's logo (on the blue bar): the mark in white, and the service's name. */
const LOGO_SVG =
  `<svg xmlns="http://www.w3.org/2000/svg" width="360" height="36" viewBox="0 0 360 36"><g transform="translate(0 2)">${mark('#fff', '#1a5fd0')}</g>` +
  '<text x="42" y="24" font-family="system-ui,-apple-system,Segoe UI,sans-serif" font-size="17" font-weight="600" fill="#fff">Jobs, Events and Posts Open API</text></svg>';
const BRAND_CSS =
  '.swagger-ui .topbar{background:#1a5fd0}.swagger-ui .topbar .download-url-wrapper .select-label{color:#fff}' +
  '.swagger-ui .topbar a{max-width:none}.swagger-ui .topbar-wrapper img{height:36px}' +
  // An error answer carries the same headers as the success above it (the document lists them on each): the page
  // shows them once, on the success, instead of the same table under every status.
  '.swagger-ui tr.response:not([data-code^="2"]) .headers-wrapper{display:none}' +
  '.swagger-ui .code-samples{margin:-10px 0 15px;padding:8px 20px;border:1px solid #d8dde4;border-top:0;border-radius:0 0 4px 4px;background:#f7f9fb}' +
  '.swagger-ui .code-samples summary{cursor:pointer;font-weight:600;font-family:sans-serif;color:#3b4151}' +
  '.swagger-ui .code-sample pre{background:#333;color:#fff;padding:10px;border-radius:4px;white-space:pre;overflow-x:auto}';

export const openApiPlugin = fp(
  async (
    app,
    opts: {
      publicBaseUrl: string;
      /** OAuth scopes and what each allows, for the security scheme. */
      scopes: Record<string, string>;
      /** The running release (package.json's), as /healthz says it. */
      version: string;
    },
  ) => {
    app.addSchema(ErrorResponse);
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Jobs, Events and Posts Open API',
          version: opts.version,
          description:
            'Search and read job postings, posts and events with an app key; act for a user through OAuth 2.0. ' +
            "Every non-2xx response under /api/v1 has the ErrorResponse body, with the headers of the operation's success (X-Request-Id, Content-Language, the RateLimit headers). " +
            'Every /api/v1/… operation is also served under /v1/… (the same operation, limits and caches), and the app key ' +
            'may also be sent as X-RP-API-Key or X-OBA-API-Key, so clients written for the real service work unchanged.',
          license: { name: 'MIT', identifier: 'MIT' },
        },
        servers: [{ url: opts.publicBaseUrl }],
        tags: [
          {
            name: 'Posts',
            description: "Search and read posts with an app key; write the user's own posts with `post:write`",
          },
          {
            name: 'Jobs',
            description:
              "Search and read job postings; create, publish, close and delete a company's postings with `job:write`",
          },
          {
            name: 'Events',
            description:
              "Search and read events with their tickets, sessions and FAQs; manage a company's events with `event:write`",
          },
          {
            name: 'Companies',
            description:
              "Search and read the company directory, with how many jobs each is hiring for now; keep a company's profile with `company:write`",
          },
          {
            name: 'Profiles',
            description:
              "Search and read members' public profiles: only what each member made public, a bounded number of distinct profiles a day",
          },
          {
            name: 'Codes',
            description:
              'The code catalogs that search parameters and write bodies use, with labels by Accept-Language',
          },
          {
            name: 'Changes',
            description:
              'Follow the changes of posts, jobs and events in commit order (sync without polling every list)',
          },
          {
            name: 'Me',
            description:
              'The signed-in user: their own profile (`profile:read`, `profile:write`) and what they may do at their companies (`company:manage:read`)',
          },
          {
            name: 'OAuth Authorization',
            description:
              'The Authorization Code + PKCE flow: sign-in and consent pages, server metadata and signing keys',
          },
          { name: 'OAuth Token', description: 'Exchange a code or a refresh token for tokens; revoke a refresh token' },
          { name: 'OAuth UserInfo', description: 'Claims about the user of an access token' },
          { name: 'Service', description: 'Liveness and readiness for load balancers and orchestrators' },
        ],
        components: {
          securitySchemes: {
            apiKey: {
              type: 'apiKey',
              in: 'header',
              name: 'X-SVC-API-Key',
              description:
                'App key: `svck_` followed by 32 base62 characters. X-RP-API-Key and X-OBA-API-Key are read as aliases; two of them with different keys are refused (401 C0001)',
            },
            oauth2: {
              type: 'oauth2',
              description:
                'OAuth 2.0 Authorization Code with PKCE (S256). Access tokens are RFC 9068 JWTs sent as `Authorization: Bearer …`.',
              flows: {
                authorizationCode: {
                  authorizationUrl: `${opts.publicBaseUrl}/oauth/authorize`,
                  tokenUrl: `${opts.publicBaseUrl}/oauth/token`,
                  refreshUrl: `${opts.publicBaseUrl}/oauth/token`,
                  scopes: opts.scopes,
                },
              },
            },
            clientBasic: {
              type: 'http',
              scheme: 'basic',
              description:
                'OAuth client credentials (`client_id:client_secret`) of a confidential client; public clients send `client_id` in the form instead',
            },
          },
        },
      },
      transform: ({ schema, url, route }) => {
        const config = route.config as { bearerScope?: string } | undefined;
        const security = securityOf(schema.security as Requirement[] | undefined, url, config?.bearerScope);
        return { schema: { ...schema, security } as typeof schema, url };
      },
      transformObject: (documents) =>
        addWebhooks(
          finishDocument(
            ('openapiObject' in documents ? documents.openapiObject : documents.swaggerObject) as Record<
              string,
              unknown
            >,
          ),
        ) as never,
      refResolver: {
        buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
      },
    });
    await app.register(swaggerUi, {
      routePrefix: '/docs',
      // The "Authorize" button runs the Authorization Code + PKCE flow; the demo client lists this page's redirect.
      // `profile` is ticked to begin with, so that Authorize with nothing else chosen still signs in (no scope is
      // `invalid_scope`).
      initOAuth: { usePkceWithAuthorizationCodeGrant: true, scopeSeparator: ' ', scopes: ['profile'] },
      uiConfig: { persistAuthorization: false, urls: DEFINITIONS },
      logo: { type: 'image/svg+xml', content: Buffer.from(LOGO_SVG), href: '/docs', target: '_self' },
      theme: {
        title: 'Jobs, Events and Posts Open API · Reference',
        js: [{ filename: 'docs-language.js', content: DOCS_LANGUAGE_SCRIPT }],
        css: [{ filename: 'brand.css', content: BRAND_CSS }],
        favicon: [
          { filename: 'favicon.svg', rel: 'icon', sizes: 'any', type: 'image/svg+xml', content: Buffer.from(ICON_SVG) },
        ],
      },
    });
    app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
    let korean: unknown = null;
    app.get('/openapi.ko.json', { schema: { hide: true } }, async () => {
      korean ??= inKorean(app.swagger() as never);
      return korean;
    });
  },
  { name: 'openapi' },
);
