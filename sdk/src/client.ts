/**
 * The client: one method per operation of the API, named by its operationId and typed from the
 * service's OpenAPI document (schema.ts), plus `paginate` over every list and `changes` over the change feed.
 *
 * It retries what is safe to retry: a 429 after the seconds its Retry-After names (a refused request
 * changed nothing and counted nowhere), and a lost connection for reads and for creates, which carry an
 * Idempotency-Key that stays the same across the retries, so a create is never made twice.
 */
import { errorOf, SvcApiError } from './errors.js';
import type { TokenSource } from './oauth.js';
import { OPERATIONS } from './operations.js';
import type { components, operations } from './schema.js';

export type OperationId = keyof typeof OPERATIONS & keyof operations;

type Params<O extends OperationId> = operations[O]['parameters'];
type PathOf<O extends OperationId> = NonNullable<Params<O>['path']>;
type QueryOf<O extends OperationId> = NonNullable<Params<O>['query']>;
type BodyOf<O extends OperationId> = operations[O] extends { requestBody: { content: infer C } }
  ? C[keyof C]
  : operations[O] extends { requestBody?: { content: infer C } }
    ? C[keyof C] | undefined
    : never;
type JsonOf<R> = R extends { content: { 'application/json': infer J } } ? J : undefined;
type Responses<O extends OperationId> = operations[O]['responses'];

/** What an operation answers with: its 200 or 201 body, or undefined for 204. */
export type ResultOf<O extends OperationId> = 200 extends keyof Responses<O>
  ? JsonOf<Responses<O>[200]>
  : 201 extends keyof Responses<O>
    ? JsonOf<Responses<O>[201]>
    : undefined;

/** The input of an operation: path parameters, query, body, and per-call options. */
export type InputOf<O extends OperationId> = ([PathOf<O>] extends [never]
  ? { path?: undefined }
  : { path: PathOf<O> }) &
  ([QueryOf<O>] extends [never] ? { query?: undefined } : { query?: QueryOf<O> }) &
  ([BodyOf<O>] extends [never]
    ? { body?: undefined }
    : undefined extends BodyOf<O>
      ? { body?: BodyOf<O> }
      : { body: BodyOf<O> }) &
  CallOptions;

