import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

export interface SafeFetchOptions {
  /** `host` or `host:port` entries that may be fetched even at private addresses (tests, intranets). */
  allowedHosts: string[];
  timeoutMs: number;
  maxBytes: number;
  maxRedirects?: number;
}

export interface SafeResponse {
  url: string;
  status: number;
  contentType: string;
  cacheControl?: string;
  body: Buffer;
}

export class BlockedFetchError extends Error {}

/**
 * Only public unicast addresses: no private, loopback, link-local (cloud metadata), multicast or reserved ones.
 * An IPv6 address that carries an IPv4 one (IPv4-mapped `::ffff:a.b.c.d`, or the deprecated IPv4-compatible
 * `::a.b.c.d`, which URLs write as `[::7f00:1]` and ipaddr.js calls unicast) is judged by the IPv4 address.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    const compatible = v6.parts.slice(0, 6).every((part) => part === 0) && (v6.parts[6] !== 0 || v6.parts[7]! > 1);
    if (v6.isIPv4MappedAddress() || compatible) {
      parsed = ipaddr.fromByteArray(v6.toByteArray().slice(12));
    }
  }
  return parsed.range() === 'unicast';
}

function isAllowed(url: URL, allowedHosts: string[]): boolean {
  return allowedHosts.includes(url.host.toLowerCase()) || allowedHosts.includes(url.hostname.toLowerCase());
}

/** Whether `address` is a loopback address (127.0.0.0/8, ::1, or an IPv6 form of an IPv4 loopback one). */
export function isLoopbackAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  return parsed.range() === 'loopback';
}

/**
 * A DNS lookup that refuses answers `accept` does not take, so the socket connects only to an address that was
 * checked (no second resolution an attacker's DNS could answer differently).
 */
export function guardedLookup(accept: (address: string) => boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { all: true, family: options.family as number | undefined }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const usable = addresses.filter((a) => accept(a.address));
      if (usable.length === 0)
        return callback(new BlockedFetchError(`${hostname} resolves to a non-public address`), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, usable);
      return callback(null, usable[0]!.address, usable[0]!.family);
    });
  };
}

/**
 * The address `url` names literally when `accept` does not take it, else null. A literal address is connected to
 * without a lookup, so `guardedLookup` never sees it: it is checked here.
 */
export function refusedLiteral(url: URL, accept: (address: string) => boolean): string | null {
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  return ipaddr.isValid(literal) && !accept(literal) ? literal : null;
}

function once(
  url: URL,
  options: SafeFetchOptions,
  deadline: number,
): Promise<{ status: number; location?: string; contentType: string; cacheControl?: string; body: Buffer }> {
  const accept = isAllowed(url, options.allowedHosts) ? () => true : isPublicAddress;
  if (refusedLiteral(url, accept) !== null) {
    return Promise.reject(new BlockedFetchError(`${url.hostname} is not a public address`));
  }
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const remaining = deadline - Date.now();
    if (remaining <= 0) return reject(new Error('timed out'));
    const request = client.get(
      url,
      {
        lookup: guardedLookup(accept),
        timeout: remaining,
        headers: { 'user-agent': 'SvcOpenGraphFetcher/1.0', accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1' },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const contentType = String(response.headers['content-type'] ?? '');
        const cacheControl = response.headers['cache-control'];
        if (status >= 300 && status < 400 && response.headers.location) {
          response.resume();
          return resolve({ status, location: response.headers.location, contentType, body: Buffer.alloc(0) });
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          chunks.push(chunk);
          // Open Graph tags live in <head>: what arrived before the cap is enough.
          if (size >= options.maxBytes) {
            response.destroy();
            resolve({ status, contentType, cacheControl, body: Buffer.concat(chunks).subarray(0, options.maxBytes) });
          }
        });
        response.on('end', () => resolve({ status, contentType, cacheControl, body: Buffer.concat(chunks) }));
        response.on('error', reject);
      },
    );
    const timer = setTimeout(() => request.destroy(new Error('timed out')), remaining);
    request.on('close', () => clearTimeout(timer));
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', reject);
  });
}

/**
 * GET an http(s) URL from outside input without letting it reach the service's own network: every hop
 * (at most `maxRedirects` redirects) is re-checked, the whole fetch has one deadline, and the body is cut
 * at `maxBytes`.
 */
export async function safeFetch(target: string, options: SafeFetchOptions): Promise<SafeResponse> {
  const deadline = Date.now() + options.timeoutMs;
  let url = new URL(target);
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new BlockedFetchError(`Only http and https are fetched, not ${url.protocol}`);
    const response = await once(url, options, deadline);
    if (response.location === undefined) {
      return {
        url: url.toString(),
        status: response.status,
        contentType: response.contentType,
        cacheControl: response.cacheControl,
        body: response.body,
      };
    }
    if (hop >= (options.maxRedirects ?? 3)) throw new BlockedFetchError('Too many redirects');
    url = new URL(response.location, url);
  }
}
