/**
 * The MCP endpoint driven by the official SDK's client over real HTTP (docs/mcp.md): the tools listed, each tool's
 * answer equal to its API operation's body and valid against its output schema (the client validates structured
 * content against the listed schema itself), errors as tool errors with the API's codes, the language, the app's
 * rate limit, and the endpoint's own HTTP answers.
 */
import { TOOLS } from '../src/modules/mcp/mcp-tools.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startListeningApp, startOfNextWindow, type ListeningApp } from './helpers/listening-app.js';
import { ConsoleForms } from './helpers/console-forms.js';
import { authorizationCode, exchangeCode } from './helpers/tokens.js';
import { injectSend } from './helpers/oauth-browser.js';
import { ENGINES } from './helpers/test-database.js';

const GLOBAL_PER_MINUTE = 40;

/** Each tool's output schema as listed, compiled: every structured result is held to it here too (the SDK's client does). */
async function outputValidators(client: Client): Promise<Map<string, ReturnType<Ajv['compile']>>> {
  const ajv = new Ajv({ strict: false });
  addFormats.default(ajv);
  return new Map((await client.listTools()).tools.map((tool) => [tool.name, ajv.compile(tool.outputSchema!)]));
}

describe.each(ENGINES)('the MCP endpoint on %s', (engine) => {
  let t: ListeningApp;
  let client: Client;
  const clients: Client[] = [];

  async function connect(headers: Record<string, string>): Promise<Client> {
    const connected = new Client({ name: 'mcp-test', version: '1.0.0' });
    await connected.connect(new StreamableHTTPClientTransport(new URL(`${t.base}/mcp`), { requestInit: { headers } }));
    clients.push(connected);
    return connected;
  }

  /** The API's own answer to the same operation. */
  async function api(path: string, language = 'en'): Promise<{ status: number; body: unknown }> {
    const response = await fetch(`${t.base}${path}`, {
      headers: { 'X-SVC-API-Key': t.demo.apiKey, 'Accept-Language': language },
    });
    return { status: response.status, body: await response.json() };
  }

  /** A raw POST to the endpoint: `body` as given, or one JSON-RPC message (id 1, tools/list unless `message` says). */
  const send = (headers: Record<string, string>, body: string, accept = 'application/json, text/event-stream') =>
    fetch(`${t.base}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: accept, ...headers },
      body,
    });
  const post = (headers: Record<string, string>, message: object = {}) =>
    send(headers, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', ...message }));

  let validators: Map<string, ReturnType<Ajv['compile']>>;
  const structured = async (name: string, args: Record<string, unknown>, via = client) => {
    const result = await via.callTool({ name, arguments: args });
    expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
    const validate = validators.get(name)!;
    expect(validate(result.structuredContent), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
    return result.structuredContent as Record<string, unknown>;
  };

  beforeAll(async () => {
    t = await startListeningApp(engine, { RATE_LIMIT_GLOBAL_PER_MINUTE: String(GLOBAL_PER_MINUTE) });
    client = await connect({ 'X-SVC-API-Key': t.demo.apiKey, 'Accept-Language': 'en' });
    validators = await outputValidators(client);
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await t?.close();
  });

  it('lists its tools, each with an input schema, an output schema and read-only annotations', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'search_posts',
      'get_post',
      'search_jobs',
      'get_job',
      'search_companies',
      'get_company',
      'search_profiles',
      'get_profile',
      'search_events',
      'get_event',
      'list_codes',
      'list_changes',
      'get_me',
      'get_my_profile',
      'list_my_company_permissions',
      'create_post',
    ]);
    const ajv = new Ajv({ strict: true, strictTypes: false, strictTuples: false });
    addFormats.default(ajv);
    for (const tool of tools) {
      expect(tool.description!.length, tool.name).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(tool.annotations).toMatchObject({
        readOnlyHint: tool.name !== 'create_post',
        destructiveHint: false,
        openWorldHint: false,
      });
      // Valid JSON Schema for a strict validator: no format or keyword an agent's validator would not know.
      expect(() => ajv.compile(tool.outputSchema!), tool.name).not.toThrow();
      expect(() => ajv.compile(tool.inputSchema), tool.name).not.toThrow();
    }
    // Paging has defaults: an agent need not send it.
    expect(tools.find((tool) => tool.name === 'search_posts')!.inputSchema.required).toBeUndefined();
    expect(tools.find((tool) => tool.name === 'get_post')!.inputSchema.required).toEqual(['postId']);
    expect(client.getServerVersion()).toMatchObject({ name: 'svc-open-api' });
  });

  it("answers every tool with its API operation's body, as structured content and as text", async () => {
    startOfNextWindow(t.clock, 60_000);
    const posts = await structured('search_posts', { keyword: 'AI', pageSize: 5, sort: 'RECENT' });
    expect(posts).toEqual((await api('/api/v1/posts?keyword=AI&pageSize=5&sort=RECENT')).body);
    expect((posts.items as unknown[]).length).toBeGreaterThan(0);
    const postId = (posts.items as Array<{ postId: number }>)[0]!.postId;
    expect(await structured('get_post', { postId })).toEqual((await api(`/api/v1/posts/${postId}`)).body);

    const jobs = await structured('search_jobs', { seniorities: ['JUNIOR', 'SENIOR'], pageSize: 3 });
    expect(jobs).toEqual((await api('/api/v1/jobs?seniorities=JUNIOR&seniorities=SENIOR&pageSize=3')).body);
    const jobId = (jobs.items as Array<{ jobId: number }>)[0]!.jobId;
    expect(await structured('get_job', { jobId })).toEqual((await api(`/api/v1/jobs/${jobId}`)).body);

    const companies = await structured('search_companies', { industries: ['IT_SOFTWARE'], sort: 'HIRING_DESC' });
    expect(companies).toEqual((await api('/api/v1/companies?industries=IT_SOFTWARE&sort=HIRING_DESC')).body);
    const companyId = (companies.items as Array<{ companyId: string }>)[0]!.companyId;
    expect(await structured('get_company', { companyId })).toEqual((await api(`/api/v1/companies/${companyId}`)).body);

    const profiles = await structured('search_profiles', { skills: ['typescript'], pageSize: 3 });
    expect(profiles).toEqual((await api('/api/v1/profiles?skills=typescript&pageSize=3')).body);
    const handle = (profiles.items as Array<{ handle: string }>)[0]!.handle;
    expect(await structured('get_profile', { handle })).toEqual((await api(`/api/v1/profiles/${handle}`)).body);

    const events = await structured('search_events', { pageSize: 2 });
    expect(events).toEqual((await api('/api/v1/events?pageSize=2')).body);
    const eventId = (events.items as Array<{ eventId: string }>)[0]!.eventId;
    expect(await structured('get_event', { eventId })).toEqual((await api(`/api/v1/events/${eventId}`)).body);

    expect(await structured('list_codes', { catalog: 'job-industries' })).toEqual({
      codes: (await api('/api/v1/codes/job-industries')).body,
    });
    const changes = await structured('list_changes', { after: 'now' });
    expect(changes).toMatchObject({ items: [], hasMore: false });
    expect(typeof changes.nextCursor).toBe('string');

    const result = await client.callTool({ name: 'get_post', arguments: { postId } });
    expect(JSON.parse((result.content as Array<{ text: string }>)[0]!.text)).toEqual(result.structuredContent);
  });

  it('gives the labels and messages in the language the agent asked for', async () => {
    const japanese = await connect({ 'X-SVC-API-Key': t.demo.apiKey, 'Accept-Language': 'ja' });
    const codes = await structured('list_codes', { catalog: 'seniorities' }, japanese);
    expect(codes).toEqual({ codes: (await api('/api/v1/codes/seniorities', 'ja')).body });
    expect(codes).not.toEqual(await structured('list_codes', { catalog: 'seniorities' }));
  });

  it("answers a refused operation as a tool error with the API's code and message, and an unknown tool as a protocol error", async () => {
    const missing = await client.callTool({ name: 'get_post', arguments: { postId: 987654321 } });
    const expected = await api('/api/v1/posts/987654321');
    expect(expected.status).toBe(404);
    expect(missing.isError).toBe(true);
    expect(missing.structuredContent).toBeUndefined();
    expect(JSON.parse((missing.content as Array<{ text: string }>)[0]!.text)).toEqual({
      ...(expected.body as object),
      timestamp: expect.any(String),
    });

    const invalid = await client.callTool({ name: 'search_jobs', arguments: { seniorities: ['WIZARD'] } });
    expect(invalid.isError).toBe(true);
    expect(JSON.parse((invalid.content as Array<{ text: string }>)[0]!.text)).toMatchObject({ code: 'C0005' });

    // A path argument cannot reach another route.
    const traversal = await client.callTool({ name: 'get_event', arguments: { eventId: '../posts/1' } });
    expect(traversal.isError).toBe(true);

    await expect(client.callTool({ name: 'delete_everything', arguments: {} })).rejects.toThrow(/Unknown tool/);
  });

  it("answers each public tool's refused arguments with the code the API gives the same request", async () => {
    startOfNextWindow(t.clock, 60_000);
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['search_posts', { sort: 'LOUDEST' }, '/api/v1/posts?sort=LOUDEST'],
      ['get_post', { postId: 987654321 }, '/api/v1/posts/987654321'],
      ['search_jobs', { workTypes: ['ON_THE_MOON'] }, '/api/v1/jobs?workTypes=ON_THE_MOON'],
      ['get_job', { jobId: 987654321 }, '/api/v1/jobs/987654321'],
      ['search_companies', { industries: ['NOPE'] }, '/api/v1/companies?industries=NOPE'],
      ['get_company', { companyId: 'no-such-company' }, '/api/v1/companies/no-such-company'],
      ['search_profiles', { page: 21, pageSize: 50 }, '/api/v1/profiles?page=21&pageSize=50'],
      ['get_profile', { handle: 'member-07' }, '/api/v1/profiles/member-07'],
      ['search_events', { categories: ['NOPE'] }, '/api/v1/events?categories=NOPE'],
      ['get_event', { eventId: 'evt_not_there' }, '/api/v1/events/evt_not_there'],
      ['list_codes', { catalog: 'planets' }, '/api/v1/codes/planets'],
      ['list_changes', { after: 'not-a-cursor' }, '/api/v1/changes?after=not-a-cursor'],
    ];
    for (const [name, args, path] of cases) {
      const result = await client.callTool({ name, arguments: args });
      const expected = await api(path);
      expect(expected.status, name).toBeGreaterThanOrEqual(400);
      expect(result.isError, name).toBe(true);
      const error = JSON.parse((result.content as Array<{ text: string }>)[0]!.text) as Record<string, unknown>;
      expect(error, name).toEqual({ ...(expected.body as object), timestamp: expect.any(String) });
    }
  });

  it("takes the app key in the header names of the real service's clients too", async () => {
    startOfNextWindow(t.clock, 60_000);
    const viaAlias = await connect({ 'X-RP-API-Key': t.demo.apiKey });
    expect(await structured('list_codes', { catalog: 'company-sizes' }, viaAlias)).toEqual({
      codes: (await api('/api/v1/codes/company-sizes', 'ko')).body,
    });
  });

  it("counts each tool call against the app's limit as the API does, and answers a spent limit as a tool error with the wait", async () => {
    startOfNextWindow(t.clock, 60_000);
    for (let i = 0; i < GLOBAL_PER_MINUTE; i++) await structured('list_codes', { catalog: 'work-types' });
    const refused = await client.callTool({ name: 'list_codes', arguments: { catalog: 'work-types' } });
    expect(refused.isError).toBe(true);
    const error = JSON.parse((refused.content as Array<{ text: string }>)[0]!.text) as {
      code: string;
      message: string;
      retryAfterSeconds: number;
    };
    expect(error.code).toBe('C0010');
    expect(error.retryAfterSeconds).toBeGreaterThan(0);
    expect(error.retryAfterSeconds).toBeLessThanOrEqual(60);
    // The API sees the same spent limit: the calls were the app's.
    expect((await api('/api/v1/codes/work-types')).status).toBe(429);
    // Listing the tools, and any other message, counts against the same limit and is refused once it is spent.
    await expect(client.listTools()).rejects.toThrow(/Rate limit exceeded/);
    await expect(client.ping()).rejects.toThrow(/Rate limit exceeded/);
    // In usage as the API's refusals are: a 429 of its own.
    await t.app.usage.flush();
    const refusedRows = await t.db.database.db
      .selectFrom('app_usage')
      .select('operation')
      .where('status_class', '=', '429')
      .where('operation', 'in', ['mcp tools/list', 'mcp ping'])
      .execute();
    expect(new Set(refusedRows.map((row) => row.operation))).toEqual(new Set(['mcp tools/list', 'mcp ping']));
    startOfNextWindow(t.clock, 60_000);
  });

  it('counts every message that is not an API operation once, against the app, in its usage and its request log', async () => {
    startOfNextWindow(t.clock, 60_000);
    const remaining = async () =>
      Number(
        (await post({ 'X-SVC-API-Key': t.demo.apiKey }, { method: 'ping' })).headers.get('x-svc-ratelimit-remaining'),
      );
    const before = await remaining();
    await client.listTools();
    await client.ping();
    await structured('list_codes', { catalog: 'work-types' });
    // tools/list, ping, one tool call (counted by the API, once) and this ping: four fewer than after the first ping.
    expect(await remaining()).toBe(before - 4);
    await t.app.usage.flush();
    await t.app.requestLog.flush();
    const usage = await t.db.database.db
      .selectFrom('app_usage')
      .select(['operation'])
      .where('operation', 'like', 'mcp %')
      .execute();
    expect(usage.map((row) => row.operation)).toEqual(
      expect.arrayContaining(['mcp initialize', 'mcp notifications/initialized', 'mcp tools/list', 'mcp ping']),
    );
    const logged = await t.db.database.db
      .selectFrom('app_requests')
      .select('operation')
      .where('operation', '=', 'mcp ping')
      .execute();
    expect(logged.length).toBeGreaterThanOrEqual(2);
    startOfNextWindow(t.clock, 60_000);
  });

  it("refuses batches, and answers what is not a JSON-RPC message in JSON-RPC's shape with the API's code inside", async () => {
    const key = { 'X-SVC-API-Key': t.demo.apiKey };
    // Batches are not part of the protocol: three create_post with one id would otherwise make three posts and give one answer.
    const batch = await send(
      key,
      JSON.stringify(Array.from({ length: 100 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'tools/list' }))),
    );
    expect(batch.status).toBe(400);
    expect(await batch.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: expect.stringContaining('batches') },
    });
    const notJson = await send(key, '{"jsonrpc": "2.0", "id": 1, ');
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, data: { code: 'C0002' } },
    });
    const badName = await post(key, { method: 'tools/call', params: { name: 42, arguments: {} } });
    const badNameBody = (await badName.json()) as { error: { code: number; message: string } };
    expect(badNameBody).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32602, message: expect.stringContaining('params.name must be a string') },
    });
    expect(badNameBody.error.message).not.toMatch(/invalid_type|"path"/);
    const badArgs = await post(key, { method: 'tools/call', params: { name: 'search_posts', arguments: 'keyword=x' } });
    expect(await badArgs.json()).toMatchObject({ id: 1, error: { code: -32602 } });
    // A 900 KB argument is the API's C0005 as a tool error, not a complaint about headers.
    const huge = await client.callTool({ name: 'search_posts', arguments: { keyword: 'x'.repeat(900_000) } });
    expect(huge.isError).toBe(true);
    expect(JSON.parse((huge.content as Array<{ text: string }>)[0]!.text)).toMatchObject({
      code: 'C0005',
      details: 'keyword',
    });
    // A wrong key in one of the real service's header names is reported under that name.
    const wrongAlias = await post({ 'X-OBA-API-Key': 'svck_not_a_key' }, { method: 'tools/list' });
    expect(wrongAlias.status).toBe(401);
    expect(await wrongAlias.json()).toMatchObject({
      error: { data: { code: 'C0001', details: 'X-OBA-API-Key', message: expect.stringContaining('X-OBA-API-Key') } },
    });
  });

  it('answers tools/list from the list serialized once, byte for byte the same for every caller', async () => {
    const key = { 'X-SVC-API-Key': t.demo.apiKey };
    const first = (await (await post(key, { method: 'tools/list' })).json()) as {
      result: { tools: Array<{ name: string }> };
    };
    const second = (await (
      await post({ ...key, 'MCP-Protocol-Version': '2025-11-25' }, { id: 'two', method: 'tools/list' })
    ).json()) as { id: string; result: unknown };
    expect(second.id).toBe('two');
    expect(second.result).toEqual(first.result);
    expect(first.result).toEqual({ tools: (await client.listTools()).tools });
    // What the SDK's transport refuses is still refused: an unknown protocol revision, a request that accepts no stream.
    expect((await post({ ...key, 'MCP-Protocol-Version': '1999-01-01' }, { method: 'tools/list' })).status).toBe(400);
    expect(
      (await send(key, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), 'application/json')).status,
    ).toBe(406);
  });

  it("refuses a call without a valid app key with the API's 401, and offers no stream to GET", async () => {
    for (const headers of [{}, { 'X-SVC-API-Key': 'svc_not_a_key' }] as Array<Record<string, string>>) {
      const response = await post(headers);
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32000, data: { code: 'C0001' } },
      });
    }
    const listed = await post({ 'X-SVC-API-Key': t.demo.apiKey });
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { result: { tools: unknown[] } }).result.tools).toHaveLength(TOOLS.length);
    expect(
      (await fetch(`${t.base}/mcp`, { headers: { 'X-SVC-API-Key': t.demo.apiKey, Accept: 'text/event-stream' } }))
        .status,
    ).toBe(405);
    // DNS rebinding: a page of another origin is refused before anything is read; the service's own origin is not.
    const rebound = await post({ 'X-SVC-API-Key': t.demo.apiKey, Origin: 'http://evil.example.com' });
    expect(rebound.status).toBe(403);
    expect(await rebound.json()).toMatchObject({ error: { data: { code: 'C0004', details: 'Origin' } } });
    expect((await post({ 'X-SVC-API-Key': t.demo.apiKey, Origin: t.base })).status).toBe(200);
  });
});

describe.each(ENGINES)('an agent acting for a user through the MCP endpoint on %s', (engine) => {
  let t: ListeningApp;
  const clients: Client[] = [];
  const mcp = () => `${t.base}/mcp`;

  beforeAll(async () => {
    t = await startListeningApp(engine);
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await t?.close();
  });

  const basic = () =>
    `Basic ${Buffer.from(`${t.demo.client.clientId}:${t.demo.client.clientSecret}`).toString('base64')}`;
  const tokenRequest = (form: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic() },
      payload: new URLSearchParams(form).toString(),
    });

  /** The authorization code flow with PKCE, for `resource` when given: the code, its verifier, and where it went. */
  const authorize = (scope: string, resource?: string) =>
    authorizationCode(t.app, t.demo.client, scope, t.demo.user, resource);

  async function tokens(scope: string, resource?: string): Promise<{ access_token: string; refresh_token: string }> {
    const { callback, verifier } = await authorize(scope, resource);
    const res = await tokenRequest({
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code')!,
      redirect_uri: t.demo.client.redirectUri,
      code_verifier: verifier,
      ...(resource ? { resource } : {}),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }

  /** An access token of `client` (a confidential client with its secret) for the demo user, for `resource`. */
  async function tokensFor(
    client: { clientId: string; clientSecret: string },
    scope: string,
    resource: string,
  ): Promise<string> {
    const full = { ...t.demo.client, ...client };
    return exchangeCode(
      injectSend(t.app),
      full,
      await authorizationCode(t.app, full, scope, t.demo.user, resource),
      resource,
    );
  }

  const audienceOf = (jwt: string) =>
    (JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as { aud: string }).aud;

  async function connect(headers: Record<string, string>): Promise<Client> {
    const connected = new Client({ name: 'agent-test', version: '1.0.0' });
    await connected.connect(new StreamableHTTPClientTransport(new URL(mcp()), { requestInit: { headers } }));
    clients.push(connected);
    return connected;
  }

  const rpc = (headers: Record<string, string>, message: object) =>
    fetch(mcp(), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, ...message }),
    });

  it('tells an agent without credentials where to get a token: protected resource metadata, then the authorization server', async () => {
    const refused = await rpc({}, { method: 'tools/list' });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: { data: { code: 'C0001' } } });
    expect(refused.headers.get('www-authenticate')).not.toContain('error=');
    expect(refused.headers.get('www-authenticate')).toContain('scope="profile company:manage:read post:write"');
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(refused.headers.get('www-authenticate') ?? '')?.[1];
    expect(metadataUrl).toBe(`${t.base}/.well-known/oauth-protected-resource/mcp`);
    const metadata = (await (await fetch(metadataUrl!)).json()) as {
      resource: string;
      authorization_servers: string[];
      scopes_supported: string[];
    };
    expect(metadata).toMatchObject({
      resource: mcp(),
      authorization_servers: [t.base],
      bearer_methods_supported: ['header'],
    });
    expect(metadata.scopes_supported.sort()).toEqual(['company:manage:read', 'post:write', 'profile']);
    const server = (await (
      await fetch(`${metadata.authorization_servers[0]}/.well-known/oauth-authorization-server`)
    ).json()) as Record<string, unknown>;
    expect(server).toMatchObject({ issuer: t.base, code_challenge_methods_supported: ['S256'] });
  });

  it("issues tokens for the MCP resource (RFC 8707) that only the MCP endpoint takes, and refuses the API's tokens there", async () => {
    const agent = await tokens('profile company:manage:read post:write', mcp());
    expect(audienceOf(agent.access_token)).toBe(mcp());
    // The API refuses the agent's token…
    const atApi = await fetch(`${t.base}/api/v1/me/company-permissions`, {
      headers: { Authorization: `Bearer ${agent.access_token}` },
    });
    expect(atApi.status).toBe(401);
    expect(await atApi.json()).toMatchObject({ code: 'C0003' });
    // …and the endpoint refuses the API's.
    const apiToken = await tokens('profile company:manage:read post:write');
    expect(audienceOf(apiToken.access_token)).toBe(`${t.base}/api`);
    const atMcp = await rpc({ Authorization: `Bearer ${apiToken.access_token}` }, { method: 'tools/list' });
    expect(atMcp.status).toBe(401);
    expect(atMcp.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
    expect(atMcp.headers.get('www-authenticate')).toContain('resource_metadata=');

    // A refresh keeps the audience; another resource is refused at every step.
    const refreshed = await tokenRequest({ grant_type: 'refresh_token', refresh_token: agent.refresh_token });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    expect(audienceOf(refreshed.json().access_token)).toBe(mcp());
    const otherTarget = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: refreshed.json().refresh_token,
      resource: `${t.base}/api`,
    });
    expect(otherTarget.statusCode).toBe(400);
    expect(otherTarget.json()).toMatchObject({ error: 'invalid_target' });
    const { callback } = await authorize('profile', 'https://elsewhere.example/mcp');
    expect(callback.searchParams.get('error')).toBe('invalid_target');
    const { callback: code, verifier } = await authorize('profile', mcp());
    const mismatched = await tokenRequest({
      grant_type: 'authorization_code',
      code: code.searchParams.get('code')!,
      redirect_uri: t.demo.client.redirectUri,
      code_verifier: verifier,
      resource: `${t.base}/api`,
    });
    expect(mismatched.json()).toMatchObject({ error: 'invalid_target' });
  });

  it("acts for the user with the user's consent: who they are, their permissions, a post in their name", async () => {
    const agent = await tokens('profile company:manage:read post:write', mcp());
    const api = await tokens('profile company:manage:read post:write');
    const client = await connect({ 'X-SVC-API-Key': t.demo.apiKey, Authorization: `Bearer ${agent.access_token}` });
    const asApi = async (path: string) =>
      (await fetch(`${t.base}${path}`, { headers: { Authorization: `Bearer ${api.access_token}` } })).json();

    const schemas = await outputValidators(client);
    const me = await client.callTool({ name: 'get_me', arguments: {} });
    expect(me.isError ?? false, JSON.stringify(me.content)).toBe(false);
    expect(schemas.get('get_me')!(me.structuredContent)).toBe(true);
    expect(me.structuredContent).toEqual(await asApi('/oauth/userinfo'));
    const mine = await client.callTool({ name: 'get_my_profile', arguments: {} });
    expect(mine.isError ?? false, JSON.stringify(mine.content)).toBe(false);
    expect(schemas.get('get_my_profile')!(mine.structuredContent)).toBe(true);
    expect(mine.structuredContent).toEqual(await asApi('/api/v1/me/profile'));
    const permissions = await client.callTool({ name: 'list_my_company_permissions', arguments: {} });
    expect(permissions.structuredContent).toEqual(await asApi('/api/v1/me/company-permissions'));
    expect(schemas.get('list_my_company_permissions')!(permissions.structuredContent)).toBe(true);

    const created = await client.callTool({
      name: 'create_post',
      arguments: { text: 'Written by an agent for its user, with consent.' },
    });
    expect(created.isError ?? false, JSON.stringify(created.content)).toBe(false);
    expect(schemas.get('create_post')!(created.structuredContent)).toBe(true);
    const post = created.structuredContent as { postId: number; content: string };
    expect(post.content).toBe('Written by an agent for its user, with consent.');
    const read = (await (
      await fetch(`${t.base}/api/v1/posts/${post.postId}`, { headers: { 'X-SVC-API-Key': t.demo.apiKey } })
    ).json()) as { author: { id: string } };
    expect(read.author.id).toBe(t.demo.user.handle);
    // A refused write is a tool error with the API's code, and changes nothing.
    const tooLong = await client.callTool({ name: 'create_post', arguments: { text: 'x'.repeat(3001) } });
    expect(tooLong.isError).toBe(true);
    expect(JSON.parse((tooLong.content as Array<{ text: string }>)[0]!.text)).toMatchObject({
      code: 'C0002',
      details: 'request.text',
    });
  });

  it('asks for a token, or a wider one, before a tool that acts for a user: 401 and 403 with the challenge', async () => {
    const withKey = await rpc(
      { 'X-SVC-API-Key': t.demo.apiKey },
      { method: 'tools/call', params: { name: 'get_me', arguments: {} } },
    );
    expect(withKey.status).toBe(401);
    // No token was sent: no error code (RFC 6750 3.1), and every scope the user tools use, so one sign-in serves them all.
    expect(withKey.headers.get('www-authenticate')).toMatch(
      /resource_metadata="[^"]*", scope="profile company:manage:read post:write"$/,
    );
    const narrow = await tokens('profile', mcp());
    const unscoped = await rpc(
      { Authorization: `Bearer ${narrow.access_token}` },
      { method: 'tools/call', params: { name: 'create_post', arguments: { text: 'no' } } },
    );
    expect(unscoped.status).toBe(403);
    expect(await unscoped.json()).toMatchObject({ error: { data: { code: 'C0011' } } });
    // What the token holds and what the tool needs: signing in again for it loses nothing.
    expect(unscoped.headers.get('www-authenticate')).toMatch(/error="insufficient_scope", scope="profile post:write"/);
    const noPermissions = await rpc(
      { Authorization: `Bearer ${narrow.access_token}` },
      { method: 'tools/call', params: { name: 'list_my_company_permissions', arguments: {} } },
    );
    expect(noPermissions.status).toBe(403);
    expect(await noPermissions.json()).toMatchObject({ error: { data: { code: 'C0011' } } });
    expect(noPermissions.headers.get('www-authenticate')).toMatch(
      /error="insufficient_scope", scope="profile company:manage:read"/,
    );
    // With a token only (what most hosts send), every tool works: the public ones run as the token's client.
    const client = await connect({ Authorization: `Bearer ${narrow.access_token}` });
    expect((await client.callTool({ name: 'get_me', arguments: {} })).isError ?? false).toBe(false);
    const publicTool = await client.callTool({ name: 'search_jobs', arguments: { pageSize: 2 } });
    expect(publicTool.isError ?? false, JSON.stringify(publicTool.content)).toBe(false);
    const viaKey = await (
      await fetch(`${t.base}/api/v1/jobs?pageSize=2`, {
        headers: { 'X-SVC-API-Key': t.demo.apiKey, 'Accept-Language': 'ko' },
      })
    ).json();
    expect(publicTool.structuredContent).toEqual(viaKey);
  });

  it("runs the public tools of a token-only agent as the app its client belongs to: that app's limit, usage and request log", async () => {
    const owner = t.demo.user;
    const forms = new ConsoleForms(t.base);
    await forms.signIn(owner);
    const { appId } = await forms.createApp('Agent host app');
    const appClient = await forms.createClient(appId, t.demo.client.redirectUri, ['profile']);
    const agentToken = await tokensFor(appClient, 'profile', mcp());
    const client = await connect({ Authorization: `Bearer ${agentToken}` });
    const jobs = await client.callTool({ name: 'search_jobs', arguments: { pageSize: 1 } });
    expect(jobs.isError ?? false, JSON.stringify(jobs.content)).toBe(false);
    await t.app.usage.flush();
    await t.app.requestLog.flush();
    const usage = await t.db.database.db
      .selectFrom('app_usage')
      .select('operation')
      .where('app_id', '=', appId)
      .execute();
    expect(usage.map((row) => row.operation)).toEqual(
      expect.arrayContaining(['searchJobs', 'mcp initialize', 'mcp notifications/initialized']),
    );
    const logged = await t.db.database.db
      .selectFrom('app_requests')
      .select('operation')
      .where('app_id', '=', appId)
      .where('operation', '=', 'searchJobs')
      .execute();
    expect(logged.length).toBeGreaterThan(0);
  });
});

/**
 * Issue 86 row 7: an agent that sends only a token, from a client without an app, counts against the user the token
 * acts for: one account that registers more clients gets no more calls than one client would.
 */
describe.each(ENGINES)('token-only agents of clients without an app, on %s', (engine) => {
  const LIMIT = 10;
  let t: ListeningApp;
  const clients: Client[] = [];
  beforeAll(async () => {
    t = await startListeningApp(engine, { RATE_LIMIT_GLOBAL_PER_MINUTE: String(LIMIT) });
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await t?.close();
  });

  /** A client registered through POST /oauth/register (no app). */
  async function newClient(name: string) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/oauth/register',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ client_name: name, redirect_uris: [t.demo.client.redirectUri] }),
    });
    expect(res.statusCode, res.body).toBe(201);
    const registered = res.json<{ client_id: string; client_secret: string }>();
    return { ...t.demo.client, clientId: registered.client_id, clientSecret: registered.client_secret };
  }

  /** A token of the demo user for a new client without an app, for `resource`. */
  async function tokenOfNewClient(name: string, scope: string, resource: string): Promise<string> {
    const client = await newClient(name);
    return exchangeCode(
      injectSend(t.app),
      client,
      await authorizationCode(t.app, client, scope, t.demo.user, resource),
      resource,
    );
  }

  /** An MCP client of an agent holding only such a token. */
  async function agentOfNewClient(name: string): Promise<Client> {
    const resource = `${t.base}/mcp`;
    const token = await tokenOfNewClient(name, 'profile', resource);
    const connected = new Client({ name: 'agent-test', version: '1.0.0' });
    await connected.connect(
      new StreamableHTTPClientTransport(new URL(resource), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    clients.push(connected);
    return connected;
  }

  it("share one limit on the API too, the user's, whichever client's token calls", async () => {
    const tokens = [
      await tokenOfNewClient('API one', 'company:manage:read', `${t.base}/api`),
      await tokenOfNewClient('API two', 'company:manage:read', `${t.base}/api`),
    ];
    startOfNextWindow(t.clock, 60_000);
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 1; i++) {
      const res = await fetch(`${t.base}/api/v1/me/company-permissions`, {
        headers: { authorization: `Bearer ${tokens[i % 2]!}` },
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, LIMIT).every((status) => status === 200)).toBe(true);
    expect(statuses[LIMIT]).toBe(429);
    startOfNextWindow(t.clock, 60_000);
  });

  it("share one limit, the user's, whichever client calls", async () => {
    const agents = [await agentOfNewClient('Host one'), await agentOfNewClient('Host two')];
    startOfNextWindow(t.clock, 60_000);
    const answered: boolean[] = [];
    // Tool calls the API answers, by the two clients in turn; initialize and the rest were in the window before.
    for (let i = 0; i < LIMIT + 1; i++) {
      const result = await agents[i % 2]!.callTool({ name: 'list_codes', arguments: { catalog: 'work-types' } });
      answered.push(!(result.isError ?? false));
    }
    expect(answered.filter(Boolean)).toHaveLength(LIMIT);
    expect(answered[LIMIT]).toBe(false);
    startOfNextWindow(t.clock, 60_000);
  });
});
