/**
 * Whom a Bearer token's calls count for (their global limit, usage and request log; shared/caller.ts): the client, when
 * it belongs to an app (`client:<id>`, which the usage and request log attribute to that app), else the user the token
 * acts for (`user:<id>`). Clients without an app (self-registered, metadata documents, the operator's) are free to make,
 * so every such client of one user shares that user's limit: registering more gives no more calls.
 */
import { LRUCache } from 'lru-cache';
import type { OAuthRepository } from './oauth-repository.js';

export class TokenCallers {
  /** The app each client belongs to, kept a minute (a client's app does not change). */
  private readonly apps = new LRUCache<string, { appId: number | null }>({ max: 10_000, ttl: 60_000 });

  constructor(private readonly oauth: Pick<OAuthRepository, 'findClient'>) {}

  /** The app a client belongs to, or null. */
  async appOf(clientId: string): Promise<number | null> {
    let kept = this.apps.get(clientId);
    if (!kept) {
      kept = { appId: (await this.oauth.findClient(clientId))?.appId ?? null };
      this.apps.set(clientId, kept);
    }
    return kept.appId;
  }

  /** `client:<id>` for a client of an app, else `user:<id>` of the token's user. */
  async of(claims: { clientId: string; userId: number }): Promise<string> {
    return (await this.appOf(claims.clientId)) === null ? `user:${claims.userId}` : `client:${claims.clientId}`;
  }
}
