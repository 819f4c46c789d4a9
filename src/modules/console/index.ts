import { ProfileReadQuota } from '../profiles/profile-read-quota.js';
import type { Area, Infrastructure } from '../../infrastructure.js';
import type { AccountsArea } from '../accounts/index.js';
import type { OAuthArea } from '../oauth/index.js';
import type { WebhookEndpoints } from '../webhooks/webhook-endpoints.js';
import { Mailer } from '../../mail/mailer.js';
import { AccountLinks } from '../accounts/account-links.js';
import { consoleRoutes } from './console-routes.js';

/** The developer console (/console): sign-up and sign-in, password reset and address confirmation by mail, apps, their keys, OAuth clients, webhooks and usage. */
export function consoleArea(
  infra: Infrastructure,
  deps: { accounts: AccountsArea; oauth: OAuthArea; webhookEndpoints: WebhookEndpoints },
): Area {
  const { config, database, clock } = infra;
  const { accounts, appKeys } = deps.accounts;
  const { oauth, sessions, tokens, keyEncryptionKey } = deps.oauth;
  return {
    routes: async (app) => {
      const mailer = new Mailer({ ...config.mail, dataDir: config.dataDir }, app.log);
      app.addHook('onClose', () => mailer.close());
      await app.register(consoleRoutes, {
        accountLinks: new AccountLinks(database.db, clock),
        mailer,
        publicBaseUrl: config.publicBaseUrl,
        database,
        accounts,
        appKeys,
        oauth,
        sessions,
        tokens,
        keyEncryptionKey,
        signUpOpen: config.consoleSignUpOpen,
        appsPerBuilder: config.appsPerBuilder,
        globalLimits: { perMinute: config.rateLimits.globalPerMinute, perDay: config.rateLimits.globalPerDay },
        profileReads: new ProfileReadQuota(database.db, config.rateLimits.profileReadsPerDay, clock),
        requestLogPerApp: config.requestLogPerApp,
        clock,
        webhooks: {
          endpoints: deps.webhookEndpoints,
          links: infra.links,
          allowLoopback: config.webhooks.allowLoopback,
        },
      });
    },
  };
}
