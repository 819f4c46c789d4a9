/**
 * Verifying a webhook delivery per Standard Webhooks (https://www.standardwebhooks.com), with the Web Crypto API so
 * it runs in Node.js, Deno, Bun, workers and browsers alike. Compatible with the `standardwebhooks` package: a
 * delivery one accepts, the other accepts.
 */
import type { Change } from './client.js';

/**
 * The delivery every endpoint receives once when it is added: not a change. Answer 2xx; it tells you the endpoint and
 * the secret work. (A test event sent from the console is a `Change` with `test: true`, or a `WebhookTestWithoutResource`.)
 */
export interface WebhookPing {
  id: string;
  type: 'webhook.ping';
  occurredAt: string;
  test: true;
  resource: { type: 'webhook_endpoint'; id: string; webUrl: null; companyId: null };
  data: { endpointId: string; url: string; types: string[] };
}

/**
 * A test event sent from the console when the feed holds no change of its type: there is no resource to name, so
 * `resource` and `data` are null. (A test event of a type the feed holds is a `Change` with `test: true`.)
 */
export interface WebhookTestWithoutResource {
  id: string;
  type: Change['type'];
  occurredAt: string;
  test: true;
  resource: null;
  data: null;
}

/** What a verified delivery carries: a change, the ping, or a test event with no resource. */
export type WebhookDelivery = Change | WebhookPing | WebhookTestWithoutResource;

export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}

/** Headers as Fetch's `Headers`, or as Node.js gives them (`request.headers`). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookOptions {
  /** How far `webhook-timestamp` may be from your clock, in seconds (default 300): older deliveries may be replays. */
  toleranceSeconds?: number;
  /** Your clock, in milliseconds (tests). */
  now?: () => number;
}

const header = (headers: WebhookHeaders, name: string): string | undefined => {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const value = (headers as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value[0] : value;
};

const fromBase64 = (text: string): Uint8Array<ArrayBuffer> => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/** Equal bytes, in time that does not depend on where they differ. */
function same(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/**
 * Checks a delivery's `webhook-signature` against your endpoint's secret (or secrets: give both while you move to a
 * rotated one) and its `webhook-timestamp` against your clock, then returns the change it carries, typed by its
 * `type`. Pass the body exactly as received (the raw text, before any JSON parsing). Throws
 * `WebhookVerificationError` when anything does not match: answer such a request 400 and do nothing with it.
 * Deliveries are at least once: keep the `id` (the `webhook-id` header) of what you handled and skip repeats.
 */
export async function verifyWebhook(
  secret: string | string[],
  headers: WebhookHeaders,
  body: string | Uint8Array,
  options: VerifyWebhookOptions = {},
): Promise<WebhookDelivery> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures)
    throw new WebhookVerificationError('Missing webhook-id, webhook-timestamp or webhook-signature');
  if (!/^\d{1,12}$/.test(timestamp)) throw new WebhookVerificationError('webhook-timestamp is not a number of seconds');
  const now = Math.floor((options.now ?? Date.now)() / 1000);
  const tolerance = options.toleranceSeconds ?? 300;
  if (Math.abs(now - Number(timestamp)) > tolerance)
    throw new WebhookVerificationError('webhook-timestamp is too far from the current time');

  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  const signed = new TextEncoder().encode(`${id}.${timestamp}.${text}`);
  const given = signatures.split(' ').flatMap((part) => {
    const [version, value] = part.split(',', 2);
    if (version !== 'v1' || !value) return [];
    try {
      return [fromBase64(value)];
    } catch {
      return [];
    }
  });
  for (const one of [secret].flat()) {
    const raw = fromBase64(one.startsWith('whsec_') ? one.slice('whsec_'.length) : one);
    const key = await crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    const expected = new Uint8Array(await crypto.subtle.sign('HMAC', key, signed));
    if (given.some((signature) => same(signature, expected))) return JSON.parse(text) as WebhookDelivery;
  }
  throw new WebhookVerificationError('No signature matches the secret');
}
