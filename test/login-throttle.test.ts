import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { App } from '../src/app.js';
import { Browser, hiddenField, type Send, type Sent } from './helpers/oauth-browser.js';
import { anotherInstance, createTestApp, type TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';

const countBy = (responses: Sent[]) => {
  const counts: Record<number, number> = {};
  for (const r of responses) counts[r.status] = (counts[r.status] ?? 0) + 1;
  return counts;
};

/** Brute force from outside: parallel bursts of sign-ins admit exactly the limits, across a restart too. */
describe.each(ENGINES)('sign-in throttle on %s', (engine) => {
  let t: TestContext;

  beforeAll(async () => {
    t = await createTestApp(engine);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A browser on `app` whose requests come from `address`, with a sign-in page open. */
  async function signInForm(app: App, address: string) {
    const send: Send = async (method, url, headers, body) => {
      const res = await app.inject({ method, url, headers, payload: body, remoteAddress: address });
      return { status: res.statusCode, headers: res.headers as Sent['headers'], body: res.body };
    };
    const browser = new Browser(send);
    const verifier = randomBytes(32).toString('base64url');
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: t.demo.client.clientId,
      redirect_uri: t.demo.client.redirectUri,
      scope: 'profile',
      state: 's',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    });
    const page = await browser.request('GET', `/oauth/authorize?${query.toString()}`);
    expect(page.status).toBe(200);
    return (email: string, password: string) => {
      // Every attempt from a browser not signed in (a success signs this one in, and binds its later forms to that).
      browser.cookies.delete('svc_session');
      return browser.request('POST', '/oauth/login', {
        email,
        password,
        csrf_token: hiddenField(page.body, 'csrf_token'),
        authorize_query: hiddenField(page.body, 'authorize_query'),
      });
    };
  }

  it('evaluates exactly 5 of 100 parallel sign-ins for one account; the right password later in the burst is refused', async () => {
    const attempt = await signInForm(t.app, '198.51.100.1');
    const { email, password } = t.demo.user;
    const burst = Array.from({ length: 100 }, (_, i) => attempt(email, i === 99 ? password : `guess-${i}`));
    const responses = await Promise.all(burst);
    expect(countBy(responses)).toEqual({ 401: 5, 429: 95 });
    expect(responses[99]!.status).toBe(429);

    // A second instance on the same database (or this one restarted) keeps the count.
    const other = await anotherInstance(t);
    try {
      const again = await signInForm(other, '198.51.100.2');
      expect((await again(email, password)).status).toBe(429);
    } finally {
      await other.close();
    }
  });

  it('evaluates exactly 20 of 200 parallel sign-ins across accounts from one address', async () => {
    const attempt = await signInForm(t.app, '198.51.100.3');
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, i) => attempt(`spray-${i}@example.com`, 'password-1')),
    );
    expect(countBy(responses)).toEqual({ 401: 20, 429: 180 });
  });

  it('gives a successful attempt back: signing in does not bring the account closer to its limit', async () => {
    const start = t.clock.now;
    t.clock.now += 900_000; // the next window: the burst above no longer counts
    onTestFinished(() => {
      t.clock.now = start;
    });
    const attempt = await signInForm(t.app, '198.51.100.4');
    const { email, password } = t.demo.user;
    for (let i = 0; i < 4; i++) expect((await attempt(email, `wrong-${i}`)).status).toBe(401);
    expect((await attempt(email, password)).status).toBe(303);
    expect((await attempt(email, 'wrong-4')).status).toBe(401);
    expect((await attempt(email, 'wrong-5')).status).toBe(429);
  });
});
