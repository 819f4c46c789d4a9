/**
 * Facet counts (docs/decisions.md "Search results"): for a filter menu, how many of a search's matches hold each
 * value of a facet. Read from the index alone: the size of the intersection of the matches with each value's
 * posting, never a row per match.
 */
import type { Bitmap } from './bitmaps.js';
import { countWithin, type FacetColumn, type Posting, type PostingIndex } from './posting-index.js';

export interface FacetCount {
  value: string;
  count: number;
}

/** The counts of each facet asked for, by the name of its search parameter. */
export type FacetCounts = Record<string, FacetCount[]>;

/** Open-ended facets (companies) give their most frequent this many values; catalog facets give every value. */
export const FACET_TOP = 20;

/** The counts of a search that can match nothing (a keyword with nothing searchable): no values for any facet. */
export const noMatchFacets = (names: readonly string[] | undefined): FacetCounts | undefined =>
  names?.length ? Object.fromEntries(names.map((name) => [name, []])) : undefined;

/** A company id no document holds: a filter by a company handle that does not exist matches nothing. */
export const NO_COMPANY = -1;

/** Most matches first, then by value (code-unit order, the same on every engine); at most `top`. */
export function mostFirst(counts: FacetCount[], top = Number.POSITIVE_INFINITY): FacetCount[] {
  return counts.sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0)).slice(0, top);
}

/**
 * How many of `matches` hold each value of a facet kind (fields.ts FACET_KIND), most first. With
 * `top`, the values beyond it are dropped, except those counting as many as the last kept: the order among
 * equal counts is by the value the client sees (a company's handle, not the id held here), decided later.
 */
export function countValues(
  index: PostingIndex,
  matches: Bitmap,
  kind: string,
  top = Number.POSITIVE_INFINITY,
): FacetCount[] {
  if (matches.isEmpty) return [];
  const column = index.facetColumn(kind);
  return mostFirst(
    column !== undefined && readsMatches(matches.size, column.values.length, index.live.size)
      ? countByReading(matches, column, top)
      : atTop(countByIntersecting(matches, index.facetValues(kind)), top),
  );
}

/** The counts at least as large as the top-th largest (all of them when there are no more than `top`). */
function atTop(counts: FacetCount[], top: number): FacetCount[] {
  if (counts.length <= top) return counts;
  const least = countAtRank(
    Float64Array.from(counts, (c) => c.count),
    top,
  );
  return counts.filter((c) => c.count >= least);
}

/**
 * The count of the value at rank `top`, most first: the least a value kept by a top cut counts. Found by sorting
 * the counts alone, so that only the values kept are sorted as objects. `counts` holds more than `top`.
 */
const countAtRank = (counts: Float64Array, top: number): number => counts.sort()[counts.length - top]!;

/**
 * Whether counting reads the matches rather than intersecting them with each value's posting. An intersection
 * costs a call into the library and a pass over the value's containers, one per 65,536 documents; reading a match's
 * value costs a hundredth to a thousandth of that (`npm run bench:facet-cost`). So reading
 * wins below about 128 matches per value, plus one per 1,000 documents: among 12 companies of 1,000,000 documents,
 * below ~13,500 matches; among 10,000 companies, always.
 */
const readsMatches = (matches: number, values: number, documents: number): boolean =>
  matches < values * (128 + documents / 1000);

/** Each value's count, from the size of its posting's intersection with the matches. */
export function countByIntersecting(matches: Bitmap, postings: Iterable<[string, Posting]>): FacetCount[] {
  const counts: FacetCount[] = [];
  for (const [value, posting] of postings) {
    const count = countWithin(posting, matches);
    if (count > 0) counts.push({ value, count });
  }
  return counts;
}

/**
 * Each value's count, from each match's value in the column; with `top`, only the values counting at least as
 * many as the top-th (an object for each of thousands of companies would cost more than the reading).
 */
export function countByReading(matches: Bitmap, column: FacetColumn, top = Number.POSITIVE_INFINITY): FacetCount[] {
  if (tally.length < column.values.length) tally = new Uint32Array(Math.max(column.values.length, tally.length * 2));
  // The values met, in the order met: only they are looked at again, and their tallies set back to 0 at the end.
  const met: number[] = [];
  const docs = matches.toUint32Array();
  for (let i = 0; i < docs.length; i++) {
    const n = column.valueOf(docs[i]!);
    if (n >= 0 && tally[n]!++ === 0) met.push(n);
  }
  const least =
    met.length > top
      ? countAtRank(
          Float64Array.from(met, (n) => tally[n]!),
          top,
        )
      : 1;
  const counts: FacetCount[] = [];
  for (const n of met) {
    if (tally[n]! >= least) counts.push({ value: column.values[n]!, count: tally[n]! });
    tally[n] = 0;
  }
  return counts;
}

/** countByReading's tallies, one per value, all 0 between calls (a count runs in one go, never interleaved). */
let tally = new Uint32Array(1024);

/** How many of `matches` have a property (a facet kind without values, such as "has images") and how many not. */
export function countFlag(index: PostingIndex, matches: Bitmap, kind: string): FacetCount[] {
  const posting = index.facetValues(kind).get('');
  const yes = posting === undefined ? 0 : countWithin(posting, matches);
  return mostFirst(
    [
      { value: 'true', count: yes },
      { value: 'false', count: matches.size - yes },
    ].filter((c) => c.count > 0),
  );
}

/**
 * The counts with company ids (as the index holds them) turned into the handles that the `companyId` filter
 * takes; a company gone since is left out.
 */
export async function withCompanyHandles(
  facets: FacetCounts | undefined,
  handles: (ids: number[]) => Promise<Map<number, string>>,
): Promise<FacetCounts | undefined> {
  const companies = facets?.companyId;
  if (!facets || !companies) return facets;
  const named = await handles(companies.map((c) => Number(c.value)));
  return {
    ...facets,
    companyId: mostFirst(
      companies.flatMap((c) => {
        const handle = named.get(Number(c.value));
        return handle === undefined ? [] : [{ value: handle, count: c.count }];
      }),
      FACET_TOP,
    ),
  };
}
