import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authorizeUrl,
  createClient,
  createPkcePair,
  createState,
  ErrorCode,
  exchangeCode,
  OAuthError,
  OAuthSession,
  refreshTokens,
  SvcApiError,
  verifyWebhook,
  WebhookVerificationError,
  type TokenResponse,
} from '../sdk/src/index.js';
import { ERROR_STATUS } from '../src/shared/api-error.js';
import { png } from './helpers/images.js';
import { startListeningApp, startOfNextWindow, type ListeningApp } from './helpers/listening-app.js';
import { Browser, fetchSend } from './helpers/oauth-browser.js';
import { ENGINES } from './helpers/test-database.js';

/** The SDK (sdk/) against a real listening service: what a builder's code does with it. */
describe.each(ENGINES)('SDK against the service (%s)', (engine) => {
  let s: ListeningApp;
  beforeAll(async () => {
    s = await startListeningApp(engine);
  });
  afterAll(async () => {
    await s?.close();
  });

  /** Runs the user's part of the flow (sign-in and consent pages) and returns the callback's code. */
  async function signInAndConsent(scope: string[]) {
    const pkce = await createPkcePair();
    const state = createState();
    const url = new URL(
      authorizeUrl({
        baseUrl: s.base,
        clientId: s.demo.client.clientId,
        redirectUri: s.demo.client.redirectUri,
        scope,
        state,
        codeChallenge: pkce.challenge,
      }),
    );
    const callback = await new Browser(fetchSend(s.base)).authorize(url.pathname + url.search, s.demo.user);
    expect(callback.searchParams.get('state')).toBe(state);
    return { code: callback.searchParams.get('code')!, verifier: pkce.verifier };
  }

  it('runs the whole OAuth flow: PKCE, code exchange, a write, and a refresh that hands over the rotated refresh token', async () => {
    const { code, verifier } = await signInAndConsent(['profile', 'post:write']);
    const credentials = { baseUrl: s.base, clientId: s.demo.client.clientId, clientSecret: s.demo.client.clientSecret };
    const tokens = await exchangeCode({
      ...credentials,
      code,
      redirectUri: s.demo.client.redirectUri,
      codeVerifier: verifier,
    });
    expect(tokens.scope).toBe('profile post:write');

    const stored: TokenResponse[] = [];
    const session = new OAuthSession({
      ...credentials,
      tokens,
      onTokens: (fresh) => {
        stored.push(fresh);
      },
    });
    const api = createClient({ baseUrl: s.base, apiKey: s.demo.apiKey, auth: session });
    const created = await api.createPost({
      body: { request: { text: 'SDK에서 쓴 글' }, images: [new Blob([png(32, 20)], { type: 'image/png' })] },
    });
    expect(created.content).toBe('SDK에서 쓴 글');
    expect(created.images).toHaveLength(1);
    const read = await api.getPost({ path: { postId: created.postId }, language: 'en' });
    expect(read).toMatchObject({ postId: created.postId, owned: true });

    // The service's clock passes the access token's life: the next call is refused (C0003), the session
    // refreshes once, hands the new pair to the application, and the call goes through.
    s.clock.offset += (tokens.expires_in + 60) * 1000;
    const me = await api.getOAuthUserInfo();
    expect(me.sub).toBe(String(s.demo.user.id));
    expect(stored).toHaveLength(1);
    expect(stored[0]!.refresh_token).not.toBe(tokens.refresh_token);
    expect(session.current.refresh_token).toBe(stored[0]!.refresh_token);
    // The rotated-out refresh token is spent.
    await expect(refreshTokens({ ...credentials, refreshToken: tokens.refresh_token })).rejects.toSatisfy(
      (err) => err instanceof OAuthError && err.error === 'invalid_grant',
    );
    s.clock.offset = 0;
  });

  it('follows the change feed page by page, each change typed by its type', async () => {
    const { code, verifier } = await signInAndConsent(['post:write']);
    const credentials = { baseUrl: s.base, clientId: s.demo.client.clientId, clientSecret: s.demo.client.clientSecret };
    const tokens = await exchangeCode({
      ...credentials,
      code,
      redirectUri: s.demo.client.redirectUri,
      codeVerifier: verifier,
    });
    const api = createClient({ baseUrl: s.base, apiKey: s.demo.apiKey, auth: tokens.access_token });
    let cursor = '';
    for await (const page of api.changes({ query: { after: 'now' } })) {
      expect(page.changes).toEqual([]);
      cursor = page.nextCursor;
    }
    const written: number[] = [];
    for (let i = 0; i < 5; i++)
      written.push((await api.createPost({ body: { request: { text: `피드 ${i}` } } })).postId);
    await api.deletePost({ path: { postId: written[0]! } });
    const seen: Array<[string, number | null]> = [];
    let pages = 0;
    for await (const page of api.changes({ query: { after: cursor, pageSize: 2 } })) {
      pages++;
      for (const change of page.changes) {
        // The union narrows: a post's change carries a post's detail, a deletion nothing.
        if (change.type === 'post.created') seen.push([change.type, change.data?.postId ?? null]);
        else if (change.type === 'post.deleted') seen.push([change.type, change.data]);
      }
      cursor = page.nextCursor;
    }
    expect(pages).toBe(3);
    // The deleted post's creation keeps its place in the feed without its content (deleted means gone).
    expect(seen).toEqual([
      ['post.created', null],
      ...written.slice(1).map((id) => ['post.created', id] as [string, number]),
      ['post.deleted', null],
    ]);
    for await (const page of api.changes({ query: { after: cursor } })) expect(page.changes).toEqual([]);
  });

  it('walks every page of a list with paginate', async () => {
    const api = createClient({ baseUrl: s.base, apiKey: s.demo.apiKey });
    const first = await api.searchPosts({ query: { sort: 'RECENT', pageSize: 7 } });
    const ids: number[] = [];
    for await (const post of api.paginate('searchPosts', { query: { sort: 'RECENT', pageSize: 7 } }))
      ids.push(post.postId);
    expect(ids.length).toBe(first.totalItems);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.slice(0, 7)).toEqual(first.items.map((p) => p.postId));
    // A catalog is one array, not a page.
    const categories = (await api.getJobCategories({ language: 'en' })).map((entry) => entry.code);
    expect(categories.length).toBeGreaterThan(5);
  });

  it('asks for facet counts, typed in the answer', async () => {
    const api = createClient({ baseUrl: s.base, apiKey: s.demo.apiKey });
    const page = await api.searchJobs({ query: { facets: ['workTypes', 'companySizes'], pageSize: 1 } });
    const workTypes = page.facets?.workTypes ?? [];
    expect(workTypes.length).toBeGreaterThan(1);
    expect(workTypes.reduce((sum, c) => sum + c.count, 0)).toBe(page.totalItems);
    const remote = await api.searchJobs({ query: { workTypes: ['REMOTE'], facets: ['workTypes'] } });
    expect(remote.facets?.workTypes).toEqual(workTypes);
    expect((await api.searchJobs({ query: { workTypes: ['REMOTE'] } })).facets).toBeUndefined();
  });

  it('throws errors typed by code, with the request id', async () => {
    const api = createClient({ baseUrl: s.base, apiKey: s.demo.apiKey });
    const error = await api.getPost({ path: { postId: 987_654_321 } }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(SvcApiError);
    const apiError = error as SvcApiError;
    expect(apiError.code).toBe(ErrorCode.PostNotFound);
    expect(apiError.status).toBe(404);
    expect(apiError.requestId).toBeTruthy();
    const badKey = await createClient({ baseUrl: s.base, apiKey: 'svck_wrong' })
      .searchJobs()
      .catch((err: unknown) => err);
    expect(badKey).toMatchObject({ status: 401, code: ErrorCode.InvalidApiKey });
  });

  it('sends one Idempotency-Key across a retry after a lost answer, so the create happens once', async () => {
    const { code, verifier } = await signInAndConsent(['post:write']);
    const tokens = await exchangeCode({
      baseUrl: s.base,
      clientId: s.demo.client.clientId,
      clientSecret: s.demo.client.clientSecret,
      code,
      redirectUri: s.demo.client.redirectUri,
      codeVerifier: verifier,
    });
    const keys: string[] = [];
    let dropped = false;
    // The first answer is lost on the way back (the service did the work): the client sees a network error.
    const flaky: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (init?.method === 'POST') keys.push(new Headers(init.headers).get('idempotency-key') ?? '');
      if (init?.method === 'POST' && !dropped) {
        dropped = true;
        throw new TypeError('fetch failed: connection reset');
      }
      return response;
    };
    const api = createClient({
      baseUrl: s.base,
      apiKey: s.demo.apiKey,
      auth: tokens.access_token,
      fetch: flaky,
      sleep: async () => {},
    });
    const before = (await api.searchPosts({ query: { keyword: '한번만' } })).totalItems;
    const created = await api.createPost({ body: { request: { text: '한번만 만들어지는 글' } } });
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect((await api.searchPosts({ query: { keyword: '한번만' } })).totalItems).toBe(before + 1);
    expect((await api.getPost({ path: { postId: created.postId } })).content).toBe('한번만 만들어지는 글');
  });
});

