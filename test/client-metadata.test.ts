/**
 * OAuth clients that register by a Client ID Metadata Document (docs/oauth.md): an agent's client whose client_id is
 * the URL of a JSON document naming it and its redirect URIs. A real HTTP server in the test serves the documents
 * (its host allowed at a private address by CLIENT_METADATA_ALLOWED_HOSTS, as an intranet's would be).
 */
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port.js';
import { startListeningApp, type ListeningApp } from './helpers/listening-app.js';
import { Browser, type Send } from './helpers/oauth-browser.js';
import { ENGINES } from './helpers/test-database.js';

const REDIRECT = 'http://127.0.0.1:9/agent/callback';

describe.each(ENGINES)('clients known by their metadata document on %s', (engine) => {
  let t: ListeningApp;
  let documents: http.Server;
  let docBase: string;
  const fetched: string[] = [];
  /** What each path of the document server answers. */
  const served = new Map<string, { status?: number; body: string; cacheControl?: string }>();

  beforeAll(async () => {
    documents = http.createServer((request, response) => {
      fetched.push(request.url!);
      const answer = served.get(request.url!) ?? { status: 404, body: 'not here' };
      response.writeHead(answer.status ?? 200, {
        'content-type': 'application/json',
        ...(answer.cacheControl ? { 'cache-control': answer.cacheControl } : {}),
      });
      response.end(answer.body);
    });
    await new Promise<void>((resolve) => documents.listen(0, '127.0.0.1', resolve));
    docBase = `http://127.0.0.1:${(documents.address() as AddressInfo).port}`;
    t = await startListeningApp(engine, { CLIENT_METADATA_ALLOWED_HOSTS: new URL(docBase).host });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => documents?.close(resolve));
  });

  const serve = (path: string, document: Record<string, unknown>, cacheControl?: string) => {
    served.set(path, { body: JSON.stringify({ client_id: `${docBase}${path}`, ...document }), cacheControl });
    return `${docBase}${path}`;
  };
  const send: Send = async (method, url, headers, body) => {
    const res = await t.app.inject({ method, url, headers, payload: body });
    return {
      status: res.statusCode,
      headers: res.headers as Record<string, string | string[] | undefined>,
      body: res.body,
    };
  };
  const authorizeUrl = (clientId: string, verifier: string, extra: Record<string, string> = {}) =>
    `/oauth/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      scope: 'profile',
      state: 's',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      resource: `${t.base}/mcp`,
      ...extra,
    }).toString()}`;

  it('is advertised in the authorization server metadata', async () => {
    const metadata = (await (await fetch(`${t.base}/.well-known/oauth-authorization-server`)).json()) as Record<
      string,
      unknown
    >;
    expect(metadata.client_id_metadata_document_supported).toBe(true);
  });

  it('signs a user in to an agent known only by its document: consent names it, the token works at the MCP endpoint', async () => {
    const clientId = serve('/agents/helper.json', {
      client_name: 'Helpful Agent',
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
    });
    const verifier = randomBytes(32).toString('base64url');
    const browser = new Browser(send);
    let page = await browser.request('GET', authorizeUrl(clientId, verifier));
    page = await browser.signIn(page, t.demo.user.email, t.demo.user.password);
    page = await browser.request('GET', page.headers.location as string);
    expect(page.status).toBe(200);
    expect(page.body).toContain('Helpful Agent');
    expect(page.body).toContain(clientId);
    const decided = await browser.decide(page, 'allow');
    const callback = new URL(decided.headers.location as string);
    expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT);

    const token = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: clientId,
        code: callback.searchParams.get('code')!,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
        resource: `${t.base}/mcp`,
      }).toString(),
    });
    expect(token.statusCode, token.body).toBe(200);
    const agent = new Client({ name: 'helpful-agent', version: '1.0.0' });
    await agent.connect(
      new StreamableHTTPClientTransport(new URL(`${t.base}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${token.json().access_token}` } },
      }),
    );
    try {
      const me = await agent.callTool({ name: 'get_me', arguments: {} });
      expect(me.structuredContent).toMatchObject({ preferred_username: t.demo.user.handle });
    } finally {
      await agent.close();
    }
    // The document was fetched once: the second authorization used what was kept.
    await new Browser(send).request('GET', authorizeUrl(clientId, verifier));
    expect(fetched.filter((path) => path === '/agents/helper.json')).toHaveLength(1);
  });

  it('refuses a document that does not name its own URL, lists no such redirect URI, wants a secret, or is too large', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const refused = async (clientId: string, text: RegExp) => {
      const page = await new Browser(send).request('GET', authorizeUrl(clientId, verifier));
      expect(page.status).toBe(400);
      expect(page.body).toMatch(text);
      expect(page.headers.location).toBeUndefined();
    };
    served.set('/agents/other.json', {
      body: JSON.stringify({ client_id: 'https://elsewhere.example/agent.json', redirect_uris: [REDIRECT] }),
    });
    await refused(`${docBase}/agents/other.json`, /client_id is not the URL/);
    await refused(
      serve('/agents/wrong-redirect.json', { redirect_uris: ['https://app.example/cb'] }),
      /redirect_uri is missing or is not registered/,
    );
    await refused(
      serve('/agents/secret.json', { redirect_uris: [REDIRECT], token_endpoint_auth_method: 'client_secret_basic' }),
      /not supported here/,
    );
    await refused(
      serve('/agents/large.json', { redirect_uris: [REDIRECT], client_name: 'x'.repeat(6_000) }),
      /larger than 5120 bytes/,
    );
    await refused(`${docBase}/agents/missing.json`, /answered 404/);
    // A host that is not allowed is fetched only at a public address: this one is refused before any connection.
    const elsewhere = `https://127.0.0.1:${await freePort()}/agent.json`;
    await refused(elsewhere, /could not be fetched/);
    // Hidden characters in a name (U+0000, a bidirectional override, a zero-width space) or a redirect URI: one rule on both engines.
    for (const [i, name] of ['Demo\u0000app', 'Demo app\u202E', 'Demo\u200Bapp'].entries()) {
      await refused(
        serve(`/agents/hidden-${i}.json`, { client_name: name, redirect_uris: [REDIRECT] }),
        /client_name holds control or formatting characters/,
      );
    }
    await refused(
      serve('/agents/hidden-uri.json', { redirect_uris: [`${REDIRECT}\u0000`] }),
      /needs 1 to 10 redirect_uris/,
    );
  });

  it("shows the document's host beside its name wherever the name appears: sign-in, consent, Connected apps", async () => {
    const clientId = serve('/agents/lookalike.json', { client_name: 'Demo app', redirect_uris: [REDIRECT] });
    const verifier = randomBytes(32).toString('base64url');
    const browser = new Browser(send);
    const signIn = await browser.request('GET', authorizeUrl(clientId, verifier));
    expect(signIn.body).toContain(`Demo app (${new URL(docBase).host})`);
    const consent = await browser.request(
      'GET',
      (await browser.signIn(signIn, t.demo.user.email, t.demo.user.password)).headers.location as string,
    );
    expect(consent.body).toContain(`Demo app (${new URL(docBase).host})`);
    const callback = new URL((await browser.decide(consent, 'allow')).headers.location as string);
    const token = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: clientId,
        code: callback.searchParams.get('code')!,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
        resource: `${t.base}/mcp`,
      }).toString(),
    });
    expect(token.statusCode, token.body).toBe(200);
    const connected = await browser.request('GET', '/console/connected');
    expect(connected.body).toContain(`Demo app (${new URL(docBase).host})`);
  });

  it('shows the errors of a client nobody has approved on its own page, never redirecting them; redirects them once a user has approved it', async () => {
    // An attacker's document lists any https URL: an open redirector if errors went there before anyone approved the client.
    const landing = 'https://attacker.example/landing';
    const clientId = serve('/agents/redirector.json', {
      client_name: 'Redirector',
      redirect_uris: [landing, REDIRECT],
    });
    const verifier = randomBytes(32).toString('base64url');
    const unsigned = new Browser(send);
    for (const extra of [
      { response_type: 'token' },
      { code_challenge_method: 'plain' },
      { scope: 'nonsense' },
    ] as Array<Record<string, string>>) {
      const page = await unsigned.request('GET', authorizeUrl(clientId, verifier, { redirect_uri: landing, ...extra }));
      expect(page.status, JSON.stringify(extra)).toBe(400);
      expect(page.headers.location).toBeUndefined();
    }
    // Signed in but not yet approved: still the page.
    const user = new Browser(send);
    const signIn = await user.request('GET', authorizeUrl(clientId, verifier));
    await user.signIn(signIn, t.demo.user.email, t.demo.user.password);
    const stillPage = await user.request('GET', authorizeUrl(clientId, verifier, { response_type: 'token' }));
    expect([stillPage.status, stillPage.headers.location]).toEqual([400, undefined]);
    expect(stillPage.body).toContain('unsupported_response_type');
    // Once this user has approved it, its errors go back to it as OAuth says.
    await user.decide(await user.request('GET', authorizeUrl(clientId, verifier)), 'allow');
    const redirected = await user.request('GET', authorizeUrl(clientId, verifier, { response_type: 'token' }));
    expect(redirected.status).toBe(302);
    expect(new URL(redirected.headers.location as string).searchParams.get('error')).toBe('unsupported_response_type');
    // A registered client's errors are redirected as before.
    const registered = await unsigned.request(
      'GET',
      `/oauth/authorize?${new URLSearchParams({ response_type: 'token', client_id: t.demo.client.clientId, redirect_uri: t.demo.client.redirectUri }).toString()}`,
    );
    expect(registered.status).toBe(302);
  });
});

