import { describe, expect, it } from 'vitest';
import { DocumentNumbers } from '../src/search/document-numbers.js';
import { SeededRandom } from '../src/demo/random.js';

/** The table against a Map, through random adds, replacements and deletions, as the index makes them. */
function replay(idPool: number[], operations: number, seed: number): void {
  const rnd = new SeededRandom(seed);
  const ids: number[] = [];
  const table = new DocumentNumbers((doc) => ids[doc]!);
  const expected = new Map<number, number>();
  for (let i = 0; i < operations; i++) {
    const id = idPool[rnd.int(0, idPool.length - 1)]!;
    if (rnd.next() < 0.3) {
      table.delete(id);
      expected.delete(id);
    } else {
      const doc = ids.length;
      ids.push(id);
      table.set(id, doc);
      expected.set(id, doc);
    }
  }
  expect(table.size).toBe(expected.size);
  for (const id of idPool) expect(table.get(id)).toBe(expected.get(id));
  // Compacted (as after a build), the table holds no more than 1 / 0.65 slots an item (or 1,024), of 3 bytes each,
  // and still agrees.
  table.compact();
  expect(table.bytes).toBeLessThanOrEqual(3 * Math.max(1024, Math.ceil(expected.size / 0.65)));
  for (const id of idPool) expect(table.get(id)).toBe(expected.get(id));
  for (const id of idPool.slice(0, 50)) {
    table.delete(id);
    expected.delete(id);
  }
  for (const id of idPool) expect(table.get(id)).toBe(expected.get(id));
}

describe('the id → document table of the search index', () => {
  it('agrees with a Map for dense ids', () =>
    replay(
      Array.from({ length: 5_000 }, (_, i) => i + 1),
      40_000,
      1,
    ));

  it('agrees with a Map for ids in steps of a power of two (which must not pile into one run of slots)', () =>
    replay(
      Array.from({ length: 3_000 }, (_, i) => i * 65_536),
      30_000,
      2,
    ));

  it('agrees with a Map for ids beyond 32 bits', () =>
    replay(
      Array.from({ length: 2_000 }, (_, i) => 2 ** 40 + i * 4_294_967_296 + (i % 7)),
      20_000,
      3,
    ));

  it('holds document numbers from 2^24 on, in slots of 4 bytes from the first such', () => {
    const idOf = (doc: number) => doc * 3 + 1;
    const table = new DocumentNumbers(idOf);
    const docs = Array.from({ length: 2_000 }, (_, i) => 16_776_215 + i);
    for (const doc of docs.slice(0, 1_000)) table.set(idOf(doc), doc);
    expect(table.bytes).toBe(3 * 2048);
    for (const doc of docs.slice(1_000)) table.set(idOf(doc), doc);
    expect(table.bytes).toBe(4 * 4096);
    for (const doc of docs) expect(table.get(idOf(doc))).toBe(doc);
    table.delete(idOf(docs[1_500]!));
    expect(table.get(idOf(docs[1_500]!))).toBeUndefined();
    expect(table.get(idOf(docs[1_999]!))).toBe(docs[1_999]);
  });

  it('says nothing of an id it never held, and forgets a deleted one', () => {
    const ids = [10, 20, 30];
    const table = new DocumentNumbers((doc) => ids[doc]!);
    ids.forEach((id, doc) => table.set(id, doc));
    expect(table.get(40)).toBeUndefined();
    table.delete(20);
    table.delete(40);
    expect([table.get(10), table.get(20), table.get(30), table.size]).toEqual([0, undefined, 2, 2]);
  });
});
