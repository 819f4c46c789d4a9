/**
 * Which addresses a webhook may be sent to (docs/webhooks.md, "Where deliveries may go"): https to a public
 * address; with WEBHOOKS_ALLOW_LOOPBACK (development), also http or https to this machine's loopback. Never a
 * private, link-local (cloud metadata), multicast or reserved address, whatever the name resolves to at the time
 * of sending: the check runs on the address the socket connects to.
 */
import ipaddr from 'ipaddr.js';
import { isLoopbackAddress, isPublicAddress } from '../../net/safe-fetch.js';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);
const MAX_URL_LENGTH = 2_000;

export function acceptsAddress(allowLoopback: boolean): (address: string) => boolean {
  return (address) => isPublicAddress(address) || (allowLoopback && isLoopbackAddress(address));
}

/** Why `text` cannot be an endpoint's URL, or null when it can. */
export function targetProblem(text: string, allowLoopback: boolean): string | null {
  if (text.length > MAX_URL_LENGTH) return `at most ${MAX_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'not a URL';
  }
  const loopbackName = LOOPBACK_NAMES.has(url.hostname) || url.hostname.endsWith('.localhost');
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && allowLoopback && loopbackName)) {
    return allowLoopback ? 'https, or http to localhost, 127.0.0.1 or [::1]' : 'https only';
  }
  if (url.username || url.password) return 'no user name or password in the URL';
  if (url.hash) return 'no #fragment';
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(literal) && !acceptsAddress(allowLoopback)(literal)) return 'not a public address';
  if (loopbackName && !allowLoopback) return 'not a public address';
  return null;
}
