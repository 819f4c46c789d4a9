/**
 * Which redirect URIs an authorization request may name for a client. Exactly a registered one, always. A native or
 * public client (a desktop, CLI or agent host) may also name a registered loopback URI on any port: such a host listens
 * on whatever port is free at the moment, which no registration can know (RFC 8252 7.3). Never a web client: a web
 * server's redirect is where it is.
 */
import { isLoopbackHttp } from './client-admin.js';
import type { OAuthClient } from './oauth-repository.js';

/** The URI without its port, when it is a loopback http URI (the only kind that may move between ports). */
function loopbackWithoutPort(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return null;
  }
  if (!isLoopbackHttp(url) || url.username || url.password || url.hash) return null;
  url.port = '';
  return url.href;
}

/**
 * A native client (one that registered itself as `native`) and a public client may come back on any loopback port;
 * a web client (one that registered as `web`, or one with a secret that said nothing) never.
 */
const anyLoopbackPort = (client: Pick<OAuthClient, 'secretHash' | 'applicationType'>) =>
  client.applicationType === 'native' || (client.applicationType !== 'web' && client.secretHash === null);

export function redirectUriAllowed(
  client: Pick<OAuthClient, 'redirectUris' | 'secretHash' | 'applicationType'>,
  uri: string,
): boolean {
  if (client.redirectUris.includes(uri)) return true;
  if (!anyLoopbackPort(client)) return false;
  const requested = loopbackWithoutPort(uri);
  return requested !== null && client.redirectUris.some((registered) => loopbackWithoutPort(registered) === requested);
}

/** Where a redirect URI sends the user, as the pages name it: its host, or its scheme for a private-use one (`cursor:`). */
export function returnTarget(uri: string): string {
  const url = new URL(uri);
  return ['http:', 'https:'].includes(url.protocol) ? url.host : url.protocol;
}
