import { createHmac, randomBytes } from 'node:crypto';
import type { Config } from '../../config.js';
import type { Area, Infrastructure } from '../../infrastructure.js';
import type { AccountsArea } from '../accounts/index.js';
import { WebSessions } from './web-session.js';
import { authorizeRoutes } from './authorize-routes.js';
import { ClientMetadataDocuments } from './client-metadata.js';
import { discoveryRoutes } from './discovery-routes.js';
import { LoginThrottle } from './login-throttle.js';
import { OAuthRepository } from './oauth-repository.js';
import { registrationRoutes } from './registration-routes.js';
import { TokenCallers } from './token-caller.js';
import { SCOPES } from './scopes.js';
import { keyEncryptionKey, SigningKeys } from './signing-keys.js';
import { tokenRoutes } from './token-routes.js';
import { TokenService } from './token-service.js';
import { userinfoRoutes } from './userinfo-routes.js';

/** The `aud` of access tokens: this service's API (RFC 9068 resource indicator). */
export function apiAudience(config: Config): string {
  return `${config.publicBaseUrl}/api`;
}

/** The MCP endpoint as a protected resource (RFC 9728, RFC 8707): the `aud` of the tokens agents ask for it. */
export function mcpResource(config: Config): string {
  return `${config.publicBaseUrl}/mcp`;
}

/**
 * OAuth 2.0 for builders acting for a user: clients, the sign-in and consent pages, tokens signed with keys kept
 * encrypted in the database, server metadata and userinfo. Its token check (bearer-auth.ts) is registered with
 * the cross-cutting plugins; the console manages clients and shows sessions through it.
 */
export async function oauthArea(infra: Infrastructure, deps: { accounts: AccountsArea }) {
  const { config, database, clock, links } = infra;
  const { accounts } = deps.accounts;
  const issuer = config.publicBaseUrl;
  const oauth = new OAuthRepository(database.db);
  const kek = keyEncryptionKey(config.signingKeySecret, config.dataDir);
  const signingKeys = new SigningKeys(database.db, kek, clock, config.lifetimes.accessTokenSeconds);
  await signingKeys.init();
  const tokens = new TokenService(
    oauth,
    signingKeys,
    {
      issuer,
      audience: apiAudience(config),
      otherResources: [mcpResource(config)],
      accessTokenSeconds: config.lifetimes.accessTokenSeconds,
      refreshTokenSeconds: config.lifetimes.refreshTokenSeconds,
    },
    clock,
    infra.revocations,
  );
  const sessions = new WebSessions(
    oauth,
    accounts,
    new LoginThrottle(database.db, config.loginThrottle, clock),
    clock,
    issuer.startsWith('https://'),
    config.passwordCost,
    createHmac('sha256', kek).update('form tokens').digest(),
  );
  const area: Area = {
    routes: async (app) => {
      await app.register(discoveryRoutes, { issuer, keys: signingKeys });
      await app.register(authorizeRoutes, {
        oauth,
        sessions,
        issuer,
        codeSeconds: config.lifetimes.authorizationCodeSeconds,
        clock,
        metadata: new ClientMetadataDocuments(oauth, { allowedHosts: config.clientMetadataAllowedHosts }, clock),
        resources: { api: apiAudience(config), mcp: mcpResource(config), others: [mcpResource(config)] },
      });
      await app.register(tokenRoutes, { oauth, tokens, clock });
      await app.register(registrationRoutes, {
        oauth,
        clock,
        allowed: (request) => sessions.registrationAllowed(request),
      });
      await app.register(userinfoRoutes, { accounts, links, webBaseUrl: config.webBaseUrl });
    },
  };
  return {
    ...area,
    oauth,
    tokens,
    /** Whom a token's calls count for (token-caller.ts). */
    tokenCallers: new TokenCallers(oauth),
    sessions,
    keyEncryptionKey: kek,
    /** The MCP endpoint as a protected resource, and the secret that marks its calls inside the process (bearer-auth.ts). */
    mcp: { resource: mcpResource(config), issuer, internalSecret: randomBytes(32).toString('base64url') },
    /** The scopes and what each allows, in English (the OpenAPI document's security scheme). */
    scopes: Object.fromEntries(Object.entries(SCOPES).map(([scope, text]) => [scope, text.en])),
    /** The redirect URIs of public clients, whose origins may call the token endpoints from a browser (CORS). */
    publicClientRedirectUris: async () =>
      (await oauth.listClients()).filter((c) => c.secretHash === null).flatMap((c) => c.redirectUris),
  };
}

export type OAuthArea = Awaited<ReturnType<typeof oauthArea>>;
