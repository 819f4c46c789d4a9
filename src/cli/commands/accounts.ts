import { randomBytes } from 'node:crypto';
import { announceRevocation } from '../../cache/revocations.js';
import { AccountsRepository } from '../../modules/accounts/accounts-repository.js';
import { AppKeyService } from '../../modules/accounts/app-key-service.js';
import { PASSWORD_MAX, PASSWORD_MIN, passwordProblem } from '../../modules/accounts/password-policy.js';
import { COMPANY_ROLES, RESOURCE_ROLES } from '../../modules/accounts/roles.js';
import { ProfileWriteRepository } from '../../modules/profiles/profile-write-repository.js';
import { OAuthRepository } from '../../modules/oauth/oauth-repository.js';
import { catalogCodes } from '../../shared/catalog-data.js';
import { hashSecret } from '../../shared/keys.js';
import { oneOf, required, tellInstances, UsageError, type CliContext, type Command } from '../command.js';
import { hashPassword } from '../../shared/passwords.js';

const HANDLE = /^[A-Za-z0-9_-]{1,255}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

async function repository(ctx: CliContext): Promise<AccountsRepository> {
  return new AccountsRepository((await ctx.database()).db, Date.now);
}

function handle(name: string, value: string): string {
  if (!HANDLE.test(value)) throw new UsageError(`--${name} must be 1 to 255 of A-Z a-z 0-9 _ -; got "${value}"`);
  return value;
}

export const appsCreateCommand: Command = {
  name: 'apps create',
  summary: 'Create an API-key app and print its key once',
  usage: 'apps create --name NAME',
  options: { name: { type: 'string' } },
  async run(values, ctx) {
    const name = required(values, 'name');
    const { appId, apiKey } = await new AppKeyService(await repository(ctx), 0).createApp(name);
    ctx.io.out(`Created app ${appId} "${name}".`);
    ctx.io.out(`App key (shown once, store it now): ${apiKey}`);
  },
};

export const appsRevokeKeyCommand: Command = {
  name: 'apps revoke-key',
  summary: 'Revoke an app key',
  usage: 'apps revoke-key --key svck_…',
  options: { key: { type: 'string' } },
  async run(values, ctx) {
    const keyId = await (await repository(ctx)).revokeKey(hashSecret(required(values, 'key')));
    if (keyId === null) throw new Error('No active key matches.');
    ctx.io.out(await tellInstances(ctx, { key: keyId }, 'Key revoked'));
  },
};

export const usersCreateCommand: Command = {
  name: 'users create',
  summary: 'Create a user account (prints a generated password when none is given)',
  usage: 'users create --email E --name N --handle H [--password P]',
  options: {
    email: { type: 'string' },
    name: { type: 'string' },
    handle: { type: 'string' },
    password: { type: 'string' },
  },
  async run(values, ctx) {
    const email = required(values, 'email');
    if (!EMAIL.test(email)) throw new UsageError(`--email must be an e-mail address; got "${email}"`);
    const given = typeof values.password === 'string' ? values.password : undefined;
    const weak =
      given === undefined
        ? null
        : await passwordProblem(given, [
            String(values.email ?? ''),
            String(values.name ?? ''),
            String(values.handle ?? ''),
          ]);
    if (weak === 'length') throw new UsageError(`--password must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`);
    if (weak === 'guessable')
      throw new UsageError(
        "--password is easy to guess (a common password, a repeat, a keyboard run, or the account's own e-mail, name or handle)",
      );
    const password = given ?? randomBytes(12).toString('base64url');
    const accounts = await repository(ctx);
    if (await accounts.findUserByEmail(email)) throw new Error(`A user with e-mail ${email} already exists.`);
    const id = await accounts.createUser({
      email,
      name: required(values, 'name'),
      handle: handle('handle', required(values, 'handle')),
      passwordHash: await hashPassword(password, ctx.config.passwordCost),
    });
    ctx.io.out(`Created user ${id} <${email}>.`);
    if (given === undefined) ctx.io.out(`Password (shown once): ${password}`);
  },
};

