import type { ProfileReadQuota } from '../profiles/profile-read-quota.js';
import type { AccountLinks } from '../accounts/account-links.js';
import type { AccountsRepository } from '../accounts/accounts-repository.js';
import type { AppKeyService } from '../accounts/app-key-service.js';
import type { OAuthRepository } from '../oauth/oauth-repository.js';
import type { TokenService } from '../oauth/token-service.js';
import type { WebSessions } from '../oauth/web-session.js';
import type { WebhookEndpoints } from '../webhooks/webhook-endpoints.js';
import type { Database } from '../../db/database.js';
import type { Mailer } from '../../mail/mailer.js';
import type { Links } from '../../shared/links.js';

/** What the console is given (index.ts). */
export interface ConsoleOptions {
  database: Database;
  accounts: AccountsRepository;
  appKeys: AppKeyService;
  oauth: OAuthRepository;
  sessions: WebSessions;
  tokens: TokenService;
  /** Seals a new key or secret while it waits for the page that shows it (console-reveals.ts). */
  keyEncryptionKey: Buffer;
  signUpOpen: boolean;
  /** Apps one user may own at once (APPS_PER_BUILDER). */
  appsPerBuilder: number;
  /** The global rate limit every app has (the usage page shows what is left of it). */
  globalLimits: { perMinute: number; perDay: number };
  /** The distinct profiles each app has read today, of the most it may (PROFILE_READS_PER_DAY). */
  profileReads: Pick<ProfileReadQuota, 'readToday' | 'perDay'>;
  /** Requests each app's request log keeps. */
  requestLogPerApp: number;
  /** Password-reset and address-confirmation links, and the mail that carries them. */
  accountLinks: AccountLinks;
  mailer: Mailer;
  /** Where the console is reached: the links in mail point here. */
  publicBaseUrl: string;
  clock: () => number;
  webhooks: { endpoints: WebhookEndpoints; links: Links; allowLoopback: boolean };
}
