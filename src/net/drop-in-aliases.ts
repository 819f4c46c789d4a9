import type { IncomingHttpHeaders } from 'node:http';

/**
 * What clients written for the real service send, so that they work here by changing the host and the key alone
 * (docs/api.md, "Drop-in aliases"): its `/v1/...` paths and its two app-key headers.
 */

/** The path the routes are registered under for a request path: `/v1/...` is `/api/v1/...`, anything else itself. */
export function routedPath(url: string): string {
  return url.startsWith('/v1/') ? `/api${url}` : url;
}

/** The app-key headers read, ours first; responses keep the `X-SVC-` names. */
export const APP_KEY_HEADERS = ['X-SVC-API-Key', 'X-RP-API-Key', 'X-OBA-API-Key'] as const;
const LOWER_CASE = APP_KEY_HEADERS.map((name) => name.toLowerCase());

/**
 * The app key a request presents: `key` when one header or several with the same value carry it; `conflict` names
 * the headers when they disagree (which key was meant cannot be told, so the request is refused).
 */
export function presentedAppKey(headers: IncomingHttpHeaders): { key?: string; conflict?: string[]; header?: string } {
  let key: string | undefined;
  let first = -1;
  for (let i = 0; i < LOWER_CASE.length; i++) {
    const header = headers[LOWER_CASE[i]!];
    const value = Array.isArray(header) ? header[0] : header;
    if (!value) continue;
    if (key === undefined) {
      key = value;
      first = i;
    } else if (value !== key) return { conflict: [APP_KEY_HEADERS[first]!, APP_KEY_HEADERS[i]!] };
  }
  return key === undefined ? {} : { key, header: APP_KEY_HEADERS[first]! };
}
