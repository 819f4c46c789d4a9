/**
 * Clients that register by a Client ID Metadata Document (docs/oauth.md, "Clients without registration"): the
 * `client_id` is an https URL, and the JSON document there says the client's name and redirect URIs. AI agents' MCP
 * clients work this way, since no one registers them in a console. The document is fetched with the service's
 * SSRF-safe fetch (public addresses only, no redirect, a deadline, a size bound), checked, kept for a while, and the
 * client written to `oauth_clients` (its grants and codes refer to it there) as a public client: PKCE, no secret.
 */
import type { FastifyBaseLogger } from 'fastify';
import { LRUCache } from 'lru-cache';
import { safeFetch } from '../../net/safe-fetch.js';
import { canonicalRedirectUri, isHttpsOrLoopback } from './redirect-uris.js';
import { hasHiddenCharacters } from '../../shared/text-input.js';
import type { OAuthClient, OAuthRepository } from './oauth-repository.js';
import { SUPPORTED_SCOPES } from './scopes.js';

/** A document this large or larger is refused: a client's name and a few redirect URIs fit in far less. */
const MAX_BYTES = 5_120;
const TIMEOUT_MS = 5_000;
/** How long a document is used before it is fetched again: its Cache-Control max-age, within these bounds. */
const MIN_KEEP_MS = 60_000;
const MAX_KEEP_MS = 86_400_000;
const DEFAULT_KEEP_MS = 3_600_000;

export interface ClientMetadataSettings {
  /** `host` or `host:port` entries whose documents may be fetched at private addresses, over http (tests, intranets). */
  allowedHosts: string[];
}

/** Why a client id URL gave no client: shown on the authorization error page. */
export class ClientMetadataError extends Error {}

/** Whether `text` is a client id of this kind: an https URL with a path (or http at an allowed host). */
export function isMetadataClientId(text: string, allowedHosts: string[] = []): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  const allowed = allowedHosts.includes(url.host.toLowerCase()) || allowedHosts.includes(url.hostname.toLowerCase());
  return (
    (url.protocol === 'https:' || (url.protocol === 'http:' && allowed)) &&
    url.pathname !== '/' &&
    url.hash === '' &&
    url.username === '' &&
    url.password === '' &&
    url.href === text
  );
}

function redirectUriAllowed(uri: unknown): uri is string {
  if (typeof uri !== 'string' || uri.length > 2_048 || hasHiddenCharacters(uri)) return false;
  // In plain form only (no fragment, user name or disguised address); https, or http on loopback.
  const canonical = canonicalRedirectUri(uri);
  return typeof canonical === 'string' && isHttpsOrLoopback(new URL(canonical));
}

/** The client a document describes, or why it describes none. */
function clientOf(clientId: string, document: unknown): Omit<OAuthClient, 'appId'> {
  if (typeof document !== 'object' || document === null || Array.isArray(document))
    throw new ClientMetadataError('The client metadata document is not a JSON object');
  const doc = document as Record<string, unknown>;
  if (doc.client_id !== clientId)
    throw new ClientMetadataError("The client metadata document's client_id is not the URL it was fetched from");
  const uris = doc.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > 10 || !uris.every(redirectUriAllowed)) {
    throw new ClientMetadataError(
      'The client metadata document needs 1 to 10 redirect_uris, each https (or http on loopback)',
    );
  }
  const method = doc.token_endpoint_auth_method ?? 'none';
  if (method !== 'none')
    throw new ClientMetadataError(
      `token_endpoint_auth_method ${JSON.stringify(method).slice(0, 50)} is not supported here: such clients are public (PKCE, no secret)`,
    );
  // Refused in every text a document gives, on both engines alike (PostgreSQL cannot store U+0000 at all).
  if (typeof doc.client_name === 'string' && hasHiddenCharacters(doc.client_name)) {
    throw new ClientMetadataError("The client metadata document's client_name holds control or formatting characters");
  }
  // The name is the document's word alone: wherever it is shown (sign-in, consent, Connected apps) the host that
  // serves the document stands beside it, so a document cannot pass itself off as another app by its name.
  const host = new URL(clientId).host;
  const name =
    typeof doc.client_name === 'string' && doc.client_name.trim()
      ? `${doc.client_name.trim().slice(0, 100)} (${host})`
      : host;
  const asked =
    typeof doc.scope === 'string'
      ? doc.scope.split(' ').filter((scope) => SUPPORTED_SCOPES.includes(scope))
      : SUPPORTED_SCOPES;
  return { clientId, name, secretHash: null, redirectUris: uris, allowedScopes: asked };
}

