/**
 * The code catalogs the service runs with: the latest dated copy (catalogs-2026-11-28.ts, which the migrations
 * wrote into the database), and what the schemas and services derive from it.
 */
import { CATALOG_DATA, type CatalogName } from './catalogs-2026-11-28.js';

export {
  CATALOG_DATA,
  CATALOG_NAMES,
  CODE_DESCRIPTIONS,
  INDUSTRY_GROUPS,
  industryGroupOf,
  LOCALES,
  type CatalogName,
  type Locale,
} from './catalogs-2026-11-28.js';

/** The catalogs whose codes the reference declares as enums: the request and response schemas use these values. */
export const SENIORITIES = ['BEGINNER', 'JUNIOR', 'MIDLEVEL', 'SENIOR', 'EXECUTIVE'] as const;
export const EMPLOYMENT_TYPES = [
  'FULL_TIME',
  'FIXED_TERM',
  'COMMISSIONED',
  'INTERN',
  'FREELANCER',
  'SELF_EMPLOYED',
] as const;
export const EVENT_CATEGORIES = [
  'MARKET',
  'FAIR',
  'CONFERENCE',
  'NETWORKING',
  'BUSINESS',
  'COMPETITION',
  'LIFESTYLE',
] as const;
export const EVENT_SUBJECTS = [
  'WEB3',
  'TECHNOLOGY',
  'PRODUCT',
  'FINANCE',
  'HUMANITIES',
  'BUSINESS',
  'CULTURE',
] as const;

/** The stored values that are codes of `order`, once each, in its order (what a response lists). */
export function inCodeOrder<T extends string>(stored: readonly string[], order: readonly T[]): T[] {
  return order.filter((code) => stored.includes(code));
}

/** Codes of one catalog, in display order. */
export function catalogCodes(name: CatalogName): string[] {
  return CATALOG_DATA[name].map(([code]) => code);
}
