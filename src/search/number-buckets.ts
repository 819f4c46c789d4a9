/**
 * Amounts as index tokens: a bucket per sixteenth of a power of two (each 2^(1/16) times as wide as the one before), so
 * that "at least X" is every document but those of the buckets below X's, and an exact check of the few documents in
 * X's own; and the coarser 1-2-5 ranges (…, 20,000–50,000, 50,000–100,000, …) a facet counts by.
 */

const PER_OCTAVE = 16;

/** The bucket of an amount; every amount below 1 shares bucket -1. */
export const bucketOf = (amount: number): number => (amount < 1 ? -1 : Math.floor(Math.log2(amount) * PER_OCTAVE));

/** The 1-2-5 range [low, high) that holds an amount (amounts below 1 in [0, 1)). */
export function rangeOf(amount: number): [number, number] {
  if (amount < 1) return [0, 1];
  let decade = 10 ** Math.floor(Math.log10(amount));
  // A floating logarithm can put a power of ten in the decade below it.
  if (decade * 10 <= amount) decade *= 10;
  if (amount < decade * 2) return [decade, decade * 2];
  if (amount < decade * 5) return [decade * 2, decade * 5];
  return [decade * 5, decade * 10];
}
