import { LRUCache } from 'lru-cache';
import { APP_KEY_PATTERN, hashSecret, newAppKey, secretHint } from '../../shared/keys.js';
import type { AccountsRepository } from './accounts-repository.js';

export interface AuthenticatedApp {
  appId: number;
  keyId: number;
  /** When a rotation's overlap ends for this key (null: it works until revoked). */
  expiresAt: number | null;
  /** The browser origins the app's key may be used from (the console's "web origins"). */
  webOrigins: string[];
}

/**
 * App keys: issued once, stored as SHA-256 hashes, checked through a small cache so that the hot read
 * path does not query the database for every request. A revoked key stops working at once on the instance
 * that revoked it (it forgets the key) and within the cache TTL elsewhere (API_KEY_CACHE_SECONDS, at most 5 s);
 * a key whose rotation overlap ends stops at that moment exactly (the cache holds the end and checks it).
 */
export class AppKeyService {
  private readonly cache: LRUCache<string, AuthenticatedApp | false>;

  constructor(private readonly accounts: AccountsRepository, cacheSeconds: number, private readonly clock: () => number = Date.now) {
    // The cache's time is the service's clock, so "within API_KEY_CACHE_SECONDS" holds on that clock too.
    this.cache = new LRUCache({ max: 10_000, ttl: Math.max(1, cacheSeconds) * 1000, perf: { now: clock } });
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
    const row = await this.accounts.findActiveKey(hash, this.clock());
    const result = row
      ? { appId: row.app_id, keyId: row.id, expiresAt: row.expires_at === null ? null : Number(row.expires_at), webOrigins: JSON.parse(row.web_origins) as string[] }
      : false;
    // Unknown keys are remembered briefly too, so a client retrying a bad key cannot load the database.
    this.cache.set(hash, result, result ? {} : { ttl: 5_000 });
    return result || null;
  }

  private cached(hash: string): AuthenticatedApp | null | undefined {
    const cached = this.cache.get(hash);
    if (cached && cached.expiresAt !== null && this.clock() >= cached.expiresAt) return null;
    return cached === undefined ? undefined : cached || null;
  }

  /** Forgets what this instance cached of a key (after it was revoked here): it is refused at once here, within the cache's time elsewhere. */
  forgetKey(keyId: number): void {
    for (const [hash, value] of this.cache.entries()) if (value && value.keyId === keyId) this.cache.delete(hash);
  }

  /** Forgets every key of an app (after a rotation here): the next request reads each key's new end. */
  forgetApp(appId: number): void {
    for (const [hash, value] of this.cache.entries()) if (value && value.appId === appId) this.cache.delete(hash);
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
