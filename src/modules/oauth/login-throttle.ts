import ipaddr from 'ipaddr.js';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { hashSecret } from '../../shared/keys.js';

export interface ThrottleSettings {
  maxFailuresPerAccount: number;
  maxFailuresPerAddress: number;
  windowSeconds: number;
}

/** The attempts one sign-in holds until its password check is done. */
export interface LoginReservation {
  keys: string[];
}

/**
 * Sign-in attempts per account and per client address, in fixed windows aligned to the clock.
 *
 * An attempt is reserved before its password is checked, in one atomic statement per counter that only
 * counts when the counter is under its limit: a burst of parallel guesses gets exactly the limit evaluated,
 * the rest are refused unread, and the right password inside a refused burst gains nothing. A failed attempt
 * keeps its reservation; a successful one gives it back. The counters live in the database, so every instance
 * sharing it sees the same counts and a restart resets nothing.
 */
export class LoginThrottle {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly settings: ThrottleSettings,
    private readonly clock: () => number,
  ) {}

  /** Reserves an attempt for this account and address, or null when either is at its limit (nothing counted). */
  async reserve(account: string, address: string): Promise<LoginReservation | null> {
    const { start, end } = this.window();
    // Hashed: a key's length does not depend on what a client sends (an index row has a size limit).
    const accountKey = `login|a:${hashSecret(account).slice(0, 32)}|${start}`;
    if (!(await this.take(accountKey, this.settings.maxFailuresPerAccount, end))) return null;
    const addressKey = `login|i:${hashSecret(address).slice(0, 32)}|${start}`;
    if (!(await this.take(addressKey, this.settings.maxFailuresPerAddress, end))) {
      await this.release({ keys: [accountKey] });
      return null;
    }
    return { keys: [accountKey, addressKey] };
  }

  /**
   * Counts one sign-up from this address; false when the address has made `maxFailuresPerAddress` in the
   * window. Every attempt counts, accepted or not: what it bounds is accounts made, and addresses probed for
   * being taken, in bulk.
   */
  async signUpAllowed(address: string): Promise<boolean> {
    const { start, end } = this.window();
    return this.take(`signup|i:${hashSecret(address).slice(0, 32)}|${start}`, this.settings.maxFailuresPerAddress, end);
  }

  /**
   * Counts one mailed link asked for (a password reset, a confirmation sent again) for this e-mail address and this
   * client address; false when either has had its share in the window: `perAccount` per e-mail address, whether an
   * account has it or not (so a refusal tells nothing), and `maxFailuresPerAddress` per client address.
   */
  async mailAllowed(kind: 'reset' | 'verify', email: string, address: string, perAccount: number): Promise<boolean> {
    const { start, end } = this.window();
    if (!(await this.take(`${kind}|a:${hashSecret(email).slice(0, 32)}|${start}`, perAccount, end))) return false;
    return this.take(
      `${kind}|i:${hashSecret(address).slice(0, 32)}|${start}`,
      this.settings.maxFailuresPerAddress,
      end,
    );
  }

  /**
   * Counts one client metadata document fetched for this client address (a new client stored with it); false when
   * the address has had `maxFailuresPerAddress` in the window, or its network (networkOf) ten times that.
   */
  async metadataFetchAllowed(address: string): Promise<boolean> {
    return this.newClientAllowed('metadata', address);
  }

  /** Counts one client registration (RFC 7591) from this client address, within the same bounds as metadata documents. */
  async registrationAllowed(address: string): Promise<boolean> {
    return this.newClientAllowed('register', address);
  }

  /**
   * `maxFailuresPerAddress` new clients of `kind` per client address and window, and ten times that per network. No
   * count is shared by every address: a flood from many networks cannot use up what a new host elsewhere needs.
   */
  private async newClientAllowed(kind: 'metadata' | 'register', address: string): Promise<boolean> {
    const { start, end } = this.window();
    if (
      !(await this.take(
        `${kind}|i:${hashSecret(address).slice(0, 32)}|${start}`,
        this.settings.maxFailuresPerAddress,
        end,
      ))
    )
      return false;
    return this.take(
      `${kind}|n:${hashSecret(networkOf(address)).slice(0, 32)}|${start}`,
      this.settings.maxFailuresPerAddress * 10,
      end,
    );
  }

  /** The current window, aligned to the clock. */
  private window(): { start: number; end: number } {
    const windowMs = this.settings.windowSeconds * 1000;
    const start = Math.floor(this.clock() / windowMs) * windowMs;
    return { start, end: start + windowMs };
  }

  /** Gives back a reservation whose attempt succeeded. */
  async release(reservation: LoginReservation): Promise<void> {
    await this.db
      .updateTable('rate_limit_counters')
      .set({ count: sql<number>`count - 1` })
      .where('counter_key', 'in', reservation.keys)
      .where('count', '>', 0)
      .execute();
  }

  /** Counts one attempt when the counter is under `limit`; the check and the count are one statement. */
  private async take(key: string, limit: number, expiresAt: number): Promise<boolean> {
    const row = await this.db
      .insertInto('rate_limit_counters')
      .values({ counter_key: key, count: 1, expires_at: expiresAt })
      .onConflict((oc) =>
        oc
          .column('counter_key')
          .doUpdateSet({ count: sql<number>`rate_limit_counters.count + 1` })
          .where('rate_limit_counters.count', '<', limit),
      )
      .returning('count')
      .executeTakeFirst();
    return row !== undefined;
  }
}

/** The network an address belongs to, as one party holds it: its IPv4 /24, or its IPv6 /48 (a site's prefix). */
export function networkOf(address: string): string {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.process(address);
  } catch {
    return address;
  }
  if (ip.kind() === 'ipv4') return `${(ip as ipaddr.IPv4).octets.slice(0, 3).join('.')}.0/24`;
  return `${(ip as ipaddr.IPv6).parts
    .slice(0, 3)
    .map((part) => part.toString(16))
    .join(':')}::/48`;
}
