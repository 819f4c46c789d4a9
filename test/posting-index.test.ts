import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PostingIndex } from '../src/search/posting-index.js';
import { readSnapshot, writeSnapshot } from '../src/search/index-snapshot.js';
import { PostingLog, Vocabulary } from '../src/search/vocabulary.js';
import { RoaringBitmap32 } from '../src/search/bitmaps.js';
import { FACET_KIND, FACETS } from '../src/search/fields.js';

/** The index as a saved copy of its first `documents` documents would bring it back: written to a file and read. */
async function restoredCopy(index: PostingIndex, documents: number): Promise<PostingIndex> {
  const { meta, chunks } = index.save(documents);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'posting-index-')), 'copy.idx');
  await writeSnapshot(file, meta, chunks);
  const copy = readSnapshot<typeof meta>(file)!;
  try {
    return PostingIndex.restore(copy.header, copy.chunks);
  } finally {
    copy.chunks.close();
  }
}

const matches = (index: PostingIndex, ...tokens: string[]) =>
  index.match({ all: tokens.map((t) => [t]), none: [] }).toArray();

describe('the posting index build', () => {
  it('gives a token one number whether it comes by its character codes or as text', () => {
    const vocabulary = new Vocabulary();
    const asText = vocabulary.intern('가나');
    expect(vocabulary.internPair('가'.charCodeAt(0), '나'.charCodeAt(0))).toBe(asText);
    const byCodes = vocabulary.internChar('다'.charCodeAt(0));
    expect(vocabulary.intern('다')).toBe(byCodes);
    expect(vocabulary.numberOf('다')).toBe(byCodes);
    // Enough tokens to grow the table of codes several times: each keeps its number.
    const numbers = new Map<number, number>();
    for (let code = 0xac00; code < 0xac00 + 5000; code++) numbers.set(code, vocabulary.internPair(code, 0xac01));
    for (const [code, n] of numbers) expect(vocabulary.internPair(code, 0xac01)).toBe(n);
    expect(vocabulary.size).toBe(5002);
  });

  it("hands out a log of postings grouped by key, each key's documents in the order they came", () => {
    const log = new PostingLog();
    const expected = new Map<number, number[]>();
    for (let doc = 0; doc < 5000; doc++) {
      for (const key of [doc % 7, 7 + (doc % 3)]) {
        log.push(key, doc);
        expected.set(key, [...(expected.get(key) ?? []), doc]);
      }
    }
    const got = new Map<number, number[]>();
    log.drain(10, (key, docs) => got.set(key, Array.from(docs)));
    expect([...got.keys()]).toEqual([...expected.keys()].sort((a, b) => a - b));
    for (const [key, docs] of expected) expect(got.get(key)).toEqual(docs);
    expect(log.length).toBe(0);
    log.drain(10, () => {
      throw new Error('an empty log hands out nothing');
    });
  });

  it('finds documents added after a restore under the tokens the copy named (no second number for one token)', async () => {
    const index = new PostingIndex();
    index.add(0, { texts: ['가나다 hello'], facets: [] });
    index.add(1, { texts: ['𠀋가나'], facets: [] });
    const restored = await restoredCopy(index, 2);
    restored.add(2, { texts: ['가나 hello 𠀋'], facets: [] });
    restored.flush();
    expect(matches(restored, '가나')).toEqual([0, 1, 2]);
    expect(matches(restored, 'hello')).toEqual([0, 2]);
    expect(matches(restored, '𠀋')).toEqual([1, 2]);
    expect(matches(restored, '𠀋가')).toEqual([1]);
    expect(restored.tokenCount).toBe(index.tokenCount);
  });

  it('counts how often a token occurs in a document, in tiers, across texts', () => {
    const index = new PostingIndex();
    index.add(0, { texts: ['go go', 'go go go go go go'], facets: [] });
    index.add(1, { texts: ['go stop', 'go'], facets: [] });
    index.add(2, { texts: ['go'], facets: [] });
    index.flush();
    expect([0, 1, 2].map((doc) => index.occurrences('go', doc))).toEqual([8, 2, 1]);
    expect(index.occurrences('stop', 0)).toBe(0);
    expect(index.lengthOf(1)).toBe('go stop'.length + 'go'.length);
  });
});

describe('the occurrence tiers in their smaller form', () => {
  // Texts where "go" repeats in nearly every document that holds it (its first tier is kept as the few documents
  // missing from it) and "stop" is mostly found once (its first tier stays as the documents in it).
  const text = (doc: number) => {
    const go = doc % 10 === 0 ? 1 : 2 + (doc % 9);
    const stop = doc % 7 === 0 ? 3 : 1;
    return `${'go '.repeat(go)}${'stop '.repeat(stop)}${doc % 3 === 0 ? 'rare rare' : ''}`;
  };
  const build = (from: number, to: number, index = new PostingIndex()) => {
    for (let doc = from; doc < to; doc++) index.add(doc, { texts: [text(doc)], facets: [] });
    index.flush();
    return index;
  };
  const levels = (index: PostingIndex, docs: number) =>
    ['go', 'stop', 'rare', 'none'].map((token) =>
      Array.from({ length: docs }, (_, doc) => index.occurrences(token, doc)),
    );
  const tiersOf = (index: PostingIndex, token: string, docs: number) => {
    const all = new RoaringBitmap32(Array.from({ length: docs }, (_, doc) => doc));
    return index.tiersWithin(token, all)?.map((tier) => tier.toArray());
  };

  it('answers as the plain tiers do, after a build, documents added after it, and a saved copy', async () => {
    const plain = build(0, 3000);
    const compacted = build(0, 2000);
    compacted.optimize();
    build(2000, 3000, compacted);
    expect(levels(compacted, 3000)).toEqual(levels(plain, 3000));
    for (const token of ['go', 'stop', 'rare'])
      expect(tiersOf(compacted, token, 3000)).toEqual(tiersOf(plain, token, 3000));
    expect(compacted.bytes()).toBeLessThan(plain.bytes());

    const { meta } = compacted.save(3000);
    // "go" keeps its first tier as missing documents; "stop" keeps its own.
    expect(meta.missing[meta.tiered.indexOf('go')]! & 1).toBe(1);
    expect(meta.missing[meta.tiered.indexOf('stop')]! & 1).toBe(0);
    const restored = await restoredCopy(compacted, 3000);
    build(3000, 3500, restored);
    build(3000, 3500, plain);
    expect(levels(restored, 3500)).toEqual(levels(plain, 3500));
    for (const token of ['go', 'stop', 'rare'])
      expect(tiersOf(restored, token, 3500)).toEqual(tiersOf(plain, token, 3500));
  });
});

