/**
 * Which redirect URIs an authorization request may name for a client. Exactly a registered one, always. A native or
 * public client (a desktop, CLI or agent host) may also name a registered loopback URI on any port: such a host listens
 * on whatever port is free at the moment, which no registration can know (RFC 8252 7.3). Never a web client: a web
 * server's redirect is where it is.
 */
import type { OAuthClient } from './oauth-repository.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** http to this machine: 127.0.0.1, localhost or [::1]. */
export function isLoopbackHttp(url: URL): boolean {
  return url.protocol === 'http:' && LOOPBACK.has(url.hostname);
}

/** https, or http to this machine (127.0.0.1, localhost or [::1]) for development. */
export function isHttpsOrLoopback(url: URL): boolean {
  return url.protocol === 'https:' || isLoopbackHttp(url);
}

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
  // Registered URIs are stored in their normal form: the same URI written otherwise matches, a disguised one never.
  const canonical = canonicalRedirectUri(uri);
  if (typeof canonical !== 'string') return false;
  if (client.redirectUris.includes(canonical)) return true;
  if (!anyLoopbackPort(client)) return false;
  const requested = loopbackWithoutPort(canonical);
  return requested !== null && client.redirectUris.some((registered) => loopbackWithoutPort(registered) === requested);
}

/**
 * Schemes a client may not call its own, because the system hands the rest of the URI to a browser or another opener:
 * the browsers' own dispatch schemes (`x-safari-https:`, `microsoft-edge:`, `googlechromes:`, `opera-https:`), Android's
 * `intent:`, viewers (`view-source:`, `jar:`), and what never ends an OAuth flow (`javascript:`, `data:`, `file:` …).
 */
const NEVER_SCHEMES = new Set([
  'javascript',
  'vbscript',
  'data',
  'file',
  'blob',
  'about',
  'ws',
  'wss',
  'ftp',
  'intent',
  'jar',
  'view-source',
  'mailto',
  'tel',
  'sms',
  'shell',
  'search-ms',
  'itms-services',
  'resource',
  'brave',
  'fennec',
]);
/** Words in a scheme's name that mark a browser's dispatcher (`x-safari-https`, `microsoft-edge`, `opera-http`). */
const BROWSER_WORDS = /https?|chrome|safari|edge|firefox|opera|browser/;

/** A private-use scheme (RFC 8252 7.1): `cursor:`, `vscode:`, `com.example.app:` … never http(s), a browser's or a dangerous one. */
export function isPrivateUse(url: URL): boolean {
  const scheme = url.protocol.slice(0, -1);
  return /^[a-z][a-z0-9+.-]*$/.test(scheme) && !NEVER_SCHEMES.has(scheme) && !BROWSER_WORDS.test(scheme);
}

/**
 * A redirect URI in the one form it is stored and compared in (the URL parser's: scheme and host lower case, the
 * default port left out), or why it is refused: a fragment (even an empty `#`), a user name or password (browsers
 * show `user@host` as if it were the host), or an IPv4 address written otherwise than as four decimal numbers
 * (`0x7f000001`, `2130706433`, `127.1`: each is 127.0.0.1 to a browser, and hides it from a reader).
 */
export function canonicalRedirectUri(uri: string): string | { problem: string } {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return { problem: 'is not an absolute URI' };
  }
  if (uri.includes('#')) return { problem: 'must not have a fragment' };
  if (url.username || url.password || /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(uri))
    return { problem: 'must not carry a user name or password' };
  if (['http:', 'https:'].includes(url.protocol) && /^\d+\.\d+\.\d+\.\d+$/.test(url.hostname)) {
    const written = /^[a-z]+:\/\/([^/?#:]*)/i.exec(uri)?.[1]?.toLowerCase();
    if (written !== url.hostname)
      return { problem: `must write its address as four decimal numbers (${url.hostname})` };
  }
  return url.href;
}

/** Where a redirect URI sends the user, as the pages name it: its host, or its scheme for a private-use one (`cursor:`). */
export function returnTarget(uri: string): string {
  const url = new URL(uri);
  return ['http:', 'https:'].includes(url.protocol) ? url.host : url.protocol;
}
