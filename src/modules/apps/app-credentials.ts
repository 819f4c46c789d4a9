/**
 * The lifecycle of an app's credentials: its keys and its OAuth client's secret. Rotation issues a new
 * credential and keeps the old one working for the overlap the owner chooses, so deployed code can move
 * over without an outage; revocation stops a key at once. Every change is recorded in the app's audit trail
 * with who made it (a user of the console, or the operator's CLI) and when.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { hashSecret, newAppKey, newClientSecret, secretHint } from '../../shared/keys.js';
import { checkClientSettings, registerClient } from '../oauth/client-admin.js';
import { OAuthRepository, previousSecretUntil } from '../oauth/oauth-repository.js';
import { AppRepository } from './app-repository.js';

/** The overlaps an owner may choose when rotating: none, an hour, a day, a week. */
export const OVERLAPS = { none: 0, '1h': 3_600_000, '24h': 86_400_000, '7d': 604_800_000 } as const;
export type Overlap = keyof typeof OVERLAPS;
export const isOverlap = (value: string): value is Overlap => Object.hasOwn(OVERLAPS, value);

export class CredentialError extends Error {}

/**
 * A client secret rotated while the previous one still works: the client holds one previous secret, so a
 * second rotation would end the first one's overlap early. The owner ends it first, or waits until `until`.
 */
export class OverlapRunningError extends CredentialError {
  constructor(readonly until: number) {
    super(`The previous client secret works until ${new Date(until).toISOString()}; end it before rotating again`);
  }
}

/** Who made a change: a console user, or null for the operator's CLI. */
export type Actor = number | null;

/** What ending an account's credentials stopped: the key and grant ids every instance must forget (cache/revocations.ts). */
export interface EndedCredentials {
  keyIds: number[];
  grantIds: string[];
}

/**
 * Ends every credential an account holds, inside the caller's transaction (`db` is that transaction): the grants the
 * user gave any client, and for each app the user owns its keys, its client's secret (replaced by one nobody knows:
 * the owner rotates to get a new one), the grants other users gave its client, and its webhook endpoints (disabled).
 * The apps themselves stay, each with an audit entry saying why; the account's owner finds them in the console.
 */
export async function endCredentialsOfAccount(
  db: Kysely<DB>,
  userId: number,
  reason: string,
  now: number,
): Promise<EndedCredentials> {
  const apps = new AppRepository(db);
  const oauth = new OAuthRepository(db);
  const grantIds = await oauth.revokeGrantsOfUser(userId, reason, now);
  const keyIds: number[] = [];
  for (const app of await apps.appsOf(userId)) {
    const stopped = await apps.stopCredentials(app.id, reason, now);
    keyIds.push(...stopped);
    const client = await oauth.clientOfApp(app.id);
    const clientGrants = client ? await oauth.revokeGrantsOfClient(client.clientId, reason, now) : [];
    grantIds.push(...clientGrants);
    if (client?.secretHash) await oauth.replaceClientSecret(client.clientId, hashSecret(newClientSecret()), null, now);
    await apps.record(
      app.id,
      userId,
      'credentials.ended',
      [
        reason,
        `${stopped.length} key${stopped.length === 1 ? '' : 's'} revoked`,
        ...(client
          ? [
              `client ${client.clientId}: ${client.secretHash ? 'secret ended, ' : ''}${clientGrants.length} grant${clientGrants.length === 1 ? '' : 's'} revoked`,
            ]
          : []),
        'webhook endpoints disabled',
      ].join('; '),
      now,
    );
  }
  return { keyIds, grantIds };
}

export class AppCredentials {
  constructor(private readonly db: Kysely<DB>) {}

