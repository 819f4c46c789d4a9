/**
 * Signing per Standard Webhooks (https://www.standardwebhooks.com): a secret is `whsec_` and the base64 of random
 * bytes; a delivery carries `webhook-id` (the change's id, the same on every attempt), `webhook-timestamp` (seconds)
 * and `webhook-signature`, `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` under each secret in use,
 * separated by spaces (two while a rotated secret's overlap runs).
 */
import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

export function newSigningSecret(): string {
  return PREFIX + randomBytes(24).toString('base64');
}

export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The three headers of a delivery signed with every secret in `secrets`. */
export function signedHeaders(secrets: string[], id: string, timestamp: number, body: string): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => signature(secret, id, timestamp, body)).join(' '),
  };
}
