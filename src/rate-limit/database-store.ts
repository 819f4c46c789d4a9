import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { databaseUnavailable } from '../db/database-unavailable.js';
import type { DB } from '../db/schema.js';
import {
  counterKey,
  stateOf,
  windowStart,
  type ConsumeResult,
  type RateLimitStore,
  type Window,
  type WindowState,
} from './rate-limit-store.js';

/** A window's counter as this process holds it: units reserved in the database, and how many it admitted. */
interface Grant {
  granted: number;
  used: number;
  /** The database's count after this process's last reservation (every instance's reservations). */
  seen: number;
  expiresAt: number;
}

/** Reservations per window: a block is 1/64 of the limit, so a crash can strand at most that much of it. */
const BLOCKS_PER_WINDOW = 64;
const SWEEP_MS = 60_000;
/** How long counting stays in the process after the database refused a reservation, before asking it again. */
const RETRY_AFTER_REFUSAL_MS = 2_000;

/**
 * Counters whose truth is the database, reserved ahead of use: before this process admits a request in a
 * window it has reserved a unit there, in one conditional statement that only counts while the window's
 * total stays within its limit. Units are reserved in blocks of 1/64 of the limit (one at a time for small
 * limits), so a busy key costs at most 64 writes per window, and no crash can give a window back what it
 * admitted: a process that dies strands at most one unused block per window (it admits slightly less, never
 * more). A graceful shutdown returns its unused units. Every instance sharing the database shares the limit.
 *
 * When the database cannot take a reservation (its disk is full, another process holds its lock, it does not
 * answer), this process counts the window by itself, one unit at a time against the limit, so that reads,
 * which need no other write, keep being served; it logs that once, reports it on /readyz (`check()`), asks
 * the database again 2 s later (not on every request: a held lock makes each attempt wait), and reserves there
 * again with the next reservation that succeeds. Meanwhile each instance admits up to
 * the limit on its own.
 */
