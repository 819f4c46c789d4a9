import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, injectSend } from './helpers/oauth-browser.js';
import { createTestApp, type TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';

const verifierOf = () => randomBytes(32).toString('base64url');
const challengeOf = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');
const DAY = 86_400_000;

/**
 * Dynamic Client Registration (RFC 7591) at POST /oauth/register (docs/oauth.md, "Clients that register themselves"):
 * what a host says it is decides its redirects, registration is throttled per address, an unused registration is
 * removed after a day, and a removed client is `invalid_client` at the token endpoint, so its host registers anew.
 */
describe.each(ENGINES)('clients that register themselves, on %s', (engine) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp(engine, { config: { LOGIN_MAX_FAILURES_PER_ADDRESS: '20' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const register = (body: unknown, address = '203.0.113.7') =>
    t.app.inject({
      method: 'POST',
      url: '/oauth/register',
      remoteAddress: address,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
  const authorizeUrl = (clientId: string, redirectUri: string, verifier: string, extra: Record<string, string> = {}) =>
    `/oauth/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: redirectUri,
      scope: 'profile',
      state: 'st',
      code_challenge: challengeOf(verifier),
      code_challenge_method: 'S256',
      ...extra,
    }).toString()}`;
  const token = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      payload: new URLSearchParams(fields).toString(),
    });
  const audienceOf = (jwt: string) =>
    (JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as { aud: string }).aud;

  it("is advertised, with `none` among the token endpoint's methods", async () => {
    const metadata = (await t.app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server' })).json();
    expect(metadata.registration_endpoint).toBe(`${t.config.publicBaseUrl}/oauth/register`);
    expect(metadata.token_endpoint_auth_methods_supported).toContain('none');
  });

  it('registers a public native host: no secret, loopback on any port, tokens for the MCP endpoint without `resource`', async () => {
    const res = await register({
      client_name: 'Claude Code',
      redirect_uris: ['http://localhost/callback'],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const client = res.json();
    // The name it chose, with where it sends users back beside it (as it will read on sign-in, consent and Connected apps).
    expect(client).toMatchObject({
      client_name: 'Claude Code (localhost)',
      application_type: 'native',
      token_endpoint_auth_method: 'none',
      redirect_uris: ['http://localhost/callback'],
    });
    expect(client.client_id).toMatch(/^svcd_/);
    expect(client.client_secret).toBeUndefined();

    const verifier = verifierOf();
    const redirectUri = 'http://localhost:57413/callback';
    const callback = await new Browser(injectSend(t.app)).authorize(
      authorizeUrl(client.client_id, redirectUri, verifier),
      t.demo.user,
    );
    expect(`${callback.origin}${callback.pathname}`).toBe(redirectUri);
    const issued = await token({
      grant_type: 'authorization_code',
      client_id: client.client_id,
      code: callback.searchParams.get('code')!,
      redirect_uri: redirectUri,
      code_verifier: verifier,
    });
    expect(issued.statusCode, issued.body).toBe(200);
    expect(audienceOf(issued.json().access_token)).toBe(`${t.config.publicBaseUrl}/mcp`);
  });

  it('tells the user on consent when it registered, from which address, and where they go back', async () => {
    const client = (
      await register(
        { client_name: 'Some agent', redirect_uris: ['http://127.0.0.1/cb'], token_endpoint_auth_method: 'none' },
        '198.51.100.44',
      )
    ).json();
    const browser = new Browser(injectSend(t.app));
    const signIn = await browser.request(
      'GET',
      authorizeUrl(client.client_id, 'http://127.0.0.1:41000/cb', verifierOf()),
      undefined,
      { 'accept-language': 'en' },
    );
    const signedIn = await browser.signIn(signIn, t.demo.user.email, t.demo.user.password);
    const consent = await browser.request('GET', String(signedIn.headers.location), undefined, {
      'accept-language': 'en',
    });
    expect(consent.status).toBe(200);
    const today = new Date(t.clock.now).toISOString().slice(0, 10);
    expect(consent.body).toContain('Some agent (127.0.0.1)');
    expect(consent.body).toContain(
      `This app registered itself on ${today} from the address 198.51.100.44; nobody has reviewed it. After you decide, you go back to http://127.0.0.1:41000/cb.`,
    );
  });

  it('registers a confidential web client whose secret works once shown, and whose redirect matches exactly', async () => {
    const res = await register({
      client_name: 'A web agent',
      redirect_uris: ['https://agent.example/cb', 'http://127.0.0.1:9000/cb'],
    });
    expect(res.statusCode, res.body).toBe(201);
    const client = res.json();
    expect(client).toMatchObject({
      application_type: 'web',
      token_endpoint_auth_method: 'client_secret_basic',
      client_secret_expires_at: 0,
    });
    expect(client.client_secret).toMatch(/^svcs_/);
    const browser = new Browser(injectSend(t.app));
    const moved = await browser.request(
      'GET',
      authorizeUrl(client.client_id, 'http://127.0.0.1:9001/cb', verifierOf()),
    );
    expect([moved.status, moved.headers.location]).toEqual([400, undefined]);
    const verifier = verifierOf();
    const callback = await browser.authorize(
      authorizeUrl(client.client_id, 'http://127.0.0.1:9000/cb', verifier),
      t.demo.user,
    );
    const basic = `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`;
    const issued = await token(
      {
        grant_type: 'authorization_code',
        code: callback.searchParams.get('code')!,
        redirect_uri: 'http://127.0.0.1:9000/cb',
        code_verifier: verifier,
      },
      { authorization: basic },
    );
    expect(issued.statusCode, issued.body).toBe(200);
  });

  it("takes a native host's private-use scheme, and the consent page lets its form end there", async () => {
    const redirectUri = 'cursor://anysphere.cursor-retrieval/oauth/callback';
    const client = (
      await register({
        client_name: 'Cursor',
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: 'none',
        application_type: 'native',
      })
    ).json();
    const browser = new Browser(injectSend(t.app));
    const signIn = await browser.request('GET', authorizeUrl(client.client_id, redirectUri, verifierOf()));
    expect(signIn.status).toBe(200);
    expect(String(signIn.headers['content-security-policy'])).toContain("form-action 'self' cursor:");
    const callback = await browser.authorize(authorizeUrl(client.client_id, redirectUri, verifierOf()), t.demo.user);
    expect(callback.protocol).toBe('cursor:');
    expect(callback.searchParams.get('code')).toBeTruthy();
  });

  it('refuses what RFC 7591 refuses, with its error codes, and stores nothing', async () => {
    const before = await t.db.database.db.selectFrom('oauth_clients').select('client_id').execute();
    const cases: Array<[unknown, string]> = [
      [{}, 'invalid_redirect_uri'],
      [{ redirect_uris: ['http://agent.example/cb'] }, 'invalid_redirect_uri'],
      [
        { redirect_uris: ['javascript:alert(1)'], application_type: 'native', token_endpoint_auth_method: 'none' },
        'invalid_redirect_uri',
      ],
      [{ redirect_uris: ['https://agent.example/cb#frag'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['cursor://x/cb'], application_type: 'web' }, 'invalid_redirect_uri'],
      [
        { redirect_uris: ['https://agent.example/cb'], token_endpoint_auth_method: 'private_key_jwt' },
        'invalid_client_metadata',
      ],
      [{ redirect_uris: ['https://agent.example/cb'], grant_types: ['client_credentials'] }, 'invalid_client_metadata'],
      [{ redirect_uris: ['https://agent.example/cb'], response_types: ['token'] }, 'invalid_client_metadata'],
      [{ redirect_uris: ['https://agent.example/cb'], application_type: 'desktop' }, 'invalid_client_metadata'],
      [{ redirect_uris: ['https://agent.example/cb'], client_name: 'Demo app\u202E' }, 'invalid_client_metadata'],
      [{ redirect_uris: ['https://agent.example/cb'], scope: 'root' }, 'invalid_client_metadata'],
    ];
    for (const [body, error] of cases) {
      const res = await register(body, '198.51.100.9');
      expect([res.statusCode, res.json().error], JSON.stringify(body)).toEqual([400, error]);
    }
    expect(await t.db.database.db.selectFrom('oauth_clients').select('client_id').execute()).toHaveLength(
      before.length,
    );
  });

  it('throttles registrations per client address: the 21st in a window is 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++)
      statuses.push(
        (await register({ redirect_uris: ['http://127.0.0.1/cb'], token_endpoint_auth_method: 'none' }, '192.0.2.44'))
          .statusCode,
      );
    expect(statuses.filter((status) => status === 201)).toHaveLength(20);
    expect(statuses.slice(20)).toEqual([429, 429]);
    expect(
      (await register({ redirect_uris: ['http://127.0.0.1/cb'], token_endpoint_auth_method: 'none' }, '192.0.2.45'))
        .statusCode,
    ).toBe(201);
  });

  it('throttles a network at ten times an address, and no flood from other networks blocks a new host (issue 86 row 6)', async () => {
    const once = async (address: string) =>
      (await register({ redirect_uris: ['http://127.0.0.1/cb'], token_endpoint_auth_method: 'none' }, address))
        .statusCode;
    // 210 registrations from 210 networks: more than any count shared by every address would let through.
    for (let i = 0; i < 210; i++) expect(await once(`10.${Math.floor(i / 200)}.${i % 200}.7`)).toBe(201);
    expect(await once('198.51.100.200')).toBe(201);
    // One /24 of eleven addresses, 20 each: its 201st is refused, its neighbour network is not.
    const statuses: number[] = [];
    for (let host = 1; host <= 11; host++) for (let i = 0; i < 20; i++) statuses.push(await once(`100.64.5.${host}`));
    expect(statuses.filter((status) => status === 201)).toHaveLength(200);
    expect(await once('100.64.6.1')).toBe(201);
  });

  it('removes a registration unused for a day; its host then gets invalid_client and registers anew; a used one stays', async () => {
    const unused = (
      await register({ redirect_uris: ['http://127.0.0.1/cb'], token_endpoint_auth_method: 'none' }, '192.0.2.60')
    ).json().client_id as string;
    const used = (
      await register({ redirect_uris: ['http://127.0.0.1/cb'], token_endpoint_auth_method: 'none' }, '192.0.2.60')
    ).json().client_id as string;
    const verifier = verifierOf();
    const callback = await new Browser(injectSend(t.app)).authorize(
      authorizeUrl(used, 'http://127.0.0.1:4000/cb', verifier),
      t.demo.user,
    );
    expect(
      (
        await token({
          grant_type: 'authorization_code',
          client_id: used,
          code: callback.searchParams.get('code')!,
          redirect_uri: 'http://127.0.0.1:4000/cb',
          code_verifier: verifier,
        })
      ).statusCode,
    ).toBe(200);

    t.clock.now += DAY + 60_000;
    expect(
      (await register({ redirect_uris: ['http://127.0.0.1/cb'], token_endpoint_auth_method: 'none' }, '192.0.2.61'))
        .statusCode,
    ).toBe(201);
    const gone = await token({
      grant_type: 'authorization_code',
      client_id: unused,
      code: 'x'.repeat(43),
      redirect_uri: 'http://127.0.0.1/cb',
      code_verifier: verifier,
    });
    expect([gone.statusCode, gone.json().error]).toEqual([401, 'invalid_client']);
    const page = await new Browser(injectSend(t.app)).request(
      'GET',
      authorizeUrl(unused, 'http://127.0.0.1/cb', verifierOf()),
    );
    expect(page.status).toBe(400);
    expect(
      await t.db.database.db
        .selectFrom('oauth_clients')
        .select('client_id')
        .where('client_id', '=', used)
        .executeTakeFirst(),
    ).toBeDefined();
  });
});
