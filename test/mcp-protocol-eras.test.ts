/**
 * Both protocol revisions at one endpoint, negotiated per request (docs/mcp.md): the official SDK's v2 client pinned to
 * 2026-07-28, and in `auto` mode (it probes with `server/discover`), lists the tools and calls them with the app key
 * and with OAuth alone; the v1 client (2025-11-25) beside it, as every other test of the endpoint does.
 */
import { TOOLS } from '../src/modules/mcp/mcp-tools.js';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startListeningApp, type ListeningApp } from './helpers/listening-app.js';
import { ENGINES } from './helpers/test-database.js';
import { authorizationCode } from './helpers/tokens.js';

describe.each(ENGINES)('protocol revisions 2026-07-28 and 2025-11-25 at /mcp on %s', (engine) => {
  let t: ListeningApp;
  const clients: ClientV2[] = [];
  beforeAll(async () => {
    t = await startListeningApp(engine);
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await t?.close();
  });

  async function connect(headers: Record<string, string>, mode: 'auto' | { pin: string }): Promise<ClientV2> {
    const client = new ClientV2({ name: 'modern-host-test', version: '1.0.0' }, { versionNegotiation: { mode } });
    await client.connect(new TransportV2(new URL(`${t.base}/mcp`), { requestInit: { headers } }));
    clients.push(client);
    return client;
  }

  it('serves a client pinned to 2026-07-28: its tools listed, a public tool answered as the API answers', async () => {
    const client = await connect({ 'X-SVC-API-Key': t.demo.apiKey, 'Accept-Language': 'en' }, { pin: '2026-07-28' });
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('search_jobs');
    const codes = await client.callTool({ name: 'list_codes', arguments: { catalog: 'work-types' } });
    expect(codes.isError ?? false, JSON.stringify(codes.content)).toBe(false);
    const api = await (
      await fetch(`${t.base}/api/v1/codes/work-types`, {
        headers: { 'X-SVC-API-Key': t.demo.apiKey, 'Accept-Language': 'en' },
      })
    ).json();
    expect(codes.structuredContent).toEqual({ codes: api });
  });

  it('marks the tool list and the discovery answer cacheable by any caller under 2026-07-28, and adds nothing under 2025-11-25', async () => {
    /** The results a client of `mode` was answered, by the method it sent. */
    async function answered(mode: { pin: string } | 'legacy') {
      const results = new Map<string, Record<string, unknown>>();
      const recording = async (url: string | URL, init?: RequestInit) => {
        const response = await fetch(url, init);
        const sent = typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: string }) : {};
        if (sent.method && response.headers.get('content-type')?.includes('application/json')) {
          results.set(
            sent.method,
            ((await response.clone().json()) as { result?: Record<string, unknown> }).result ?? {},
          );
        }
        return response;
      };
      const client = new ClientV2({ name: 'caching-host-test', version: '1.0.0' }, { versionNegotiation: { mode } });
      await client.connect(
        new TransportV2(new URL(`${t.base}/mcp`), {
          requestInit: { headers: { 'X-SVC-API-Key': t.demo.apiKey } },
          fetch: recording,
        }),
      );
      clients.push(client);
      await client.listTools();
      return results;
    }
    const modern = await answered({ pin: '2026-07-28' });
    expect([...modern.keys()]).toEqual(['server/discover', 'tools/list']);
    for (const result of modern.values()) expect(result).toMatchObject({ ttlMs: 3_600_000, cacheScope: 'public' });
    const legacy = await answered('legacy');
    expect([...legacy.keys()]).toEqual(['initialize', 'tools/list']);
    expect(Object.keys(legacy.get('tools/list')!)).toEqual(['tools']);
  });

  it('negotiates 2026-07-28 for a client that probes (auto), and serves it with OAuth alone', async () => {
    const resource = `${t.base}/mcp`;
    const { callback, verifier } = await authorizationCode(t.app, t.demo.client, 'profile', t.demo.user, resource);
    const issued = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${t.demo.client.clientId}:${t.demo.client.clientSecret}`).toString('base64')}`,
      },
      payload: new URLSearchParams({
        grant_type: 'authorization_code',
        code: callback.searchParams.get('code')!,
        redirect_uri: t.demo.client.redirectUri,
        code_verifier: verifier,
        resource,
      }).toString(),
    });
    expect(issued.statusCode, issued.body).toBe(200);
    const client = await connect({ Authorization: `Bearer ${issued.json().access_token}` }, 'auto');
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const me = await client.callTool({ name: 'get_me', arguments: {} });
    expect(me.structuredContent).toMatchObject({ preferred_username: t.demo.user.handle });
    const jobs = await client.callTool({ name: 'search_jobs', arguments: { pageSize: 1 } });
    expect(jobs.isError ?? false, JSON.stringify(jobs.content)).toBe(false);
  });

  it("still serves a 2025-era client on the same endpoint (the v2 client's default mode)", async () => {
    const legacy = new ClientV2({ name: 'legacy-host-test', version: '1.0.0' });
    await legacy.connect(
      new TransportV2(new URL(`${t.base}/mcp`), { requestInit: { headers: { 'X-SVC-API-Key': t.demo.apiKey } } }),
    );
    clients.push(legacy);
    expect(legacy.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    expect((await legacy.listTools()).tools.map((tool) => tool.name)).toEqual(TOOLS.map((tool) => tool.name));
    // Answered in one JSON body, as 2025-era requests always were (curl reads it as it is).
    const raw = await fetch(`${t.base}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'x-svc-api-key': t.demo.apiKey,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'list_codes', arguments: { catalog: 'work-types' } },
      }),
    });
    expect(raw.headers.get('content-type')).toContain('application/json');
    expect(await raw.json()).toMatchObject({
      jsonrpc: '2.0',
      id: 7,
      result: { structuredContent: { codes: expect.any(Array) } },
    });
  });
});
