import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import type { DB } from '../../db/schema.js';

export interface OAuthClient {
  clientId: string;
  name: string;
  secretHash: string | null;
  redirectUris: string[];
  allowedScopes: string[];
  /** The app the client belongs to (null for clients the operator registered on their own). */
  appId?: number | null;
  /** The secret a rotation replaced, and when it stops working (the rotation's overlap). */
  previousSecretHash?: string | null;
  previousSecretExpiresAt?: number | null;
  /** When the client registered itself (RFC 7591); null for every other client. */
  registeredAt?: number | null;
  /** What a client that registered itself said it is (null: every other client, judged by its secret). */
  applicationType?: 'native' | 'web' | null;
  /** The client address it registered itself from (null: every other client). */
  registeredFrom?: string | null;
}

/** When a client's rotated-out secret stops working, while it still works at `now` (the overlap runs); else null. */
export function previousSecretUntil(client: OAuthClient, now: number): number | null {
  const until = client.previousSecretHash ? (client.previousSecretExpiresAt ?? null) : null;
  return until !== null && until > now ? until : null;
}

/** All SQL of the OAuth server. Every consume is one conditional UPDATE, so exactly one caller wins. */
export class OAuthRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** Runs `work` in one transaction, with a repository bound to it. */
  async transaction<T>(work: (repository: OAuthRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new OAuthRepository(trx)));
  }

  // Clients

  async createClient(client: OAuthClient, now: number): Promise<void> {
    await this.db
      .insertInto('oauth_clients')
      .values({
        client_id: client.clientId,
        name: client.name,
        secret_hash: client.secretHash,
        redirect_uris: JSON.stringify(client.redirectUris),
        allowed_scopes: client.allowedScopes.join(' '),
        created_at: now,
        updated_at: now,
        app_id: client.appId ?? null,
        previous_secret_hash: null,
        previous_secret_expires_at: null,
        registered_at: client.registeredAt ?? null,
        application_type: client.applicationType ?? null,
        registered_from: client.registeredFrom ?? null,
      })
      .execute();
  }

  /**
   * Removes the clients that registered themselves before `before` and never completed a grant (a host that tried
   * and went away): nothing refers to them but the codes they may have been given, which go with them.
   */
  async removeUnusedRegistrations(before: number): Promise<number> {
    const unused = (eb: ExpressionBuilder<DB, 'oauth_clients'>) =>
      eb.and([
        eb('oauth_clients.registered_at', 'is not', null),
        eb('oauth_clients.registered_at', '<', before),
        eb.not(
          eb.exists(
            eb
              .selectFrom('oauth_grants')
              .select('oauth_grants.id')
              .whereRef('oauth_grants.client_id', '=', 'oauth_clients.client_id'),
          ),
        ),
      ]);
    return this.db.transaction().execute(async (trx) => {
      const gone = await trx.selectFrom('oauth_clients').select('client_id').where(unused).execute();
      if (gone.length === 0) return 0;
      const ids = gone.map((row) => row.client_id);
      await trx.deleteFrom('oauth_authorization_codes').where('client_id', 'in', ids).execute();
      await trx.deleteFrom('oauth_consents').where('client_id', 'in', ids).execute();
      await trx.deleteFrom('oauth_clients').where('client_id', 'in', ids).execute();
      return ids.length;
    });
  }

  /** A client that may act: the client of a deleted app is gone for the OAuth server. */
  async findClient(clientId: string): Promise<OAuthClient | null> {
    const row = await this.db
      .selectFrom('oauth_clients')
      .selectAll('oauth_clients')
      .where('client_id', '=', clientId)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('apps')
              .select('apps.id')
              .whereRef('apps.id', '=', 'oauth_clients.app_id')
              .where('apps.deleted_at', 'is not', null),
          ),
        ),
      )
      .executeTakeFirst();
    return row ? toClient(row) : null;
  }

  /**
   * Writes a client known by its metadata document (client-metadata.ts) as the document now says, keeping its id, so
   * that its codes and grants refer to it. It never has a secret or an app.
   */
  async saveMetadataClient(client: OAuthClient, now: number): Promise<void> {
    await this.db
      .insertInto('oauth_clients')
      .values({
        client_id: client.clientId,
        name: client.name,
        secret_hash: null,
        redirect_uris: JSON.stringify(client.redirectUris),
        allowed_scopes: client.allowedScopes.join(' '),
        created_at: now,
        updated_at: now,
        app_id: null,
        previous_secret_hash: null,
        previous_secret_expires_at: null,
      })
      .onConflict((oc) =>
        oc
          .column('client_id')
          .doUpdateSet({
            name: client.name,
            redirect_uris: JSON.stringify(client.redirectUris),
            allowed_scopes: client.allowedScopes.join(' '),
            updated_at: now,
          })
          .where('oauth_clients.app_id', 'is', null)
          .where('oauth_clients.secret_hash', 'is', null),
      )
      .execute();
  }

  /** The client of an app (the console gives an app one). */
  async clientOfApp(appId: number): Promise<OAuthClient | null> {
    const row = await this.db
      .selectFrom('oauth_clients')
      .selectAll()
      .where('app_id', '=', appId)
      .orderBy('created_at')
      .executeTakeFirst();
    return row ? toClient(row) : null;
  }

  async updateClient(clientId: string, redirectUris: string[], scopes: string[], now: number): Promise<void> {
    await this.db
      .updateTable('oauth_clients')
      .set({ redirect_uris: JSON.stringify(redirectUris), allowed_scopes: scopes.join(' '), updated_at: now })
      .where('client_id', '=', clientId)
      .execute();
  }

  async listClients(): Promise<OAuthClient[]> {
    return (await this.db.selectFrom('oauth_clients').selectAll().orderBy('created_at').execute()).map(toClient);
  }

  /** A new secret; the current one keeps working until `previousUntil` (null: it stops now). */
  async replaceClientSecret(
    clientId: string,
    secretHash: string,
    previousUntil: number | null,
    now: number,
  ): Promise<void> {
    await this.db
      .updateTable('oauth_clients')
      .set((eb) => ({
        secret_hash: secretHash,
        previous_secret_hash: previousUntil === null ? null : eb.ref('secret_hash'),
        previous_secret_expires_at: previousUntil,
        updated_at: now,
      }))
      .where('client_id', '=', clientId)
      .where('secret_hash', 'is not', null)
      .execute();
  }

  async endPreviousSecret(clientId: string, now: number): Promise<void> {
    await this.db
      .updateTable('oauth_clients')
      .set({ previous_secret_hash: null, previous_secret_expires_at: null, updated_at: now })
      .where('client_id', '=', clientId)
      .execute();
  }

  /** How the app a client belongs to presents itself on the consent page. */
  async appProfile(
    appId: number,
  ): Promise<{ name: string; description: string; homepageUrl: string | null; privacyUrl: string | null } | null> {
    const row = await this.db
      .selectFrom('apps')
      .select(['name', 'description', 'homepage_url', 'privacy_url'])
      .where('id', '=', appId)
      .executeTakeFirst();
    return row
      ? { name: row.name, description: row.description, homepageUrl: row.homepage_url, privacyUrl: row.privacy_url }
      : null;
  }

  // Login sessions

  async createSession(idHash: string, userId: number, now: number, expiresAt: number): Promise<void> {
    await this.db
      .insertInto('login_sessions')
      .values({ id_hash: idHash, user_id: userId, created_at: now, expires_at: expiresAt })
      .execute();
  }

  async sessionUser(idHash: string, now: number): Promise<number | null> {
    const row = await this.db
      .selectFrom('login_sessions')
      .select('user_id')
      .where('id_hash', '=', idHash)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row?.user_id ?? null;
  }

  async deleteSession(idHash: string): Promise<void> {
    await this.db.deleteFrom('login_sessions').where('id_hash', '=', idHash).execute();
  }

  async deleteSessionsOf(userId: number): Promise<void> {
    await this.db.deleteFrom('login_sessions').where('user_id', '=', userId).execute();
  }

  // Consents

  async consentedScopes(userId: number, clientId: string): Promise<string[]> {
    const row = await this.db
      .selectFrom('oauth_consents')
      .select('scopes')
      .where('user_id', '=', userId)
      .where('client_id', '=', clientId)
      .executeTakeFirst();
    return row ? row.scopes.split(' ').filter(Boolean) : [];
  }

  async saveConsent(userId: number, clientId: string, scopes: string[], now: number): Promise<void> {
    await this.db
      .insertInto('oauth_consents')
      .values({ user_id: userId, client_id: clientId, scopes: scopes.join(' '), updated_at: now })
      .onConflict((oc) =>
        oc.columns(['user_id', 'client_id']).doUpdateSet({ scopes: scopes.join(' '), updated_at: now }),
      )
      .execute();
  }

  // Authorization codes

  async createCode(code: {
    codeHash: string;
    clientId: string;
    userId: number;
    redirectUri: string;
    scopes: string[];
    codeChallenge: string;
    now: number;
    expiresAt: number;
    resource: string | null;
  }): Promise<void> {
    await this.db
      .insertInto('oauth_authorization_codes')
      .values({
        code_hash: code.codeHash,
        client_id: code.clientId,
        user_id: code.userId,
        redirect_uri: code.redirectUri,
        scopes: code.scopes.join(' '),
        code_challenge: code.codeChallenge,
        created_at: code.now,
        expires_at: code.expiresAt,
        consumed_at: null,
        grant_id: null,
        resource: code.resource,
      })
      .execute();
  }

  /** Marks an unused code consumed and returns it; null when it was already used or never existed. */
  async consumeCode(codeHash: string, now: number) {
    return (
      (await this.db
        .updateTable('oauth_authorization_codes')
        .set({ consumed_at: now })
        .where('code_hash', '=', codeHash)
        .where('consumed_at', 'is', null)
        .returningAll()
        .executeTakeFirst()) ?? null
    );
  }

  async findCode(codeHash: string) {
    return (
      (await this.db
        .selectFrom('oauth_authorization_codes')
        .selectAll()
        .where('code_hash', '=', codeHash)
        .executeTakeFirst()) ?? null
    );
  }

  async linkCodeToGrant(codeHash: string, grantId: string): Promise<void> {
    await this.db
      .updateTable('oauth_authorization_codes')
      .set({ grant_id: grantId })
      .where('code_hash', '=', codeHash)
      .execute();
  }

  // Grants and refresh tokens

  async createGrant(grant: {
    id: string;
    userId: number;
    clientId: string;
    scopes: string[];
    now: number;
    resource: string | null;
  }): Promise<void> {
    await this.db
      .insertInto('oauth_grants')
      .values({
        id: grant.id,
        user_id: grant.userId,
        client_id: grant.clientId,
        scopes: grant.scopes.join(' '),
        created_at: grant.now,
        revoked_at: null,
        revoked_reason: null,
        resource: grant.resource,
      })
      .execute();
  }

  async findGrant(id: string) {
    return (await this.db.selectFrom('oauth_grants').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
  }

  /** The grants a user has given and not revoked, newest first, with the app and when a token was last issued. */
  async userGrants(userId: number) {
    const rows = await this.db
      .selectFrom('oauth_grants')
      .innerJoin('oauth_clients', 'oauth_clients.client_id', 'oauth_grants.client_id')
      .leftJoin('apps', 'apps.id', 'oauth_clients.app_id')
      .leftJoin('oauth_refresh_tokens', 'oauth_refresh_tokens.grant_id', 'oauth_grants.id')
      .select((eb) => [
        'oauth_grants.id',
        'oauth_grants.scopes',
        'oauth_grants.created_at',
        'oauth_clients.name as client_name',
        'apps.name as app_name',
        'apps.homepage_url',
        eb.fn.max('oauth_refresh_tokens.created_at').as('last_used_at'),
      ])
      .where('oauth_grants.user_id', '=', userId)
      .where('oauth_grants.revoked_at', 'is', null)
      .groupBy([
        'oauth_grants.id',
        'oauth_grants.scopes',
        'oauth_grants.created_at',
        'oauth_clients.name',
        'apps.name',
        'apps.homepage_url',
      ])
      .orderBy('oauth_grants.created_at', 'desc')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      scopes: r.scopes.split(' ').filter(Boolean),
      createdAt: Number(r.created_at),
      appName: r.app_name ?? r.client_name,
      homepageUrl: r.homepage_url,
      lastUsedAt: r.last_used_at === null ? null : Number(r.last_used_at),
    }));
  }

  async revokeGrant(id: string, reason: string, now: number): Promise<void> {
    await this.db
      .updateTable('oauth_grants')
      .set({ revoked_at: now, revoked_reason: reason })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /** Revokes every standing grant of a client; returns their ids. */
  async revokeGrantsOfClient(clientId: string, reason: string, now: number): Promise<string[]> {
    const rows = await this.db
      .updateTable('oauth_grants')
      .set({ revoked_at: now, revoked_reason: reason })
      .where('client_id', '=', clientId)
      .where('revoked_at', 'is', null)
      .returning('id')
      .execute();
    return rows.map((row) => row.id);
  }

  /** Disables the account from `at` (the operator's `users disable`), or enables it again (null). */
  async setUserDisabled(userId: number, at: number | null): Promise<void> {
    await this.db.updateTable('users').set({ disabled_at: at }).where('id', '=', userId).execute();
  }

  /** Revokes every grant the user gave (their account was disabled); returns their ids. */
  async revokeGrantsOfUser(userId: number, reason: string, now: number): Promise<string[]> {
    const rows = await this.db
      .updateTable('oauth_grants')
      .set({ revoked_at: now, revoked_reason: reason })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .returning('id')
      .execute();
    return rows.map((row) => row.id);
  }

  async addRefreshToken(tokenHash: string, grantId: string, now: number, expiresAt: number): Promise<void> {
    await this.db
      .insertInto('oauth_refresh_tokens')
      .values({ token_hash: tokenHash, grant_id: grantId, created_at: now, expires_at: expiresAt, consumed_at: null })
      .execute();
  }

  /** Marks an unused refresh token consumed and returns it; null when already used or unknown. */
  async consumeRefreshToken(tokenHash: string, now: number) {
    return (
      (await this.db
        .updateTable('oauth_refresh_tokens')
        .set({ consumed_at: now })
        .where('token_hash', '=', tokenHash)
        .where('consumed_at', 'is', null)
        .returningAll()
        .executeTakeFirst()) ?? null
    );
  }

  async findRefreshToken(tokenHash: string) {
    return (
      (await this.db
        .selectFrom('oauth_refresh_tokens')
        .selectAll()
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst()) ?? null
    );
  }
}

function toClient(row: Selectable<DB['oauth_clients']>): OAuthClient {
  return {
    clientId: row.client_id,
    name: row.name,
    secretHash: row.secret_hash,
    redirectUris: JSON.parse(row.redirect_uris) as string[],
    allowedScopes: row.allowed_scopes.split(' ').filter(Boolean),
    appId: row.app_id === null ? null : Number(row.app_id),
    previousSecretHash: row.previous_secret_hash,
    previousSecretExpiresAt: row.previous_secret_expires_at === null ? null : Number(row.previous_secret_expires_at),
    registeredAt: row.registered_at === null ? null : Number(row.registered_at),
    applicationType: row.application_type === 'native' || row.application_type === 'web' ? row.application_type : null,
    registeredFrom: row.registered_from,
  };
}
