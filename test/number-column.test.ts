import { describe, expect, it } from 'vitest';
import { NumberColumn } from '../src/search/number-column.js';

const read = (column: NumberColumn) => Array.from({ length: column.length }, (_, doc) => column.at(doc));

describe('a column of numbers by document', () => {
  it('takes 2, 4, 6 or 8 bytes a document, the fewest that hold every value exactly', () => {
    const widths: Array<[number[], number]> = [
      [[0, 1, 65_535], 2],
      [[0, 65_536, 2 ** 32 - 1], 4],
      [[1_733_500_000_000, 2 ** 48 - 1, 7], 6],
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
      // Room for the values and 1,024 more.
      expect(column.bytes).toBe((values.length + 1024) * bytes);
    }
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
