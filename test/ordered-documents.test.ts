import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSnapshot, writeSnapshot } from '../src/search/index-snapshot.js';
import { DocumentsById, OrderedDocuments, type DocumentsMeta } from '../src/search/ordered-documents.js';
import { SeededRandom } from '../src/demo/random.js';
import { FACETS } from '../src/search/fields.js';

/** Every live document's item id whose time is within [from, to], the truth for a window. */
function truth(docs: OrderedDocuments, from: number, to: number): number[] {
  return docs.index.live
    .toArray()
    .filter((doc) => docs.time(doc) >= from && docs.time(doc) <= to)
    .map((doc) => docs.itemId(doc))
    .sort((a, b) => a - b);
}

const windowIds = (docs: OrderedDocuments, from: number, to: number) =>
  docs
    .window(docs.index.live, from, to)
    .toArray()
    .map((doc) => docs.itemId(doc))
    .sort((a, b) => a - b);

describe('ordered documents', () => {
  it('find the newest matches of a broad query from its newest documents alone, displaced and removed ones among them', () => {
    const random = new SeededRandom(7);
    const docs = new OrderedDocuments();
    const document = (id: number) => ({
      texts: [[id % 10 !== 0 ? 'broad' : '', id % 3 === 0 ? 'third' : '', id % 50 === 0 ? 'rare' : ''].join(' ')],
      facets: [],
    });
    for (let id = 1; id <= 6000; id++) docs.add({ id, time: id * 10, document: document(id) });
    // Updated (a new, higher document number: the newest documents hold many displaced ones), removed, and written
    // by a clock behind, before and after the updates.
    for (let i = 0; i < 400; i++) {
      const id = i % 2 ? random.int(1, 6000) : random.int(5800, 6000);
      docs.add({ id, time: id * 10, document: document(id) });
    }
    for (let i = 0; i < 300; i++) docs.remove(random.int(1, 6000));
    for (let id = 6001; id <= 6100; id++) docs.add({ id, time: random.int(0, 60_000), document: document(id) });
    // Then newer posts in order: the displaced documents are no longer the highest numbers, yet among the newest.
    for (let id = 6101; id <= 6200; id++) docs.add({ id, time: id * 10, document: document(id) });
    docs.index.flush();
    const queries = [[], [['broad']], [['third']], [['rare']], [['broad'], ['third']], [['broad', 'rare']]];
    for (const all of queries) {
      for (const none of [[], ['third']]) {
        const query = { all, none };
        const whole = docs.index.match(query);
        expect(docs.index.count(query)).toBe(whole.size);
        for (const count of [1, 20, 220, 1000, 10_000]) {
          const newest = docs.newestMatches(query, count);
          expect(docs.newest(newest, 0, count)).toEqual(docs.newest(whole, 0, count));
        }
      }
    }
  });

  it('count in their bytes the columns and the table of ids, not the bitmaps alone', () => {
    const docs = new OrderedDocuments(1);
    const items = 5000;
    for (let id = 1; id <= items; id++)
      docs.add({
        id,
        time: id * 10,
        document: { texts: [], facets: [FACETS.company(id % 3)] },
        extra: [id],
      });
    docs.index.flush();
    // Bitmaps alone, as serialized: the company postings and the live documents (no text, so no coded postings).
    const bitmaps = () =>
      docs.index
        .tokenNames()
        .reduce(
          (sum, token) => sum + docs.index.posting(token)!.getSerializationSizeInBytes('portable'),
          docs.index.live.getSerializationSizeInBytes('portable'),
        );
    // Lengths and the company column (2 bytes a document: all under 65,536); ids, times and the extra column (2 each,
    // for the same reason), and the table from ids to documents (4 a slot, more slots than items).
    const columns = () => docs.index.bytes() - bitmaps();
    const own = () => docs.bytes() - docs.index.bytes();
    const counted = () => {
      expect(columns()).toBeGreaterThanOrEqual(items * (2 + 2));
      expect(own()).toBeGreaterThanOrEqual(items * (3 * 2 + 4));
    };
    counted();
    // Once built, the room the columns grew by doubling is let go of: 5,000 items had room for 8,192, and keep room
    // for 1,024 more.
    const [indexColumns, ownColumns] = [columns(), own()];
    docs.optimize();
    counted();
    const spare = 8192 - (items + 1024);
    expect(columns()).toBeLessThanOrEqual(indexColumns - spare * (2 + 2));
    expect(own()).toBeLessThanOrEqual(ownColumns - spare * 3 * 2);
  });

  it('cut time windows exactly with displaced documents among them, and again once saved and restored', async () => {
    const random = new SeededRandom(11);
    const docs = new OrderedDocuments();
    for (let id = 1; id <= 400; id++) docs.add({ id, time: id * 10, document: { texts: ['x'], facets: [] } });
    // Updates (same time, a new document number) and posts from a clock behind: displaced, some updated again.
    for (let i = 0; i < 120; i++) {
      const id = random.int(1, 400);
      docs.add({ id, time: id * 10, document: { texts: ['x'], facets: [] } });
    }
    for (let id = 401; id <= 420; id++)
      docs.add({ id, time: random.int(0, 4000), document: { texts: ['x'], facets: [] } });
    docs.index.flush();
    expect(docs.displaced.size).toBeGreaterThan(50);
    const windows = [
      [0, 4200],
      [15, 15],
      [10, 10],
      [995, 2005],
      [3990, 9000],
      [-5, 5],
      [2500, 2400],
    ] as const;
    for (const [from, to] of windows)
      expect(windowIds(docs, from, to), `${from}..${to}`).toEqual(truth(docs, from, to));

    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ordered-')), 'copy.idx');
    const { meta, chunks } = docs.save();
    await writeSnapshot(file, meta, chunks);
    const copy = readSnapshot<DocumentsMeta>(file)!;
    const restored = OrderedDocuments.restore(copy.header, copy.chunks);
    copy.chunks.close();
    for (const [from, to] of windows)
      expect(windowIds(restored, from, to), `restored ${from}..${to}`).toEqual(truth(docs, from, to));
    // Added to after the restore: a displaced document's slot follows the one before it.
    restored.add({ id: 500, time: 1234, document: { texts: ['x'], facets: [] } });
    restored.index.flush();
    expect(windowIds(restored, 1234, 1234)).toEqual([...truth(docs, 1234, 1234), 500].sort((a, b) => a - b));
  });
});

