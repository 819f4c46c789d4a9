/**
 * `changes listen`: webhooks on a laptop. Follows the change feed over HTTP with an app key, as any client does, and
 * posts each change to a local URL as a delivery signed like the service's own (Standard Webhooks), one at a time in
 * the feed's order, printing a line for each. A receiver written against it works unchanged against real deliveries.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CHANGE_TYPES } from '../../change-feed/change-log.js';
import { newSigningSecret, signedHeaders } from '../../modules/webhooks/signature.js';
import type { Config } from '../../config.js';
import { required, UsageError, type Command, type Io } from '../command.js';

interface Change {
  id: string;
  type: string;
  resource: { type: string; id: string } | null;
}
/** A page as read: its changes, and for each item that is not a change, why. */
interface Page {
  items: Array<Change | { malformed: string }>;
  nextCursor: string;
  hasMore: boolean;
}

const FORWARD_TIMEOUT_MS = 10_000;
const LONGEST_WAIT_MS = 30_000;
/** The most of a feed page read (100 changes with their resources are far below it), and of an error or a receiver's answer. */
const MAX_PAGE_BYTES = 16 << 20;
const MAX_OTHER_BYTES = 64 << 10;
/** Redirects followed within the service's own origin; one to another origin is never followed (the key would go there). */
const MAX_REDIRECTS = 3;

const time = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * Text from the service or the receiver as it may be printed: control and formatting characters (terminal escape
 * sequences, bidirectional overrides) shown as `\u{…}`, and at most `max` characters.
 */
export function printable(text: unknown, max = 300): string {
  const shown = String(text).replace(/[\p{Cc}\p{Cf}]/gu, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
  return shown.length > max ? `${shown.slice(0, max)}…` : shown;
}

/** The body's text, reading at most `max` bytes: past that the rest is not read and this throws. */
async function boundedText(response: Response, max: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      throw new Error(`the answer is larger than ${max} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The JSON value of `text`, or null when it is not JSON. */
function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** A feed page's shape checked: each item is a change or says why it is not; null when the page itself is not one. */
function pageOf(body: unknown): Page | null {
  const page = body as { items?: unknown; nextCursor?: unknown; hasMore?: unknown } | null;
  if (
    typeof page !== 'object' ||
    page === null ||
    !Array.isArray(page.items) ||
    typeof page.nextCursor !== 'string' ||
    typeof page.hasMore !== 'boolean'
  )
    return null;
  const items = page.items.map((item: unknown): Change | { malformed: string } => {
    const change = item as { id?: unknown; type?: unknown; resource?: { type?: unknown; id?: unknown } | null } | null;
    if (
      typeof change !== 'object' ||
      change === null ||
      typeof change.id !== 'string' ||
      typeof change.type !== 'string'
    ) {
      return { malformed: 'it has no string id and type' };
    }
    if (
      change.resource !== null &&
      (typeof change.resource !== 'object' ||
        typeof change.resource.type !== 'string' ||
        typeof change.resource.id !== 'string')
    ) {
      return { malformed: `${printable(change.id, 60)} names no resource type and id` };
    }
    return item as Change;
  });
  return { items, nextCursor: page.nextCursor, hasMore: page.hasMore };
}

/** An http(s) URL, or a usage error naming the option. */
function httpUrl(name: string, value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--${name} must be an http or https URL; got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--${name} must be an http or https URL; got "${value}"`);
  return url;
}

function signingSecret(value: unknown): string {
  if (value === undefined) return newSigningSecret();
  const secret = String(value);
  const bytes = /^whsec_[A-Za-z0-9+/]+={0,2}$/.test(secret)
    ? Buffer.from(secret.slice('whsec_'.length), 'base64').length
    : 0;
  if (bytes < 24 || bytes > 64)
    throw new UsageError(
      "--secret must be whsec_ followed by the base64 of 24 to 64 bytes (as the console shows an endpoint's)",
    );
  return secret;
}

function changeTypes(value: unknown): string[] {
  if (value === undefined) return [];
  const types = String(value)
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  const unknown = types.filter((t) => !(CHANGE_TYPES as readonly string[]).includes(t));
  if (types.length === 0 || unknown.length > 0)
    throw new UsageError(`--types takes a comma list of ${CHANGE_TYPES.join(', ')}; got "${String(value)}"`);
  return types;
}

/** Aborted on Ctrl+C or SIGTERM; `done()` takes the handlers away again. */
function untilInterrupted(): { signal: AbortSignal; done(): void } {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return {
    signal: controller.signal,
    done: () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    },
  };
}

/** Waits `ms`, or less when `signal` aborts first. */
async function pause(ms: number, signal: AbortSignal): Promise<void> {
  await sleep(ms, undefined, { signal }).catch(() => undefined);
}

/**
 * Where the service is when `--api-url` is not given: the address the settings name (`PUBLIC_BASE_URL`, or `HOST` and
 * `PORT`) when they are set, else the one the demo last served on (it writes it in `DATA_DIR/demo-credentials.json`),
 * else the settings' default.
 */
