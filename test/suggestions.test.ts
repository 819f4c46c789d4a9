/**
 * The rule of suggestions (src/search/suggestions.ts) on a posting index of its own, large enough that the counts are
 * taken in the order of their bounds and stopped early: always the same top as counting every value; and Korean as
 * it is typed (src/search/hangul.ts), letter by letter.
 */
import { describe, expect, it } from 'vitest';
import { RoaringBitmap32 } from '../src/search/bitmaps.js';
import { initialLetters, onlyConsonants, typedLetters } from '../src/search/hangul.js';
import { PostingIndex } from '../src/search/posting-index.js';
import { facet } from '../src/search/search-text.js';
import { SeededRandom } from '../src/demo/random.js';
import { Suggestions } from '../src/search/suggestions.js';

describe('Korean as it is typed', () => {
  it('takes syllables apart into the keys typed, compound letters into theirs', () => {
    expect(typedLetters('백엔드')).toBe('ㅂㅐㄱㅇㅔㄴㄷㅡ');
    expect(typedLetters('닭')).toBe('ㄷㅏㄹㄱ');
    expect(typedLetters('과자')).toBe('ㄱㅗㅏㅈㅏ');
    expect(typedLetters('ㄺ')).toBe('ㄹㄱ');
    expect(typedLetters('Go 개발')).toBe('go ㄱㅐㅂㅏㄹ');
    // A half-typed last syllable is a prefix of the whole word, letter by letter.
    expect(typedLetters('백엔드').startsWith(typedLetters('배ㄱ'))).toBe(true);
    expect(typedLetters('백엔드').startsWith(typedLetters('백ㅇ'))).toBe(true);
    expect(typedLetters('백엔드').startsWith(typedLetters('밴'))).toBe(false);
    // A decomposed input (some keyboards send it) is the same as the composed one.
    expect(typedLetters('\u1107\u1162\u11a8')).toBe(typedLetters('백'));
  });

  it('reads initial consonants', () => {
    expect(initialLetters('백엔드 개발자')).toBe('ㅂㅇㄷ ㄱㅂㅈ');
    expect(initialLetters('AI엔지니어')).toBe('aiㅇㅈㄴㅇ');
    expect([
      onlyConsonants('ㅂㅇㄷ'),
      onlyConsonants('ㅂ ㅇ'),
      onlyConsonants('배ㄱ'),
      onlyConsonants(' '),
      onlyConsonants('ab'),
    ]).toEqual([true, true, false, false, false]);
  });
});

describe('suggestions', () => {
  it('give the top values by count among the documents of a bitmap, as counting every value does, for prefixes wide and narrow', () => {
    const rnd = new SeededRandom(7);
    const index = new PostingIndex();
    const syllables = ['백', '배', '개', '프', '데', '노', 'a', 'b', 'ba', 'go'];
    const values = Array.from(
      { length: 600 },
      (_, i) => `${rnd.pick(syllables)}${rnd.pick(syllables)}${i % 7 === 0 ? '' : rnd.pick(syllables)}${i}`,
    );
    const docs = 4000;
    for (let doc = 0; doc < docs; doc++) {
      // A few values in many documents, most in few: the shape of titles and words.
      const held = new Set(Array.from({ length: 3 }, () => values[Math.floor(values.length * rnd.next() ** 3)]!));
      index.add(doc, { texts: [], facets: [...held].map((v) => facet('t', v)) });
    }
    index.flush();
    const within = new RoaringBitmap32(Array.from({ length: docs }, (_, doc) => doc).filter(() => rnd.chance(0.6)));
    const suggestions = new Suggestions([{ kind: 't', type: 'TITLE' }]);
    for (const prefix of ['ㅂ', '배', '배ㄱ', '백', 'b', 'ba', 'a', 'ㄱ', 'ㅂㄱ', 'go', 'x']) {
      const expected = values
        .map((text) => ({
          text,
          type: 'TITLE',
          count: (index.posting(facet('t', text)) ?? new RoaringBitmap32()).andCardinality(within),
        }))
        .filter(
          (s) =>
            s.count > 0 &&
            (typedLetters(s.text).startsWith(typedLetters(prefix)) ||
              (onlyConsonants(prefix) && initialLetters(s.text).startsWith(initialLetters(prefix)))),
        )
        .sort((a, b) => b.count - a.count || (a.text < b.text ? -1 : 1))
        .slice(0, 10);
      expect(suggestions.find(index, within, prefix, 10), prefix).toEqual(expected);
    }
    // The wide prefixes really are wide: more candidates than are counted one by one.
    expect(values.filter((v) => typedLetters(v).startsWith('ㅂ')).length).toBeGreaterThan(100);
  });
});
