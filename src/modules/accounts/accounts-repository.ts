import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

export interface NewUser {
  email: string;
  name: string;
  handle: string;
  passwordHash: string | null;
  imageUrl?: string | null;
  certificated?: boolean;
  locale?: string;
  /** Whether the address is known to be the user's (default: yes, as when the operator creates the account); a console sign-up's is not until confirmed. */
  emailVerified?: boolean;
}

export interface NewCompany {
  handle: string;
  name: string;
  industry: string;
  size: string;
  logoUrl?: string | null;
  certificated?: boolean;
}

/** Users, companies, roles, apps and app keys: all the SQL of the accounts area. */
export class AccountsRepository {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: () => number,
  ) {}

  async createUser(user: NewUser): Promise<number> {
    const now = this.clock();
    const row = await this.db
      .insertInto('users')
      .values({
        email: user.email.toLowerCase(),
        email_verified: user.emailVerified === false ? 0 : 1,
        password_hash: user.passwordHash,
        name: user.name,
        handle: user.handle,
        image_url: user.imageUrl ?? null,
        certificated: user.certificated ? 1 : 0,
        locale: user.locale ?? 'ko',
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async findUserByEmail(email: string) {
    return this.db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
  }

  async findUserById(id: number) {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async createCompany(company: NewCompany): Promise<number> {
    const row = await this.db
      .insertInto('companies')
      .values({
        handle: company.handle,
        name: company.name,
        industry: company.industry,
        size: company.size,
        logo_url: company.logoUrl ?? null,
        certificated: company.certificated ? 1 : 0,
        created_at: this.clock(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async findCompanyByHandle(handle: string) {
    return this.db.selectFrom('companies').selectAll().where('handle', '=', handle).executeTakeFirst();
  }

  async companyIdByHandle(handle: string): Promise<number | undefined> {
    const row = await this.db.selectFrom('companies').select('id').where('handle', '=', handle).executeTakeFirst();
    return row?.id;
  }

  /** The ids of companies by handle (those that exist). */
  async companyIdsByHandle(handles: readonly string[]): Promise<Map<string, number>> {
    if (handles.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('companies')
      .select(['id', 'handle'])
      .where('handle', 'in', [...handles])
      .execute();
    return new Map(rows.map((row) => [row.handle, Number(row.id)]));
  }

  /** The handles of companies by id (those that exist). */
  async companyHandles(ids: number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.selectFrom('companies').select(['id', 'handle']).where('id', 'in', ids).execute();
    return new Map(rows.map((row) => [row.id, row.handle]));
  }

  async userIdByHandle(handle: string): Promise<number | undefined> {
    const row = await this.db.selectFrom('users').select('id').where('handle', '=', handle).executeTakeFirst();
    return row?.id;
  }

  async grantCompanyRole(companyId: number, userId: number, role: string): Promise<void> {
    await this.db
      .insertInto('company_roles')
      .values({ company_id: companyId, user_id: userId, role, created_at: this.clock() })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  async grantResourceRole(grant: {
    userId: number;
    companyId: number;
    resourceType: string;
    resourceId: string;
    role: string;
  }): Promise<void> {
    await this.db
      .insertInto('resource_roles')
      .values({
        user_id: grant.userId,
        company_id: grant.companyId,
        resource_type: grant.resourceType,
        resource_id: grant.resourceId,
        role: grant.role,
        created_at: this.clock(),
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  async createApp(name: string, ownerUserId: number | null = null): Promise<number> {
    const row = await this.db
      .insertInto('apps')
      .values({ name, owner_user_id: ownerUserId, created_at: this.clock() })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async addAppKey(appId: number, keyHash: string, keyHint: string): Promise<number> {
    const row = await this.db
      .insertInto('app_keys')
      .values({ app_id: appId, key_hash: keyHash, key_hint: keyHint, created_at: this.clock(), revoked_at: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** The key of `keyHash` if it is neither revoked nor past the end of a rotation's overlap at `now`. */
  /** Every web origin some app's key may be used from (CORS admits them; the key check holds each key to its own app's). */
  async appWebOrigins(): Promise<string[]> {
    const rows = await this.db
      .selectFrom('apps')
      .select('web_origins')
      .where('deleted_at', 'is', null)
      .where('web_origins', '<>', '[]')
      .execute();
    return [...new Set(rows.flatMap((r) => JSON.parse(r.web_origins) as string[]))];
  }

  async findActiveKey(keyHash: string, now: number) {
    return this.db
      .selectFrom('app_keys')
      .innerJoin('apps', 'apps.id', 'app_keys.app_id')
      .select(['app_keys.id', 'app_keys.app_id', 'app_keys.expires_at', 'apps.web_origins'])
      .where('key_hash', '=', keyHash)
      .where('revoked_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .executeTakeFirst();
  }

  /** Revokes the key with this hash; its id, or null when no key still open has it. */
  async revokeKey(keyHash: string): Promise<number | null> {
    const row = await this.db
      .updateTable('app_keys')
      .set({ revoked_at: this.clock() })
      .where('key_hash', '=', keyHash)
      .where('revoked_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    return row?.id ?? null;
  }

  async setPassword(userId: number, passwordHash: string): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ password_hash: passwordHash, updated_at: this.clock() })
      .where('id', '=', userId)
      .execute();
  }

  // Listings and revocation for the operator CLI

  async listUsers() {
    return this.db
      .selectFrom('users')
      .select(['id', 'email', 'handle', 'name', 'created_at', 'disabled_at'])
      .orderBy('id')
      .execute();
  }

  async listCompanies() {
    return this.db.selectFrom('companies').select(['id', 'handle', 'name', 'industry', 'size']).orderBy('id').execute();
  }

  /** Company-wide and resource roles, of one company or all. */
  async listRoles(companyId?: number) {
    let companyRoles = this.db
      .selectFrom('company_roles')
      .innerJoin('users', 'users.id', 'company_roles.user_id')
      .innerJoin('companies', 'companies.id', 'company_roles.company_id')
      .select(['users.email', 'companies.handle', 'company_roles.role']);
    let resourceRoles = this.db
      .selectFrom('resource_roles')
      .innerJoin('users', 'users.id', 'resource_roles.user_id')
      .innerJoin('companies', 'companies.id', 'resource_roles.company_id')
      .select([
        'users.email',
        'companies.handle',
        'resource_roles.role',
        'resource_roles.resource_type',
        'resource_roles.resource_id',
      ]);
    if (companyId !== undefined) {
      companyRoles = companyRoles.where('company_roles.company_id', '=', companyId);
      resourceRoles = resourceRoles.where('resource_roles.company_id', '=', companyId);
    }
    return {
      company: await companyRoles.orderBy('companies.handle').orderBy('users.email').execute(),
      resource: await resourceRoles.orderBy('companies.handle').orderBy('users.email').execute(),
    };
  }

  async revokeCompanyRole(companyId: number, userId: number, role: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('company_roles')
      .where('company_id', '=', companyId)
      .where('user_id', '=', userId)
      .where('role', '=', role)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async revokeResourceRole(grant: {
    userId: number;
    companyId: number;
    resourceType: string;
    resourceId: string;
    role: string;
  }): Promise<boolean> {
    const result = await this.db
      .deleteFrom('resource_roles')
      .where('user_id', '=', grant.userId)
      .where('company_id', '=', grant.companyId)
      .where('resource_type', '=', grant.resourceType)
      .where('resource_id', '=', grant.resourceId)
      .where('role', '=', grant.role)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