  /** Runs `work` in one transaction, with both repositories bound to it. */
  private transaction<T>(work: (apps: AppRepository, oauth: OAuthRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new AppRepository(trx), new OAuthRepository(trx)));
  }

  /** Issues a new key; every key working now keeps working until the overlap ends. Returns the key, once. */
  async rotateKey(
    appId: number,
    overlap: Overlap,
    actor: Actor,
    now: number,
  ): Promise<{ apiKey: string; keyId: number; oldKeysEnd: number }> {
    const apiKey = newAppKey();
    return this.transaction(async (apps) => {
      if (!(await apps.findApp(appId))) throw new CredentialError(`No app ${appId}`);
      const oldKeysEnd = now + OVERLAPS[overlap];
      const ended = await apps.endKeys(appId, oldKeysEnd, now);
      const keyId = await apps.addKey(appId, hashSecret(apiKey), secretHint(apiKey), now);
      await apps.record(
        appId,
        actor,
        'key.rotated',
        `new key ${secretHint(apiKey)}; ${ended} earlier key${ended === 1 ? '' : 's'} ${overlap === 'none' ? 'stopped' : `work${ended === 1 ? 's' : ''} for ${overlap} more`}`,
        now,
      );
      return { apiKey, keyId, oldKeysEnd };
    });
  }

  /** The first key of a new app. Returns the key, once. */
  async createKey(appId: number, actor: Actor, now: number): Promise<string> {
    const apiKey = newAppKey();
    await this.transaction(async (apps) => {
      await apps.addKey(appId, hashSecret(apiKey), secretHint(apiKey), now);
      await apps.record(appId, actor, 'key.created', `key ${secretHint(apiKey)}`, now);
    });
    return apiKey;
  }

  /** Stops one key at once. */
  async revokeKey(appId: number, keyId: number, actor: Actor, now: number): Promise<void> {
    await this.transaction(async (apps) => {
      if (!(await apps.revokeKey(appId, keyId, now)))
        throw new CredentialError(`App ${appId} has no working key ${keyId}`);
      await apps.record(appId, actor, 'key.revoked', `key ${keyId}`, now);
    });
  }

  /**
   * Deletes an app in one transaction: its keys stop, its OAuth client stops authenticating (and so can neither
   * get codes nor exchange or refresh anything), and every grant of the client is revoked. Returns the key and
   * grant ids it ended, so that the caller tells every instance to forget them (cache/revocations.ts).
   */
  async deleteApp(appId: number, actor: Actor, now: number): Promise<{ keyIds: number[]; grantIds: string[] }> {
    return this.transaction(async (apps, oauth) => {
      const app = await apps.findApp(appId);
      if (!app || app.deleted_at !== null) throw new CredentialError(`No app ${appId}`);
      const keyIds = (await apps.keysOf(appId)).map((key) => key.id);
      const stopped = await apps.deleteApp(appId, now);
      const client = await oauth.clientOfApp(appId);
      const grantIds = client ? await oauth.revokeGrantsOfClient(client.clientId, 'the app was deleted', now) : [];
      const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
      await apps.record(
        appId,
        actor,
        'app.deleted',
        [
          app.name,
          `${plural(stopped, 'key')} stopped`,
          ...(client ? [`client ${client.clientId} stopped, ${plural(grantIds.length, 'grant')} revoked`] : []),
        ].join('; '),
        now,
      );
      return { keyIds, grantIds };
    });
  }

  /** Gives an app its OAuth client. Returns the client id and, for a confidential client, its secret, once. */
  async createClient(
    appId: number,
    settings: { redirectUris: string[]; scopes: string[]; public: boolean },
    actor: Actor,
    now: number,
  ) {
    return this.transaction(async (apps, oauth) => {
      const app = await apps.findApp(appId);
      if (!app) throw new CredentialError(`No app ${appId}`);
      if (await oauth.clientOfApp(appId)) throw new CredentialError(`App ${appId} has a client already`);
      const created = await registerClient(oauth, { name: app.name, ...settings, appId }, now);
      await apps.record(
        appId,
        actor,
        'client.created',
        `${created.clientId} (${settings.public ? 'public' : 'confidential'}); redirect URIs ${settings.redirectUris.join(' ')}; scopes ${settings.scopes.join(' ')}`,
        now,
      );
      return created;
    });
  }

  /** Changes the redirect URIs and scopes of an app's client, recording what changed. */
  async updateClient(
    appId: number,
    redirectUris: string[],
    scopes: string[],
    actor: Actor,
    now: number,
  ): Promise<void> {
    checkClientSettings(redirectUris, scopes);
    await this.transaction(async (apps, oauth) => {
      const client = await oauth.clientOfApp(appId);
      if (!client) throw new CredentialError(`App ${appId} has no client`);
      await oauth.updateClient(client.clientId, redirectUris, scopes, now);
      const changed = (before: string[], after: string[]) => before.join(' ') !== after.join(' ');
      if (changed(client.redirectUris, redirectUris)) {
        await apps.record(
          appId,
          actor,
          'client.redirect_uris_changed',
          `${client.redirectUris.join(' ')} → ${redirectUris.join(' ')}`,
          now,
        );
      }
      if (changed(client.allowedScopes, scopes)) {
        await apps.record(
          appId,
          actor,
          'client.scopes_changed',
          `${client.allowedScopes.join(' ')} → ${scopes.join(' ')}`,
          now,
        );
      }
    });
  }

  /**
   * Gives a confidential client a new secret; the current one keeps working until the overlap ends (an earlier
   * secret still in its overlap stops now). Returns the secret, once.
   */
  async rotateClientSecret(clientId: string, overlap: Overlap, actor: Actor, now: number): Promise<string> {
    const secret = newClientSecret();
    await this.transaction(async (apps, oauth) => {
      const client = await oauth.findClient(clientId);
      if (!client || client.secretHash === null) throw new CredentialError(`No confidential client ${clientId}`);
      const previousUntil = previousSecretUntil(client, now);
      if (previousUntil !== null) throw new OverlapRunningError(previousUntil);
      await oauth.replaceClientSecret(
        clientId,
        hashSecret(secret),
        overlap === 'none' ? null : now + OVERLAPS[overlap],
        now,
      );
      if (client.appId !== null && client.appId !== undefined) {
        await apps.record(
          client.appId,
          actor,
          'secret.rotated',
          `client ${clientId}; the previous secret ${overlap === 'none' ? 'stopped at once' : `works for ${overlap} more`}`,
          now,
        );
      }
    });
    return secret;
  }

  /** Stops the previous client secret at once (its overlap cut short by its owner). False when none works. */
  async endPreviousSecret(clientId: string, actor: Actor, now: number): Promise<boolean> {
    return this.transaction(async (apps, oauth) => {
      const client = await oauth.findClient(clientId);
      if (!client || previousSecretUntil(client, now) === null) return false;
      await oauth.endPreviousSecret(clientId, now);
      if (client.appId !== null && client.appId !== undefined) {
        await apps.record(
          client.appId,
          actor,
          'secret.previous-ended',
          `client ${clientId}; the previous secret stopped`,
          now,
        );
      }
      return true;
    });
  }
}
