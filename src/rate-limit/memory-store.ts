import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { counterKey, stateOf, windowStart, type ConsumeResult, type RateLimitStore, type Window } from './rate-limit-store.js';

/**
 * Counters in this process. JavaScript runs one request's check-and-count at a time, so no window admits
 * more than its limit. Counters are saved to the database every few seconds and at shutdown, and loaded
 * at start, so a restart keeps the day's counts.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly counters = new Map<string, { count: number; expiresAt: number }>();
  private readonly dirty = new Set<string>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Kysely<DB> | null,
    private readonly clock: () => number,
    private readonly log?: FastifyBaseLogger,
  ) {}

  /** Loads saved counters and starts saving every `persistMs`. */
  async start(persistMs: number): Promise<void> {
    if (!this.db) return;
    const now = this.clock();
    for (const row of await this.db.selectFrom('rate_limit_counters').selectAll().where('expires_at', '>', now).execute()) {
      this.counters.set(row.counter_key, { count: row.count, expiresAt: row.expires_at });
    }
    this.timer = setInterval(() => { void this.save(); }, persistMs);
    this.timer.unref();
  }

  /** The check-and-count, at once (also used by the Redis store while Redis is unreachable). */
  consume(key: string, windows: Window[], now: number): ConsumeResult {
    const current = windows.map((window) => {
      const id = counterKey(key, window, now);
      const entry = this.counters.get(id);
      return { window, id, count: entry && entry.expiresAt > now ? entry.count : 0 };
    });
    const blocked = current.find((c) => c.count >= c.window.limit);
    if (blocked) {
      const states = current.map((c) => stateOf(c.window, c.count, now));
      return { allowed: false, windows: states, blocking: states[current.indexOf(blocked)] };
    }
    for (const c of current) {
      this.counters.set(c.id, { count: c.count + 1, expiresAt: windowStart(c.window, now) + c.window.ms });
      this.dirty.add(c.id);
    }
    return { allowed: true, windows: current.map((c) => stateOf(c.window, c.count + 1, now)) };
  }

  async refund(key: string, windows: Window[], now: number): Promise<void> {
    for (const window of windows) {
      const id = counterKey(key, window, now);
      const entry = this.counters.get(id);
      if (entry && entry.count > 0) {
        entry.count--;
        this.dirty.add(id);
      }
    }
  }

  /** Writes changed counters to the database and drops expired ones. */
  async save(): Promise<void> {
    if (!this.db || this.dirty.size === 0) return;
    const now = this.clock();
    const rows = [...this.dirty].flatMap((id) => {
      const entry = this.counters.get(id);
      return entry && entry.expiresAt > now ? [{ counter_key: id, count: entry.count, expires_at: entry.expiresAt }] : [];
    });
    this.dirty.clear();
    for (const [id, entry] of this.counters) if (entry.expiresAt <= now) this.counters.delete(id);
    try {
      for (let i = 0; i < rows.length; i += 200) {
        await this.db.insertInto('rate_limit_counters').values(rows.slice(i, i + 200))
          .onConflict((oc) => oc.column('counter_key').doUpdateSet((eb) => ({ count: eb.ref('excluded.count'), expires_at: eb.ref('excluded.expires_at') })))
          .execute();
      }
      await this.db.deleteFrom('rate_limit_counters').where('expires_at', '<=', now).execute();
    } catch (err) {
      this.log?.warn({ err }, 'could not save rate-limit counters');
      for (const row of rows) this.dirty.add(row.counter_key);
    }
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.save();
  }
}