describe.each(ENGINES)('a metadata client that sends no resource, on %s', (engine) => {
  let t: ListeningApp;
  let documents: http.Server;
  let docBase: string;
  beforeAll(async () => {
    documents = http.createServer((request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          client_id: `${docBase}${request.url}`,
          client_name: 'Editor agent',
          redirect_uris: [REDIRECT],
        }),
      );
    });
    await new Promise<void>((resolve) => documents.listen(0, '127.0.0.1', resolve));
    docBase = `http://127.0.0.1:${(documents.address() as AddressInfo).port}`;
    t = await startListeningApp(engine, { CLIENT_METADATA_ALLOWED_HOSTS: new URL(docBase).host });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => documents?.close(resolve));
  });

  const send: Send = async (method, url, headers, body) => {
    const res = await t.app.inject({ method, url, headers, payload: body });
    return {
      status: res.statusCode,
      headers: res.headers as Record<string, string | string[] | undefined>,
      body: res.body,
    };
  };
  const audienceOf = (jwt: string) =>
    (JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as { aud: string }).aud;

  /** The whole flow for `clientId`, with `resource` only where given; the access token's audience. */
  async function audience(clientId: string, resource?: string): Promise<string> {
    const verifier = randomBytes(32).toString('base64url');
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      scope: 'profile',
      state: 's',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      ...(resource ? { resource } : {}),
    });
    const callback = await new Browser(send).authorize(`/oauth/authorize?${query.toString()}`, t.demo.user);
    const token = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: clientId,
        code: callback.searchParams.get('code')!,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
      }).toString(),
    });
    expect(token.statusCode, token.body).toBe(200);
    return audienceOf(token.json().access_token);
  }

  it('gets a token for the MCP endpoint (hosts such as Cursor and VS Code send none), and one for the API only when it names the API', async () => {
    expect(await audience(`${docBase}/agents/editor.json`)).toBe(`${t.base}/mcp`);
    expect(await audience(`${docBase}/agents/editor.json`, `${t.base}/api`)).toBe(`${t.base}/api`);
  });
});

