import { describe, expect, it } from 'vitest';
import { toListDateTime, toLocalDateTime } from '../src/shared/time.js';

const formats = new Map<string, Intl.DateTimeFormat>();

/** The wall clock of `ms` in `timeZone` as Intl gives it, instant by instant: what list items must show. */
function byIntl(ms: number, timeZone: string): string {
  const format =
    formats.get(timeZone) ??
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
  formats.set(timeZone, format);
  const parts = Object.fromEntries(format.formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
  return `${parts.year!.padStart(4, '0')}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
}

// Zones without daylight saving, with it (both hemispheres, a half-hour shift), with odd offsets, and one whose
// history has an offset in seconds (Seoul's local mean time before 1908).
const ZONES = [
  'Asia/Seoul',
  'UTC',
  'America/New_York',
  'Europe/London',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'America/St_Johns',
  'Pacific/Chatham',
];

describe('toLocalDateTime', () => {
  it('agrees with Intl at random instants from 1900 to 2100, in every kind of zone', () => {
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const from = Date.UTC(1900, 0, 1);
    const to = Date.UTC(2100, 0, 1);
    for (const zone of ZONES) {
      for (let i = 0; i < 3000; i++) {
        const ms = Math.floor(from + random() * (to - from));
        expect(toLocalDateTime(ms, zone), `${zone} ${new Date(ms).toISOString()}`).toBe(byIntl(ms, zone));
      }
    }
  });

  it('agrees with Intl on every second around daylight-saving changes, asked in any order', () => {
    const changes: Array<[string, number]> = [
      ['America/New_York', Date.UTC(2026, 2, 8, 7)],
      ['America/New_York', Date.UTC(2026, 10, 1, 6)],
      ['Europe/London', Date.UTC(2026, 2, 29, 1)],
      ['Europe/London', Date.UTC(2026, 9, 25, 1)],
      ['Australia/Lord_Howe', Date.UTC(2026, 3, 4, 15)],
      ['Pacific/Chatham', Date.UTC(2026, 3, 4, 14)],
      ['Asia/Seoul', Date.UTC(1908, 2, 31, 15, 30)],
      ['Asia/Seoul', Date.UTC(1988, 4, 7, 17)],
    ];
    for (const [zone, at] of changes) {
      const instants = [];
      for (let ms = at - 2 * 3_600_000; ms <= at + 2 * 3_600_000; ms += 4_999) instants.push(ms);
      // Backwards first, then forwards: what a day remembers must not depend on which instant asked first.
      for (const ms of [...instants].reverse().concat(instants)) {
        expect(toLocalDateTime(ms, zone), `${zone} ${new Date(ms).toISOString()}`).toBe(byIntl(ms, zone));
      }
    }
  });

  it('keeps the seconds and drops the milliseconds', () => {
    expect(toLocalDateTime(Date.parse('2026-11-21T04:40:05.999Z'), 'Asia/Seoul')).toBe('2026-11-21T13:40:05');
    expect(toLocalDateTime(Date.parse('1969-12-31T23:59:59.500Z'), 'UTC')).toBe('1969-12-31T23:59:59');
  });
});

describe("toListDateTime (list items' date-times, as the real service prints them)", () => {
  it('is UTC wall-clock time without zone, with seconds only when they are not zero, never milliseconds', () => {
    expect(toListDateTime(Date.parse('2026-08-23T15:00:00.000Z'))).toBe('2026-08-23T15:00');
    expect(toListDateTime(Date.parse('2026-05-30T14:59:30.000Z'))).toBe('2026-05-30T14:59:30');
    expect(toListDateTime(Date.parse('2026-05-30T14:59:00.999Z'))).toBe('2026-05-30T14:59');
    expect(toListDateTime(Date.parse('2026-12-31T23:59:59.999Z'))).toBe('2026-12-31T23:59:59');
    expect(toListDateTime(Date.parse('1969-12-31T23:59:01.500Z'))).toBe('1969-12-31T23:59:01');
  });
});
