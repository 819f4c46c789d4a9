import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

export interface AuditEntry {
  action: string;
  detail: string;
  actorUserId: number | null;
  actorEmail: string | null;
  createdAt: number;
}

/** The SQL of apps, their keys and their audit trail. */
export class AppRepository {
  constructor(private readonly db: Kysely<DB>) {}

  transaction<T>(work: (repository: AppRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new AppRepository(trx)));
  }

  async findApp(appId: number) {
    return this.db.selectFrom('apps').selectAll().where('id', '=', appId).executeTakeFirst();
  }

  /** The apps a user owns and has not deleted, newest first. */
  async appsOf(userId: number) {
    return this.db
      .selectFrom('apps')
      .select(['id', 'name', 'created_at'])
      .where('owner_user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .orderBy('id', 'desc')
      .execute();
  }

  /** The app if `userId` owns it and it is not deleted. */
  async ownedApp(appId: number, userId: number) {
    return this.db
      .selectFrom('apps')
      .selectAll()
      .where('id', '=', appId)
      .where('owner_user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  }

  /** Creates an app for its owner, unless they own `max` already: then null. */
  async createApp(
    name: string,
    description: string,
    ownerUserId: number,
    now: number,
    max: number,
  ): Promise<number | null> {
    return this.db.transaction().execute(async (trx) => {
      // The owner's row first: its lock orders two creations at once (PostgreSQL; SQLite's write lock does already).
      await trx
        .updateTable('users')
        .set((eb) => ({ updated_at: eb.ref('updated_at') }))
        .where('id', '=', ownerUserId)
        .execute();
      const owned = await trx
        .selectFrom('apps')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('owner_user_id', '=', ownerUserId)
        .where('deleted_at', 'is', null)
        .executeTakeFirstOrThrow();
      if (Number(owned.n) >= max) return null;
      const row = await trx
        .insertInto('apps')
        .values({
          name,
          description,
          owner_user_id: ownerUserId,
          created_at: now,
          homepage_url: null,
          privacy_url: null,
          deleted_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    });
  }

  async updateProfile(
    appId: number,
    profile: {
      name: string;
      description: string;
      homepageUrl: string | null;
      privacyUrl: string | null;
      webOrigins: string[];
    },
  ): Promise<void> {
    await this.db
      .updateTable('apps')
      .set({
        name: profile.name,
        description: profile.description,
        homepage_url: profile.homepageUrl,
        privacy_url: profile.privacyUrl,
        web_origins: JSON.stringify(profile.webOrigins),
      })
      .where('id', '=', appId)
      .execute();
  }

  /** Marks an app deleted and revokes its working keys; it leaves the owner's list (its audit trail stays). Returns the keys stopped. */
  async deleteApp(appId: number, now: number): Promise<number> {
    const result = await this.db
      .updateTable('app_keys')
      .set({ revoked_at: now })
      .where('app_id', '=', appId)
      .where('revoked_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .executeTakeFirst();
    // Keys whose rotation overlap already ended are revoked too (not counted: they had stopped), so none is left open.
    await this.db
      .updateTable('app_keys')
      .set({ revoked_at: now })
      .where('app_id', '=', appId)
      .where('revoked_at', 'is', null)
      .execute();
    await this.db.updateTable('apps').set({ deleted_at: now }).where('id', '=', appId).execute();
    // Its webhook endpoints go with it, their deliveries and attempts too (cascade): nothing more is sent.
    await this.db.deleteFrom('webhook_endpoints').where('app_id', '=', appId).execute();
    return Number(result.numUpdatedRows);
  }

  /**
   * Stops what an app holds without deleting it: every key still open is revoked and every webhook endpoint disabled
   * (its pending deliveries given up). Returns the ids of the keys revoked.
   */
  async stopCredentials(appId: number, reason: string, now: number): Promise<number[]> {
    const keys = await this.db
      .updateTable('app_keys')
      .set({ revoked_at: now })
      .where('app_id', '=', appId)
      .where('revoked_at', 'is', null)
      .returning('id')
      .execute();
    const endpoints = await this.db
      .updateTable('webhook_endpoints')
      .set({ disabled_at: now, disabled_reason: reason, due_at: null })
      .where('app_id', '=', appId)
      .where('disabled_at', 'is', null)
      .returning('id')
      .execute();
    if (endpoints.length > 0) {
      await this.db
        .updateTable('webhook_deliveries')
        .set({ state: 'failed', next_attempt_at: null, last_error: 'the endpoint was disabled' })
        .where(
          'endpoint_id',
          'in',
          endpoints.map((e) => e.id),
        )
        .where('state', '=', 'pending')
        .execute();
    }
    return keys.map((key) => key.id);
  }

  async listApps() {
    return this.db
      .selectFrom('apps')
      .leftJoin('users', 'users.id', 'apps.owner_user_id')
      .select(['apps.id', 'apps.name', 'apps.created_at', 'users.email as owner_email'])
      .orderBy('apps.id')
      .execute();
  }

  async keysOf(appId: number) {
    return this.db
      .selectFrom('app_keys')
      .select(['id', 'key_hint', 'created_at', 'revoked_at', 'expires_at'])
      .where('app_id', '=', appId)
      .orderBy('id')
      .execute();
  }

  async addKey(appId: number, keyHash: string, keyHint: string, now: number): Promise<number> {
    const row = await this.db
      .insertInto('app_keys')
      .values({
        app_id: appId,
        key_hash: keyHash,
        key_hint: keyHint,
        created_at: now,
        revoked_at: null,
        expires_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** Makes every key of the app still working at `now` stop at `at` (keys already ending sooner keep their end). */
  async endKeys(appId: number, at: number, now: number): Promise<number> {
    const result = await this.db
      .updateTable('app_keys')
      .set({ expires_at: at })
      .where('app_id', '=', appId)
      .where('revoked_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', Math.max(at, now))]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async revokeKey(appId: number, keyId: number, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('app_keys')
      .set({ revoked_at: now })
      .where('app_id', '=', appId)
      .where('id', '=', keyId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async record(appId: number, actorUserId: number | null, action: string, detail: string, now: number): Promise<void> {
    await this.db
      .insertInto('app_audit')
      .values({ app_id: appId, actor_user_id: actorUserId, action, detail, created_at: now })
      .execute();
  }

  async auditOf(appId: number, limit = 200): Promise<AuditEntry[]> {
    const rows = await this.db
      .selectFrom('app_audit')
      .leftJoin('users', 'users.id', 'app_audit.actor_user_id')
      .select([
        'app_audit.action',
        'app_audit.detail',
        'app_audit.actor_user_id',
        'users.email',
        'app_audit.created_at',
        'app_audit.id',
      ])
      .where('app_audit.app_id', '=', appId)
      .orderBy('app_audit.created_at', 'desc')
      .orderBy('app_audit.id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      action: r.action,
      detail: r.detail,
      actorUserId: r.actor_user_id,
      actorEmail: r.email,
      createdAt: Number(r.created_at),
    }));
  }
}
