import { LRUCache } from 'lru-cache';
import { APP_KEY_PATTERN, hashSecret, newAppKey, secretHint } from '../../shared/keys.js';
import type { AccountsRepository } from './accounts-repository.js';

export interface AuthenticatedApp {
  appId: number;
  keyId: number;
}

/**
 * App keys: issued once, stored as SHA-256 hashes, checked through a small cache so that the hot read
 * path does not query the database for every request. A revoked key stops working within the cache TTL.
 */
export class AppKeyService {
  private readonly cache: LRUCache<string, AuthenticatedApp | false>;

  constructor(private readonly accounts: AccountsRepository, cacheSeconds: number) {
    this.cache = new LRUCache({ max: 10_000, ttl: Math.max(1, cacheSeconds) * 1000 });
  }

  /** What the cache knows of `key`: the app, null for a key known to be invalid, undefined when it must be looked up. */
  known(key: string): AuthenticatedApp | null | undefined {
    return APP_KEY_PATTERN.test(key) ? this.cached(hashSecret(key)) : null;
  }

  async authenticate(key: string): Promise<AuthenticatedApp | null> {
    if (!APP_KEY_PATTERN.test(key)) return null;
    const hash = hashSecret(key);
    const cached = this.cached(hash);
    if (cached !== undefined) return cached;
    const row = await this.accounts.findActiveKey(hash);
    const result = row ? { appId: row.app_id, keyId: row.id } : false;
    // Unknown keys are remembered briefly too, so a client retrying a bad key cannot load the database.
    this.cache.set(hash, result, result ? {} : { ttl: 5_000 });
    return result || null;
  }

  private cached(hash: string): AuthenticatedApp | null | undefined {
    const cached = this.cache.get(hash);
    return cached === undefined ? undefined : cached || null;
  }

  /** Creates an app with a fresh key; the key is returned once and never stored in the clear. */
  async createApp(name: string, ownerUserId: number | null = null): Promise<{ appId: number; apiKey: string }> {
    const appId = await this.accounts.createApp(name, ownerUserId);
    const apiKey = await this.issueKey(appId);
    return { appId, apiKey };
  }

  async issueKey(appId: number, apiKey: string = newAppKey()): Promise<string> {
    await this.accounts.addAppKey(appId, hashSecret(apiKey), secretHint(apiKey));
    return apiKey;
  }
}
