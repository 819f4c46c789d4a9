/**
 * How often a token repeats in each document that holds it, in tiers: a document is in tier i of a token when
 * the token occurs at least TIERS[i] times in it. The tiers nest (whoever repeats a token 8 times repeats it 4
 * times), so a tier is a part of the one below it (of the token's posting, for the first).
 *
 * A tier is kept in whichever of two forms takes fewer bytes: the documents that reach it, or those of the tier
 * below that do not (`missing`). A token found once or twice in most documents has a small first tier; one
 * repeated in most of its documents (a character of a common word) has a first tier nearly as large as its
 * posting, whose difference is small. At a million posts the second form halves what the tiers take.
 */
import { compact, RoaringBitmap32, type Bitmap } from './bitmaps.js';

export const TIERS = [2, 4, 8] as const;

/** A tier as the index keeps it. */
export interface Tier {
  docs: Bitmap;
  /** True: `docs` are the documents of the tier below (or the posting) that are not in this one. */
  missing: boolean;
}

/** A token's tiers, both forms plain, for a token about to repeat in a document for the first time. */
export const plainTiers = (): Tier[] => TIERS.map(() => ({ docs: new RoaringBitmap32(), missing: false }));

/** How many of TIERS `occurrences` reaches (0: the token occurs once). */
export function levelOf(occurrences: number): number {
  let level = 0;
  while (level < TIERS.length && occurrences >= TIERS[level]!) level++;
  return level;
}

/**
 * The tiers that take a document at `level` (for a token whose tiers are `tiers`, undefined when all plain): each
 * plain tier it reaches, and the first it does not reach if that one is kept as its missing documents.
 */
export function tiersTaking(tiers: readonly Tier[] | undefined, level: number, take: (tier: number) => void): void {
  for (let tier = 0; tier < TIERS.length && tier <= level; tier++) {
    const missing = tiers?.[tier]!.missing ?? false;
    if (tier < level ? !missing : missing) take(tier);
  }
}

/**
 * Keeps each tier in its smaller form (after a build; the tiers must all be plain and compacted). From the highest down, so that
 * the tier below is still plain when a tier's missing documents are worked out.
 */
export function compactTiers(posting: Bitmap, tiers: Tier[]): void {
  for (let i = tiers.length - 1; i >= 0; i--) {
    const tier = tiers[i]!;
    const missing = RoaringBitmap32.andNot(i === 0 ? posting : tiers[i - 1]!.docs, tier.docs);
    compact(missing);
    if (missing.getSerializationSizeInBytes('portable') < tier.docs.getSerializationSizeInBytes('portable')) {
      tier.docs.dispose();
      tiers[i] = { docs: missing, missing: true };
    } else {
      missing.dispose();
    }
  }
}

/** For each tier, the documents of `holding` (documents that hold the token) that reach it: temporary bitmaps. */
export function tiersWithin(holding: Bitmap, tiers: readonly Tier[]): Bitmap[] {
  let reached = holding;
  return tiers.map(
    (tier) =>
      (reached = tier.missing ? RoaringBitmap32.andNot(reached, tier.docs) : RoaringBitmap32.and(reached, tier.docs)),
  );
}

/** How many tiers document `doc` (which holds the token) reaches. */
export function levelIn(tiers: readonly Tier[], doc: number): number {
  let level = 0;
  while (level < tiers.length && tiers[level]!.docs.has(doc) !== tiers[level]!.missing) level++;
  return level;
}
