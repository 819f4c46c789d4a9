import { LRUCache } from 'lru-cache';
import { localRevocations, type Revocation, type Revocations } from '../../cache/revocations.js';
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
 * path does not query the database for every request. A key revoked, rotated with no overlap or of a deleted app
 * stops working at once on every instance: the revocation is published (cache/revocations.ts) and each instance
 * drops what it cached of the key; while the channel is down, within the cache's lifetime (API_KEY_CACHE_SECONDS, at
 * most 5 s). A key whose rotation overlap ends stops at that moment exactly (the cache holds the end and checks it).
 */
export class AppKeyService {
  private readonly cache: LRUCache<string, AuthenticatedApp | false>;
  /** Moves with every drop: a look-up that began before one does not put back what it read (it may be stale). */
  private generation = 0;

  constructor(
    private readonly accounts: AccountsRepository,
    cacheSeconds: number,
    private readonly clock: () => number = Date.now,
    private readonly revocations: Revocations = localRevocations(),
  ) {
    // The cache's time is the service's clock, so "within API_KEY_CACHE_SECONDS" holds on that clock too.
    this.cache = new LRUCache({ max: 10_000, ttl: Math.max(1, cacheSeconds) * 1000, perf: { now: clock } });
    revocations.subscribe((revoked) => this.drop(revoked));
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
    const generation = this.generation;
    const row = await this.accounts.findActiveKey(hash, this.clock());
    const result = row
      ? {
          appId: row.app_id,
          keyId: row.id,
          expiresAt: row.expires_at === null ? null : Number(row.expires_at),
          webOrigins: JSON.parse(row.web_origins) as string[],
        }
      : false;
    // Unknown keys are remembered briefly too, so a client retrying a bad key cannot load the database.
    if (generation === this.generation) this.cache.set(hash, result, result ? {} : { ttl: 5_000 });
    return result || null;
  }

  private cached(hash: string): AuthenticatedApp | null | undefined {
    const cached = this.cache.get(hash);
    if (cached && cached.expiresAt !== null && this.clock() >= cached.expiresAt) return null;
    return cached === undefined ? undefined : cached || null;
  }

  /** A key revoked (its commit done): every instance forgets what it cached of it. */
  forgetKey(keyId: number): void {
    this.revocations.publish({ key: keyId });
  }

  /** Every key of an app changed (a rotation, new web origins): every instance reads each key's new state. */
  forgetApp(appId: number): void {
    this.revocations.publish({ app: appId });
  }

  /** What this instance cached of a revoked key, or of every key of an app, goes. */
  private drop(revoked: Revocation): void {
    if ('grant' in revoked) return;
    this.generation++;
    const ended =
      'key' in revoked
        ? (value: AuthenticatedApp) => value.keyId === revoked.key
        : (value: AuthenticatedApp) => value.appId === revoked.app;
    for (const [hash, value] of this.cache.entries()) if (value && ended(value)) this.cache.delete(hash);
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