const keepFor = (cacheControl: string | undefined): number => {
  const maxAge = /max-age=(\d+)/i.exec(cacheControl ?? '')?.[1];
  return maxAge === undefined ? DEFAULT_KEEP_MS : Math.min(MAX_KEEP_MS, Math.max(MIN_KEEP_MS, Number(maxAge) * 1000));
};

export class ClientMetadataDocuments {
  /** Documents fetched, until they are to be fetched again (a failure is kept a minute, so a bad URL is not a loop). */
  private readonly kept: LRUCache<string, { client: OAuthClient } | { error: string }>;

  constructor(
    private readonly oauth: OAuthRepository,
    private readonly settings: ClientMetadataSettings,
    private readonly clock: () => number,
  ) {
    this.kept = new LRUCache({ max: 1_000, ttlResolution: 0, perf: { now: clock } });
  }

  isClientId(text: string): boolean {
    return isMetadataClientId(text, this.settings.allowedHosts);
  }

  /**
   * The client the document at `clientId` describes (fetched now, or as kept); throws ClientMetadataError.
   * `mayFetch` is asked before a document that is not kept is fetched (and its client stored): false refuses it, so
   * that nobody makes the service fetch documents and store clients at any rate they like.
   */
  async resolve(clientId: string, mayFetch: () => Promise<boolean>, log?: FastifyBaseLogger): Promise<OAuthClient> {
    const kept = this.kept.get(clientId);
    if (kept && 'error' in kept) throw new ClientMetadataError(kept.error);
    if (kept) return kept.client;
    if (!(await mayFetch()))
      throw new ClientMetadataError(
        'Too many new client metadata documents from this address: wait a while and try again',
      );
    try {
      const { client, keepMs } = await this.fetch(clientId);
      await this.oauth.saveMetadataClient(client, this.clock());
      this.kept.set(clientId, { client }, { ttl: keepMs });
      return client;
    } catch (err) {
      if (!(err instanceof ClientMetadataError))
        log?.warn({ err, clientId }, 'a client metadata document could not be fetched or its client stored');
      const error =
        err instanceof ClientMetadataError ? err.message : 'The client metadata document could not be fetched';
      this.kept.set(clientId, { error }, { ttl: MIN_KEEP_MS });
      throw new ClientMetadataError(error);
    }
  }

  private async fetch(clientId: string): Promise<{ client: OAuthClient; keepMs: number }> {
    const response = await safeFetch(clientId, {
      allowedHosts: this.settings.allowedHosts,
      timeoutMs: TIMEOUT_MS,
      maxBytes: MAX_BYTES,
      maxRedirects: 0,
    });
    if (response.status !== 200)
      throw new ClientMetadataError(`The client metadata document answered ${response.status}`);
    if (response.body.length >= MAX_BYTES)
      throw new ClientMetadataError(`The client metadata document is larger than ${MAX_BYTES} bytes`);
    let document: unknown;
    try {
      document = JSON.parse(response.body.toString('utf8'));
    } catch {
      throw new ClientMetadataError('The client metadata document is not JSON');
    }
    return { client: { ...clientOf(clientId, document), appId: null }, keepMs: keepFor(response.cacheControl) };
  }
}