export class DatabaseRateLimitStore implements RateLimitStore {
  private readonly grants = new Map<string, Grant>();
  /** A reservation in flight for a key: later requests of that key wait for it rather than reserve again. */
  private readonly reserving = new Map<string, Promise<ConsumeResult>>();
  private timer: NodeJS.Timeout | null = null;
  /** Why reservations are counted in this process instead, since the last one the database refused. */
  private refused: string | null = null;
  /** While refused, the database is asked again from this moment on (the service clock), not on every request. */
  private retryAt = 0;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: () => number,
    private readonly log?: FastifyBaseLogger,
  ) {}

  /** Starts dropping expired counters, here and in the database, once a minute. */
  start(): void {
    this.timer = setInterval(() => {
      void this.sweep();
    }, SWEEP_MS);
    this.timer.unref();
  }

  /**
   * Null while counters are reserved in the database. While they are counted here, a readiness check past the retry
   * moment asks the database for a write of its own (dropping expired counters), so that an instance no request
   * reaches does not report a refusal the database has long recovered from.
   */
  async check(): Promise<string | null> {
    if (this.refused !== null && this.clock() >= this.retryAt) {
      try {
        await this.db.deleteFrom('rate_limit_counters').where('expires_at', '<=', this.clock()).execute();
        this.log?.info('rate-limit counters: the database takes writes again');
        this.refused = null;
      } catch {
        this.retryAt = this.clock() + RETRY_AFTER_REFUSAL_MS;
      }
    }
    return this.refused === null
      ? null
      : `counting in this process: the database refused the counters' write (${this.refused})`;
  }

  consume(key: string, windows: Window[], now: number): ConsumeResult | Promise<ConsumeResult> {
    const inFlight = this.reserving.get(key);
    if (inFlight) {
      const again = () => this.consume(key, windows, now);
      return inFlight.then(again, again);
    }
    const grants = windows.map((window) => this.grantOf(counterKey(key, window, now), window, now));
    if (grants.every((g) => g.used < g.granted)) return this.admit(grants, windows, now);
    const reservation = this.reserveThenAdmit(key, windows, grants, now).finally(() => {
      if (this.reserving.get(key) === reservation) this.reserving.delete(key);
    });
    this.reserving.set(key, reservation);
    return reservation;
  }

  async refund(key: string, windows: Window[], now: number): Promise<void> {
    for (const window of windows) {
      const grant = this.grants.get(counterKey(key, window, now));
      if (grant && grant.used > 0) grant.used--;
    }
  }

  /** Returns the units reserved and not used, so a restart or another instance can use them. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    const now = this.clock();
    const unused = [...this.grants].filter(([, g]) => g.expiresAt > now && g.granted > g.used);
    this.grants.clear();
    try {
      for (const [id, grant] of unused) {
        await this.db
          .updateTable('rate_limit_counters')
          .set({ count: sql<number>`count - ${grant.granted - grant.used}` })
          .where('counter_key', '=', id)
          .execute();
      }
    } catch (err) {
      this.log?.warn({ err }, 'could not return unused rate-limit reservations');
    }
  }

  private grantOf(id: string, window: Window, now: number): Grant {
    let grant = this.grants.get(id);
    if (!grant || grant.expiresAt <= now) {
      grant = { granted: 0, used: 0, seen: 0, expiresAt: windowStart(window, now) + window.ms };
      this.grants.set(id, grant);
    }
    return grant;
  }

  private admit(grants: Grant[], windows: Window[], now: number): ConsumeResult {
    for (const g of grants) g.used++;
    return { allowed: true, windows: grants.map((g, i) => stateOf(windows[i]!, this.countOf(g), now)) };
  }

  /** What the window has admitted as far as this process knows: others' reservations, and its own use. */
  private countOf(grant: Grant): number {
    return Math.max(grant.used, grant.seen - grant.granted + grant.used);
  }

  private async reserveThenAdmit(key: string, windows: Window[], grants: Grant[], now: number): Promise<ConsumeResult> {
    for (let i = 0; i < windows.length; i++) {
      const grant = grants[i]!;
      if (grant.used < grant.granted) continue;
      const window = windows[i]!;
      if (!(await this.reserve(counterKey(key, window, now), window, grant))) {
        const states: WindowState[] = grants.map((g, j) =>
          stateOf(windows[j]!, j === i ? window.limit : this.countOf(g), now),
        );
        return { allowed: false, windows: states, blocking: states[i] };
      }
    }
    return this.admit(grants, windows, now);
  }

  /** Reserves a block of units (else a single one) while the window's total stays within its limit. */
  private async reserve(id: string, window: Window, grant: Grant): Promise<boolean> {
    const block = Math.max(1, Math.ceil(window.limit / BLOCKS_PER_WINDOW));
    // A database that just refused (a held lock makes each attempt wait busy_timeout) is not asked again at once.
    if (this.refused !== null && this.clock() < this.retryAt) return this.reserveHere(window, grant);
    for (const units of block > 1 ? [block, 1] : [1]) {
      let row: { count: number } | undefined;
      try {
        row = await this.db
          .insertInto('rate_limit_counters')
          .values({ counter_key: id, count: units, expires_at: grant.expiresAt })
          .onConflict((oc) =>
            oc
              .column('counter_key')
              .doUpdateSet({ count: sql<number>`rate_limit_counters.count + ${units}` })
              .where(sql<number>`rate_limit_counters.count + ${units}`, '<=', window.limit),
          )
          .returning('count')
          .executeTakeFirst();
      } catch (err) {
        const reason = databaseUnavailable(err);
        if (reason === null) throw err;
        if (this.refused === null)
          this.log?.error(
            { err, reason },
            'rate-limit counters: the database refused a reservation; counting in this process',
          );
        this.refused = reason;
        this.retryAt = this.clock() + RETRY_AFTER_REFUSAL_MS;
        return this.reserveHere(window, grant);
      }
      if (this.refused !== null) {
        this.log?.info('rate-limit counters: the database takes reservations again');
        this.refused = null;
      }
      if (row) {
        grant.granted += units;
        grant.seen = Number(row.count);
        return true;
      }
    }
    return false;
  }

  /** One unit counted by this process alone, while the window's count as it knows it stays within the limit. */
  private reserveHere(window: Window, grant: Grant): boolean {
    if (this.countOf(grant) >= window.limit) return false;
    grant.granted += 1;
    grant.seen += 1;
    return true;
  }

  private async sweep(): Promise<void> {
    const now = this.clock();
    for (const [id, grant] of this.grants) if (grant.expiresAt <= now) this.grants.delete(id);
    try {
      await this.db.deleteFrom('rate_limit_counters').where('expires_at', '<=', now).execute();
    } catch (err) {
      this.log?.warn({ err }, 'could not drop expired rate-limit counters');
    }
  }
}
