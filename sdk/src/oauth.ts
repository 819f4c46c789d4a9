/**
 * OAuth 2.0 Authorization Code with PKCE (S256), as the service runs it: a PKCE pair, the authorize
 * address, the code exchange, and a session that refreshes its tokens and hands each rotated refresh
 * token to the application, which must keep it (the old one stops working once used).
 */
import { errorOf } from './errors.js';
import type { components } from './schema.js';

export type TokenResponse = components['schemas']['TokenResponse'];

const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

/** A code verifier (43 characters) and its S256 challenge. */
export async function createPkcePair(): Promise<{ verifier: string; challenge: string }> {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  return { verifier, challenge: base64url(digest) };
}

/** A random `state` to send with the authorize request and compare on the callback. */
export const createState = (): string => base64url(crypto.getRandomValues(new Uint8Array(16)));

export interface ClientCredentials {
  baseUrl: string;
  clientId: string;
  /** Confidential clients only; public clients rely on PKCE alone. */
  clientSecret?: string;
  fetch?: typeof fetch;
}

/** Where to send the user: the service's sign-in and consent pages. */
export function authorizeUrl(options: {
  baseUrl: string;
  clientId: string;
  redirectUri: string;
  scope: string | string[];
  state: string;
  codeChallenge: string;
}): string {
  const url = new URL('/oauth/authorize', options.baseUrl);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: options.clientId,
    redirect_uri: options.redirectUri,
    scope: Array.isArray(options.scope) ? options.scope.join(' ') : options.scope,
    state: options.state,
    code_challenge: options.codeChallenge,
    code_challenge_method: 'S256',
  }).toString();
  return url.toString();
}

async function tokenRequest(client: ClientCredentials, form: Record<string, string>): Promise<TokenResponse> {
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  const body = new URLSearchParams(form);
  if (client.clientSecret !== undefined) {
    const pair = `${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`;
    headers.authorization = `Basic ${btoa(pair)}`;
  } else {
    body.set('client_id', client.clientId);
  }
  const response = await (client.fetch ?? fetch)(new URL('/oauth/token', client.baseUrl), {
    method: 'POST',
    headers,
    body,
  });
  if (!response.ok) throw await errorOf(response);
  return (await response.json()) as TokenResponse;
}

/** Trades the `code` of the callback for tokens. */
export function exchangeCode(
  client: ClientCredentials & { code: string; redirectUri: string; codeVerifier: string },
): Promise<TokenResponse> {
  return tokenRequest(client, {
    grant_type: 'authorization_code',
    code: client.code,
    redirect_uri: client.redirectUri,
    code_verifier: client.codeVerifier,
  });
}

/** New tokens for a refresh token; the answer holds a new refresh token, and the one sent stops working. */
export function refreshTokens(client: ClientCredentials & { refreshToken: string }): Promise<TokenResponse> {
  return tokenRequest(client, { grant_type: 'refresh_token', refresh_token: client.refreshToken });
}

/** Ends a grant: the refresh token stops working, and its access tokens within seconds. */
export async function revokeToken(client: ClientCredentials & { refreshToken: string }): Promise<void> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  const body = new URLSearchParams({ token: client.refreshToken, token_type_hint: 'refresh_token' });
  if (client.clientSecret !== undefined)
    headers.authorization = `Basic ${btoa(`${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`)}`;
  else body.set('client_id', client.clientId);
  const response = await (client.fetch ?? fetch)(new URL('/oauth/revoke', client.baseUrl), {
    method: 'POST',
    headers,
    body,
  });
  if (!response.ok) throw await errorOf(response);
}

/** What a client needs to send Bearer tokens: the current one, and a way to get a new one. */
export interface TokenSource {
  accessToken(): Promise<string>;
  /** Gets a new access token after the service refused the current one; false when it cannot. */
  refresh?(): Promise<boolean>;
}

/**
 * A user's tokens that renew themselves. When the access token has expired (or is about to), it refreshes,
 * once for all the calls waiting, and calls `onTokens` with the new pair: store `refresh_token` from it.
 */
export class OAuthSession implements TokenSource {
  private tokens: TokenResponse;
  private expiresAt: number;
  private refreshing: Promise<boolean> | null = null;

  constructor(
    private readonly options: ClientCredentials & {
      tokens: TokenResponse;
      onTokens?: (tokens: TokenResponse) => void | Promise<void>;
      now?: () => number;
    },
  ) {
    this.tokens = options.tokens;
    this.expiresAt = this.now() + options.tokens.expires_in * 1000;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  get current(): TokenResponse {
    return this.tokens;
  }

  async accessToken(): Promise<string> {
    if (this.now() > this.expiresAt - 10_000) await this.refresh();
    return this.tokens.access_token;
  }

  refresh(): Promise<boolean> {
    this.refreshing ??= (async () => {
      try {
        const fresh = await refreshTokens({ ...this.options, refreshToken: this.tokens.refresh_token });
        this.tokens = fresh;
        this.expiresAt = this.now() + fresh.expires_in * 1000;
        await this.options.onTokens?.(fresh);
        return true;
      } finally {
        this.refreshing = null;
      }
    })();
    return this.refreshing;
  }
}
