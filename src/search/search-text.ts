/**
 * One tokenizer for both engines, so SQLite FTS5 and PostgreSQL index and match exactly the same terms.
 *
 * Korean, Japanese and Chinese are written without spaces between words, so their runs are indexed as
 * overlapping character bigrams (`백엔드개발자` → 백엔 엔드 드개 개발 발자) plus the run's last character
 * alone, so that a one-character query can match by prefix anywhere in the run. Other scripts are split
 * into words. Text is NFKC-normalized and lower-cased first.
 */

const CJK = /[\p{Script=Hangul}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30fc]/u;
const TOKEN_RUN = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;

export interface SearchTerm {
  text: string;
  prefix: boolean;
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

/** The tokens stored for a document: space-separated, ready for either engine. */
export function documentTokens(...texts: Array<string | null | undefined>): string {
  const tokens: string[] = [];
  for (const text of texts) {
    if (!text) continue;
    for (const run of splitRuns(text)) {
      if (!isCjkRun(run)) {
        tokens.push(run);
        continue;
      }
      const chars = Array.from(run);
      for (let i = 0; i + 1 < chars.length; i++) tokens.push(chars[i]! + chars[i + 1]!);
      tokens.push(chars[chars.length - 1]!);
    }
  }
  return tokens.join(' ');
}

/** The terms a keyword must all match. An empty list means the keyword has nothing searchable. */
export function queryTerms(keyword: string): SearchTerm[] {
  const terms = new Map<string, SearchTerm>();
  for (const run of splitRuns(keyword)) {
    if (!isCjkRun(run)) {
      terms.set(run, { text: run, prefix: false });
      continue;
    }
    const chars = Array.from(run);
    if (chars.length === 1) {
      terms.set(`${run}*`, { text: run, prefix: true });
      continue;
    }
    for (let i = 0; i + 1 < chars.length; i++) {
      const bigram = chars[i]! + chars[i + 1]!;
      terms.set(bigram, { text: bigram, prefix: false });
    }
  }
  return [...terms.values()];
}
