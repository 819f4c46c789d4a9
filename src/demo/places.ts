/**
 * Where the demo's and the benchmark's jobs are: Korean cities and districts (most of them), a few abroad, each with
 * the coordinates of its centre; and what they pay. Drawn from a generator of their own, so the rest of the data
 * stays as it was.
 */
import type { SeededRandom } from './random.js';

export interface Place {
  country: string;
  region: string | null;
  locality: string;
  latitude: number;
  longitude: number;
  /** The currency its jobs pay in. */
  currency: string;
}

const kr = (region: string, locality: string, latitude: number, longitude: number): Place => ({
  country: 'KR',
  region,
  locality,
  latitude,
  longitude,
  currency: 'KRW',
});

/** The places of each city the demo's texts name (vocabulary.ts CITIES), by the city's Korean name. */
export const PLACES_OF_CITY: Record<string, Place[]> = {
  서울: [
    kr('서울', '강남구', 37.4979, 127.0276),
    kr('서울', '마포구', 37.5663, 126.9019),
    kr('서울', '성동구', 37.5446, 127.0557),
    kr('서울', '중구', 37.564, 126.997),
  ],
  부산: [kr('부산', '해운대구', 35.1631, 129.1636), kr('부산', '부산진구', 35.1577, 129.0592)],
  판교: [
    kr('경기', '성남시 분당구', 37.3948, 127.1112),
    kr('경기', '수원시 영통구', 37.2596, 127.0465),
    kr('인천', '연수구', 37.3826, 126.6565),
  ],
  도쿄: [
    { country: 'JP', region: '東京都', locality: '渋谷区', latitude: 35.662, longitude: 139.7038, currency: 'JPY' },
    { country: 'SG', region: null, locality: 'Singapore', latitude: 1.2834, longitude: 103.8607, currency: 'SGD' },
    {
      country: 'US',
      region: 'California',
      locality: 'San Francisco',
      latitude: 37.7897,
      longitude: -122.3972,
      currency: 'USD',
    },
  ],
};

/** Other Korean places, drawn now and then whatever city a text names. */
const ELSEWHERE_IN_KOREA: Place[] = [
  kr('대전', '유성구', 36.3622, 127.3563),
  kr('대구', '중구', 35.8714, 128.6014),
  kr('광주', '서구', 35.152, 126.8895),
  kr('제주', '제주시', 33.4996, 126.5312),
];

export interface PlaceAndPay {
  location: {
    country: string;
    region: string | null;
    locality: string;
    address: string | null;
    latitude: number | null;
    longitude: number | null;
  } | null;
  salary: { min: number | null; max: number | null; currency: string; period: 'YEAR' | 'MONTH' | 'HOUR' } | null;
}

/** Yearly pay ranges per currency, in whole units: [least low, most high, rounding]. */
const YEARLY: Record<string, [number, number, number]> = {
  KRW: [28_000_000, 150_000_000, 1_000_000],
  JPY: [4_000_000, 15_000_000, 100_000],
  SGD: [50_000, 200_000, 1_000],
  USD: [80_000, 260_000, 1_000],
};

/** A job's place and pay, for a job whose texts name `city`: remote jobs often without a place; about one in six without pay. */
export function placeAndPayFor(rnd: SeededRandom, city: string, remote: boolean): PlaceAndPay {
  const place = rnd.chance(0.1)
    ? rnd.pick(ELSEWHERE_IN_KOREA)
    : rnd.pick(PLACES_OF_CITY[city] ?? PLACES_OF_CITY['서울']!);
  // Spread within a few kilometres of the centre.
  const jitter = () => Math.round((rnd.next() - 0.5) * 0.06 * 10_000) / 10_000;
  const location =
    remote && rnd.chance(0.5)
      ? null
      : {
          country: place.country,
          region: place.region,
          locality: place.locality,
          address: rnd.chance(0.5) ? `${place.locality} ${rnd.int(1, 300)}` : null,
          ...(rnd.chance(0.9)
            ? { latitude: round4(place.latitude + jitter()), longitude: round4(place.longitude + jitter()) }
            : { latitude: null, longitude: null }),
        };
  const currency = location === null ? 'KRW' : place.currency;
  const roll = rnd.next();
  if (roll < 0.17) return { location, salary: null };
  const [least, most, unit] = YEARLY[currency]!;
  const low = Math.round((least + rnd.next() * (most - least) * 0.6) / unit) * unit;
  const high = Math.round((low * (1.1 + rnd.next() * 0.5)) / unit) * unit;
  if (currency === 'KRW' && roll < 0.27)
    return {
      location,
      salary: {
        min: Math.round(low / 12 / 10_000) * 10_000,
        max: Math.round(high / 12 / 10_000) * 10_000,
        currency,
        period: 'MONTH',
      },
    };
  if (currency === 'KRW' && roll < 0.31)
    return { location, salary: { min: 10_030 + rnd.int(0, 20) * 1_000, max: null, currency, period: 'HOUR' } };
  if (roll < 0.38) return { location, salary: { min: low, max: null, currency, period: 'YEAR' } };
  return { location, salary: { min: low, max: high, currency, period: 'YEAR' } };
}

const round4 = (n: number) => Math.round(n * 10_000) / 10_000;

/** The columns of a job's row for a place and pay. */
export function placeAndPayRow({ location, salary }: PlaceAndPay) {
  return {
    location_country: location?.country ?? null,
    location_region: location?.region ?? null,
    location_locality: location?.locality ?? null,
    location_address: location?.address ?? null,
    location_latitude: location?.latitude ?? null,
    location_longitude: location?.longitude ?? null,
    salary_min: salary?.min ?? null,
    salary_max: salary?.max ?? null,
    salary_currency: salary?.currency ?? null,
    salary_period: salary?.period ?? null,
  };
}
