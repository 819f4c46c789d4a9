/**
 * The one redaction of a request's address, wherever one is recorded (logs, the request log line, traces' span
 * attributes, error reports): the value of every query parameter whose name says it carries a secret is replaced, so
 * a reset link, an authorization code or a key in a query string never leaves the process (docs/security.md).
 */

/** Names of parameters that carry a credential or a one-time secret: OAuth's, reset and confirmation links', keys. */
const SECRET_NAME = /token|code|secret|key(?!word)|password|passwd|state|signature|session|credential|assertion|otp/i;
/**
 * A query parameter inside any text: what comes before it (`?`, `&`, or the start, as in a span's `url.query`), its
 * name and its value.
 */
const PARAM = /(^|[?&])([^=&#?\s]*)=([^&#\s]*)/g;

function decoded(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/** `text` (a URL, a path with its query, or an attribute holding one) with secret query values replaced. */
export function redactedUrl(text: string): string {
  if (!text.includes('=')) return text;
  return text.replace(PARAM, (whole, separator: string, name: string, value: string) =>
    value !== '' && SECRET_NAME.test(decoded(name)) ? `${separator}${name}=[redacted]` : whole,
  );
}
