/**
 * The MCP endpoint (docs/mcp.md): Model Context Protocol over Streamable HTTP, stateless, built on the official SDK's
 * v2 server, protocol revisions 2026-07-28 and 2025-11-25 negotiated per request. Every POST is answered on its own (no
 * session to keep): a server is made for it, answers its one message in JSON, and goes. A tool call is its API operation run in this process through the service's own routes
 * (Fastify's `inject`: no socket), with the caller's app key and language, so that it is validated, limited, counted
 * and answered exactly as the API would: a 2xx body is the tool's structured content, any other answer a tool error
 * carrying the API's code and message (and the wait, for a rate limit).
 */
import { randomBytes } from 'node:crypto';
import type * as SdkServer from '@modelcontextprotocol/server';
import type { CallToolResult, McpHttpHandler, Tool as ListedTool } from '@modelcontextprotocol/server';
import type { TSchema } from '@sinclair/typebox';
import type { Tool } from './mcp-tools.js';

/** The most an answer of the endpoint may hold: a page of 50 items is far below it, a runaway answer is refused. */
export const MAX_ANSWER_BYTES = 1 << 20;
/** The longest API request a tool's arguments may make (its path and query; the API's own bounds are far below it). */
const MAX_TOOL_URL = 8 * 1024;

/** How long, and for whom, a host may keep the tool list and the discovery answer (2026-07-28's cache hints). */
export const LISTS_KEPT = { ttlMs: 3_600_000, cacheScope: 'public' } as const;

/** A JSON-RPC refusal of the endpoint's own, before the SDK reads the message: its HTTP status and JSON-RPC code. */
export class RpcError extends Error {
  constructor(
    readonly status: number,
    readonly rpcCode: number,
    message: string,
  ) {
    super(message);
  }
}