export const companiesCreateCommand: Command = {
  name: 'companies create',
  summary: 'Create a company',
  usage: 'companies create --handle H --name N --industry CODE --size TINY|SMALL|MEDIUM|LARGE|HUGE [--logo-url URL]',
  options: {
    handle: { type: 'string' },
    name: { type: 'string' },
    industry: { type: 'string' },
    size: { type: 'string' },
    'logo-url': { type: 'string' },
  },
  async run(values, ctx) {
    const companyHandle = handle('handle', required(values, 'handle'));
    const accounts = await repository(ctx);
    if (await accounts.findCompanyByHandle(companyHandle))
      throw new Error(`A company with handle ${companyHandle} already exists.`);
    const id = await accounts.createCompany({
      handle: companyHandle,
      name: required(values, 'name'),
      industry: oneOf('industry', required(values, 'industry'), catalogCodes('job-industries')),
      size: oneOf('size', required(values, 'size'), catalogCodes('company-sizes')),
      logoUrl: typeof values['logo-url'] === 'string' ? values['logo-url'] : null,
    });
    ctx.io.out(`Created company ${id} (${companyHandle}).`);
  },
};

/** The user, company and role named by a roles grant or revoke command, checked. */
async function roleArguments(values: Record<string, unknown>, accounts: AccountsRepository) {
  const email = required(values, 'user');
  const user = await accounts.findUserByEmail(email);
  if (!user) throw new Error(`No user with e-mail ${email}.`);
  const companyHandle = required(values, 'company');
  const company = await accounts.findCompanyByHandle(companyHandle);
  if (!company) throw new Error(`No company with handle ${companyHandle}.`);
  const role = required(values, 'role');
  const resourceType = values['resource-type'];
  if (resourceType === undefined) {
    oneOf('role', role, Object.keys(COMPANY_ROLES));
    return { email, user, companyHandle, company, role, resource: null };
  }
  const type = oneOf('resource-type', String(resourceType), ['JOB', 'EVENT']);
  const roles = Object.entries(RESOURCE_ROLES)
    .filter(([, r]) => r.resourceType === type)
    .map(([name]) => name);
  oneOf('role', role, roles);
  return { email, user, companyHandle, company, role, resource: { type, id: required(values, 'resource-id') } };
}

const ROLE_OPTIONS = {
  user: { type: 'string' },
  company: { type: 'string' },
  role: { type: 'string' },
  'resource-type': { type: 'string' },
  'resource-id': { type: 'string' },
} as const;

export const rolesRevokeCommand: Command = {
  name: 'roles revoke',
  summary: 'Take back a company-wide role, or a role on one job or event',
  usage: 'roles revoke --user EMAIL --company HANDLE --role ROLE [--resource-type JOB|EVENT --resource-id ID]',
  options: ROLE_OPTIONS,
  async run(values, ctx) {
    const accounts = await repository(ctx);
    const a = await roleArguments(values, accounts);
    const revoked =
      a.resource === null
        ? await accounts.revokeCompanyRole(a.company.id, a.user.id, a.role)
        : await accounts.revokeResourceRole({
            userId: a.user.id,
            companyId: a.company.id,
            resourceType: a.resource.type,
            resourceId: a.resource.id,
            role: a.role,
          });
    const what =
      a.resource === null
        ? `${a.role} at ${a.companyHandle}`
        : `${a.role} on ${a.resource.type} ${a.resource.id} at ${a.companyHandle}`;
    if (!revoked) throw new Error(`${a.email} does not hold ${what}.`);
    ctx.io.out(`Revoked ${what} from ${a.email}. Their tokens lose it at once: permissions are read per request.`);
  },
};

export const rolesListCommand: Command = {
  name: 'roles list',
  summary: 'List company-wide and resource roles, of one company or all',
  usage: 'roles list [--company HANDLE]',
  options: { company: { type: 'string' } },
  async run(values, ctx) {
    const accounts = await repository(ctx);
    let companyId: number | undefined;
    if (typeof values.company === 'string') {
      const company = await accounts.findCompanyByHandle(values.company);
      if (!company) throw new Error(`No company with handle ${values.company}.`);
      companyId = company.id;
    }
    const roles = await accounts.listRoles(companyId);
    if (roles.company.length + roles.resource.length === 0) ctx.io.out('No roles.');
    for (const r of roles.company) ctx.io.out(`${r.handle}  ${r.email}  ${r.role}`);
    for (const r of roles.resource)
      ctx.io.out(`${r.handle}  ${r.email}  ${r.role} on ${r.resource_type} ${r.resource_id}`);
  },
};

