/**
 * Where a job is and what it pays (docs/search.md "Where and how much"): the fields of a write as columns of its
 * row, the row's columns as responses show them, the rules a write's values must keep, and the yearly amounts the
 * salary filter compares.
 */
import { ApiError } from '../../shared/api-error.js';

type Period = 'YEAR' | 'MONTH' | 'HOUR';

/** A job's place and pay as responses show them (job-schemas.ts JobLocation, JobSalary). */
interface Location {
  country: string;
  region: string | null;
  locality: string | null;
  address: string | null;
  latitude: number | null;
  longitude: number | null;
}
interface Salary {
  min: number | null;
  max: number | null;
  currency: string;
  period: Period;
}

/** A write's place and pay as its schema has let them through (job-write-schemas.ts): null clears, left out keeps. */
interface PlaceAndPayInput {
  location?: {
    country: string;
    region?: string | null;
    locality?: string | null;
    address?: string | null;
    latitude?: number | null;
    longitude?: number | null;
  } | null;
  salary?: { min?: number | null; max?: number | null; currency: string; period?: Period } | null;
}

/** The columns of a job's place and pay, as its row holds them. */
export interface PlaceAndPayColumns {
  location_country: string | null;
  location_region: string | null;
  location_locality: string | null;
  location_address: string | null;
  location_latitude: number | null;
  location_longitude: number | null;
  salary_min: number | null;
  salary_max: number | null;
  salary_currency: string | null;
  salary_period: string | null;
}

export const PLACE_AND_PAY_COLUMNS = [
  'location_country',
  'location_region',
  'location_locality',
  'location_address',
  'location_latitude',
  'location_longitude',
  'salary_min',
  'salary_max',
  'salary_currency',
  'salary_period',
] as const satisfies ReadonlyArray<keyof PlaceAndPayColumns>;

/** How many of a period make a year: 12 months, 2,080 working hours (52 weeks of 40). */
export const PER_YEAR: Record<Period, number> = { YEAR: 1, MONTH: 12, HOUR: 2080 };

/** The region codes CLDR names that are groupings or placeholders, not countries. */
const NOT_COUNTRIES = new Set(['ZZ', 'EU', 'EZ', 'UN', 'QO']);
const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

export const isCountry = (code: string): boolean =>
  /^[A-Z]{2}$/.test(code) && !NOT_COUNTRIES.has(code) && regionNames.of(code) !== undefined;
export const isCurrency = (code: string): boolean => CURRENCIES.has(code);

const invalid = (field: string, message: string) =>
  new ApiError('C0002', `Field "request.${field}" ${message}`, `request.${field}`);

/** Refuses a place or pay that its schema lets through but the rules do not (400 C0002, naming the field). */
export function checkPlaceAndPay(input: PlaceAndPayInput): void {
  const { location, salary } = input;
  if (location) {
    if (!isCountry(location.country))
      throw invalid(
        'location.country',
        `must be an ISO 3166-1 alpha-2 country code, got ${JSON.stringify(location.country)}`,
      );
    if (((location.latitude ?? null) === null) !== ((location.longitude ?? null) === null)) {
      throw invalid(
        (location.latitude ?? null) === null ? 'location.latitude' : 'location.longitude',
        'is required with the other coordinate: give both or neither',
      );
    }
  }
  if (salary) {
    if (!isCurrency(salary.currency))
      throw invalid('salary.currency', `must be an ISO 4217 currency code, got ${JSON.stringify(salary.currency)}`);
    const min = salary.min ?? null;
    const max = salary.max ?? null;
    if (min === null && max === null)
      throw invalid('salary.min', 'or "request.salary.max" is required: a salary states at least one amount');
    if (min !== null && max !== null && min > max)
      throw invalid('salary.min', `must not be above max (${min} > ${max})`);
  }
}

/** The columns a write sets for the place and pay it gives (none for what it leaves out; null clears). */
export function placeAndPayColumns(input: PlaceAndPayInput): Partial<PlaceAndPayColumns> {
  const { location, salary } = input;
  return {
    ...(location !== undefined && {
      location_country: location?.country ?? null,
      location_region: location?.region ?? null,
      location_locality: location?.locality ?? null,
      location_address: location?.address ?? null,
      location_latitude: location?.latitude ?? null,
      location_longitude: location?.longitude ?? null,
    }),
    ...(salary !== undefined && {
      salary_min: salary?.min ?? null,
      salary_max: salary?.max ?? null,
      salary_currency: salary?.currency ?? null,
      salary_period: salary ? (salary.period ?? 'YEAR') : null,
    }),
  };
}

/** The columns of a row's place (a job's, a company's). */
export type LocationColumn =
  | 'location_country'
  | 'location_region'
  | 'location_locality'
  | 'location_address'
  | 'location_latitude'
  | 'location_longitude';

/** A row's place as responses show it; null when it has none. */
export function locationOf(row: Pick<PlaceAndPayColumns, LocationColumn>): Location | null {
  if (row.location_country === null) return null;
  return {
    country: row.location_country,
    region: row.location_region,
    locality: row.location_locality,
    address: row.location_address,
    latitude: row.location_latitude === null ? null : Number(row.location_latitude),
    longitude: row.location_longitude === null ? null : Number(row.location_longitude),
  };
}

/** A row's pay as responses show it; null when it states none. */
export function salaryOf(row: PlaceAndPayColumns): Salary | null {
  if (row.salary_currency === null) return null;
  return {
    min: row.salary_min === null ? null : Number(row.salary_min),
    max: row.salary_max === null ? null : Number(row.salary_max),
    currency: row.salary_currency,
    period: row.salary_period as Period,
  };
}

/**
 * A row's pay as yearly amounts, [least, most]: a range stated by one end alone is that amount at both ends (so
 * "pays at least X" and "starts at no more than Y" each read the one amount there is). Null when it states none.
 */
export function yearlyRange(
  row: Pick<PlaceAndPayColumns, 'salary_min' | 'salary_max' | 'salary_currency' | 'salary_period'>,
): [number, number] | null {
  if (row.salary_currency === null) return null;
  const per = PER_YEAR[row.salary_period as Period] ?? 1;
  const min = row.salary_min === null ? null : Number(row.salary_min) * per;
  const max = row.salary_max === null ? null : Number(row.salary_max) * per;
  return [min ?? max!, max ?? min!];
}

/** The point of a search's `near` (`<latitude>,<longitude>`, as its schema lets it through), checked to be on Earth. */
export function nearPoint(near: string): { latitude: number; longitude: number } {
  const [latitude, longitude] = near.split(',').map(Number) as [number, number];
  if (!(Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180)) {
    throw new ApiError(
      'C0005',
      `Query parameter "near" must be <latitude>,<longitude> within ±90 and ±180 degrees, got ${JSON.stringify(near)}`,
      'near',
    );
  }
  return { latitude, longitude };
}