/** A message's JSON-RPC id, when it has one a reply may carry. */
export function messageId(message: unknown): string | number | null {
  const id = (message as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** An API request made for a tool, and its answer. */
export type ApiCall = (request: {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  payload?: string;
}) => Promise<{ status: number; body: unknown; retryAfter: string | undefined }>;

/** The headers of a tool's API request: the app key and language always; the user's token for a tool that acts for one. */
export interface Forward {
  common: Record<string, string>;
  user: Record<string, string>;
}

/** The formats JSON Schema names; the OpenAPI document's own (`int32`, `int64`) would be unknown to an agent's validator. */
const STANDARD_FORMATS = new Set([
  'date-time',
  'date',
  'time',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uri',
  'uri-reference',
  'uuid',
]);

/**
 * A TypeBox schema as plain JSON Schema for an agent: formats JSON Schema does not name are left out, and at the top
 * the properties with a default are not required (the API fills them).
 */
function jsonSchema(schema: TSchema): Record<string, unknown> {
  const plain = JSON.parse(JSON.stringify(schema), (key, value: unknown) =>
    key === 'format' && typeof value === 'string' && !STANDARD_FORMATS.has(value) ? undefined : value,
  ) as Record<string, unknown>;
  const properties = plain.properties as Record<string, { default?: unknown }> | undefined;
  if (Array.isArray(plain.required) && properties) {
    const required = (plain.required as string[]).filter((name) => properties[name]?.default === undefined);
    if (required.length > 0) plain.required = required;
    else delete plain.required;
  }
  return plain;
}

function listed(tool: Tool): ListedTool {
  const output = jsonSchema(tool.output);
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: jsonSchema(tool.input) as ListedTool['inputSchema'],
    outputSchema: (tool.wrap
      ? { type: 'object', properties: { [tool.wrap]: output }, required: [tool.wrap] }
      : output) as ListedTool['outputSchema'],
    annotations: tool.write
      ? { title: tool.title, readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false }
      : { title: tool.title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  };
}

/** The query of a tool's API request: every argument not in its path, a list as the parameter repeated. */
function queryOf(tool: Tool, args: Record<string, unknown>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(args)) {
    if (tool.inPath?.includes(name) || value === undefined || value === null) continue;
    for (const one of Array.isArray(value) ? value : [value])
      query.append(name, typeof one === 'object' ? JSON.stringify(one) : String(one));
  }
  const text = query.toString();
  return text ? `?${text}` : '';
}

/** A write's body as the API takes it: a multipart form whose `request` part is the arguments as JSON. */
function multipart(
  args: Record<string, unknown>,
  headers: Record<string, string>,
): { headers: Record<string, string>; payload: string } {
  const boundary = `mcp-${randomBytes(12).toString('hex')}`;
  const payload = `--${boundary}\r\nContent-Disposition: form-data; name="request"\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(args)}\r\n--${boundary}--\r\n`;
  return { headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload };
}

/**
 * The SDK, loaded at the first request to the endpoint: its v2 server and the schema library it brings take megabytes of
 * V8's heap and more of the process's memory (docs/performance.md), which an instance no agent calls never needs.
 */
let loaded: Promise<Sdk> | null = null;
type Sdk = typeof SdkServer;

function sdk(): Promise<Sdk> {
  loaded ??= import('@modelcontextprotocol/server').catch((err: unknown) => {
    loaded = null;
    throw err;
  });
  return loaded;
}

export class McpEndpoint {
  private readonly byName: Map<string, Tool>;
  private readonly tools: ListedTool[];
  /** `tools/list`'s result, serialized once: the list is the same for every caller and every request. */
  private readonly toolsResult: string;

  constructor(
    tools: Tool[],
    private readonly api: ApiCall,
    private readonly version: string,
  ) {
    this.byName = new Map(tools.map((tool) => [tool.name, tool]));
    this.tools = tools.map(listed);
    this.toolsResult = JSON.stringify({ tools: this.tools });
  }

  /** The tool a JSON-RPC message calls, if it calls one. */
  toolCalled(message: unknown): Tool | undefined {
    const call = message as { method?: unknown; params?: { name?: unknown } } | null;
    return call?.method === 'tools/call' && typeof call.params?.name === 'string'
      ? this.byName.get(call.params.name)
      : undefined;
  }

  /**
   * What the endpoint refuses before anything else reads the message: a batch (an array; neither revision served has
   * them, so one HTTP request is one message and one answer), and a tool call whose name or arguments are not what
   * `tools/call` takes (answered as JSON-RPC's invalid params, not as a validation library's dump).
   */
  refusal(message: unknown): RpcError | null {
    if (Array.isArray(message)) {
      return new RpcError(
        400,
        -32600,
        'JSON-RPC batches are not part of the protocol (2025-11-25, 2026-07-28): send one message per request',
      );
    }
    const call = message as { method?: unknown; params?: { name?: unknown; arguments?: unknown } } | null;
    if (call?.method !== 'tools/call') return null;
    if (typeof call.params?.name !== 'string')
      return new RpcError(200, -32602, 'params.name must be a string: the name of a tool that tools/list gives');
    const args = call.params.arguments;
    if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
      return new RpcError(200, -32602, "params.arguments must be an object of the tool's arguments");
    }
    return null;
  }

  /** The method a message names, for counting (`tools/list`, `initialize`, …), or `message` when it names none. */
  static methodOf(message: unknown): string {
    const method = (message as { method?: unknown } | null)?.method;
    return typeof method === 'string' ? method.slice(0, 64) : 'message';
  }

  /** A server for one request, its tool calls made with that request's forwarded headers. */
  private server(sdk: Sdk, forward: Forward): SdkServer.Server {
    const server = new sdk.Server(
      { name: 'svc-open-api', title: 'Open platform: posts, jobs and events', version: this.version },
      {
        capabilities: { tools: { listChanged: false } },
        // 2026-07-28's cacheable results: the list and the discovery answer are the same for every caller and change
        // only with a release, so a host may keep them an hour and share them across users (2025-era answers carry
        // no hint: the SDK adds them only in the revision that has them).
        cacheHints: { 'tools/list': LISTS_KEPT, 'server/discover': LISTS_KEPT },
        instructions:
          "Search and read the network's posts, job postings and events, list the code catalogs their filters take, and follow what changed. Ids come from searches; codes from list_codes.",
      },
    );
    server.setRequestHandler('tools/list', () => ({ tools: this.tools }));
    server.setRequestHandler('tools/call', (call) => this.call(call.params.name, call.params.arguments ?? {}, forward));
    return server;
  }

  /**
   * The SDK's handler of the 2026-07-28 revision (the per-request `_meta` envelope, `server/discover`), made at the
   * first such request; strict: 2025-era requests never reach it (handle() serves them as before).
   */
  private modern: Promise<McpHttpHandler> | null = null;

  private modernHandler(sdk: Sdk): Promise<McpHttpHandler> {
    // One JSON body an answer: the tools send no notification mid-call, so nothing is dropped (the SDK says so on the
    // console once, when the handler is made).
    this.modern ??= Promise.resolve(
      sdk.createMcpHandler(({ authInfo }) => this.server(sdk, authInfo?.extra?.forward as Forward), {
        legacy: 'reject',
        responseMode: 'json',
      }),
    );
    return this.modern;
  }

  /**
   * Answers one HTTP request to the endpoint; `forward` are the headers each tool's API request carries (key, language).
   * The revision is the request's own: one of 2026-07-28 goes to the SDK's handler of that revision; a 2025-era one is
   * answered statelessly in one JSON body, as it always was.
   */
  async handle(
    request: Request,
    parsedBody: unknown,
    forward: Forward,
  ): Promise<{ status: number; headers: Headers; body: string }> {
    const loaded = await sdk();
    const listed = this.listAnswer(request, parsedBody, loaded.SUPPORTED_PROTOCOL_VERSIONS);
    if (listed) return listed;
    let response: Response;
    if (await loaded.isLegacyRequest(request, parsedBody)) {
      const server = this.server(loaded, forward);
      const transport = new loaded.WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      await server.connect(transport);
      try {
        response = await transport.handleRequest(request, { parsedBody });
      } finally {
        await server.close();
      }
    } else {
      response = await (await this.modernHandler(loaded)).fetch(request, {
        parsedBody,
        authInfo: { token: '', clientId: '', scopes: [], extra: { forward } },
      });
    }
    const body = await response.text();
    if (Buffer.byteLength(body) <= MAX_ANSWER_BYTES)
      return { status: response.status, headers: response.headers, body };
    const tooLarge = {
      jsonrpc: '2.0',
      id: messageId(parsedBody),
      error: {
        code: -32603,
        message: `The answer would be larger than ${MAX_ANSWER_BYTES} bytes: ask for a smaller page`,
      },
    };
    return {
      status: 200,
      headers: new Headers({ 'content-type': 'application/json' }),
      body: JSON.stringify(tooLarge),
    };
  }

  /**
   * A valid `tools/list` answered from the list serialized once, without the SDK: the same checks the SDK's transport
   * makes of a request (what it accepts, its content type, the protocol revision it names, a JSON-RPC request with an
   * id) decide whether it is valid; anything else goes to the SDK, which answers it or its error.
   */
  private listAnswer(
    request: Request,
    message: unknown,
    versions: readonly string[],
  ): { status: number; headers: Headers; body: string } | null {
    const call = message as { jsonrpc?: unknown; method?: unknown; params?: unknown } | null;
    const id = messageId(message);
    if (call?.jsonrpc !== '2.0' || call.method !== 'tools/list' || id === null) return null;
    if (call.params !== undefined && (typeof call.params !== 'object' || call.params === null)) return null;
    // A request of the 2026-07-28 revision carries its revision in `_meta`: the SDK answers it, in that revision's shape.
    if ((call.params as { _meta?: unknown } | undefined)?._meta !== undefined) return null;
    const accept = request.headers.get('accept') ?? '';
    if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return null;
    if (!(request.headers.get('content-type') ?? '').includes('application/json')) return null;
    const version = request.headers.get('mcp-protocol-version');
    if (version !== null && !versions.includes(version)) return null;
    return {
      status: 200,
      headers: new Headers({ 'content-type': 'application/json' }),
      body: `{"result":${this.toolsResult},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`,
    };
  }

  private async call(name: string, args: Record<string, unknown>, forward: Forward): Promise<CallToolResult> {
    const tool = this.byName.get(name);
    if (!tool) {
      const { ProtocolError, ProtocolErrorCode } = await sdk();
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name.slice(0, 100)}`);
    }
    const path = tool.path(
      Object.fromEntries(Object.entries(args).map(([key, value]) => [key, encodeURIComponent(String(value))])),
    );
    const headers = { ...forward.common, ...(tool.scope ? forward.user : {}) };
    if (!tool.write && path.length + queryOf(tool, args).length > MAX_TOOL_URL) {
      const longest = Object.entries(args).sort(
        ([, a], [, b]) => JSON.stringify(b ?? '').length - JSON.stringify(a ?? '').length,
      )[0]![0];
      const error = {
        code: 'C0005',
        message: `The arguments of ${tool.name} are longer than the API takes (${MAX_TOOL_URL} bytes in all): shorten ${longest.slice(0, 100)}`,
        details: longest.slice(0, 100),
      };
      return { isError: true, content: [{ type: 'text', text: JSON.stringify(error) }] };
    }
    const answer = tool.write
      ? await this.api({ method: 'POST', url: path, ...multipart(args, headers) })
      : await this.api({ method: 'GET', url: `${path}${queryOf(tool, args)}`, headers });
    if (answer.status >= 200 && answer.status < 300) {
      const structured = (tool.wrap ? { [tool.wrap]: answer.body } : answer.body) as Record<string, unknown>;
      return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
    }
    const error = {
      ...(answer.body as Record<string, unknown>),
      ...(answer.retryAfter ? { retryAfterSeconds: Number(answer.retryAfter) } : {}),
    };
    return { isError: true, content: [{ type: 'text', text: JSON.stringify(error) }] };
  }
}
