import { apiAudience } from '../../modules/oauth/index.js';
import { ClientRegistrationError, registerClient } from '../../modules/oauth/client-admin.js';
import { OAuthRepository } from '../../modules/oauth/oauth-repository.js';
import { parseScopes } from '../../modules/oauth/scopes.js';
import { keyEncryptionKey, SigningKeys } from '../../modules/oauth/signing-keys.js';
import { required, UsageError, type CliContext, type Command } from '../command.js';

async function repository(ctx: CliContext) {
  return new OAuthRepository((await ctx.database()).db);
}

const usage = (err: unknown) => (err instanceof ClientRegistrationError ? new UsageError(err.message) : err);

export const clientsCreateCommand: Command = {
  name: 'clients create',
  summary: 'Register an OAuth client and print its secret once',
  usage: 'clients create --name N --redirect-uri URI [--redirect-uri URI …] --scopes "profile post:write …" [--public]',
  options: {
    name: { type: 'string' },
    'redirect-uri': { type: 'string', multiple: true },
    scopes: { type: 'string' },
    public: { type: 'boolean' },
  },
  async run(values, ctx) {
    const redirectUris = (values['redirect-uri'] as unknown as string[] | undefined) ?? [];
    try {
      const { clientId, clientSecret } = await registerClient(
        await repository(ctx),
        {
          name: required(values, 'name'),
          redirectUris,
          scopes: parseScopes(required(values, 'scopes')),
          public: values.public === true,
        },
        Date.now(),
      );
      ctx.io.out(`Created ${values.public ? 'public' : 'confidential'} client ${clientId}.`);
      if (clientSecret) ctx.io.out(`Client secret (shown once, store it now): ${clientSecret}`);
    } catch (err) {
      throw usage(err);
    }
  },
};

export const clientsListCommand: Command = {
  name: 'clients list',
  summary: 'List OAuth clients',
  usage: 'clients list',
  options: {},
  async run(_values, ctx) {
    const clients = await (await repository(ctx)).listClients();
    if (clients.length === 0) ctx.io.out('No clients.');
    for (const c of clients) {
      ctx.io.out(`${c.clientId}  ${c.secretHash ? 'confidential' : 'public      '}  ${c.name}`);
      ctx.io.out(`    redirect URIs: ${c.redirectUris.join(' ')}`);
      ctx.io.out(`    scopes: ${c.allowedScopes.join(' ')}`);
    }
  },
};

export const keysRotateCommand: Command = {
  name: 'keys rotate',
  summary: 'Create a new access-token signing key and retire the current one',
  usage: 'keys rotate',
  options: {},
  async run(_values, ctx) {
    const { config } = ctx;
    const keys = new SigningKeys(
      (await ctx.database()).db,
      keyEncryptionKey(config.signingKeySecret, config.dataDir),
      Date.now,
      config.lifetimes.accessTokenSeconds,
    );
    await keys.init();
    const kid = await keys.rotate();
    ctx.io.out(
      `New signing key ${kid} is published now and signs from 30 s on; the previous key signs for another 60 s and stays in the JWKS ${config.lifetimes.accessTokenSeconds + 60} s after that.`,
    );
    ctx.io.out(`Tokens are issued by ${config.publicBaseUrl} for ${apiAudience(config)}.`);
  },
};