export interface CallOptions {
  /** Accept-Language of this call (the client's `language` otherwise). */
  language?: string;
  /** For creates: the Idempotency-Key to send (a new random one otherwise, the same across retries). */
  idempotencyKey?: string;
  /** Fields to send for If-None-Match and the like; most callers need none. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

type Args<O extends OperationId> =
  Record<string, never> extends InputOf<O> ? [input?: InputOf<O>] : [input: InputOf<O>];

export type PagedOperationId = {
  [O in OperationId]: (typeof OPERATIONS)[O]['paged'] extends true ? O : never;
}[OperationId];
export type ItemOf<O extends OperationId> = ResultOf<O> extends { items: Array<infer I> } ? I : never;

type Schemas = components['schemas'];
type ChangeEvent = Schemas['ChangeEvent'];
type Shown = { post: Schemas['PostDetail']; job: Schemas['JobDetail']; event: Schemas['EventDetail'] };

/**
 * A change of the feed, narrowed by its `type`: `data` is the resource's detail (null for a deletion, or when the
 * resource was no longer public when the change was completed).
 */
export type Change = {
  [T in ChangeEvent['type']]: Omit<ChangeEvent, 'type' | 'data'> & {
    type: T;
    data: T extends `${string}.deleted`
      ? null
      : T extends `${infer R extends keyof Shown}.${string}`
        ? Shown[R] | null
        : never;
  };
}[ChangeEvent['type']];

/** One page of the change feed: its changes, and the cursor to keep once they are handled. */
export interface ChangePage {
  changes: Change[];
  nextCursor: string;
}

export type Client = { [O in OperationId]: (...args: Args<O>) => Promise<ResultOf<O>> } & {
  /** Every item of a list, page after page from `query.page` (1 by default) to the last. */
  paginate<O extends PagedOperationId>(operation: O, ...args: Args<O>): AsyncGenerator<ItemOf<O>, void, undefined>;
  /**
   * The change feed from `query.after` (the oldest change kept when none; `now` for none but the latest cursor), page
   * by page, until no more changes are waiting. Keep each page's `nextCursor` after handling its changes, and start
   * the next run from it.
   */
  changes(...args: Args<'listChanges'>): AsyncGenerator<ChangePage, void, undefined>;
};

export interface ClientOptions {
  /** The service's address, e.g. `https://api.example.com`. */
  baseUrl: string;
  /** The app key, for reads (`X-SVC-API-Key`). */
  apiKey?: string;
  /** The user's access token, or a source that renews it (OAuthSession), for writes and `me`. */
  auth?: string | TokenSource;
  /** Accept-Language of every call unless a call names its own. */
  language?: string;
  /** How many times to retry a 429 or a lost connection (default 3), and the longest wait (default 60 s). */
  retry?: { retries?: number; maxDelayMs?: number };
  fetch?: typeof fetch;
  /** Waits between retries; tests pass a faster one. */
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function queryString(query: Record<string, unknown> | undefined): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    params.set(name, Array.isArray(value) ? value.join(',') : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

function multipart(body: Record<string, unknown>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(body)) {
    if (value === undefined) continue;
    const values = Array.isArray(value) && value.every((v) => v instanceof Blob) ? value : [value];
    for (const item of values) {
      if (item instanceof Blob) form.append(name, item, item instanceof File ? item.name : `${name}.bin`);
      else form.append(name, new Blob([JSON.stringify(item)], { type: 'application/json' }), `${name}.json`);
    }
  }
  return form;
}

export function createClient(options: ClientOptions): Client {
  const send = options.fetch ?? fetch;
  const sleep = options.sleep ?? defaultSleep;
  const retries = options.retry?.retries ?? 3;
  const maxDelayMs = options.retry?.maxDelayMs ?? 60_000;
  const tokens: TokenSource | undefined =
    typeof options.auth === 'string' ? { accessToken: async () => options.auth as string } : options.auth;

  async function call(
    operationId: OperationId,
    input: Partial<InputOf<OperationId>> & Record<string, unknown> = {},
  ): Promise<unknown> {
    const op = OPERATIONS[operationId];
    const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) =>
      encodeURIComponent(String((input.path as Record<string, unknown> | undefined)?.[name])),
    );
    const url = new URL(path + queryString(input.query as Record<string, unknown> | undefined), options.baseUrl);
    const idempotencyKey = op.idempotent ? (input.idempotencyKey ?? crypto.randomUUID()) : undefined;
    const retryable = op.method === 'GET' || idempotencyKey !== undefined;
    let refreshed = false;
    for (let attempt = 0; ; attempt++) {
      const headers: Record<string, string> = { accept: 'application/json', ...input.headers };
      const credentials: readonly string[] = op.credentials;
      if (options.apiKey && credentials.includes('apiKey')) headers['x-svc-api-key'] = options.apiKey;
      if (tokens && credentials.includes('oauth2')) headers.authorization = `Bearer ${await tokens.accessToken()}`;
      const language = input.language ?? options.language;
      if (language) headers['accept-language'] = language;
      if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
      let body: RequestInit['body'];
      if (op.body === 'json') {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(input.body);
      } else if (op.body === 'multipart') {
        body = multipart((input.body ?? {}) as Record<string, unknown>);
      } else if (op.body === 'form') {
        body = new URLSearchParams(input.body as unknown as Record<string, string>);
      }
      let response: Response;
      try {
        response = await send(url, { method: op.method, headers, body, signal: input.signal });
      } catch (err) {
        if (!retryable || attempt >= retries || input.signal?.aborted) throw err;
        await sleep(Math.min(maxDelayMs, 250 * 2 ** attempt));
        continue;
      }
      if (response.ok) {
        if (response.status === 204 || response.headers.get('content-length') === '0') return undefined;
        return response.json();
      }
      if (response.status === 304) return undefined;
      const error = await errorOf(response);
      if (response.status === 429 && attempt < retries) {
        const seconds = error instanceof SvcApiError && error.retryAfter !== null ? error.retryAfter : 2 ** attempt;
        if (seconds * 1000 <= maxDelayMs) {
          await sleep(seconds * 1000);
          continue;
        }
      }
      if (error instanceof SvcApiError && error.code === 'C0003' && tokens?.refresh && !refreshed) {
        refreshed = true;
        if (await tokens.refresh()) continue;
      }
      throw error;
    }
  }

  async function* paginate(operationId: PagedOperationId, input: Record<string, unknown> = {}) {
    const query = (input.query ?? {}) as Record<string, unknown>;
    for (let page = Number(query.page ?? 1); ; page++) {
      const result = (await call(operationId, { ...input, query: { ...query, page } })) as {
        items: unknown[];
        totalPages: number;
      };
      yield* result.items;
      if (page >= result.totalPages || result.items.length === 0) return;
    }
  }

  async function* changes(input: Record<string, unknown> = {}) {
    let query = (input.query ?? {}) as Record<string, unknown>;
    for (;;) {
      const page = (await call('listChanges', { ...input, query })) as {
        items: Change[];
        nextCursor: string;
        hasMore: boolean;
      };
      yield { changes: page.items, nextCursor: page.nextCursor };
      if (!page.hasMore) return;
      query = { ...query, after: page.nextCursor };
    }
  }

  const client: Record<string, unknown> = { paginate, changes };
  for (const operationId of Object.keys(OPERATIONS) as OperationId[]) {
    client[operationId] = (input?: Record<string, unknown>) => call(operationId, input);
  }
  return client as Client;
}
