/** Times are stored as epoch milliseconds; these helpers format and parse them at the API edge. */

const localFormatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = localFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    localFormatters.set(timeZone, formatter);
  }
  return formatter;
}

function localParts(ms: number, timeZone: string): Record<string, number> {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(ms))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return parts;
}

const pad = (n: number | undefined, width = 2) => String(n ?? 0).padStart(width, '0');

/** ISO 8601 UTC with `Z`, as detail responses use. */
export function toUtcIso(ms: number): string {
  return new Date(ms).toISOString();
}

/** Local date-time without zone in `timeZone` (`2026-11-21T13:40:00`): the day and times of event session slots. */
export function toLocalDateTime(ms: number, timeZone: string): string {
  const p = localParts(ms, timeZone);
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}`;
}

/**
 * A list item's date-time: UTC wall-clock time without zone, `YYYY-MM-DDTHH:mm`, with `:ss` only when the seconds
 * are not zero and never the milliseconds (`2026-08-23T15:00`, `2026-05-30T14:59:30`), as the real service
 * prints the times of its lists. Details keep ISO 8601 with `Z` (toUtcIso).
 */
export function toListDateTime(ms: number): string {
  const iso = new Date(ms).toISOString();
  const t = iso.indexOf('T');
  const seconds = iso.slice(t + 7, t + 9);
  return seconds === '00' ? iso.slice(0, t + 6) : iso.slice(0, t + 9);
}

/** The ErrorResponse timestamp: UTC, millisecond precision, no zone suffix. */
export function errorTimestamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, -1);
}

/** Offset of `timeZone` from UTC at instant `ms`, in milliseconds. */
function zoneOffset(ms: number, timeZone: string): number {
  const p = localParts(ms, timeZone);
  const asUtc = Date.UTC(p.year ?? 0, (p.month ?? 1) - 1, p.day ?? 1, p.hour ?? 0, p.minute ?? 0, p.second ?? 0);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/** Converts wall-clock fields in `timeZone` to epoch milliseconds. */
export function localToEpoch(
  fields: { year: number; month: number; day: number; hour?: number; minute?: number; second?: number; ms?: number },
  timeZone: string,
): number {
  const guess = Date.UTC(
    fields.year,
    fields.month - 1,
    fields.day,
    fields.hour ?? 0,
    fields.minute ?? 0,
    fields.second ?? 0,
    fields.ms ?? 0,
  );
  const first = guess - zoneOffset(guess, timeZone);
  const second = guess - zoneOffset(first, timeZone);
  return second;
}

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * Parses an ISO 8601 date or date-time. A value with `Z` or an offset is absolute; one without is a
 * wall-clock time in the service time zone; a date alone is the start of that day there.
 * Returns null when the text is not such a value or names an impossible date.
 */
export function parseDateTime(value: string, timeZone: string): number | null {
  const m = DATE_TIME.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const fields = {
    year: Number(y),
    month: Number(mo),
    day: Number(d),
    hour: Number(h ?? 0),
    minute: Number(mi ?? 0),
    second: Number(s ?? 0),
    ms: frac ? Math.floor(Number(`0.${frac}`) * 1000) : 0,
  };
  if (
    fields.month < 1 ||
    fields.month > 12 ||
    fields.day < 1 ||
    fields.hour > 23 ||
    fields.minute > 59 ||
    fields.second > 59
  )
    return null;
  const probe = new Date(Date.UTC(fields.year, fields.month - 1, fields.day));
  if (probe.getUTCMonth() !== fields.month - 1) return null;
  if (zone) {
    const base = Date.UTC(
      fields.year,
      fields.month - 1,
      fields.day,
      fields.hour,
      fields.minute,
      fields.second,
      fields.ms,
    );
    if (zone.toUpperCase() === 'Z') return base;
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const offset = (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
    return base - sign * offset;
  }
  return localToEpoch(fields, timeZone);
}

/**
 * A search parameter's time: a date alone (`2026-11-01`) is the start of that day in `timeZone`; a date-time with
 * `Z` or an offset is that instant; a date-time without a zone is UTC wall-clock time, as the lists print it, so
 * a list item's time given back as a bound means the same instant. Null when it is not such a value.
 */
export function parseSearchTime(value: string, timeZone: string): number | null {
  return parseDateTime(value, /^\d{4}-\d{2}-\d{2}$/.test(value.trim()) ? timeZone : 'UTC');
}

/** Start (00:00:00.000) or end (23:59:59.999) of a YYYY-MM-DD date in `timeZone`; null if not a date. */
export function dateBoundary(date: string, edge: 'start' | 'end', timeZone: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return null;
  const start = parseDateTime(date, timeZone);
  if (start === null) return null;
  if (edge === 'start') return start;
  return localToEpoch({ year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) + 1 }, timeZone) - 1;
}