function defaultApiUrl(config: Config, env: Record<string, string | undefined>): string {
  if (['PUBLIC_BASE_URL', 'PORT', 'HOST'].some((name) => env[name])) return config.publicBaseUrl;
  try {
    const demo = JSON.parse(fs.readFileSync(path.join(config.dataDir, 'demo-credentials.json'), 'utf8')) as {
      apiUrl?: unknown;
    };
    if (typeof demo.apiUrl === 'string') return demo.apiUrl;
  } catch {
    // No demo has run here, or its file is unreadable: the settings' address.
  }
  return config.publicBaseUrl;
}

/** A redirect the reader will not follow: asking again would meet it again. */
class RedirectRefused extends Error {}

class FeedReader {
  private failures = 0;
  /** Whether the service has answered once: before that, nothing answering is a mistake in the address, not an outage. */
  private answered = false;

  constructor(
    private readonly api: URL,
    private readonly key: string,
    private readonly types: string[],
    private readonly io: Io,
    private readonly signal: AbortSignal,
  ) {}

  /**
   * The page after `cursor`; waits and asks again while the service is away or says to slow down. Null once stopped.
   * A refusal that asking again cannot get past (a wrong key, a cursor too old) throws, with the service's own words.
   */
  async page(cursor: string): Promise<Page | null> {
    const url = new URL('/api/v1/changes', this.api);
    url.searchParams.set('after', cursor);
    url.searchParams.set('pageSize', '100');
    if (this.types.length > 0) url.searchParams.set('types', this.types.join(','));
    while (!this.signal.aborted) {
      let response: Response;
      let text: string;
      try {
        response = await this.fetchFeed(url);
        this.answered = true;
        text = await boundedText(response, response.ok ? MAX_PAGE_BYTES : MAX_OTHER_BYTES);
      } catch (err) {
        if (this.signal.aborted) return null;
        if (err instanceof RedirectRefused) throw err;
        if (!this.answered) {
          throw new Error(
            `Nothing answers at ${this.api.origin} (${printable(reason(err))}). Is the service running there? ` +
              '`npm run demo` prints the address it serves on; give it with --api-url.',
            { cause: err },
          );
        }
        await this.wait(`${this.api.origin} did not answer (${printable(reason(err))})`);
        continue;
      }
      if (response.ok) {
        const page = pageOf(jsonOf(text));
        if (page) {
          // An empty page that says more waits is no progress: the back-off keeps growing over such pages.
          if (page.items.length > 0 || !page.hasMore) this.failures = 0;
          return page;
        }
        await this.wait(`${this.api.origin} answered something that is not a page of the change feed`);
        continue;
      }
      const error = jsonOf(text) as { code?: unknown; message?: unknown } | null;
      const said =
        typeof error?.code === 'string'
          ? `${response.status} ${printable(error.code, 20)}: ${printable(error.message ?? '')}`
          : `${response.status}`;
      if (response.status === 429) {
        const seconds = Number(response.headers.get('retry-after'));
        this.io.out(
          `${time(Date.now())}  the app's rate limit is reached (${said}); asking again in ${Number.isFinite(seconds) && seconds > 0 ? seconds : 1} s`,
        );
        await pause(Math.min(Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 1000, 3_600_000), this.signal);
      } else if (response.status >= 500) {
        await this.wait(`${this.api.origin} answered ${said}`);
      } else if (response.status === 410) {
        throw new Error(
          `The change feed refused the cursor (${said}). Read the current state again and start with --after now.`,
        );
      } else {
        throw new Error(`The change feed refused the request (${said}).`);
      }
    }
    return null;
  }

  /**
   * The feed's answer, following redirects only within the service's own origin: the app key is sent to that origin
   * alone, so a redirect to another is refused, never followed.
   */
  private async fetchFeed(first: URL): Promise<Response> {
    let url = first;
    for (let hops = 0; ; hops++) {
      const response = await fetch(url, {
        headers: { 'x-svc-api-key': this.key, accept: 'application/json' },
        signal: this.signal,
        redirect: 'manual',
      });
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || location === null) return response;
      await response.body?.cancel().catch(() => undefined);
      const next = new URL(location, url);
      if (next.origin !== this.api.origin) {
        throw new RedirectRefused(
          `${this.api.origin} redirected to ${printable(next.origin, 200)}: not followed, so that the app key goes only to ${this.api.origin}`,
        );
      }
      if (hops >= MAX_REDIRECTS)
        throw new RedirectRefused(`${this.api.origin} redirected more than ${MAX_REDIRECTS} times`);
      url = next;
    }
  }

  /** Backs off 1, 2, 4 … 30 s while the service is away (or gives nothing to go on with), saying so each time. */
  async wait(what: string): Promise<void> {
    const ms = Math.min(1000 * 2 ** this.failures++, LONGEST_WAIT_MS);
    this.io.out(`${time(Date.now())}  ${what}; asking again in ${ms / 1000} s`);
    await pause(ms, this.signal);
  }
}

