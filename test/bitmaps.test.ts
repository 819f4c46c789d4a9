import { createRequire } from 'node:module';
import { Writable } from 'node:stream';
import { RoaringBitmap32 as WasmBitmap32 } from 'roaring-wasm';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { bitmapLibrary, highest, RoaringBitmap32, withTemporaryBitmaps, type Bitmap } from '../src/search/bitmaps.js';
import { loggerOptions } from '../src/shared/log-options.js';
import { createTestApp } from './helpers/test-app.js';

/**
 * The search indexes' bitmaps (src/search/bitmaps.ts): the native binding where it is installed, and every call the
 * indexes make answering alike on both libraries, so that a service gives the same results, and reads the same saved
 * copies, on whichever Node.js it runs.
 */
function nativeInstalled(): typeof WasmBitmap32 | null {
  try {
    return (createRequire(import.meta.url)('roaring') as { RoaringBitmap32: typeof WasmBitmap32 }).RoaringBitmap32;
  } catch {
    return null;
  }
}
const Native = nativeInstalled();

/** `count` numbers below `below`, from a fixed sequence (dense and sparse containers, depending on the density). */
function numbers(count: number, below: number, seed: number): number[] {
  const values: number[] = [];
  let x = seed;
  for (let i = 0; i < count; i++) {
    x = (Math.imul(x, 1_103_515_245) + 12_345) >>> 0;
    values.push(x % below);
  }
  return values;
}

/** Every operation the indexes use, on one library, as plain values. */
function exercise(Bitmaps: typeof WasmBitmap32): Record<string, unknown> {
  const all = (bitmap: Bitmap) => Array.from(bitmap.toUint32Array());
  const dense = new Bitmaps(numbers(150_000, 200_000, 1)); // bitset containers
  const sparse = new Bitmaps(numbers(3_000, 200_000, 2)); // array containers
  const run = Bitmaps.fromRange(10_000, 140_000); // a run container
  const other = new Bitmaps(numbers(90_000, 200_000, 3));
  const edited = dense.clone();
  edited.add(199_999).add(5);
  edited.remove(6);
  edited.addMany(numbers(500, 300_000, 4));
  edited.removeMany(numbers(500, 200_000, 5));
  edited.runOptimize();
  const inPlace = other.clone();
  inPlace.andInPlace(dense);
  inPlace.orInPlace(sparse);
  inPlace.andNotInPlace(run);
  const iterated: number[] = [];
  for (const doc of sparse) iterated.push(doc);
  return {
    dense: all(dense),
    sparse: all(sparse),
    run: all(run),
    other: all(other),
    sizes: [dense.size, sparse.size, run.size, other.size, new Bitmaps().isEmpty, dense.isEmpty],
    edited: all(edited),
    and: all(Bitmaps.and(dense, other)),
    andRun: all(Bitmaps.and(run, sparse)),
    andNot: all(Bitmaps.andNot(dense, other)),
    orMany: all(Bitmaps.orMany([sparse, run, other])),
    inPlace: all(inPlace),
    cardinalities: [
      dense.andCardinality(other),
      dense.andCardinality(sparse),
      run.andCardinality(dense),
      sparse.andCardinality(new Bitmaps()),
    ],
    has: [dense.has(numbers(1, 200_000, 1)[0]!), sparse.has(199_998), run.has(10_000), run.has(140_000)],
    toArray: sparse.toArray(),
    iterated,
    highest: [
      highest(dense, 0, 10),
      highest(dense, 25, 30),
      highest(sparse, sparse.size - 10, 100),
      highest(sparse, sparse.size + 1, 10),
      highest(run, 0, 0),
      highest(run, 3, 5),
      highest(other, 0, other.size + 5),
    ],
    minimum: [dense.minimum(), sparse.maximum()],
    rangeCardinality: [
      run.rangeCardinality(0, 65_536),
      run.rangeCardinality(10_000, 10_001),
      dense.rangeCardinality(65_536, 131_072),
      sparse.rangeCardinality(131_072, 200_000),
    ],
    select: [dense.select(0), dense.select(1_000), run.select(5)],
    deserialized: all(Bitmaps.deserialize(edited.serialize('portable'), 'portable')),
    serialized: Array.from(edited.serialize('portable')),
    serializedSize: edited.getSerializationSizeInBytes('portable'),
  };
}

