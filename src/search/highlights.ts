/**
 * Why a result matched (docs/search.md "Highlights"): for each field of an item whose text holds a term of the search,
 * up to three fragments of at most 160 characters around the matches, each with the matched spans as [start, end)
 * offsets in UTF-16 code units of the fragment's own text. Plain text, no markup: the client marks the spans.
 */
import { termSpans } from './search-text.js';

export const FRAGMENT_CHARS = 160;
export const FRAGMENTS_PER_FIELD = 3;
/** How much of the text before a match a fragment shows, when it can. */
const LEAD_CHARS = 30;

export interface Fragment {
  text: string;
  matches: Array<[number, number]>;
}
export interface FieldHighlight {
  field: string;
  fragments: Fragment[];
}

/** The highlights of an item's fields (name and shown text, in the order given); a field without a match is left out. */
export function highlightsOf(
  fields: ReadonlyArray<readonly [string, string | null | undefined]>,
  terms: ReadonlySet<string>,
): FieldHighlight[] {
  if (terms.size === 0) return [];
  return fields.flatMap(([field, text]) => {
    const spans = text ? termSpans(text, terms) : [];
    return spans.length === 0 ? [] : [{ field, fragments: fragmentsOf(text!, spans) }];
  });
}

/** Fragments around `spans` (sorted, apart), the first at the first span; a span a fragment cannot hold whole starts the next. */
export function fragmentsOf(text: string, spans: ReadonlyArray<[number, number]>): Fragment[] {
  if (text.length <= FRAGMENT_CHARS) return [{ text, matches: spans.map(([a, b]) => [a, b]) }];
  const fragments: Fragment[] = [];
  let next = 0;
  while (next < spans.length && fragments.length < FRAGMENTS_PER_FIELD) {
    const [first] = spans[next]!;
    let start = Math.max(0, Math.min(first - LEAD_CHARS, text.length - FRAGMENT_CHARS));
    if (isLowSurrogate(text, start)) start--;
    let end = Math.min(text.length, start + FRAGMENT_CHARS);
    if (isLowSurrogate(text, end)) end--;
    const matches: Array<[number, number]> = [];
    while (next < spans.length && spans[next]![0] < end) {
      const [a, b] = spans[next]!;
      // A span longer than a fragment is cut at the fragment's end.
      if (b > end && matches.length > 0) break;
      matches.push([a - start, Math.min(b, end) - start]);
      next++;
    }
    fragments.push({ text: text.slice(start, end), matches });
  }
  return fragments;
}

const isLowSurrogate = (text: string, at: number): boolean => {
  const code = text.charCodeAt(at);
  return at > 0 && at < text.length && code >= 0xdc00 && code < 0xe000;
};
