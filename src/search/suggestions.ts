/**
 * Completions of what a user is typing, from facet tokens the documents hold (a job's title, its company's name, the
 * words of its title): every value whose typed letters (hangul.ts) begin with the prefix's, or, for a prefix of
 * Hangul consonants alone, whose initial letters do; each counted among the documents of a bitmap (the jobs hiring
 * now), most first. The values' keys are sorted once per vocabulary and found by binary search; the counts are
 * intersections, taken in the order of the postings' sizes (a bound on each count) until no value left could
 * enter the top.
 */
import type { Bitmap } from './bitmaps.js';
import { initialLetters, onlyConsonants, typedLetters } from './hangul.js';
import { countWithin, postingSize, type Posting, type PostingIndex } from './posting-index.js';
import { facet } from './search-text.js';

export interface Suggestion {
  text: string;
  type: string;
  count: number;
}

/** A facet kind whose values are suggested, and the type the suggestions of its values carry. */
export interface SuggestedKind {
  kind: string;
  type: string;
}

interface Entry {
  value: string;
  type: string;
  token: string;
}
interface Keys {
  keys: string[];
  entries: Entry[];
}

/** Below this many candidates every one is counted; above it, by their bounds. */
const COUNT_ALL = 64;

export class Suggestions {
  private built = new WeakMap<PostingIndex, { values: number; typed: Keys; initials: Keys }>();

  constructor(private readonly kinds: readonly SuggestedKind[]) {}

  /** Up to `limit` values beginning with `prefix`, counted among `within`, most first (then by text); none counted 0. */
  find(index: PostingIndex, within: Bitmap, prefix: string, limit: number): Suggestion[] {
    const { typed, initials } = this.keysOf(index);
    const candidates = new Set(rangeOf(typed, typedLetters(prefix)));
    if (onlyConsonants(prefix))
      for (const entry of rangeOf(initials, initialLetters(prefix).replace(/\s+/g, ''))) candidates.add(entry);
    const postings = [...candidates].flatMap((entry) => {
      const posting = index.heldPosting(entry.token);
      return posting === undefined ? [] : [{ entry, posting }];
    });
    const counted = (entry: Entry, posting: Posting): Suggestion => ({
      text: entry.value,
      type: entry.type,
      count: countWithin(posting, within),
    });
    if (postings.length <= COUNT_ALL)
      return best(
        postings.map(({ entry, posting }) => counted(entry, posting)),
        limit,
      );
    // A posting holds every document that ever had the value (removed ones too): its size bounds the count.
    const bounded = postings.map((p) => ({ ...p, bound: postingSize(p.posting) })).sort((a, b) => b.bound - a.bound);
    let top: Suggestion[] = [];
    for (const { entry, posting, bound } of bounded) {
      if (top.length >= limit && bound < top.at(-1)!.count) break;
      top = best([...top, counted(entry, posting)], limit);
    }
    return top;
  }

  /** The values' keys in both forms, sorted; made again when the vocabulary of the kinds has grown. */
  private keysOf(index: PostingIndex): { typed: Keys; initials: Keys } {
    const values = this.kinds.reduce((n, { kind }) => n + index.facetValues(kind).size, 0);
    const known = this.built.get(index);
    if (known?.values === values) return known;
    const entries = this.kinds.flatMap(({ kind, type }) =>
      [...index.facetValues(kind).keys()].map((value) => ({ value, type, token: facet(kind, value) })),
    );
    const keyed = (form: (text: string) => string): Keys => {
      const pairs = entries
        .map((entry) => ({ key: form(entry.value), entry }))
        .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      return { keys: pairs.map((p) => p.key), entries: pairs.map((p) => p.entry) };
    };
    const made = {
      values,
      typed: keyed(typedLetters),
      initials: keyed((text) => initialLetters(text).replace(/\s+/g, '')),
    };
    this.built.set(index, made);
    return made;
  }
}

/** The entries whose key begins with `prefix`. */
function rangeOf({ keys, entries }: Keys, prefix: string): Entry[] {
  if (prefix === '') return [];
  const first = lowerBound(keys, prefix);
  let last = first;
  while (last < keys.length && keys[last]!.startsWith(prefix)) last++;
  return entries.slice(first, last);
}

function lowerBound(keys: string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Most first, then by text and type (code-unit order), at most `limit`; none counted 0. */
function best(counted: Suggestion[], limit: number): Suggestion[] {
  return counted
    .filter((s) => s.count > 0)
    .sort(
      (a, b) =>
        b.count - a.count ||
        (a.text < b.text ? -1 : a.text > b.text ? 1 : a.type < b.type ? -1 : a.type > b.type ? 1 : 0),
    )
    .slice(0, limit);
}
