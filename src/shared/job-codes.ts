import { EMPLOYMENT_TYPES, inCodeOrder, SENIORITIES } from './catalog-data.js';

/**
 * A job's seniorities and employment types as its own row keeps them (migration 024): a column each, the codes in
 * catalog order joined by commas, '' for none. No code holds a comma (catalog-data.ts).
 */
const stored = (codes: readonly string[], order: readonly string[]): string => inCodeOrder(codes, order).join(',');

/** The codes of a stored column, in catalog order; a code the catalog no longer has is left out. */
const codesOf = <T extends string>(column: string, order: readonly T[]): T[] =>
  column === '' ? [] : inCodeOrder(column.split(','), order);

/** The columns of a job's codes, from the codes a request gives (only those it gives). */
export function jobCodeColumns(input: { seniorities?: readonly string[]; employmentTypes?: readonly string[] }): {
  seniorities?: string;
  employment_types?: string;
} {
  return {
    ...(input.seniorities && { seniorities: stored(input.seniorities, SENIORITIES) }),
    ...(input.employmentTypes && { employment_types: stored(input.employmentTypes, EMPLOYMENT_TYPES) }),
  };
}

/** A job's codes as responses show them, from its row. */
export function jobCodesOf(row: { seniorities: string; employment_types: string }): {
  seniorities: Array<(typeof SENIORITIES)[number]>;
  employmentTypes: Array<(typeof EMPLOYMENT_TYPES)[number]>;
} {
  return {
    seniorities: codesOf(row.seniorities, SENIORITIES),
    employmentTypes: codesOf(row.employment_types, EMPLOYMENT_TYPES),
  };
}