describe("the search indexes' bitmaps", () => {
  it('come from the native binding wherever it is installed, and from WebAssembly elsewhere', () => {
    expect(bitmapLibrary).toBe(Native ? 'roaring' : 'roaring-wasm');
    expect(new RoaringBitmap32()).toBeInstanceOf(Native ?? WasmBitmap32);
  });

  it('are named in the log when the service starts', async () => {
    const t = await createTestApp('sqlite');
    let logged = '';
    const stream = new Writable({
      write(chunk, _encoding, done) {
        logged += String(chunk);
        done();
      },
    });
    const app = await buildApp({
      config: t.config,
      database: t.db.database,
      clock: () => t.clock.now,
      logger: { ...loggerOptions('info'), stream },
    });
    try {
      const ready = logged
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { msg: string; bitmaps?: string; posts?: { items: number } })
        .find((line) => line.msg === 'search indexes ready');
      expect(ready?.bitmaps).toBe(bitmapLibrary);
      expect(ready?.posts?.items).toBeGreaterThan(0);
    } finally {
      await app.close();
      await t.close();
    }
  });

  it('answer every call the indexes make alike on both libraries', () => {
    const wasm = exercise(WasmBitmap32);
    // `highest` against the values sorted in JavaScript: the top of a page newest first, skipped and cut.
    const top = (values: number[], skip: number, count: number) =>
      [...values].sort((a, b) => b - a).slice(skip, skip + count);
    const [dense, sparse, run, other] = [wasm.dense, wasm.sparse, wasm.run, wasm.other] as number[][];
    expect(wasm.highest).toEqual([
      top(dense!, 0, 10),
      top(dense!, 25, 30),
      top(sparse!, sparse!.length - 10, 100),
      [],
      [],
      top(run!, 3, 5),
      top(other!, 0, other!.length + 5),
    ]);
    expect((wasm.highest as number[][])[1]).toHaveLength(30);
    expect((wasm.highest as number[][])[2]).toHaveLength(10);
    // A range's cardinality counts from its start up to, not including, its end.
    expect((wasm.rangeCardinality as number[]).slice(0, 2)).toEqual([65_536 - 10_000, 1]);
    expect(wasm.deserialized).toEqual(wasm.edited);
    if (!Native) return; // Node.js without the binding (26): the service runs on WebAssembly alone
    expect(exercise(Native)).toEqual(wasm);
  });

  it("read each other's saved copies (the portable format)", () => {
    const values = numbers(120_000, 1 << 20, 9);
    const fromWasm = new WasmBitmap32(values);
    fromWasm.runOptimize();
    const read = RoaringBitmap32.deserialize(fromWasm.serialize('portable'), 'portable');
    expect(Array.from(read.toUint32Array())).toEqual(Array.from(fromWasm.toUint32Array()));
    const back = WasmBitmap32.deserialize(read.serialize('portable'), 'portable');
    expect(back.size).toBe(fromWasm.size);
    expect(back.andCardinality(fromWasm)).toBe(fromWasm.size);
  });

  it("run a search's work in a scope of temporary bitmaps, leaving the bitmaps made outside it intact", () => {
    const kept = new RoaringBitmap32(numbers(10_000, 100_000, 11));
    const size = withTemporaryBitmaps(() => RoaringBitmap32.and(kept, RoaringBitmap32.fromRange(0, 50_000)).size);
    expect(size).toBe(kept.rangeCardinality(0, 50_000));
    expect(kept.size).toBe(new Set(numbers(10_000, 100_000, 11)).size);
  });
});
