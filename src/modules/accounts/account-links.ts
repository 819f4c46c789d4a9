/**
 * Links mailed to an account's address: a password reset (30 minutes, once) and the confirmation of a console
 * sign-up's address (24 hours, once). The link carries a random secret; only its hash is stored. Issuing a link
 * ends the account's earlier unused links of the same kind, so only the latest mail works.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import { hashSecret } from '../../shared/keys.js';

export type LinkPurpose = 'reset' | 'verify';

const LINK_LIFETIME_MS: Record<LinkPurpose, number> = { reset: 30 * 60_000, verify: 24 * 3_600_000 };

/** A link's secret as it travels in a URL: 32 random bytes, base64url. */
const SECRET = /^[A-Za-z0-9_-]{43}$/;

export interface LinkHolder {
  userId: number;
  email: string;
}

/** Marks a link that still works used, and says whose it was; null for one unknown, used or expired. */
async function used(
  trx: Transaction<DB>,
  secret: string,
  purpose: LinkPurpose,
  now: number,
): Promise<LinkHolder | null> {
  const link = await trx
    .updateTable('account_links')
    .set({ used_at: now })
    .where('token_hash', '=', hashSecret(secret))
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['user_id', 'email'])
    .executeTakeFirst();
  return link ? { userId: Number(link.user_id), email: link.email } : null;
}

export class AccountLinks {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: () => number,
  ) {}

  /** A new link of `purpose` for the account at `email`; returns its secret (for the mail, never stored). */
  async issue(userId: number, email: string, purpose: LinkPurpose): Promise<string> {
    const secret = randomBytes(32).toString('base64url');
    const now = this.clock();
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('account_links').where('user_id', '=', userId).where('purpose', '=', purpose).execute();
      await trx
        .insertInto('account_links')
        .values({
          token_hash: hashSecret(secret),
          user_id: userId,
          purpose,
          email,
          created_at: now,
          expires_at: now + LINK_LIFETIME_MS[purpose],
          used_at: null,
        })
        .execute();
    });
    return secret;
  }

  /** Whom a link that still works belongs to, without using it (the page that asks for the new password). */
  async holder(secret: string | undefined, purpose: LinkPurpose): Promise<LinkHolder | null> {
    if (!secret || !SECRET.test(secret)) return null;
    const row = await this.db
      .selectFrom('account_links')
      .select(['user_id', 'email'])
      .where('token_hash', '=', hashSecret(secret))
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .where('expires_at', '>', this.clock())
      .executeTakeFirst();
    return row ? { userId: Number(row.user_id), email: row.email } : null;
  }

  /**
   * Sets a new password through a reset link, in one transaction: the link is used (a second use, or a use after
   * its 30 minutes, changes nothing and returns null), the password replaced, and every console and sign-in session
   * of the account ended. A disabled account's link does nothing.
   *
   * Following the link proves the address, so the account counts as confirmed from then on. When it had never been
   * confirmed, whoever made it may not have owned the address: `neverConfirmed` runs in the same transaction, before
   * the account is marked confirmed, to end every credential made before (the console's `endCredentialsOfAccount`).
   */
  async resetPassword<T>(
    secret: string | undefined,
    passwordHash: string,
    neverConfirmed: (trx: Transaction<DB>, userId: number, now: number) => Promise<T>,
  ): Promise<(LinkHolder & { ended: T | null }) | null> {
    if (!secret || !SECRET.test(secret)) return null;
    const now = this.clock();
    return this.db.transaction().execute(async (trx) => {
      const link = await used(trx, secret, 'reset', now);
      if (!link) return null;
      const { userId } = link;
      const user = await trx
        .selectFrom('users')
        .select(['email', 'email_verified'])
        .where('id', '=', userId)
        .where('disabled_at', 'is', null)
        .executeTakeFirst();
      if (!user) return null;
      await trx
        .updateTable('users')
        .set({ password_hash: passwordHash, updated_at: now })
        .where('id', '=', userId)
        .execute();
      await trx.deleteFrom('login_sessions').where('user_id', '=', userId).execute();
      const ended = user.email_verified ? null : await neverConfirmed(trx, userId, now);
      // The mail reached the account's address only while the address is still the one the link was sent to.
      if (user.email === link.email) {
        await trx.updateTable('users').set({ email_verified: 1 }).where('id', '=', userId).execute();
        await trx.deleteFrom('account_links').where('user_id', '=', userId).where('purpose', '=', 'verify').execute();
      }
      return { userId, email: link.email, ended };
    });
  }

  /** Confirms an address through its link: the account's address counts as its owner's while it is this one. */
  async verify(secret: string | undefined): Promise<LinkHolder | null> {
    if (!secret || !SECRET.test(secret)) return null;
    const now = this.clock();
    return this.db.transaction().execute(async (trx) => {
      const link = await used(trx, secret, 'verify', now);
      if (!link) return null;
      const confirmed = await trx
        .updateTable('users')
        .set({ email_verified: 1, updated_at: now })
        .where('id', '=', link.userId)
        .where('email', '=', link.email)
        .executeTakeFirst();
      return Number(confirmed.numUpdatedRows) === 1 ? link : null;
    });
  }
}