describe('new client metadata documents from one address', () => {
  let t: ListeningApp;
  let documents: http.Server;
  let docBase: string;
  let fetches = 0;
  beforeAll(async () => {
    documents = http.createServer((request, response) => {
      fetches++;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ client_id: `${docBase}${request.url}`, redirect_uris: [REDIRECT] }));
    });
    await new Promise<void>((resolve) => documents.listen(0, '127.0.0.1', resolve));
    docBase = `http://127.0.0.1:${(documents.address() as AddressInfo).port}`;
    t = await startListeningApp('sqlite', {
      CLIENT_METADATA_ALLOWED_HOSTS: new URL(docBase).host,
      LOGIN_MAX_FAILURES_PER_ADDRESS: '20',
    });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => documents?.close(resolve));
  });

  it('are fetched and stored at a bounded rate: the 21st in a window is refused before any fetch', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) {
      const query = new URLSearchParams({
        response_type: 'code',
        client_id: `${docBase}/flood/${i}.json`,
        redirect_uri: REDIRECT,
        scope: 'profile',
        code_challenge: 'x'.repeat(43),
        code_challenge_method: 'S256',
      });
      const res = await fetch(`${t.base}/oauth/authorize?${query.toString()}`, { redirect: 'manual' });
      statuses.push(res.status);
      if (i === 24) expect(await res.text()).toContain('Too many new client metadata documents');
    }
    expect(statuses.slice(0, 20).every((status) => status === 200)).toBe(true);
    expect(statuses.slice(20)).toEqual([400, 400, 400, 400, 400]);
    expect(fetches).toBe(20);
    const stored = await t.db.database.db
      .selectFrom('oauth_clients')
      .select('client_id')
      .where('client_id', 'like', `${docBase}/flood/%`)
      .execute();
    expect(stored).toHaveLength(20);
  });
});
