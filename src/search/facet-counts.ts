/**
 * Facet counts (DECISIONS.md "Search results"): for a filter menu, how many of a search's matches hold each
 * value of a facet. Read from the index alone: the size of the intersection of the matches with each value's
 * posting, never a row per match.
 */
import type { Bitmap } from './bitmaps.js';
import type { PostingIndex } from './posting-index.js';

export interface FacetCount { value: string; count: number }

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
 * How many of `matches` hold each value of a facet kind (search-documents.ts FACET_KIND), most first. With
 * `top`, the values beyond it are dropped, except those counting as many as the last kept: the order among
 * equal counts is by the value the client sees (a company's handle, not the id held here), decided later.
 */
export function countValues(index: PostingIndex, matches: Bitmap, kind: string, top = Number.POSITIVE_INFINITY): FacetCount[] {
  const counts: FacetCount[] = [];
  if (matches.isEmpty) return counts;
  for (const [value, posting] of index.facetValues(kind)) {
    const count = matches.andCardinality(posting);
    if (count > 0) counts.push({ value, count });
  }
  mostFirst(counts);
  if (counts.length <= top) return counts;
  const least = counts[top - 1]!.count;
  return counts.filter((c) => c.count >= least);
}

/** How many of `matches` have a property (a facet kind without values, such as "has images") and how many not. */
export function countFlag(index: PostingIndex, matches: Bitmap, kind: string): FacetCount[] {
  const posting = index.facetValues(kind).get('');
  const yes = posting ? matches.andCardinality(posting) : 0;
  return mostFirst([{ value: 'true', count: yes }, { value: 'false', count: matches.size - yes }].filter((c) => c.count > 0));
}

/**
 * The counts with company ids (as the index holds them) turned into the handles that the `companyId` filter
 * takes; a company gone since is left out.
 */
export async function withCompanyHandles(
  facets: FacetCounts | undefined, handles: (ids: number[]) => Promise<Map<number, string>>,
): Promise<FacetCounts | undefined> {
  const companies = facets?.companyId;
  if (!facets || !companies) return facets;
  const named = await handles(companies.map((c) => Number(c.value)));
  return {
    ...facets,
    companyId: mostFirst(companies.flatMap((c) => {
      const handle = named.get(Number(c.value));
      return handle === undefined ? [] : [{ value: handle, count: c.count }];
    }), FACET_TOP),
  };
}