export const usersListCommand: Command = {
  name: 'users list',
  summary: 'List user accounts',
  usage: 'users list',
  options: {},
  async run(_values, ctx) {
    const users = await (await repository(ctx)).listUsers();
    if (users.length === 0) ctx.io.out('No users.');
    for (const u of users)
      ctx.io.out(`${u.id}  ${u.email}  @${u.handle}  ${u.name}${u.disabled_at === null ? '' : '  (disabled)'}`);
  },
};

/** The account named by --email, checked. */
async function userOf(ctx: CliContext, values: Record<string, unknown>) {
  const email = required(values, 'email');
  const user = await (await repository(ctx)).findUserByEmail(email);
  if (!user) throw new UsageError(`No user ${email}`);
  return user;
}

/**
 * A disabled member's public profile leaves search and reads on every instance, and the feed says `profile.deleted`;
 * enabled again, a public profile comes back (`profile.updated`).
 */
async function profileShown(ctx: CliContext, user: { id: number; handle: string }, enabled: boolean): Promise<void> {
  const profiles = new ProfileWriteRepository((await ctx.database()).db);
  const isPublic = (await profiles.member(user.id))?.visibility === 'PUBLIC';
  await profiles.transaction((repo) =>
    repo.recordChange(user.id, user.handle, isPublic && !enabled, isPublic && enabled),
  );
}

export const usersDisableCommand: Command = {
  name: 'users disable',
  summary: 'Disable an account: it cannot sign in, its console sessions end and every grant it gave apps is revoked',
  usage: 'users disable --email E',
  options: { email: { type: 'string' } },
  async run(values, ctx) {
    const user = await userOf(ctx, values);
    if (user.disabled_at !== null) throw new UsageError(`${user.email} is disabled already`);
    const now = Date.now();
    const grantIds = await new OAuthRepository((await ctx.database()).db).transaction(async (oauth) => {
      await oauth.setUserDisabled(user.id, now);
      await oauth.deleteSessionsOf(user.id);
      return oauth.revokeGrantsOfUser(user.id, 'the account was disabled', now);
    });
    await profileShown(ctx, user, false);
    const { notices } = await ctx.database();
    let told = true;
    for (const grant of grantIds) told = (await announceRevocation(ctx.config.redisUrl, notices, { grant })) && told;
    ctx.io.out(
      `${user.email} disabled: its sessions ended and ${grantIds.length} grant(s) were revoked${grantIds.length === 0 || told ? '' : ' (running instances refuse their access tokens within 2 s: no revocation channel reached)'}.`,
    );
  },
};

export const usersEnableCommand: Command = {
  name: 'users enable',
  summary: 'Enable a disabled account: it can sign in again (the grants revoked stay revoked)',
  usage: 'users enable --email E',
  options: { email: { type: 'string' } },
  async run(values, ctx) {
    const user = await userOf(ctx, values);
    if (user.disabled_at === null) throw new UsageError(`${user.email} is not disabled`);
    await new OAuthRepository((await ctx.database()).db).setUserDisabled(user.id, null);
    await profileShown(ctx, user, true);
    ctx.io.out(`${user.email} enabled: it can sign in again; apps it used must be authorized anew.`);
  },
};

export const companiesListCommand: Command = {
  name: 'companies list',
  summary: 'List companies',
  usage: 'companies list',
  options: {},
  async run(_values, ctx) {
    const companies = await (await repository(ctx)).listCompanies();
    if (companies.length === 0) ctx.io.out('No companies.');
    for (const c of companies) ctx.io.out(`${c.id}  ${c.handle}  ${c.name}  (${c.industry}, ${c.size})`);
  },
};

export const rolesGrantCommand: Command = {
  name: 'roles grant',
  summary: 'Grant a company-wide role, or a role on one job or event',
  usage: 'roles grant --user EMAIL --company HANDLE --role ROLE [--resource-type JOB|EVENT --resource-id ID]',
  options: ROLE_OPTIONS,
  async run(values, ctx) {
    const accounts = await repository(ctx);
    const a = await roleArguments(values, accounts);
    if (a.resource === null) {
      await accounts.grantCompanyRole(a.company.id, a.user.id, a.role);
      ctx.io.out(`Granted ${a.role} at ${a.companyHandle} to ${a.email}.`);
      return;
    }
    await accounts.grantResourceRole({
      userId: a.user.id,
      companyId: a.company.id,
      resourceType: a.resource.type,
      resourceId: a.resource.id,
      role: a.role,
    });
    ctx.io.out(`Granted ${a.role} on ${a.resource.type} ${a.resource.id} at ${a.companyHandle} to ${a.email}.`);
  },
};
