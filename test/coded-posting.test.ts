import { describe, expect, it } from 'vitest';
import { CodedPosting, GapSlabs } from '../src/search/coded-posting.js';
import { RoaringBitmap32 } from '../src/search/bitmaps.js';
import { SeededRandom } from '../src/demo/random.js';

/** Ascending document numbers over `containers` containers, each document present with probability `density`. */
function sparse(seed: number, containers: number, density: number): number[] {
  const random = new SeededRandom(seed);
  const docs: number[] = [];
  for (let doc = 0; doc < containers * 65_536; doc++) if (random.next() < density) docs.push(doc);
  return docs;
}

/** One container after another, the i-th holding documents with probability `densities[i]` (seeded from `seed`). */
function containersOf(seed: number, ...densities: number[]): number[] {
  return densities.flatMap((density, i) => sparse(seed + i, 1, density).map((doc) => doc + i * 65_536));
}

describe('a coded posting', () => {
  it('reads back as the bitmap it was coded from, gaps of one byte and of three alike', () => {
    // 3% is one byte a gap nearly always; at 1% one gap in twelve is past 254 (an escape and two bytes).
    for (const [seed, density] of [
      [1, 0.03],
      [2, 0.01],
    ] as const) {
      const bitmap = new RoaringBitmap32(sparse(seed, 3, density));
      const coded = CodedPosting.of(bitmap, new GapSlabs())!;
      expect(coded.size).toBe(bitmap.size);
      expect(coded.decode().isEqual(bitmap)).toBe(true);
      // A copy holds it in roaring's portable format, which either library reads.
      const bytes = new Uint8Array(coded.getSerializationSizeInBytes('portable'));
      coded.serialize('portable', bytes);
      expect(RoaringBitmap32.deserialize(bytes, 'portable').isEqual(bitmap)).toBe(true);
      expect(coded.codedBytes).toBeLessThan(0.75 * bitmap.getSerializationSizeInBytes('portable'));
    }
  });

  it('stays a bitmap where coding saves too little: bitsets (over 4,096 documents a container), a few documents', () => {
    expect(CodedPosting.of(new RoaringBitmap32(sparse(4, 2, 0.3)), new GapSlabs())).toBeNull();
    expect(CodedPosting.of(new RoaringBitmap32(sparse(3, 3, 0.0001)), new GapSlabs())).toBeNull();
    expect(CodedPosting.of(RoaringBitmap32.fromRange(0, 200_000), new GapSlabs())).toBeNull();
  });

  it('grows at its end, into new containers and past 4,096 documents in one, and says which documents it holds', () => {
    const docs = sparse(5, 4, 0.02);
    const slabs = new GapSlabs();
    const coded = CodedPosting.of(new RoaringBitmap32(docs.filter((doc) => doc < 100_000)), slabs)!;
    // The rest in batches, as a flush adds them; then a dense run that makes its container a bitset when read back.
    const rest = docs.filter((doc) => doc >= 100_000);
    for (let i = 0; i < rest.length; i += 977) expect(coded.append(rest.slice(i, i + 977))).toBe(true);
    const dense = Array.from({ length: 6_000 }, (_, i) => 4 * 65_536 + 10 * i);
    expect(coded.append(dense)).toBe(true);
    const all = [...docs, ...dense];
    expect(coded.decode().toArray()).toEqual(all);
    expect(coded.size).toBe(all.length);
    for (const doc of [all[0]!, all[500]!, all.at(-1)!, 4 * 65_536 + 20]) expect(coded.has(doc)).toBe(true);
    for (const doc of [all[500]! + 1, 4 * 65_536 + 21, 9 * 65_536, 0]) expect(coded.has(doc)).toBe(all.includes(doc));
    // A batch whose first document is not after its last is refused whole.
    expect(coded.append([all.at(-1)! + 5])).toBe(true);
    expect(coded.append([all.at(-1)!, all.at(-1)! + 9])).toBe(false);
    expect(coded.append([100])).toBe(false);
    expect(coded.size).toBe(all.length + 1);
    // Moved into new slabs (as after a build), it takes a piece of just its size (from a first slab of 64 KB) and
    // reads back the same.
    const moved = new GapSlabs();
    const before = coded.decode().toArray();
    coded.moveTo(moved);
    expect(coded.decode().toArray()).toEqual(before);
    expect(moved.bytes).toBe(1 << 16);
    expect(moved.take(1).byteOffset).toBe(coded.gapBytes);
    // Its last container, now a bitset (gaps would take most of its bytes), takes more documents as gaps again; and
    // a new container.
    const later = [4 * 65_536 + 60_001, 4 * 65_536 + 65_535, 5 * 65_536 + 3];
    expect(coded.append(later)).toBe(true);
    expect(coded.decode().toArray()).toEqual([...before, ...later]);
  });

  it('keeps a container as gaps or Elias-Fano, whichever is smaller, or as a bitset where neither saves enough', () => {
    // 2% and 6.5% (past 4,096 documents: a bitset in CRoaring) and 40% (a bitset) of a container's documents.
    const docs = [...containersOf(6, 0.02, 0.065, 0.4), 3 * 65_536 + 1_000, 3 * 65_536 + 40_000];
    const bitmap = new RoaringBitmap32(docs);
    bitmap.runOptimize();
    const coded = new CodedPosting(new GapSlabs());
    coded.append(docs);
    coded.moveTo(new GapSlabs());
    expect(coded.decode().toArray()).toEqual(docs);
    const bytes = new Uint8Array(coded.getSerializationSizeInBytes('portable'));
    coded.serialize('portable', bytes);
    expect(RoaringBitmap32.deserialize(bytes, 'portable').toArray()).toEqual(docs);
    for (const doc of [docs[3]!, docs[5_000]!, docs.at(-3)!, docs.at(-1)!]) expect(coded.has(doc)).toBe(true);
    expect([65_535, 3 * 65_536 + 1_001].map((doc) => coded.has(doc))).toEqual(
      [65_535, 3 * 65_536 + 1_001].map((doc) => docs.includes(doc)),
    );
    // CRoaring: about 2,600 bytes, 8 KB and 8 KB; coded: about 1,250 and 3,100 (Elias-Fano; gaps 1,300 and 4,300)
    // and 8 KB.
    expect(coded.codedBytes).toBeLessThan(0.7 * bitmap.getSerializationSizeInBytes('portable'));
  });

  it('keeps a container a tenth full in Elias-Fano coding, in about half a bitset, and takes more documents after it', () => {
    // A tenth of each of two containers: gaps would take four fifths of a bitset, Elias-Fano (3 low bits a document)
    // about half.
    const docs = sparse(10, 2, 0.1);
    const bitmap = new RoaringBitmap32(docs);
    const coded = CodedPosting.of(bitmap, new GapSlabs())!;
    coded.moveTo(new GapSlabs());
    expect(coded.gapBytes).toBeLessThan(0.56 * 2 * 8192);
    expect(coded.decode().toArray()).toEqual(docs);
    const copy = new Uint8Array(coded.getSerializationSizeInBytes('portable'));
    coded.serialize('portable', copy);
    expect(RoaringBitmap32.deserialize(copy, 'portable').isEqual(bitmap)).toBe(true);
    for (const rank of [0, 77, docs.length - 1]) expect(coded.select(rank)).toBe(docs[rank]);
    for (const doc of [docs[0]!, docs[4_000]!, docs.at(-1)!]) expect(coded.has(doc)).toBe(true);
    for (const doc of [docs[4_000]! + 1, docs.at(-1)! + 1]) expect(coded.has(doc)).toBe(docs.includes(doc));
    expect(coded.decodeFrom(65_536).toArray()).toEqual(docs.filter((doc) => doc >= 65_536));
    // Its last container takes more documents (as gaps until the next move), and moved again, reads back the same.
    const later = [docs.at(-1)! + 1, 2 * 65_536 - 1, 2 * 65_536 + 5];
    expect(coded.append(later)).toBe(true);
    expect(coded.decode().toArray()).toEqual([...docs, ...later]);
    coded.moveTo(new GapSlabs());
    expect(coded.decode().toArray()).toEqual([...docs, ...later]);
  });

  it('reads back only the containers from a document on, finds a rank, and counts the live documents', () => {
    const docs = sparse(9, 5, 0.03);
    const coded = CodedPosting.of(new RoaringBitmap32(docs), new GapSlabs())!;
    coded.moveTo(new GapSlabs());
    for (const from of [0, 65_535, 65_536, 3 * 65_536 + 7, 5 * 65_536]) {
      const part = coded.decodeFrom(from).toArray();
      expect(part.filter((doc) => doc >= from)).toEqual(docs.filter((doc) => doc >= from));
      // From the start of `from`'s container: no container before it is read back.
      expect(part.every((doc) => doc >>> 16 >= from >>> 16)).toBe(true);
    }
    for (const rank of [0, 1, 1_999, docs.length - 1]) expect(coded.select(rank)).toBe(docs[rank]);
    expect(coded.select(docs.length)).toBeUndefined();
    // Documents removed in the third container only: the others count whole.
    const documents = 5 * 65_536;
    const live = RoaringBitmap32.fromRange(0, documents);
    for (const doc of docs.filter((doc) => doc >>> 16 === 2).slice(0, 40)) live.remove(doc);
    live.remove(2 * 65_536 + 1);
    expect(coded.liveCount(live, documents)).toBe(docs.filter((doc) => live.has(doc)).length);
    expect(coded.liveCount(live, documents)).toBe(docs.length - 40);
  });
});
