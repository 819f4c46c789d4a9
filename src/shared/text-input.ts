import { ApiError } from './api-error.js';

/** Deeper JSON than any request of the API needs; a deeper body is refused before it is parsed. */
export const MAX_JSON_DEPTH = 64;

/**
 * How deep `text` nests arrays and objects, read without recursion, stopping as soon as it passes `limit`:
 * a body of thousands of brackets never reaches a recursive parser, validator or serializer.
 */
export function jsonDepthExceeds(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

/**
 * The path of the first string (value or key) in `value` that holds U+0000, or null. PostgreSQL cannot store
 * that character in text, so it is refused on every engine alike.
 */
export function nulPath(value: unknown, path: string[] = []): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path.join('.') : null;
  if (value === null || typeof value !== 'object') return null;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000')) return [...path, JSON.stringify(key)].join('.');
    const found = nulPath(item, [...path, key]);
    if (found !== null) return found;
  }
  return null;
}

/** Refuses U+0000 anywhere in `value` with 400 C0002 naming the field (`prefix` first, e.g. the part name). */
export function refuseNul(value: unknown, prefix: string[] = []): void {
  const found = nulPath(value, prefix);
  if (found !== null) {
    throw new ApiError(
      'C0002',
      `Field "${found || prefix.join('.') || 'body'}" must not contain the character U+0000`,
      found || null,
    );
  }
}

/** Parses a JSON request text: nesting bounded, no U+0000 in any string; 400 C0002 otherwise. */
export function parseJsonInput(text: string, what: string, prefix: string[] = []): unknown {
  if (jsonDepthExceeds(text))
    throw new ApiError('C0002', `${what} nests deeper than ${MAX_JSON_DEPTH} levels`, prefix.join('.') || null);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError(
      'C0002',
      `${what} must be JSON, got ${JSON.stringify(text.slice(0, 60))}`,
      prefix.join('.') || null,
    );
  }
  if (text.includes('\\u0000')) refuseNul(value, prefix);
  return value;
}

/**
 * Whether a name holds characters nobody sees: controls (U+0000 among them) and formatting ones (bidirectional
 * overrides, zero-width characters), with which one name can be made to read as another.
 */
export const hasHiddenCharacters = (text: string): boolean => /[\p{Cc}\p{Cf}]/u.test(text);
