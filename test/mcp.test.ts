/**
 * The MCP endpoint driven by the official SDK's client over real HTTP (docs/mcp.md): the tools listed, each tool's
 * answer equal to its API operation's body and valid against its output schema (the client validates structured
 * content against the listed schema itself), errors as tool errors with the API's codes, the language, the app's
 * rate limit, and the endpoint's own HTTP answers.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startListeningApp, startOfNextWindow, type ListeningApp } from './helpers/listening-app.js';
import { ENGINES } from './helpers/test-database.js';

const GLOBAL_PER_MINUTE = 40;

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
    const response = await fetch(`${t.base}${path}`, { headers: { 'X-SVC-API-Key': t.demo.apiKey, 'Accept-Language': language } });
    return { status: response.status, body: await response.json() };
  }

  const structured = async (name: string, args: Record<string, unknown>, via = client) => {
    const result = await via.callTool({ name, arguments: args });
    expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
    return result.structuredContent as Record<string, unknown>;
  };

  beforeAll(async () => {
    t = await startListeningApp(engine, { RATE_LIMIT_GLOBAL_PER_MINUTE: String(GLOBAL_PER_MINUTE) });
    client = await connect({ 'X-SVC-API-Key': t.demo.apiKey, 'Accept-Language': 'en' });
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await t?.close();
  });

  it('lists its tools, each with an input schema, an output schema and read-only annotations', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'search_posts', 'get_post', 'search_jobs', 'get_job', 'search_events', 'get_event', 'list_codes', 'list_changes',
    ]);
    const ajv = new Ajv({ strict: true, strictTypes: false, strictTuples: false });
    addFormats.default(ajv);
    for (const tool of tools) {
      expect(tool.description!.length, tool.name).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, openWorldHint: false });
      // Valid JSON Schema for a strict validator: no format or keyword an agent's validator would not know.
      expect(() => ajv.compile(tool.outputSchema!), tool.name).not.toThrow();
      expect(() => ajv.compile(tool.inputSchema), tool.name).not.toThrow();
    }
    // Paging has defaults: an agent need not send it.
    expect(tools.find((tool) => tool.name === 'search_posts')!.inputSchema.required).toBeUndefined();
    expect(tools.find((tool) => tool.name === 'get_post')!.inputSchema.required).toEqual(['postId']);
    expect(client.getServerVersion()).toMatchObject({ name: 'svc-open-api' });
  });

  it('answers every tool with its API operation\'s body, as structured content and as text', async () => {
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

    const events = await structured('search_events', { pageSize: 2 });
    expect(events).toEqual((await api('/api/v1/events?pageSize=2')).body);
    const eventId = (events.items as Array<{ eventId: string }>)[0]!.eventId;
    expect(await structured('get_event', { eventId })).toEqual((await api(`/api/v1/events/${eventId}`)).body);

    expect(await structured('list_codes', { catalog: 'job-industries' })).toEqual({ codes: (await api('/api/v1/codes/job-industries')).body });
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

  it('answers a refused operation as a tool error with the API\'s code and message, and an unknown tool as a protocol error', async () => {
    const missing = await client.callTool({ name: 'get_post', arguments: { postId: 987654321 } });
    const expected = await api('/api/v1/posts/987654321');
    expect(expected.status).toBe(404);
    expect(missing.isError).toBe(true);
    expect(missing.structuredContent).toBeUndefined();
    expect(JSON.parse((missing.content as Array<{ text: string }>)[0]!.text)).toEqual({ ...(expected.body as object), timestamp: expect.any(String) });

    const invalid = await client.callTool({ name: 'search_jobs', arguments: { seniorities: ['WIZARD'] } });
    expect(invalid.isError).toBe(true);
    expect(JSON.parse((invalid.content as Array<{ text: string }>)[0]!.text)).toMatchObject({ code: 'C0005' });

    // A path argument cannot reach another route.
    const traversal = await client.callTool({ name: 'get_event', arguments: { eventId: '../posts/1' } });
    expect(traversal.isError).toBe(true);

    await expect(client.callTool({ name: 'delete_everything', arguments: {} })).rejects.toThrow(/Unknown tool/);
  });

  it('counts each tool call against the app\'s limit as the API does, and answers a spent limit as a tool error with the wait', async () => {
    startOfNextWindow(t.clock, 60_000);
    for (let i = 0; i < GLOBAL_PER_MINUTE; i++) await structured('list_codes', { catalog: 'work-types' });
    const refused = await client.callTool({ name: 'list_codes', arguments: { catalog: 'work-types' } });
    expect(refused.isError).toBe(true);
    const error = JSON.parse((refused.content as Array<{ text: string }>)[0]!.text) as { code: string; message: string; retryAfterSeconds: number };
    expect(error.code).toBe('C0010');
    expect(error.retryAfterSeconds).toBeGreaterThan(0);
    expect(error.retryAfterSeconds).toBeLessThanOrEqual(60);
    // The API sees the same spent limit: the calls were the app's.
    expect((await api('/api/v1/codes/work-types')).status).toBe(429);
    // Listing the tools is protocol, not an operation: not counted, not refused.
    expect((await client.listTools()).tools.length).toBe(8);
    startOfNextWindow(t.clock, 60_000);
  });

  it('refuses a call without a valid app key with the API\'s 401, and offers no stream to GET', async () => {
    const post = (headers: Record<string, string>) => fetch(`${t.base}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    for (const headers of [{}, { 'X-SVC-API-Key': 'svc_not_a_key' }] as Array<Record<string, string>>) {
      const response = await post(headers);
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ code: 'C0001' });
    }
    const listed = await post({ 'X-SVC-API-Key': t.demo.apiKey });
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { result: { tools: unknown[] } }).result.tools).toHaveLength(8);
    expect((await fetch(`${t.base}/mcp`, { headers: { 'X-SVC-API-Key': t.demo.apiKey, Accept: 'text/event-stream' } })).status).toBe(405);
  });
});
