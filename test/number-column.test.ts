import { describe, expect, it } from 'vitest';
import { NumberColumn } from '../src/search/number-column.js';

const read = (column: NumberColumn) => Array.from({ length: column.length }, (_, doc) => column.at(doc));

describe('a column of numbers by document', () => {
  it('keeps every value exactly, at each width: 2 bytes a value, a low part and a high part, or a double', () => {
    const widths: Array<[number[], number]> = [
      [[0, 1, 65_535], 2],
      [[0, 65_536, 2 ** 32 - 1], 2],
      [[1_733_500_000_000, 2 ** 48 - 1, 7], 4],
      [[2 ** 48, 3], 8],
      [[-1, 3], 8],
      [[0.5, 3], 8],
      [[-0, 3], 8],
    ];
    for (const [values, bytes] of widths) {
      const column = NumberColumn.of(values);
      expect(read(column).map((value) => (Object.is(value, -0) ? '-0' : value))).toEqual(
        values.map((value) => (Object.is(value, -0) ? '-0' : value)),
      );
      // Room for the values and 1,024 more, beside the high parts (a block's own where its values differ).
      expect(column.bytes).toBeGreaterThanOrEqual((values.length + 1024) * bytes);
      expect(column.bytes).toBeLessThan((values.length + 1024) * bytes + 1024);
    }
  });

  it('holds ids and times that grow along documents in their low part and little more, and a displaced one exactly', () => {
    const ids = new NumberColumn();
    const times = new NumberColumn();
    // Times a minute apart cross a boundary of their high part (2^32 ms) every 71,582 documents.
    const idOf = (doc: number) => 70_000 + doc;
    const timeOf = (doc: number) => 1_733_500_000_000 + doc * 60_000;
    for (let doc = 0; doc < 200_000; doc++) {
      ids.push(idOf(doc));
      times.push(timeOf(doc));
    }
    // A displaced item: an old id and an old time.
    ids.push(5);
    times.push(1_600_000_000_000);
    ids.compact();
    times.compact();
    expect(read(ids)).toEqual([...Array.from({ length: 200_000 }, (_, doc) => idOf(doc)), 5]);
    expect(read(times)).toEqual([...Array.from({ length: 200_000 }, (_, doc) => timeOf(doc)), 1_600_000_000_000]);
    // 2 and 4 bytes a document, and a tenth more at most (a sixteenth of room to grow, the blocks' high parts).
    expect(ids.bytes).toBeLessThan(2.2 * 200_001);
    expect(times.bytes).toBeLessThan(4.4 * 200_001);
  });

  it('reads 0 for documents skipped over in a block whose values share a high part', () => {
    const column = new NumberColumn();
    column.set(10, 70_000);
    column.set(20, 70_001);
    expect([column.at(9), column.at(10), column.at(15), column.at(20)]).toEqual([0, 70_000, 0, 70_001]);
  });

  it('widens itself when a value does not fit, keeping every earlier value', () => {
    const values = [3, 70_000, 2 ** 40 + 5, 1.25, Number.NaN, -7, 2 ** 53];
    const column = new NumberColumn();
    values.forEach((value, i) => {
      column.push(value);
      expect(read(column)).toEqual(values.slice(0, i + 1));
    });
  });

  it('reads 0 for documents skipped over, and keeps its values through growing and compacting', () => {
    const column = new NumberColumn();
    column.set(5_000, 1_733_500_000_123);
    expect([column.length, column.at(0), column.at(4_999), column.at(5_000)]).toEqual([5_001, 0, 0, 1_733_500_000_123]);
    for (let doc = 5_001; doc < 30_000; doc++) column.push(doc * 3);
    const before = read(column);
    const grown = column.bytes;
    column.compact();
    expect(column.bytes).toBeLessThan(grown);
    expect(read(column)).toEqual(before);
    expect(Array.from(column.toFloat64(30_002))).toEqual([...before, 0, 0]);
  });
});
