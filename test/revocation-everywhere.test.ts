import * as oauth from 'oauth4webapi';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/main.js';
import { ConsoleForms } from './helpers/console-forms.js';
import {
  startListeningApp,
  startSecondInstance,
  type ListeningApp,
  type SecondInstance,
} from './helpers/listening-app.js';
import { Browser, fetchSend } from './helpers/oauth-browser.js';
import type { Engine } from './helpers/test-database.js';
import { realWait } from './helpers/real-time.js';

const insecure = { [oauth.allowInsecureRequests]: true };
const REDIRECT_URI = 'http://127.0.0.1:9/callback';
const DATABASE = Boolean(process.env.TEST_DATABASE_URL);
const REDIS = process.env.TEST_REDIS_URL;

/** The channels a revocation can travel by, each run where its parts are (CI has PostgreSQL and Redis). */
const CHANNELS: Array<{ name: string; engine: Engine; settings: Record<string, string> }> = [
  ...(DATABASE ? [{ name: 'PostgreSQL LISTEN/NOTIFY', engine: 'postgres' as const, settings: {} }] : []),
  ...(DATABASE && REDIS
    ? [{ name: 'Redis pub/sub beside PostgreSQL', engine: 'postgres' as const, settings: { REDIS_URL: REDIS } }]
    : []),
  ...(REDIS
    ? [{ name: 'Redis pub/sub beside one SQLite file', engine: 'sqlite' as const, settings: { REDIS_URL: REDIS } }]
    : []),
];
if (CHANNELS.length === 0)
  console.warn('Revocation across instances skipped: it needs TEST_DATABASE_URL or TEST_REDIS_URL.');

/**
 * Issue 55, row 3: what ends a credential on one instance ends it on every other at once, not when their caches
 * expire. Two instances share one database; instance A takes the action, B is probed until it refuses. The
 * service's clock stands still meanwhile, so no cache entry can run out: only the revocation channel can make B
 * refuse (before it, B went on accepting for as long as the test waited). The time to refusal is printed, not asserted.
 */