describe('documents by id', () => {
  it('finds every document by its id, ids of a sequence in an array and far ones in a map, as a Map would', () => {
    const byId = new DocumentsById();
    const truth = new Map<number, number>();
    const random = new SeededRandom(3);
    const put = (id: number, doc: number) => {
      byId.set(id, doc);
      truth.set(id, doc);
    };
    // Far ids first (a restore meets them in time order), then a sequence that grows the array over them.
    for (const id of [1e12, 2 ** 40, 900_000, 300_000]) put(id, truth.size);
    for (let id = 1; id <= 200_000; id++) put(id, truth.size);
    for (let i = 0; i < 20_000; i++) {
      const id = random.int(1, 320_000);
      if (random.chance(0.5)) {
        byId.delete(id);
        truth.delete(id);
      } else put(id, random.int(0, 1_000_000));
    }
    expect(byId.size).toBe(truth.size);
    for (const [id, doc] of truth) expect(byId.get(id)).toBe(doc);
    for (const id of [0, 250_001, 319_999, 1e12 + 1]) expect(byId.get(id)).toBe(truth.get(id));
    // 4 bytes an id of the sequence (grown by doubling), not a map's 30 bytes an entry.
    expect(byId.bytes).toBeLessThan(truth.size * 12);
    expect(byId.get(1e12)).toBe(0);
    expect(byId.get(0)).toBeUndefined();
  });
});