describe('a sparse token after a build', () => {
  /** "w" in every 50th document, twice in every 100th; "d" in every other, twice in every 100th. */
  const text = (doc: number) =>
    `${doc % 50 === 0 ? (doc % 100 === 0 ? 'w w' : 'w') : ''} ${doc % 2 === 0 ? (doc % 100 === 0 ? 'd d' : 'd') : ''} other`;
  const build = (from: number, to: number, index = new PostingIndex()) => {
    for (let doc = from; doc < to; doc++) index.add(doc, { texts: [text(doc)], facets: [] });
    index.flush();
    return index;
  };
  const twice = (docs: number) => Array.from({ length: docs }, (_, doc) => doc).filter((doc) => doc % 100 === 0);
  const firstTier = (index: PostingIndex, token: string, docs: number) =>
    index.tiersWithin(token, new RoaringBitmap32(Array.from({ length: docs }, (_, doc) => doc)))![0]!;

  it('answers alike once optimized, after documents added and from a saved copy', async () => {
    const index = build(0, 150_000);
    index.optimize();
    for (const token of ['w', 'd']) expect(firstTier(index, token, 150_000).toArray()).toEqual(twice(150_000));
    expect(twice(150_000).every((doc) => index.occurrences('w', doc) === 2)).toBe(true);
    expect(index.occurrences('w', 50)).toBe(1);
    expect(index.postingSize('w')).toBe(3_000);

    build(150_000, 200_000, index);
    expect(firstTier(index, 'w', 200_000).toArray()).toEqual(twice(200_000));
    expect(index.occurrences('w', 199_900)).toBe(2);
    expect(matches(index, 'w', 'd')).toEqual(matches(index, 'w'));

    const restored = await restoredCopy(index, 200_000);
    expect(firstTier(restored, 'w', 200_000).toArray()).toEqual(twice(200_000));
    const within = new RoaringBitmap32([199_850, 199_900, 199_950]);
    expect(restored.tiersWithin('w', within)![0]!.toArray()).toEqual([199_900]);
  });
});

describe('tokens one document holds', () => {
  /** Each document's own name (one document's token), a word every third shares, and a facet of its own. */
  const build = (from: number, to: number, index = new PostingIndex()) => {
    for (let doc = from; doc < to; doc++)
      index.add(doc, {
        texts: [`name${doc} name${doc} ${doc % 3 === 0 ? 'shared' : ''}`],
        facets: [FACETS.company(doc)],
      });
    index.flush();
    return index;
  };

  it('holds them as the document number, answers every question alike, and grows them into bitmaps', async () => {
    const index = build(0, 300);
    index.optimize();
    // Held as a number, not a bitmap of its own (the memory a directory of one-company tokens saves).
    expect(index.heldPosting('name7')).toBe(7);
    expect(index.heldPosting('shared')).not.toBeTypeOf('number');
    expect(index.postingSize('name7')).toBe(1);
    expect(matches(index, 'name7')).toEqual([7]);
    expect(matches(index, 'name9', 'shared')).toEqual([9]);
    expect(matches(index, 'name7', 'shared')).toEqual([]);
    expect(index.count({ all: [['name9'], ['shared']], none: [] })).toBe(1);
    expect(index.match({ all: [['shared']], none: ['name3', 'name6'] }).size).toBe(98);
    expect(index.occurrences('name7', 7)).toBe(2);
    expect(index.occurrences('name7', 8)).toBe(0);
    expect(index.tiersWithin('name7', new RoaringBitmap32([6, 7, 8]))![0]!.toArray()).toEqual([7]);
    expect(index.facetValues(FACET_KIND.company).get('7')).toBe(7);
    const narrowest = index.narrowest({ all: [['shared'], ['name9']], none: [] })!;
    expect([narrowest.size, narrowest.select(0), narrowest.select(1)]).toEqual([1, 9, undefined]);

    // A saved copy brings them back as numbers; a second document holding one makes it a bitmap of both.
    const restored = await restoredCopy(index, 300);
    expect(restored.heldPosting('name7')).toBe(7);
    expect(matches(restored, 'name299')).toEqual([299]);
    restored.add(300, { texts: ['name7 new'], facets: [FACETS.company(7)] });
    restored.flush();
    expect(matches(restored, 'name7')).toEqual([7, 300]);
    expect(restored.heldPosting('name7')).not.toBeTypeOf('number');
    expect(restored.facetValues(FACET_KIND.company).get('7')).not.toBeTypeOf('number');
    expect(restored.facetColumn(FACET_KIND.company)?.valueOf(300)).toBe(
      restored.facetColumn(FACET_KIND.company)?.valueOf(7),
    );
    expect([...restored.tokens()].find(([token]) => token === 'new')?.[1]).toEqual(Uint32Array.from([300]));
  });
});