describe.each(CHANNELS)('revocation on every instance through $name', ({ name, engine, settings }) => {
  let a: ListeningApp;
  let b: SecondInstance;
  let as: oauth.AuthorizationServer;
  let builder: ConsoleForms;

  beforeAll(async () => {
    a = await startListeningApp(engine, settings);
    b = await startSecondInstance(a, settings);
    const issuer = new URL(a.base);
    as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
    );
    builder = new ConsoleForms(a.base);
    await builder.signIn(a.demo.user);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  /** An app with a client, and an access token the demo user granted it (the real authorize and token endpoints). */
  async function appWithToken(appName: string) {
    const app = await builder.createApp(appName);
    const client = await builder.createClient(app.appId, REDIRECT_URI, ['profile']);
    const verifier = oauth.generateRandomCodeVerifier();
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: REDIRECT_URI,
      scope: 'profile',
      state: 's',
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const callback = await new Browser(fetchSend(a.base)).authorize(`/oauth/authorize?${query}`, a.demo.user);
    const params = oauth.validateAuthResponse(as, { client_id: client.clientId }, callback, 's');
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      { client_id: client.clientId },
      await oauth.authorizationCodeGrantRequest(
        as,
        { client_id: client.clientId },
        oauth.ClientSecretBasic(client.clientSecret),
        params,
        REDIRECT_URI,
        verifier,
        insecure,
      ),
    );
    return { ...app, client, tokens };
  }

  const jobs = (base: string, key: string) =>
    fetch(`${base}/api/v1/jobs?pageSize=1`, { headers: { 'x-svc-api-key': key } }).then((r) => r.status);
  const userinfo = (base: string, token: string) =>
    fetch(`${base}/oauth/userinfo`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);

  /** Runs `act` on A with the clock standing still, then probes B until `refused` holds; prints the time it took. */
  async function refusedOnB(what: string, act: () => Promise<void>, refused: () => Promise<boolean>): Promise<void> {
    a.clock.frozen = Date.now() + a.clock.offset;
    try {
      await act();
      const started = performance.now();
      while (!(await refused())) {
        if (performance.now() - started > 3_000)
          throw new Error(`${what}: still accepted by the other instance after 3 s with the clock standing still`);
        await realWait(2, 'poll');
      }
      console.warn(
        `[revocation, ${name}] ${what}: refused by the other instance ${(performance.now() - started).toFixed(1)} ms after the action's answer`,
      );
    } finally {
      a.clock.frozen = undefined;
    }
  }

  it('a revoked key', async () => {
    const app = await builder.createApp('Revoked key');
    expect(await jobs(b.base, app.apiKey)).toBe(200);
    const page = (await builder.browser.request('GET', `/console/apps/${app.appId}`)).body;
    const keyId = /action="\/console\/apps\/\d+\/keys\/(\d+)\/revoke"/.exec(page)![1];
    await refusedOnB(
      'key revoked',
      async () => {
        expect((await builder.post(`/console/apps/${app.appId}/keys/${keyId}/revoke`, { confirm: 'yes' })).status).toBe(
          303,
        );
      },
      async () => (await jobs(b.base, app.apiKey)) === 401,
    );
  });

  it('a key rotated with overlap "none"', async () => {
    const app = await builder.createApp('Rotated key');
    expect(await jobs(b.base, app.apiKey)).toBe(200);
    let next = '';
    await refusedOnB(
      'key rotated, overlap none',
      async () => {
        const shown = await builder.shown(
          await builder.post(`/console/apps/${app.appId}/keys/rotate`, { overlap: 'none' }),
        );
        next = /id="app-key">([^<]+)</.exec(shown.body)![1]!;
      },
      async () => (await jobs(b.base, app.apiKey)) === 401,
    );
    expect(await jobs(b.base, next)).toBe(200);
  });

  it("a deleted app: its key and its client's access tokens", async () => {
    const app = await appWithToken('Deleted app');
    expect(await jobs(b.base, app.apiKey)).toBe(200);
    expect(await userinfo(b.base, app.tokens.access_token)).toBe(200);
    await refusedOnB(
      'app deleted (key and access token)',
      async () => {
        expect((await builder.post(`/console/apps/${app.appId}/delete`, { confirm: 'yes' })).status).toBe(303);
      },
      async () => (await jobs(b.base, app.apiKey)) === 401 && (await userinfo(b.base, app.tokens.access_token)) === 401,
    );
  });

  it('a grant the user revoked in the console, and one its client revoked (RFC 7009)', async () => {
    const byUser = await appWithToken('Disconnected by the user');
    const byClient = await appWithToken('Revoked by the client');
    for (const token of [byUser.tokens.access_token, byClient.tokens.access_token])
      expect(await userinfo(b.base, token)).toBe(200);
    const connected = (await builder.browser.request('GET', '/console/connected')).body;
    const grantIds = [...connected.matchAll(/action="\/console\/connected\/([^/"]+)\/revoke"/g)].map((m) => m[1]!);
    const grantId = (
      await a.db.database.db
        .selectFrom('oauth_grants')
        .select('id')
        .where('client_id', '=', byUser.client.clientId)
        .executeTakeFirstOrThrow()
    ).id;
    expect(grantIds).toContain(grantId);
    await refusedOnB(
      'grant revoked in the console',
      async () => {
        expect((await builder.post(`/console/connected/${grantId}/revoke`)).status).toBe(303);
      },
      async () => (await userinfo(b.base, byUser.tokens.access_token)) === 401,
    );
    await refusedOnB(
      'grant revoked by its client',
      async () => {
        const res = await oauth.revocationRequest(
          as,
          { client_id: byClient.client.clientId },
          oauth.ClientSecretBasic(byClient.client.clientSecret),
          byClient.tokens.refresh_token!,
          insecure,
        );
        expect(res.status).toBe(200);
      },
      async () => (await userinfo(b.base, byClient.tokens.access_token)) === 401,
    );
  });

  it('says on /readyz when the channel is down, and comes back by itself', async () => {
    const ready = async (base: string) =>
      (await fetch(`${base}/readyz`)).json() as Promise<{ status: string; revocations?: string }>;
    expect(await ready(b.base)).toEqual({ status: 'ready' });
    if (settings.REDIS_URL) return; // Redis away: the readiness test below, with an address where none answers
    // The listening connections of both instances end (an administrator, a failover): each reports it, then listens again.
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      const ended = await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
        [`svc-notices ${a.db.schema}`],
      );
      expect(ended.rowCount).toBe(2);
    } finally {
      await admin.end();
    }
    const down = await ready(b.base);
    expect(down.status).toBe('degraded');
    expect(down.revocations).toMatch(
      /notification channel is down since .*: revocations reach the other instances only as their caches expire/,
    );
    await expect.poll(async () => (await ready(b.base)).status, { timeout: 10_000, interval: 100 }).toBe('ready');
    // Listening again: a revocation reaches B at once.
    const app = await builder.createApp('After the reconnection');
    expect(await jobs(b.base, app.apiKey)).toBe(200);
    await refusedOnB(
      'key rotated after the channel came back',
      async () => {
        await builder.shown(await builder.post(`/console/apps/${app.appId}/keys/rotate`, { overlap: 'none' }));
      },
      async () => (await jobs(b.base, app.apiKey)) === 401,
    );
  });

  it('a key the operator revokes with the CLI, from a process that serves nothing', async () => {
    const app = await builder.createApp('Revoked from the CLI');
    expect(await jobs(b.base, app.apiKey)).toBe(200);
    const lines: string[] = [];
    const io = {
      out: (line: string) => {
        lines.push(line);
      },
      err: (line: string) => {
        lines.push(line);
      },
    };
    const database =
      engine === 'sqlite'
        ? a.db.file!
        : `${a.db.url}${a.db.url!.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${a.db.schema}`)}`;
    const env = { DATA_DIR: a.config.dataDir, LOG_LEVEL: 'silent', DATABASE_URL: database, ...settings };
    await refusedOnB(
      'key revoked with the CLI',
      async () => {
        expect(await runCli(['apps', 'revoke-key', '--key', app.apiKey], io, env), lines.join('\n')).toBe(0);
      },
      async () => (await jobs(b.base, app.apiKey)) === 401,
    );
    expect(lines).toEqual(['Key revoked: running instances refuse it at once.']);
  });

  it('signing out everywhere: a password change ends every console session', async () => {
    const elsewhere = new ConsoleForms(b.base);
    await elsewhere.signIn(a.demo.user);
    expect((await elsewhere.browser.request('GET', '/console/apps')).status).toBe(200);
    const page = await builder.browser.request('GET', '/console/password');
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(page.body)![1]!;
    const password = `${a.demo.user.password}-changed`;
    await refusedOnB(
      'password changed (sessions ended)',
      async () => {
        const changed = await builder.browser.request('POST', '/console/password', {
          csrf_token: csrf,
          current: a.demo.user.password,
          password,
        });
        expect(changed.status, changed.body).toBe(200);
      },
      async () => (await elsewhere.browser.request('GET', '/console/apps')).status === 303,
    );
  });
});

describe('revocation with Redis unreachable', () => {
  let s: ListeningApp;
  beforeAll(async () => {
    // Port 9 (discard) on loopback: nothing answers.
    s = await startListeningApp('sqlite', { REDIS_URL: 'redis://127.0.0.1:9' });
  });
  afterAll(async () => {
    await s?.close();
  });

  it("serves, degraded: /readyz says revocations fall back to the caches' lifetimes, and this instance still revokes at once", async () => {
    const res = await fetch(`${s.base}/readyz`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; rateLimits?: string; revocations?: string };
    expect(body.status).toBe('degraded');
    expect(body.revocations).toMatch(
      /^Redis unreachable since .*: revocations reach the other instances only as their caches expire \(app keys: API_KEY_CACHE_SECONDS; grants: 2 s\)$/,
    );
    const forms = new ConsoleForms(s.base);
    await forms.signIn(s.demo.user);
    const app = await forms.createApp('Redis away');
    const jobs = () =>
      fetch(`${s.base}/api/v1/jobs?pageSize=1`, { headers: { 'x-svc-api-key': app.apiKey } }).then((r) => r.status);
    expect(await jobs()).toBe(200);
    await forms.shown(await forms.post(`/console/apps/${app.appId}/keys/rotate`, { overlap: 'none' }));
    expect(await jobs()).toBe(401);
  });
});
