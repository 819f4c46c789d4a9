/**
 * Typo tolerance (docs/search.md "Typos"): each word of a keyword also matches the words of the index within a few
 * edits of it. A word of a spaced script matches at one edit from 5 letters and two from 9 (Meilisearch's lengths),
 * by the optimal-string-alignment distance (a swap of two neighbours is one edit, as in Lucene's FuzzyQuery), never
 * at its first letter; a Korean word of 3 syllables or more matches at one edit of the letters it is typed with
 * (hangul.ts), as long as every bigram of the corrected word is in the index. Every other word matches only itself.
 */
import { RoaringBitmap32, type Bitmap } from './bitmaps.js';
import {
  FINAL_LETTERS as FINALS,
  INITIALS,
  isSyllable,
  SYLLABLES,
  typedLetters,
  VOWEL_LETTERS as VOWELS,
} from './hangul.js';
import type { PostingIndex } from './posting-index.js';
import { queryTerms, type QueryWord } from './search-text.js';

/** The edits a word of a spaced script may differ by: by its length in letters. */
export const editsFor = (letters: number): number => (letters >= 9 ? 2 : letters >= 5 ? 1 : 0);

/** A Korean word is corrected from this many syllables, up to KOREAN_MOST. */
const KOREAN_SYLLABLES = 3;
/**
 * The bounds of a search's corrections, counted after NFKC (one character such as ㉼ is two syllables once normalized):
 * the work of the worst keyword grows with these, never with its length. A Korean word past KOREAN_MOST syllables and
 * a spaced word past SPACED_MOST letters is no slip of a key: it matches only itself. Only the first CORRECTED_WORDS
 * words are corrected. And a search compares at most CANDIDATE_BUDGET candidate words with the keyword's words (an
 * edit distance of at most SPACED_MOST + 2 letters each, or a Korean neighbour's bigrams looked up): past it, the
 * words left match only themselves.
 */
const KOREAN_MOST = 10;
const SPACED_MOST = 24;
const CORRECTED_WORDS = 8;
export const CANDIDATE_BUDGET = 20_000;

/** What is left of a search's comparisons (CANDIDATE_BUDGET). */
interface Budget {
  left: number;
}

/** The optimal-string-alignment distance of two strings of code points, or `max + 1` once it must exceed `max`. */
export function editDistance(a: readonly string[], b: readonly string[], max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let current = new Array<number>(b.length + 1).fill(0);
  // A swap reaches back two rows: only two rows in a row past `max` show that every later one is.
  let leastBefore = 0;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let least = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      current[j] = d;
      if (d < least) least = d;
    }
    if (least > max && leastBefore > max) return max + 1;
    leastBefore = least;
    [before, previous, current] = [previous, current, before];
  }
  return Math.min(previous[b.length]!, max + 1);
}

/**
 * The words of the index's spaced scripts by first letter and length, for the words a typo may have meant. Takes the
 * vocabulary's new names as they come (the vocabulary only grows), so a word written since is found.
 */
export class SpacedWords {
  private readonly byStart = new Map<string, Map<number, string[]>>();
  private seen = 0;

  /**
   * The index's words within `edits` of `word` (its first letter kept), `word` itself left out; each candidate compared
   * spends one of `budget`, and none is compared once it is spent.
   */
  similar(index: PostingIndex, word: string, edits: number, budget: Budget = { left: Infinity }): string[] {
    this.catchUp(index.tokenNames());
    const letters = [...word];
    const lengths = this.byStart.get(letters[0]!);
    if (!lengths) return [];
    const found: string[] = [];
    for (let length = letters.length - edits; length <= letters.length + edits; length++) {
      for (const candidate of lengths.get(length) ?? []) {
        if (budget.left <= 0) return found;
        budget.left--;
        if (candidate !== word && editDistance(letters, [...candidate], edits) <= edits) found.push(candidate);
      }
    }
    return found;
  }

