import { announceRevocation } from '../../cache/revocations.js';
import {
  AppCredentials,
  CredentialError,
  isOverlap,
  OVERLAPS,
  type Overlap,
} from '../../modules/apps/app-credentials.js';
import { AppRepository } from '../../modules/apps/app-repository.js';
import { required, tellInstances, UsageError, type CliContext, type Command } from '../command.js';

const OVERLAP_USAGE = `--overlap ${Object.keys(OVERLAPS).join('|')}`;

function overlapOf(values: Record<string, unknown>, fallback: Overlap): Overlap {
  const value = values.overlap === undefined ? fallback : String(values.overlap);
  if (!isOverlap(value))
    throw new UsageError(`--overlap must be one of ${Object.keys(OVERLAPS).join(', ')}; got "${value}"`);
  return value;
}

function appIdOf(values: Record<string, unknown>): number {
  const text = required(values, 'app');
  if (!/^\d{1,15}$/.test(text)) throw new UsageError(`--app must be an app id (apps list shows them); got "${text}"`);
  return Number(text);
}

const time = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

async function credentials(ctx: CliContext) {
  return new AppCredentials((await ctx.database()).db);
}

async function run<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw err instanceof CredentialError ? new UsageError(err.message) : err;
  }
}

export const appsListCommand: Command = {
  name: 'apps list',
  summary: 'List apps with their owners and keys',
  usage: 'apps list',
  options: {},
  async run(_values, ctx) {
    const repository = new AppRepository((await ctx.database()).db);
    const apps = await repository.listApps();
    if (apps.length === 0) ctx.io.out('No apps.');
    const now = Date.now();
    for (const app of apps) {
      ctx.io.out(`${app.id}  ${app.name}  (owner: ${app.owner_email ?? 'operator'})`);
      for (const key of await repository.keysOf(app.id)) {
        const state =
          key.revoked_at !== null
            ? `revoked ${time(Number(key.revoked_at))}`
            : key.expires_at !== null
              ? `${Number(key.expires_at) > now ? 'works until' : 'stopped'} ${time(Number(key.expires_at))}`
              : 'working';
        ctx.io.out(`    key ${key.id}  ${key.key_hint}  created ${time(Number(key.created_at))}  ${state}`);
      }
    }
  },
};

export const appsRotateKeyCommand: Command = {
  name: 'apps rotate-key',
  summary: 'Issue a new app key; the current keys keep working for the overlap, then stop',
  usage: `apps rotate-key --app ID [${OVERLAP_USAGE}]`,
  options: { app: { type: 'string' }, overlap: { type: 'string' } },
  async run(values, ctx) {
    const overlap = overlapOf(values, '24h');
    const appId = appIdOf(values);
    const { apiKey, oldKeysEnd } = await run(async () =>
      (await credentials(ctx)).rotateKey(appId, overlap, null, Date.now()),
    );
    ctx.io.out(`New app key (shown once, store it now): ${apiKey}`);
    ctx.io.out(
      overlap === 'none'
        ? await tellInstances(ctx, { app: appId }, 'The earlier keys stopped working')
        : `The earlier keys work until ${time(oldKeysEnd)}.`,
    );
  },
};

export const appsDeleteCommand: Command = {
  name: 'apps delete',
  summary:
    'Delete an app: its keys stop, its OAuth client stops, every grant users gave it is revoked, its webhook endpoints go',
  usage: 'apps delete --app ID --yes',
  options: { app: { type: 'string' }, yes: { type: 'boolean' } },
  async run(values, ctx) {
    const appId = appIdOf(values);
    if (values.yes !== true) throw new UsageError('Deleting an app cannot be undone: add --yes to confirm');
    const { keyIds, grantIds } = await run(async () => (await credentials(ctx)).deleteApp(appId, null, Date.now()));
    ctx.io.out(`App ${appId} deleted: ${keyIds.length} key(s) stopped, ${grantIds.length} grant(s) revoked.`);
    // Every key of the app in one message; each grant in its own.
    const { notices } = await ctx.database();
    let told = await announceRevocation(ctx.config.redisUrl, notices, { app: appId });
    for (const grant of grantIds) told = (await announceRevocation(ctx.config.redisUrl, notices, { grant })) && told;
    ctx.io.out(
      told
        ? 'Running instances refuse its keys and tokens at once.'
        : "Running instances refuse its keys and tokens within their caches' lifetime (no revocation channel reached).",
    );
  },
};

export const appsAuditCommand: Command = {
  name: 'apps audit',
  summary: "Show an app's audit trail: keys and secrets created, rotated, revoked; redirect URIs and scopes changed",
  usage: 'apps audit --app ID',
  options: { app: { type: 'string' } },
  async run(values, ctx) {
    const entries = await new AppRepository((await ctx.database()).db).auditOf(appIdOf(values));
    if (entries.length === 0) ctx.io.out('No changes recorded.');
    for (const e of entries)
      ctx.io.out(`${time(e.createdAt)}  ${e.action.padEnd(22)} ${e.actorEmail ?? 'operator'}  ${e.detail}`);
  },
};

export const clientsRotateSecretCommand: Command = {
  name: 'clients rotate-secret',
  summary: 'Give a confidential client a new secret; the current one keeps working for the overlap (none by default)',
  usage: `clients rotate-secret --client-id ID [${OVERLAP_USAGE}]`,
  options: { 'client-id': { type: 'string' }, overlap: { type: 'string' } },
  async run(values, ctx) {
    const overlap = overlapOf(values, 'none');
    const secret = await run(async () =>
      (await credentials(ctx)).rotateClientSecret(required(values, 'client-id'), overlap, null, Date.now()),
    );
    ctx.io.out(`New client secret (shown once, store it now): ${secret}`);
    ctx.io.out(
      overlap === 'none' ? 'The previous secret stopped working.' : `The previous secret works for ${overlap} more.`,
    );
  },
};

export const clientsEndPreviousSecretCommand: Command = {
  name: 'clients end-previous-secret',
  summary: "Stop a client's previous secret now, before its overlap ends (a rotation waits for the overlap otherwise)",
  usage: 'clients end-previous-secret --client-id ID',
  options: { 'client-id': { type: 'string' } },
  async run(values, ctx) {
    const ended = await run(async () =>
      (await credentials(ctx)).endPreviousSecret(required(values, 'client-id'), null, Date.now()),
    );
    if (!ended) throw new UsageError('The client has no previous secret that still works');
    ctx.io.out('The previous secret stopped working.');
  },
};
