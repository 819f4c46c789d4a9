/**
 * Korean text as it is typed: every syllable taken apart into the letters (jamo) a keyboard enters, compound
 * letters split into the keys that make them (ㄺ is ㄹ then ㄱ, ㅘ is ㅗ then ㅏ). A half-typed word is then a
 * prefix of the whole one letter by letter (`배ㄱ` and `백` both begin `백엔드`), and the first letters of a word's
 * syllables (`ㅂㅇㄷ`) are a form of their own. Everything else is left as it is.
 */

/** The first Hangul syllable's code; a syllable's code is this + initial × 588 + vowel × 28 + final. */
export const SYLLABLES = 0xac00;
const LAST_SYLLABLE = 0xd7a3;
/** The 19 initial consonants, 21 vowels and 27 finals (after none) of Hangul syllables, in code order. */
export const INITIALS = 'ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ';
export const VOWEL_LETTERS = 'ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ';
export const FINAL_LETTERS = ['', ...'ㄱㄲㄳㄴㄵㄶㄷㄹㄺㄻㄼㄽㄾㄿㅀㅁㅂㅄㅅㅆㅇㅈㅊㅋㅌㅍㅎ'];
const VOWELS = [
  'ㅏ',
  'ㅐ',
  'ㅑ',
  'ㅒ',
  'ㅓ',
  'ㅔ',
  'ㅕ',
  'ㅖ',
  'ㅗ',
  'ㅗㅏ',
  'ㅗㅐ',
  'ㅗㅣ',
  'ㅛ',
  'ㅜ',
  'ㅜㅓ',
  'ㅜㅔ',
  'ㅜㅣ',
  'ㅠ',
  'ㅡ',
  'ㅡㅣ',
  'ㅣ',
];
const FINALS = [
  '',
  'ㄱ',
  'ㄲ',
  'ㄱㅅ',
  'ㄴ',
  'ㄴㅈ',
  'ㄴㅎ',
  'ㄷ',
  'ㄹ',
  'ㄹㄱ',
  'ㄹㅁ',
  'ㄹㅂ',
  'ㄹㅅ',
  'ㄹㅌ',
  'ㄹㅍ',
  'ㄹㅎ',
  'ㅁ',
  'ㅂ',
  'ㅂㅅ',
  'ㅅ',
  'ㅆ',
  'ㅇ',
  'ㅈ',
  'ㅊ',
  'ㅋ',
  'ㅌ',
  'ㅍ',
  'ㅎ',
];

/** Compound letters typed on their own (compatibility jamo), as the keys that make them. */
const COMPOUND: Record<string, string> = {
  ㄳ: 'ㄱㅅ',
  ㄵ: 'ㄴㅈ',
  ㄶ: 'ㄴㅎ',
  ㄺ: 'ㄹㄱ',
  ㄻ: 'ㄹㅁ',
  ㄼ: 'ㄹㅂ',
  ㄽ: 'ㄹㅅ',
  ㄾ: 'ㄹㅌ',
  ㄿ: 'ㄹㅍ',
  ㅀ: 'ㄹㅎ',
  ㅄ: 'ㅂㅅ',
  ㅘ: 'ㅗㅏ',
  ㅙ: 'ㅗㅐ',
  ㅚ: 'ㅗㅣ',
  ㅝ: 'ㅜㅓ',
  ㅞ: 'ㅜㅔ',
  ㅟ: 'ㅜㅣ',
  ㅢ: 'ㅡㅣ',
};

/** Whether a code is of a whole Hangul syllable (가 to 힣). */
export const isSyllable = (code: number) => code >= SYLLABLES && code <= LAST_SYLLABLE;

/** The text lower-cased, with every Hangul syllable and compound letter as the letters typed for it. */
export function typedLetters(text: string): string {
  let out = '';
  for (const char of text.normalize('NFC').toLowerCase()) {
    const code = char.codePointAt(0)!;
    if (isSyllable(code)) {
      const n = code - SYLLABLES;
      out += INITIALS[Math.floor(n / 588)]! + VOWELS[Math.floor((n % 588) / 28)]! + FINALS[n % 28]!;
    } else {
      out += COMPOUND[char] ?? char;
    }
  }
  return out;
}

/** The text lower-cased, with every Hangul syllable as its first letter (`백엔드` is `ㅂㅇㄷ`). */
export function initialLetters(text: string): string {
  let out = '';
  for (const char of text.normalize('NFC').toLowerCase()) {
    const code = char.codePointAt(0)!;
    out += isSyllable(code) ? INITIALS[Math.floor((code - SYLLABLES) / 588)]! : char;
  }
  return out;
}

/** Whether a text is only Hangul consonants typed on their own (and spaces): a query of initial letters. */
export const onlyConsonants = (text: string): boolean => /^[\u3131-\u314e\s]+$/u.test(text) && /\S/.test(text);
