/**
 * One tokenizer for the search indexes' documents and for keywords, so both meet on exactly the same terms.
 *
 * Korean, Japanese and Chinese are written without spaces between words, so their runs are indexed as
 * overlapping character bigrams (`백엔드개발자` → 백엔 엔드 드개 개발 발자) plus every character alone, so
 * that a one-character keyword is one exact term (reading one posting list, however common the character).
 * Other scripts are split into words. Text is NFKC-normalized and lower-cased first.
 *
 * Facet tokens (`facet('i')`, `facet('c', '12')`) describe a document's filterable properties. They start with
 * a private-use character, which is stripped from every text and keyword, so no text can produce one.
 */

const CJK = /[\p{Script=Hangul}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30fc]/u;
const TOKEN_RUN = /[\p{L}\p{N}\p{M}]+/gu;
const FACET_MARK = '\uE000';

/**
 * The token of a document property: a facet `kind` (one letter: `c` company, `k` job category…) and its value
 * as stored (`facet('k', 'dataAi')`), or the kind alone for a property a document has or not (`facet('i')`).
 * The value is kept whole, so that facet counts (facet-counts.ts) read the values back from the tokens.
 */
export const facet = (kind: string, value = ''): string => `${FACET_MARK}${kind}${value}`;

/** The kind and value of a facet token; null for a text token. */
export function facetParts(token: string): { kind: string; value: string } | null {
  if (!token.startsWith(FACET_MARK) || token.length < 2) return null;
  return { kind: token[1]!, value: token.slice(2) };
}

function splitRuns(text: string): string[] {
  const normalized = text.normalize('NFKC').toLowerCase();
  const runs: string[] = [];
  for (const match of normalized.matchAll(TOKEN_RUN)) {
    // Split each word-character run further where it switches between CJK and other scripts.
    let current = '';
    let currentIsCjk = false;
    for (const ch of match[0]) {
      const isCjk = CJK.test(ch);
      if (current !== '' && isCjk !== currentIsCjk) {
        runs.push(current);
        current = '';
      }
      current += ch;
      currentIsCjk = isCjk;
    }
    if (current !== '') runs.push(current);
  }
  return runs;
}

function isCjkRun(run: string): boolean {
  return CJK.test(run[0] ?? '');
}

/**
 * Words longer than a keyword may be (100 characters) can never be searched for, so they are not indexed;
 * this also keeps every token far below PostgreSQL's limit on a lexeme (2,046 bytes).
 */
const MAX_WORD_CHARS = 100;

/** The text tokens of a document: bigrams and single characters of CJK runs, words of other scripts. */
export function textTokens(...texts: Array<string | null | undefined>): string[] {
  const tokens: string[] = [];
  for (const text of texts) {
    if (!text) continue;
    for (const run of splitRuns(text)) {
      if (!isCjkRun(run)) {
        if (run.length <= MAX_WORD_CHARS) tokens.push(run);
        continue;
      }
      const chars = Array.from(run);
      for (let i = 0; i + 1 < chars.length; i++) tokens.push(chars[i]! + chars[i + 1]!);
      for (const ch of new Set(chars)) tokens.push(ch);
    }
  }
  return tokens;
}

/** The tokens stored for a document (texts, then facets): space-separated, ready for either engine. */
export function documentTokens(...texts: Array<string | null | undefined>): string {
  return textTokens(...texts).join(' ');
}

/** The terms a keyword must all match. An empty list means the keyword has nothing searchable. */
export function queryTerms(keyword: string): string[] {
  const terms = new Set<string>();
  for (const run of splitRuns(keyword)) {
    if (!isCjkRun(run)) {
      terms.add(run);
      continue;
    }
    const chars = Array.from(run);
    if (chars.length === 1) terms.add(run);
    for (let i = 0; i + 1 < chars.length; i++) terms.add(chars[i]! + chars[i + 1]!);
  }
  return [...terms];
}
