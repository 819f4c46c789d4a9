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

/** The characters of scripts written without spaces (and the katakana prolonged sound mark, which belongs to no script). */
const CJK = /[\p{Script=Hangul}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30fc]/u;
const WORD = /[\p{L}\p{N}\p{M}]/u;
const FACET_MARK = '\uE000';

/** What a character is to the tokenizer: not part of a word, a word character of a spaced script, or of CJK. */
const OTHER = 0;
const SPACED = 1;
const UNSPACED = 2;
const classOf = (ch: string): number => (!WORD.test(ch) ? OTHER : CJK.test(ch) ? UNSPACED : SPACED);
/** The class of every character of the Basic Multilingual Plane, read once (a table lookup per character after). */
const BMP_CLASS = Uint8Array.from({ length: 0x10000 }, (_, code) =>
  code >= 0xd800 && code < 0xe000 ? OTHER : classOf(String.fromCharCode(code)),
);
const astralClasses = new Map<number, number>();
function astralClass(codePoint: number): number {
  let found = astralClasses.get(codePoint);
  if (found === undefined) astralClasses.set(codePoint, (found = classOf(String.fromCodePoint(codePoint))));
  return found;
}

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

/**
 * Words longer than a keyword may be (100 characters) can never be searched for, so they are not indexed;
 * this also keeps every token far below PostgreSQL's limit on a lexeme (2,046 bytes).
 */
const MAX_WORD_CHARS = 100;

/** The text as the tokenizer reads it: NFKC-normalized and lower-cased. */
const normalized = (text: string): string => text.normalize('NFKC').toLowerCase();

/**
 * Where the tokenizer hands a document's tokens, as they come: a word of a spaced script, a CJK bigram or character
 * (by their UTF-16 codes when both are in the Basic Multilingual Plane, as nearly all are), or any other CJK token
 * as text. The posting index takes them without making a string of each (posting-index.ts); `textTokens` makes
 * the strings.
 */
export interface TokenSink {
  word(word: string): void;
  pair(first: number, second: number): void;
  char(code: number): void;
  /** A CJK bigram or character with a character outside the Basic Multilingual Plane. */
  other(token: string): void;
}

/** Where the scan hands a text's runs: a word of a spaced script, or a CJK run as code points (`codes[0..length)`). */
interface RunSink {
  word(word: string): void;
  cjk(codes: Int32Array, length: number): void;
}

/** A document's tokens of a CJK run: its overlapping bigrams, then each of its characters once, in order of first occurrence. */
function cjkTokens(codes: Int32Array, length: number, sink: TokenSink): void {
  for (let i = 0; i + 1 < length; i++) {
    const a = codes[i]!;
    const b = codes[i + 1]!;
    if (a < 0x10000 && b < 0x10000) sink.pair(a, b);
    else sink.other(String.fromCodePoint(a, b));
  }
  const seen = length > 32 ? new Set<number>() : null;
  for (let i = 0; i < length; i++) {
    const c = codes[i]!;
    if (seen) {
      if (seen.has(c)) continue;
      seen.add(c);
    } else {
      let repeated = false;
      for (let j = 0; j < i && !repeated; j++) repeated = codes[j] === c;
      if (repeated) continue;
    }
    if (c < 0x10000) sink.char(c);
    else sink.other(String.fromCodePoint(c));
  }
}

/** The code points of the CJK run being read (reused: a run is handed over whole before the next begins). */
let runCodes = new Int32Array(256);

/**
 * Reads a normalized text into `sink`: runs of word characters (letters, numbers, marks), split where they switch
 * between CJK and other scripts (`react개발` → `react`, then `개발`); words longer than `longestWord` are left out.
 */
function scan(text: string, sink: RunSink, longestWord = MAX_WORD_CHARS): void {
  let kind = OTHER;
  let start = 0;
  let length = 0;
  for (let i = 0; i <= text.length; ) {
    let code = i < text.length ? text.charCodeAt(i) : -1;
    let width = 1;
    if (code >= 0xd800 && code < 0xdc00 && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low < 0xe000) {
        code = ((code - 0xd800) << 10) + (low - 0xdc00) + 0x10000;
        width = 2;
      }
    }
    const next = code < 0 ? OTHER : code < 0x10000 ? BMP_CLASS[code]! : astralClass(code);
    if (next !== kind) {
      if (kind === SPACED && i - start <= longestWord) sink.word(text.slice(start, i));
      else if (kind === UNSPACED) sink.cjk(runCodes, length);
      kind = next;
      start = i;
      length = 0;
    }
    if (kind === UNSPACED) {
      if (length === runCodes.length) {
        const grown = new Int32Array(runCodes.length * 2);
        grown.set(runCodes);
        runCodes = grown;
      }
      runCodes[length++] = code;
    }
    i += width;
  }
}

/** A document's runs to its tokens: words as they are, CJK runs through `cjkTokens`. */
class DocumentRuns implements RunSink {
  sink: TokenSink | null = null;
  word(word: string): void {
    this.sink!.word(word);
  }
  cjk(codes: Int32Array, length: number): void {
    cjkTokens(codes, length, this.sink!);
  }
}
/** One for the process: a document is read whole, synchronously, before the next. */
const documentRuns = new DocumentRuns();

