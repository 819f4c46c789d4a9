import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bytesOf, DamagedCopyError, readSnapshot, writeSnapshot, type Chunk } from '../src/search/index-snapshot.js';
import { RoaringBitmap32 } from '../src/search/bitmaps.js';

/**
 * The saved copy's file (src/search/index-snapshot.ts): chunks of every size round-trip, the ones larger than the
 * writer's and the reader's reused buffers included, and a copy holds the index as it was when the write began.
 */
describe('an index copy', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-snapshot-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** A bitmap of `count` numbers below `below`, from a fixed sequence. */
  const bitmapOf = (count: number, below: number, seed: number) => {
    const values: number[] = [];
    let x = seed;
    for (let i = 0; i < count; i++) {
      x = (Math.imul(x, 1_103_515_245) + 12_345) >>> 0;
      values.push(x % below);
    }
    return new RoaringBitmap32(values);
  };

  it('reads back every chunk as written, small and larger than its buffers, in order', async () => {
    const column = Float64Array.from({ length: 300_000 }, (_, i) => i * 1.5 + 0.25); // 2.4 MB
    const lengths = Uint32Array.from({ length: 1_000 }, (_, i) => i * 7);
    // Dense containers across 2^26 numbers: ~4 MB serialized, beyond the 1 MB the writer gathers.
    const large = bitmapOf(2_000_000, 1 << 26, 7);
    const small = Array.from({ length: 300 }, (_, i) => bitmapOf(1 + i * 13, 1 << 20, i + 1));
    expect(large.getSerializationSizeInBytes('portable')).toBeGreaterThan(2 << 20);
    const chunks: Chunk[] = [
      bytesOf(column),
      small[0]!,
      large,
      bytesOf(lengths),
      ...small.slice(1),
      new RoaringBitmap32(),
    ];
    const file = path.join(dir, 'sizes.idx');
    await writeSnapshot(file, { name: 'sizes', count: chunks.length }, chunks);

    const copy = readSnapshot<{ name: string; count: number }>(file)!;
    try {
      expect(copy.header).toEqual({ name: 'sizes', count: chunks.length });
      const reader = copy.chunks;
      expect(Array.from(reader.float64())).toEqual(Array.from(column));
      const read = () => RoaringBitmap32.deserialize(reader.take(), 'portable');
      expect(read().isEqual(small[0]!)).toBe(true);
      expect(read().isEqual(large)).toBe(true);
      expect(Array.from(reader.uint32())).toEqual(Array.from(lengths));
      for (const bitmap of small.slice(1)) expect(read().isEqual(bitmap)).toBe(true);
      expect(read().size).toBe(0);
      expect(() => reader.take()).toThrow(/ends early/);
    } finally {
      copy.chunks.close();
    }
  });

  it('holds the bitmaps as they were when the write began, whatever changes them while it is flushed', async () => {
    const bitmap = bitmapOf(100_000, 1 << 22, 3);
    const before = bitmap.clone();
    const file = path.join(dir, 'moment.idx');
    const writing = writeSnapshot(file, {}, [bitmap]);
    // What a write to the index does right after the save has begun (the save no longer holds the index still).
    bitmap.addRange(0, 1 << 22);
    await writing;
    const copy = readSnapshot(file)!;
    try {
      expect(RoaringBitmap32.deserialize(copy.chunks.take(), 'portable').isEqual(before)).toBe(true);
    } finally {
      copy.chunks.close();
    }
  });

  it('refuses a copy cut short, with any byte changed, or keyed for another database; is no copy when something else', async () => {
    const file = path.join(dir, 'cut.idx');
    const chunks = [bytesOf(Float64Array.from([1, 2, 3])), bitmapOf(50_000, 1 << 20, 5)];
    await writeSnapshot(file, { cut: true }, chunks, 'epoch-a');
    const whole = fs.readFileSync(file);
    const copy = readSnapshot(file, 'epoch-a')!;
    expect(Array.from(copy.chunks.float64())).toEqual([1, 2, 3]);
    copy.chunks.close();
    expect(() => readSnapshot(file, 'epoch-b')).toThrow(DamagedCopyError);
    for (const cut of [whole.length - 100, whole.length - 1, 20, 12]) {
      fs.writeFileSync(file, whole.subarray(0, cut));
      expect(() => readSnapshot(file, 'epoch-a'), `cut at ${cut}`).toThrow(DamagedCopyError);
    }
    // Past the magic and the format, a byte changed anywhere: the table, the header, a chunk, the checksum itself.
    for (const at of [11, 15, 30, Math.floor(whole.length / 2), whole.length - 40, whole.length - 1]) {
      const changed = Buffer.from(whole);
      changed[at] = changed[at]! ^ 0x5a;
      fs.writeFileSync(file, changed);
      expect(() => readSnapshot(file, 'epoch-a'), `byte ${at}`).toThrow(DamagedCopyError);
    }
    // Another format (an older release's copy) is no copy to this code, as is a file that is not one at all.
    const older = Buffer.from(whole);
    older.writeUInt32LE(7, 7);
    fs.writeFileSync(file, older);
    expect(readSnapshot(file, 'epoch-a')).toBeNull();
    fs.writeFileSync(file, 'not an index copy at all');
    expect(readSnapshot(file)).toBeNull();
    expect(readSnapshot(path.join(dir, 'missing.idx'))).toBeNull();
  });
});
