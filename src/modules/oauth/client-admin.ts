import { hashSecret, newClientSecret, randomBase62 } from '../../shared/keys.js';
import type { OAuthRepository } from './oauth-repository.js';
import { canonicalRedirectUri, isHttpsOrLoopback } from './redirect-uris.js';
import { unknownScopes } from './scopes.js';

export class ClientRegistrationError extends Error {}

/**
 * A redirect URI must be absolute, in plain form (no fragment, user name or disguised address: canonicalRedirectUri),
 * and https unless it points at this machine.
 */
export function checkRedirectUri(uri: string): void {
  const canonical = canonicalRedirectUri(uri);
  if (typeof canonical !== 'string') throw new ClientRegistrationError(`Redirect URI "${uri}" ${canonical.problem}`);
  if (!isHttpsOrLoopback(new URL(canonical))) {
    throw new ClientRegistrationError(
      `Redirect URI "${uri}" must use https (http only for 127.0.0.1, localhost or [::1])`,
    );
  }
}

export interface NewClient {
  name: string;
  redirectUris: string[];
  scopes: string[];
  public: boolean;
  /** The app the client belongs to (the developer console's clients). */
  appId?: number | null;
  /** Fixed credentials, for the demo data only. */
  clientId?: string;
  clientSecret?: string;
}

/** Checks what a client may be registered or updated with: redirect URIs and scopes. */
export function checkClientSettings(redirectUris: string[], scopes: string[]): void {
  if (redirectUris.length === 0) throw new ClientRegistrationError('A client needs at least one redirect URI');
  if (redirectUris.length > 10) throw new ClientRegistrationError('A client may have at most 10 redirect URIs');
  redirectUris.forEach(checkRedirectUri);
  if (scopes.length === 0) throw new ClientRegistrationError('A client needs at least one scope');
  const unknown = unknownScopes(scopes);
  if (unknown.length) throw new ClientRegistrationError(`Unknown scope: ${unknown.join(', ')}`);
}

/** Registers a client; returns its id and, for a confidential client, the secret (shown once, stored hashed). */
export async function registerClient(
  oauth: OAuthRepository,
  client: NewClient,
  now: number,
): Promise<{ clientId: string; clientSecret: string | null }> {
  if (!client.name.trim()) throw new ClientRegistrationError('A client needs a name');
  checkClientSettings(client.redirectUris, client.scopes);
  const clientId = client.clientId ?? `svcc_${randomBase62(24)}`;
  const clientSecret = client.public ? null : (client.clientSecret ?? newClientSecret());
  await oauth.createClient(
    {
      clientId,
      name: client.name.trim(),
      secretHash: clientSecret ? hashSecret(clientSecret) : null,
      redirectUris: client.redirectUris,
      allowedScopes: client.scopes,
      appId: client.appId ?? null,
    },
    now,
  );
  return { clientId, clientSecret };
}
