import { describe, expect, it } from 'vitest';
import { documentTokens, queryTerms } from '../src/search/search-text.js';

describe('search tokens', () => {
  it('indexes Korean runs as overlapping bigrams plus the last character', () => {
    expect(documentTokens('백엔드개발자')).toBe('백엔 엔드 드개 개발 발자 자');
  });

  it('indexes other scripts as lower-cased NFKC words and splits at script changes', () => {
    expect(documentTokens('Kubernetes 도입기! ＴｙｐｅＳｃｒｉｐｔ')).toBe('kubernetes 도입 입기 기 typescript');
    expect(documentTokens('React개발')).toBe('react 개발 발');
    expect(documentTokens('東京オフィス')).toBe('東京 京オ オフ フィ ィス ス');
  });

  it('makes keyword terms that a document of the same words always contains', () => {
    const doc = new Set(documentTokens('신입 백엔드개발자 채용').split(' '));
    for (const term of queryTerms('백엔드개발')) expect(doc.has(term.text)).toBe(true);
    expect(queryTerms('개발')).toEqual([{ text: '개발', prefix: false }]);
  });

  it('turns a one-character CJK keyword into a prefix term', () => {
    expect(queryTerms('자')).toEqual([{ text: '자', prefix: true }]);
  });

  it('drops punctuation and repeated terms', () => {
    expect(queryTerms('!!! ---')).toEqual([]);
    expect(queryTerms('go Go GO')).toEqual([{ text: 'go', prefix: false }]);
    expect(queryTerms('"quoted" \'words\'')).toEqual([{ text: 'quoted', prefix: false }, { text: 'words', prefix: false }]);
  });
});
