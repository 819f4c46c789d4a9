import { describe, expect, it } from 'vitest';
import { documentTokens, facet, queryTerms, textTokens } from '../src/search/search-text.js';

describe('search tokens', () => {
  it('indexes Korean runs as overlapping bigrams plus every character alone', () => {
    expect(documentTokens('백엔드개발자')).toBe('백엔 엔드 드개 개발 발자 백 엔 드 개 발 자');
  });

  it('indexes other scripts as lower-cased NFKC words and splits at script changes', () => {
    expect(documentTokens('Kubernetes 도입기! ＴｙｐｅＳｃｒｉｐｔ')).toBe('kubernetes 도입 입기 도 입 기 typescript');
    expect(documentTokens('React개발')).toBe('react 개발 개 발');
    expect(documentTokens('東京オフィス')).toBe('東京 京オ オフ フィ ィス 東 京 オ フ ィ ス');
  });

  it('makes keyword terms that a document of the same words always contains', () => {
    const doc = new Set(documentTokens('신입 백엔드개발자 채용').split(' '));
    for (const term of queryTerms('백엔드개발')) expect(doc.has(term)).toBe(true);
    expect(queryTerms('개발')).toEqual(['개발']);
  });

  it('turns a one-character CJK keyword into one exact term, which every document holding the character has', () => {
    expect(queryTerms('자')).toEqual(['자']);
    expect(documentTokens('개발자가').split(' ')).toContain('자');
    expect(documentTokens('자바').split(' ')).toContain('자');
  });

  it('drops punctuation and repeated terms', () => {
    expect(queryTerms('!!! ---')).toEqual([]);
    expect(queryTerms('go Go GO')).toEqual(['go']);
    expect(queryTerms('"quoted" \'words\'')).toEqual(['quoted', 'words']);
  });

  it('never lets text or a keyword produce a facet token', () => {
    const sneaky = `${facet('i')} x${facet('c', '1')}`;
    expect(queryTerms(sneaky)).toEqual(['i', 'x', 'c1']);
    expect(documentTokens(sneaky).split(' ')).not.toContain(facet('i'));
  });

  it('reads characters beyond the Basic Multilingual Plane as the characters they are (CJK extension ideographs too)', () => {
    // 𠀋 (U+2000B) is a Han ideograph written as two UTF-16 units: a run starting with it is CJK like any other.
    expect(documentTokens('𠀋𠀌가')).toBe('𠀋𠀌 𠀌가 𠀋 𠀌 가');
    expect(queryTerms('𠀋𠀌')).toEqual(['𠀋𠀌']);
    expect(queryTerms('𠀋')).toEqual(['𠀋']);
    expect(documentTokens('a𝑦b')).toBe('ayb');
  });

  it('counts a character once per CJK run, however long the run', () => {
    const long = '가나'.repeat(40);
    const tokens = textTokens(long, '가 가');
    expect(tokens.filter((t) => t === '가')).toHaveLength(3);
    expect(tokens.filter((t) => t === '가나')).toHaveLength(40);
  });

  it('leaves out document words longer than a keyword may be, but keeps them in keywords, where they match nothing', () => {
    const word = 'x'.repeat(101);
    expect(textTokens(`${word} ok`)).toEqual(['ok']);
    expect(queryTerms(`${word} ok`)).toEqual([word, 'ok']);
  });
});
