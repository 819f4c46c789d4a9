/**
 * Roughly the bytes a value takes in the JavaScript heap: two per character of a string (V8 keeps Latin-1
 * text in one), a word per number or reference, a header per object and array. Strings shared by two fields
 * are counted twice. Enough to bound a cache by memory rather than by entries, whose sizes differ tenfold
 * between a one-line post and a job with a long description.
 */
export function approximateBytes(value: unknown): number {
  if (typeof value === 'string') return 16 + value.length * 2;
  if (typeof value !== 'object' || value === null) return 8;
  let bytes = 32;
  if (Array.isArray(value)) {
    for (const item of value) bytes += 8 + approximateBytes(item);
    return bytes;
  }
  for (const field of Object.values(value)) bytes += 16 + approximateBytes(field);
  return bytes;
}
