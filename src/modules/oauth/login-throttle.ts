import { LRUCache } from 'lru-cache';

export interface ThrottleSettings { maxFailuresPerAccount: number; maxFailuresPerAddress: number; windowSeconds: number }

/**
 * Counts failed sign-ins per account and per client address in a fixed window. Once either count
 * reaches its limit, sign-in is refused for that account or address until the window ends, whether the
 * password is right or not, so guessing gains nothing. Counts are per instance.
 */
export class LoginThrottle {
  private readonly failures = new LRUCache<string, { count: number; until: number }>({ max: 200_000 });

  constructor(private readonly settings: ThrottleSettings, private readonly clock: () => number) {}

  isBlocked(account: string, address: string): boolean {
    return this.count(`a:${account}`) >= this.settings.maxFailuresPerAccount
      || this.count(`i:${address}`) >= this.settings.maxFailuresPerAddress;
  }

  recordFailure(account: string, address: string): void {
    for (const key of [`a:${account}`, `i:${address}`]) {
      const current = this.failures.get(key);
      const now = this.clock();
      if (current && current.until > now) current.count++;
      else this.failures.set(key, { count: 1, until: now + this.settings.windowSeconds * 1000 });
    }
  }

  recordSuccess(account: string): void {
    this.failures.delete(`a:${account}`);
  }

  private count(key: string): number {
    const entry = this.failures.get(key);
    return entry && entry.until > this.clock() ? entry.count : 0;
  }
}
