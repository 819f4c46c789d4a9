import { randomBytes } from 'node:crypto';
import argon2 from 'argon2';
import { AccountsRepository } from '../../modules/accounts/accounts-repository.js';
import { AppKeyService } from '../../modules/accounts/app-key-service.js';
import { COMPANY_ROLES, RESOURCE_ROLES } from '../../modules/accounts/roles.js';
import { catalogCodes } from '../../modules/codes/catalog-data.js';
import { hashSecret } from '../../shared/keys.js';
import { oneOf, required, UsageError, type CliContext, type Command } from '../command.js';

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
    const revoked = await (await repository(ctx)).revokeKey(hashSecret(required(values, 'key')));
    if (!revoked) throw new Error('No active key matches.');
    ctx.io.out('Key revoked. Running servers refuse it once their key cache expires (API_KEY_CACHE_SECONDS).');
  },
};

export const usersCreateCommand: Command = {
  name: 'users create',
  summary: 'Create a user account (prints a generated password when none is given)',
  usage: 'users create --email E --name N --handle H [--password P]',
  options: { email: { type: 'string' }, name: { type: 'string' }, handle: { type: 'string' }, password: { type: 'string' } },
  async run(values, ctx) {
    const email = required(values, 'email');
    if (!EMAIL.test(email)) throw new UsageError(`--email must be an e-mail address; got "${email}"`);
    const given = typeof values.password === 'string' ? values.password : undefined;
    if (given !== undefined && given.length < 10) throw new UsageError('--password must be at least 10 characters');
    const password = given ?? randomBytes(12).toString('base64url');
    const accounts = await repository(ctx);
    if (await accounts.findUserByEmail(email)) throw new Error(`A user with e-mail ${email} already exists.`);
    const id = await accounts.createUser({
      email, name: required(values, 'name'), handle: handle('handle', required(values, 'handle')),
      passwordHash: await argon2.hash(password, { type: argon2.argon2id }),
    });
    ctx.io.out(`Created user ${id} <${email}>.`);
    if (given === undefined) ctx.io.out(`Password (shown once): ${password}`);
  },
};

export const companiesCreateCommand: Command = {
  name: 'companies create',
  summary: 'Create a company',
  usage: 'companies create --handle H --name N --industry CODE --size TINY|SMALL|MEDIUM|LARGE|HUGE [--logo-url URL]',
  options: { handle: { type: 'string' }, name: { type: 'string' }, industry: { type: 'string' }, size: { type: 'string' }, 'logo-url': { type: 'string' } },
  async run(values, ctx) {
    const companyHandle = handle('handle', required(values, 'handle'));
    const accounts = await repository(ctx);
    if (await accounts.findCompanyByHandle(companyHandle)) throw new Error(`A company with handle ${companyHandle} already exists.`);
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

export const rolesGrantCommand: Command = {
  name: 'roles grant',
  summary: 'Grant a company-wide role, or a role on one job or event',
  usage: 'roles grant --user EMAIL --company HANDLE --role ROLE [--resource-type JOB|EVENT --resource-id ID]',
  options: {
    user: { type: 'string' }, company: { type: 'string' }, role: { type: 'string' },
    'resource-type': { type: 'string' }, 'resource-id': { type: 'string' },
  },
  async run(values, ctx) {
    const accounts = await repository(ctx);
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
      await accounts.grantCompanyRole(company.id, user.id, role);
      ctx.io.out(`Granted ${role} at ${companyHandle} to ${email}.`);
      return;
    }
    const type = oneOf('resource-type', String(resourceType), ['JOB', 'EVENT']);
    const roles = Object.entries(RESOURCE_ROLES).filter(([, r]) => r.resourceType === type).map(([name]) => name);
    oneOf('role', role, roles);
    const resourceId = required(values, 'resource-id');
    await accounts.grantResourceRole({ userId: user.id, companyId: company.id, resourceType: type, resourceId, role });
    ctx.io.out(`Granted ${role} on ${type} ${resourceId} at ${companyHandle} to ${email}.`);
  },
};