/** Reads texts into `sink`; returns their length once normalized (what relevance divides by). */
export function analyzeInto(texts: ReadonlyArray<string | null | undefined>, sink: TokenSink): number {
  documentRuns.sink = sink;
  let length = 0;
  for (const text of texts) {
    if (!text) continue;
    const normal = normalized(text);
    length += normal.length;
    scan(normal, documentRuns);
  }
  documentRuns.sink = null;
  return length;
}

/** A sink that keeps each token as a string. */
class TokenList implements TokenSink {
  readonly tokens: string[] = [];
  word(word: string): void {
    this.tokens.push(word);
  }
  pair(first: number, second: number): void {
    this.tokens.push(String.fromCharCode(first, second));
  }
  char(code: number): void {
    this.tokens.push(String.fromCharCode(code));
  }
  other(token: string): void {
    this.tokens.push(token);
  }
}

/** The text tokens of a document: bigrams and single characters of CJK runs, words of other scripts. */
export function textTokens(...texts: Array<string | null | undefined>): string[] {
  const list = new TokenList();
  analyzeInto(texts, list);
  return list.tokens;
}

/** The tokens stored for a document (texts, then facets): space-separated, ready for either engine. */
export function documentTokens(...texts: Array<string | null | undefined>): string {
  return textTokens(...texts).join(' ');
}

/**
 * The terms a keyword must all match: its words, and its CJK runs' bigrams (a run of one character: that
 * character, one exact term). An empty list means the keyword has nothing searchable.
 */
export function queryTerms(keyword: string): string[] {
  const terms = new Set<string>();
  scan(
    normalized(keyword),
    {
      word: (word) => terms.add(word),
      cjk: (codes, length) => {
        if (length === 1) terms.add(String.fromCodePoint(codes[0]!));
        for (let i = 0; i + 1 < length; i++) terms.add(String.fromCodePoint(codes[i]!, codes[i + 1]!));
      },
      // A keyword's longer word is kept: it matches nothing, as no document holds it.
    },
    Infinity,
  );
  return [...terms];
}

/** A word of a keyword: its text as normalized, whether it is a CJK run, and the terms it must match (queryTerms). */
export interface QueryWord {
  text: string;
  cjk: boolean;
  terms: string[];
}

/** The words of a keyword in order, each with its terms (their union is queryTerms' list). */
export function queryWords(keyword: string): QueryWord[] {
  const words: QueryWord[] = [];
  scan(
    normalized(keyword),
    {
      word: (word) => words.push({ text: word, cjk: false, terms: [word] }),
      cjk: (codes, length) => {
        const text = String.fromCodePoint(...codes.subarray(0, length));
        const terms =
          length === 1
            ? [text]
            : Array.from({ length: length - 1 }, (_, i) => String.fromCodePoint(codes[i]!, codes[i + 1]!));
        words.push({ text, cjk: true, terms });
      },
    },
    Infinity,
  );
  return words;
}

/**
 * Where in `text` (UTF-16 offsets, [start, end)) the tokenizer finds one of `terms`: a word, a CJK bigram (both its
 * characters), or a single CJK character; overlapping and touching spans merged. Each character is normalized
 * on its own, so that every offset of the normalized text leads back to the character it came from.
 */
export function termSpans(text: string, terms: ReadonlySet<string>): Array<[number, number]> {
  // The normalized text, and for each of its code units the offset of the original character.
  let normal = '';
  const from: number[] = [];
  for (let i = 0; i < text.length; ) {
    const code = text.codePointAt(i)!;
    const width = code > 0xffff ? 2 : 1;
    const piece = normalized(text.slice(i, i + width));
    for (let k = 0; k < piece.length; k++) from.push(i);
    normal += piece;
    i += width;
  }
  from.push(text.length);
  const spans: Array<[number, number]> = [];
  /** The original span of normalized code units [a, b). */
  const original = (a: number, b: number): [number, number] => [from[a]!, from[b]!];
  let kind = OTHER;
  let start = 0;
  const points: number[] = [];
  for (let i = 0; i <= normal.length; ) {
    const code = i < normal.length ? normal.codePointAt(i)! : -1;
    const width = code > 0xffff ? 2 : 1;
    const next = code < 0 ? OTHER : code < 0x10000 ? BMP_CLASS[code]! : astralClass(code);
    if (next !== kind) {
      if (kind === SPACED && terms.has(normal.slice(start, i))) spans.push(original(start, i));
      else if (kind === UNSPACED) cjkSpans(normal, points, i, terms, spans, original);
      points.length = 0;
      kind = next;
      start = i;
    }
    if (kind === UNSPACED) points.push(i);
    i += width;
  }
  spans.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const span of spans) {
    const last = merged.at(-1);
    if (last && span[0] <= last[1]) last[1] = Math.max(last[1], span[1]);
    else merged.push([...span]);
  }
  return merged;
}

/** The spans of a CJK run (its characters start at `points`, the run ends at `end`): its bigrams and characters among `terms`. */
function cjkSpans(
  normal: string,
  points: number[],
  end: number,
  terms: ReadonlySet<string>,
  spans: Array<[number, number]>,
  original: (a: number, b: number) => [number, number],
): void {
  const at = (k: number) => (k + 1 < points.length ? points[k + 1]! : end);
  for (let k = 0; k < points.length; k++) {
    if (k + 1 < points.length && terms.has(normal.slice(points[k]!, at(k + 1))))
      spans.push(original(points[k]!, at(k + 1)));
    if (terms.has(normal.slice(points[k]!, at(k)))) spans.push(original(points[k]!, at(k)));
  }
}