/** Posts one change to `target`, signed with `secret`, and says how it went in one line. */
async function forward(target: URL, secret: string, change: Change): Promise<string> {
  const body = JSON.stringify(change);
  const started = performance.now();
  const took = () => `${Math.round(performance.now() - started)} ms`;
  try {
    const response = await fetch(target, {
      method: 'POST',
      redirect: 'manual',
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
      headers: {
        ...signedHeaders([secret], change.id, Math.floor(Date.now() / 1000), body),
        'content-type': 'application/json',
        'user-agent': 'SvcWebhooks/1.0 (changes listen)',
      },
      body,
    });
    // Only the status matters: the receiver's body is not read (a local server may answer anything).
    await response.body?.cancel().catch(() => undefined);
    return `${response.status} in ${took()}`;
  } catch (err) {
    return `failed after ${took()}: ${printable(reason(err))}`;
  }
}

/** What went wrong with a fetch, as a person reads it (`ECONNREFUSED 127.0.0.1:3000`, `timed out`). */
function reason(err: unknown): string {
  if (err instanceof Error && err.name === 'TimeoutError') return `no answer within ${FORWARD_TIMEOUT_MS / 1000} s`;
  const cause = err instanceof Error ? (err.cause as { code?: string; message?: string } | undefined) : undefined;
  return cause?.message ?? (err instanceof Error ? err.message : String(err));
}

export const changesListenCommand: Command = {
  name: 'changes listen',
  summary:
    'Development: follow the change feed with an app key and forward each change to a local URL as a signed webhook delivery, ' +
    'one line per delivery (Ctrl+C stops)',
  usage:
    'changes listen --api-key svck_… --forward-to http://localhost:3000/hooks [--types job.published,job.closed] [--secret whsec_…] ' +
    '[--after now|CURSOR] [--api-url URL] [--interval SECONDS]',
  options: {
    'api-key': { type: 'string' },
    'forward-to': { type: 'string' },
    types: { type: 'string' },
    secret: { type: 'string' },
    after: { type: 'string' },
    'api-url': { type: 'string' },
    interval: { type: 'string' },
  },
  async run(values, ctx) {
    const key = required(values, 'api-key');
    const target = httpUrl('forward-to', required(values, 'forward-to'));
    const api = httpUrl(
      'api-url',
      typeof values['api-url'] === 'string' ? values['api-url'] : defaultApiUrl(ctx.config, ctx.env),
    );
    const types = changeTypes(values.types);
    const secret = signingSecret(values.secret);
    const interval = values.interval === undefined ? 2 : Number(values.interval);
    if (!Number.isInteger(interval) || interval < 1 || interval > 300)
      throw new UsageError(`--interval must be 1 to 300 seconds; got "${String(values.interval)}"`);

    const stop = ctx.signal ? { signal: ctx.signal, done: () => undefined } : untilInterrupted();
    const { io } = ctx;
    const feed = new FeedReader(api, key, types, io, stop.signal);
    try {
      const start = typeof values.after === 'string' ? values.after : 'now';
      let cursor = start === 'now' ? (await feed.page('now'))?.nextCursor : start;
      if (cursor === undefined) return;
      io.out(
        `Forwarding the changes of ${api.origin}${start === 'now' ? ' from now on' : ` after ${start}`} (${types.length ? types.join(', ') : 'every type'}) to ${target.href}`,
      );
      io.out(
        values.secret === undefined
          ? `Signing secret for this session: ${secret}  (verify deliveries with it; give --secret to keep one across sessions)`
          : 'Signing with the secret given by --secret.',
      );
      io.out('Ctrl+C stops; a change is forwarded once, whatever the answer.');
      while (!stop.signal.aborted) {
        const page = await feed.page(cursor);
        if (!page) break;
        let whole = true;
        for (const item of page.items) {
          // Stopped within a page: the cursor stays before it, so going on repeats its first changes (at least once).
          if (stop.signal.aborted) {
            whole = false;
            break;
          }
          if ('malformed' in item) {
            io.out(`${time(Date.now())}  skipped an item of the feed that is not a change: ${item.malformed}`);
            continue;
          }
          const resource = item.resource
            ? `${printable(item.resource.type, 20)} ${printable(item.resource.id, 80)}`
            : 'no resource';
          io.out(
            `${time(Date.now())}  ${printable(item.type, 40).padEnd(13)}  ${printable(item.id, 80)}  ${resource}  → ${await forward(target, secret, item)}`,
          );
        }
        if (!whole) break;
        const moved = page.nextCursor !== cursor;
        cursor = page.nextCursor;
        // A page that says more waits but gives nothing and moves nowhere would be asked for again at once, forever.
        if (page.hasMore && page.items.length === 0 && !moved)
          await feed.wait(`${api.origin} said more changes wait but gave none`);
        else if (!page.hasMore) await pause(interval * 1000, stop.signal);
      }
      io.out(`Stopped. To go on from here: --after ${printable(cursor, 200)}`);
    } finally {
      stop.done();
    }
  },
};