  private catchUp(names: readonly string[]): void {
    for (; this.seen < names.length; this.seen++) {
      const name = names[this.seen]!;
      const letters = [...name];
      // Spaced-script words only: no facet token (a private-use mark), no CJK bigram or character.
      if (
        letters.length < 4 ||
        !/^[\p{L}\p{N}\p{M}]+$/u.test(name) ||
        /[\p{Script=Han}\p{Script=Hangul}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(name)
      )
        continue;
      let lengths = this.byStart.get(letters[0]!);
      if (!lengths) this.byStart.set(letters[0]!, (lengths = new Map()));
      let list = lengths.get(letters.length);
      if (!list) lengths.set(letters.length, (list = []));
      list.push(name);
    }
  }
}

/** For each vowel and final (hangul.ts order), the others one typed letter away from it: ㅏ and ㅘ (ㅗㅏ), ㄱ and ㄳ (ㄱㅅ)… */
const oneLetterApart = (letters: readonly string[]): number[][] =>
  letters.map((a, i) =>
    letters.flatMap((b, j) => (j !== i && editDistance([...typedLetters(a)], [...typedLetters(b)], 1) <= 1 ? [j] : [])),
  );
const NEAR_VOWELS = oneLetterApart([...VOWELS]);
const NEAR_FINALS = oneLetterApart(FINALS);

/**
 * The Korean words one typed letter away from `word` (all syllables): one syllable's initial changed, or its vowel
 * or final changed, added or dropped by one letter. Keeps the word's syllable count, as a single slip of the
 * keyboard does.
 */
function koreanNeighbours(word: string): string[] {
  const syllables = [...word];
  const out: string[] = [];
  syllables.forEach((syllable, i) => {
    const n = syllable.charCodeAt(0) - SYLLABLES;
    const [initial, vowel, final] = [Math.floor(n / 588), Math.floor((n % 588) / 28), n % 28];
    const at = (a: number, b: number, c: number) => {
      syllables[i] = String.fromCharCode(SYLLABLES + a * 588 + b * 28 + c);
      out.push(syllables.join(''));
    };
    for (let a = 0; a < INITIALS.length; a++) if (a !== initial) at(a, vowel, final);
    for (const b of NEAR_VOWELS[vowel]!) at(initial, b, final);
    for (const c of NEAR_FINALS[final]!) at(initial, vowel, c);
    syllables[i] = syllable;
  });
  return out;
}

/** Each index's words by first letter and length, made at its first typo-tolerant search. */
const spacedWords = new WeakMap<PostingIndex, SpacedWords>();

/** The terms of a CJK word: its bigrams. */
const bigrams = (word: string): string[] => {
  const chars = [...word];
  return chars.slice(0, -1).map((c, i) => c + chars[i + 1]!);
};

/**
 * What each word of a keyword may match: its own terms first, then each correction's (a list of terms all required).
 * A correction is kept only when the index holds every term of it. Bounded (KOREAN_MOST, SPACED_MOST,
 * CORRECTED_WORDS, CANDIDATE_BUDGET), so the worst keyword costs a bounded number of comparisons.
 */
export function alternativesOf(
  index: PostingIndex,
  words: readonly QueryWord[],
  budget: Budget = { left: CANDIDATE_BUDGET },
): string[][][] {
  let spaced = spacedWords.get(index);
  if (!spaced) spacedWords.set(index, (spaced = new SpacedWords()));
  return words.map((word, i) => {
    const own = [word.terms];
    if (i >= CORRECTED_WORDS || budget.left <= 0) return own;
    const chars = [...word.text];
    if (!word.cjk) {
      const edits = chars.length > SPACED_MOST ? 0 : editsFor(chars.length);
      return edits === 0 ? own : [...own, ...spaced.similar(index, word.text, edits, budget).map((w) => [w])];
    }
    if (chars.length < KOREAN_SYLLABLES || chars.length > KOREAN_MOST) return own;
    if (!chars.every((c) => isSyllable(c.charCodeAt(0)))) return own;
    const corrections: string[][] = [];
    for (const neighbour of koreanNeighbours(word.text)) {
      if (budget.left-- <= 0) break;
      const terms = bigrams(neighbour);
      if (terms.every((t) => index.postingSize(t) > 0)) corrections.push(terms);
    }
    return [...own, ...corrections];
  });
}

/** The documents of `within` that match every word by one of its alternatives. */
export function matchAlternatives(index: PostingIndex, alternatives: readonly string[][][], within: Bitmap): Bitmap {
  let result: Bitmap = within;
  for (const word of alternatives) {
    const matches = word.map((terms) => index.match({ all: terms.map((t) => [t]), none: [] }, result));
    result = matches.length === 1 ? matches[0]! : RoaringBitmap32.orMany(matches);
    if (result.isEmpty) break;
  }
  return result === within ? RoaringBitmap32.and(within, within) : result;
}

/** The keyword with each word no document holds replaced by its most frequent correction; null when there is none. */
export function correctedKeyword(
  index: PostingIndex,
  words: readonly QueryWord[],
  alternatives: readonly string[][][],
): string | null {
  let changed = false;
  const corrected = words.map((word, i) => {
    const [own, ...corrections] = alternatives[i]!;
    if (own!.every((t) => index.postingSize(t) > 0) || corrections.length === 0) return word.text;
    const frequency = (terms: string[]) => Math.min(...terms.map((t) => index.postingSize(t)));
    const best = corrections.reduce((a, b) => (frequency(b) > frequency(a) ? b : a));
    changed = true;
    return word.cjk
      ? best[0]! +
          best
            .slice(1)
            .map((t) => [...t].at(-1))
            .join('')
      : best[0]!;
  });
  return changed ? corrected.join(' ') : null;
}

/**
 * A keyword's matches: `exact` holds every term, `result` adds those matched by a correction (`corrections`: their
 * terms); `alternatives`: what each word may match (alternativesOf), null when typos were not tolerated.
 */
export interface KeywordMatches {
  result: Bitmap;
  exact: Bitmap;
  corrections: string[];
  alternatives: string[][][] | null;
}

/**
 * The matches of a search whose keyword matched `exact`; with `alternatives` (typo tolerance asked for: the keyword's
 * words' alternativesOf, worked out once per search, whatever its facets ask again), also the documents that
 * `withoutKeyword()` (the search's other filters) gives and that match each word or one of its corrections.
 */
export function keywordMatches(
  index: PostingIndex,
  alternatives: string[][][] | null,
  exact: Bitmap,
  withoutKeyword: () => Bitmap,
): KeywordMatches {
  if (!alternatives) return { result: exact, exact, corrections: [], alternatives: null };
  if (alternatives.every((word) => word.length === 1)) return { result: exact, exact, corrections: [], alternatives };
  const result = matchAlternatives(index, alternatives, withoutKeyword());
  return {
    result,
    exact,
    corrections: [...new Set(alternatives.flatMap((word) => word.slice(1).flat()))],
    alternatives,
  };
}

/**
 * For a search that matched nothing exactly: the keyword corrected (correctedKeyword, from the alternatives the
 * search worked out), when the search with it would match (`matches` tells, given its terms); null otherwise.
 */
export function didYouMean(
  index: PostingIndex,
  words: readonly QueryWord[],
  alternatives: readonly string[][][],
  matches: (terms: string[]) => boolean,
): string | null {
  const corrected = correctedKeyword(index, words, alternatives);
  return corrected !== null && matches(queryTerms(corrected)) ? corrected : null;
}