describe.each(ENGINES)('SDK retries on 429 (%s)', (engine) => {
  let s: ListeningApp;
  beforeAll(async () => {
    s = await startListeningApp(engine, { RATE_LIMIT_GLOBAL_PER_MINUTE: '2' });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('waits the seconds of Retry-After and retries, and gives up with a typed error past its limit', async () => {
    const waits: number[] = [];
    // Waiting moves the service's clock instead of the test's.
    const sleep = async (ms: number) => {
      waits.push(ms);
      s.clock.offset += ms;
    };
    startOfNextWindow(s.clock, 60_000);
    const api = createClient({ baseUrl: s.base, apiKey: s.demo.apiKey, sleep });
    await api.searchJobs();
    await api.searchJobs();
    const third = await api.searchJobs({ query: { pageSize: 5 } });
    expect(third.pageSize).toBe(5);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(0);
    expect(waits[0]).toBeLessThanOrEqual(60_000);

    const impatient = createClient({ baseUrl: s.base, apiKey: s.demo.apiKey, sleep, retry: { retries: 0 } });
    await impatient.searchJobs().catch(() => undefined);
    await impatient.searchJobs().catch(() => undefined);
    const refused = await impatient.searchJobs().catch((err: unknown) => err);
    expect(refused).toMatchObject({ status: 429, code: 'C0010' });
    expect((refused as SvcApiError).code).toBe(ErrorCode.RateLimited);
    expect((refused as SvcApiError).retryAfter).toBeGreaterThan(0);
  });
});

describe('SDK error codes', () => {
  it('names every code the service answers, each once', () => {
    expect(Object.values(ErrorCode).sort()).toEqual(Object.keys(ERROR_STATUS).sort());
    expect(ErrorCode.RateLimited).toBe('C0010');
  });
});

describe('SDK webhook verification', () => {
  const secret = `whsec_${Buffer.alloc(24, 3).toString('base64')}`;
  const other = `whsec_${Buffer.alloc(24, 9).toString('base64')}`;
  const body = JSON.stringify({
    id: 'evt_abc',
    type: 'post.deleted',
    occurredAt: '2026-11-25T00:00:00.000Z',
    resource: { type: 'post', id: '7', webUrl: 'https://www.example/posts/7', companyId: null },
    data: null,
  });

  it('accepts what the standardwebhooks package signs, and refuses a changed body, another secret or an old timestamp', async () => {
    const { Webhook } = await import('standardwebhooks');
    const sentAt = new Date();
    const signature = new Webhook(secret).sign('evt_abc', sentAt, body);
    const headers = {
      'webhook-id': 'evt_abc',
      'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
      'webhook-signature': signature,
    };
    const change = await verifyWebhook(secret, headers, body);
    expect(change.type).toBe('post.deleted');
    expect(change.data).toBeNull();
    // Fetch's Headers and the raw bytes work as well; during a rotation either secret does.
    await expect(
      verifyWebhook([other, secret], new Headers(headers), new TextEncoder().encode(body)),
    ).resolves.toMatchObject({ id: 'evt_abc' });
    await expect(verifyWebhook(secret, headers, body.replace('"7"', '"8"'))).rejects.toBeInstanceOf(
      WebhookVerificationError,
    );
    await expect(verifyWebhook(other, headers, body)).rejects.toBeInstanceOf(WebhookVerificationError);
    await expect(verifyWebhook(secret, headers, body, { now: () => sentAt.getTime() + 301_000 })).rejects.toThrow(
      /too far/,
    );
    await expect(verifyWebhook(secret, { ...headers, 'webhook-signature': undefined }, body)).rejects.toThrow(
      /Missing/,
    );
    // And the package accepts what the SDK accepts: a signature made the way the service makes it.
    const { signedHeaders } = await import('../src/modules/webhooks/signature.js');
    const ours = signedHeaders([other, secret], 'evt_abc', Math.floor(Date.now() / 1000), body);
    expect(new Webhook(secret).verify(body, ours)).toEqual(JSON.parse(body));
    await expect(verifyWebhook(secret, ours, body)).resolves.toMatchObject({ type: 'post.deleted' });
  });
});
