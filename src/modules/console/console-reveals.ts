/**
 * Post/Redirect/Get for the console forms that make a secret (a new app, a key rotation, a new client, a
 * secret rotation): the form keeps the new key or secret here, sealed, and redirects to the app's page with a
 * one-time token; that page takes it out as it shows it. A reload of the page, or of the form's answer, makes
 * nothing again and shows the secret no more. Rows are kept in the database, so the page may be served by
 * another instance than the form, and last minutes.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { hashSecret, randomBase62 } from '../../shared/keys.js';
import { seal, unseal } from '../../shared/sealed.js';

/** An app key, an OAuth client secret, or a webhook endpoint's signing secret (`<endpoint id> <secret>`). */
export type RevealKind = 'key' | 'secret' | 'signing-secret';

/** How long a made secret waits for its page. */
const REVEAL_MS = 10 * 60_000;

export class ConsoleReveals {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly kek: Buffer,
    private readonly clock: () => number,
  ) {}

  /** Keeps `value` for one showing to `userId` on the page of `appId`; returns the token the page's address carries. */
  async keep(userId: number, appId: number, kind: RevealKind, value: string): Promise<string> {
    const token = randomBase62(32);
    await this.db
      .insertInto('console_reveals')
      .values({
        id_hash: hashSecret(token),
        user_id: userId,
        app_id: appId,
        kind,
        sealed: seal(this.kek, value),
        expires_at: this.clock() + REVEAL_MS,
      })
      .execute();
    return token;
  }

  /** Takes the value out, once: null when shown already, expired, or kept for another user or app. */
  async take(token: string, userId: number, appId: number): Promise<{ kind: RevealKind; value: string } | null> {
    const now = this.clock();
    await this.db.deleteFrom('console_reveals').where('expires_at', '<=', now).execute();
    const row = await this.db
      .deleteFrom('console_reveals')
      .where('id_hash', '=', hashSecret(token))
      .where('user_id', '=', userId)
      .where('app_id', '=', appId)
      .returning(['kind', 'sealed'])
      .executeTakeFirst();
    if (!row) return null;
    try {
      return { kind: row.kind as RevealKind, value: unseal(this.kek, row.sealed) };
    } catch {
      return null;
    }
  }
}
