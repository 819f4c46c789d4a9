/**
 * The compressed bitmaps the search indexes are made of: CRoaring, through its native Node.js binding (`roaring`)
 * where that binding is installed and loads, and otherwise through the same library compiled to WebAssembly
 * (`roaring-wasm`, by the same author, with the same API and serialization).
 *
 * Both are CRoaring, but not equally fast. `roaring-wasm` 1.1.0 counts the bits of its dense containers (a bitset of
 * 65,536 documents) a byte at a time through memory, over a hundred times slower than the native binding for one
 * container pair; every intersection of two dense postings counts its result that way (docs/search.md, "The bitmap
 * library"). The native binding is an optional dependency because its C++ does not yet build on Node.js 26: there
 * `npm install` skips it and the service runs on `roaring-wasm`, with the same results, more slowly.
 *
 * The two libraries read and write the same portable format, so a saved index copy loads under either.
 */
import { createRequire } from 'node:module';
import type { RoaringBitmap32 as WasmBitmap32 } from 'roaring-wasm';

/** Which library the process's bitmaps come from. */
export type BitmapLibrary = 'roaring' | 'roaring-wasm';

function nativeBitmaps(): typeof WasmBitmap32 | null {
  try {
    // The same class, method for method, for every call the indexes make (both libraries mirror CRoaring's API).
    return (createRequire(import.meta.url)('roaring') as { RoaringBitmap32: typeof WasmBitmap32 }).RoaringBitmap32;
  } catch {
    return null;
  }
}

const native = nativeBitmaps();
/** The WebAssembly build, loaded only where the native binding is not (its module and memory stay resident). */
const wasm = native ? null : await import('roaring-wasm');

/** The native bitmaps made while a withTemporaryBitmaps runs, which it frees when it returns (null: none runs). */
let temporaries: Bitmap[] | null = null;

/**
 * The native class as the indexes use it: every bitmap its constructor or one of its static methods (`and`,
 * `orMany`, `fromRange`…) makes while a withTemporaryBitmaps runs is kept, to be freed when it returns, as the
 * WebAssembly arena frees its own. Otherwise a search's intermediate bitmaps (a copy of the broadest keyword's
 * posting is 128 KB at a million posts) waited for V8's collector, and tens of megabytes of them piled up in the
 * malloc heap under load.
 */
function scoped(Native: typeof WasmBitmap32): typeof WasmBitmap32 {
  const keep = (made: unknown): unknown => {
    if (temporaries && made instanceof Native) temporaries.push(made);
    return made;
  };
  // One wrapper per static method, made at its first use: a search calls them dozens of times.
  const wrappers = new Map<PropertyKey, (...args: unknown[]) => unknown>();
  return new Proxy(Native, {
    // Constructed as the native class itself, never with the proxy as `new.target`: V8 cannot keep an initial map on a
    // proxy, so every bitmap made through it had a hidden class of its own (docs/performance.md, "The company
    // directory"). Nothing extends this class.
    construct: (target, args) => keep(Reflect.construct(target, args)) as object,
    get: (target, key, receiver) => {
      const known = wrappers.get(key);
      if (known) return known;
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function' || key === 'prototype') return value;
      const wrapper = (...args: unknown[]) => keep(Reflect.apply(value, target, args));
      wrappers.set(key, wrapper);
      return wrapper;
    },
  });
}

export const RoaringBitmap32: typeof WasmBitmap32 = native ? scoped(native) : wasm!.RoaringBitmap32;
/**
 * A bitmap of either library. Their methods agree, but for a few that only one has or that take other arguments under
 * the same name (`rangeUint32Array` takes values on WebAssembly, ranks on the native binding; `select` past the end gives
 * NaN or undefined). The indexes call none of those (a page by rank goes through `highest` below), and
 * test/bitmaps.test.ts runs every call they make on both libraries.
 */
export type Bitmap = WasmBitmap32;
export const bitmapLibrary: BitmapLibrary = native ? 'roaring' : 'roaring-wasm';

/**
 * The `count` highest values of a bitmap after skipping its `skip` highest, as a bitmap. Found by rank (`select`: a
 * count of bits a word at a time) and cut out by value (an intersection with a range), which costs the same on both
 * libraries; reading ranks from the top of a dense container one value at a time, as a slice by rank does, took
 * ten times as long for the broadest keyword at a million posts.
 */
export function highestSet(bitmap: Bitmap, skip: number, count: number): Bitmap {
  const Bitmaps = bitmap.constructor as typeof RoaringBitmap32;
  const end = bitmap.size - skip;
  if (count <= 0 || end <= 0) return new Bitmaps();
  const start = Math.max(0, end - count);
  const low = bitmap.select(start)!;
  const high = skip === 0 ? bitmap.maximum() + 1 : bitmap.select(end)!;
  return Bitmaps.and(bitmap, Bitmaps.fromRange(low, high));
}

/** The values of a bitmap, highest first. */
export function descending(bitmap: Bitmap): number[] {
  const values = bitmap.toUint32Array();
  const out = new Array<number>(values.length);
  for (let i = 0, j = values.length - 1; j >= 0; i++, j--) out[i] = values[j]!;
  return out;
}

/** The `count` highest values of a bitmap after skipping its `skip` highest, highest first (a page newest first). */
export function highest(bitmap: Bitmap, skip: number, count: number): number[] {
  return descending(highestSet(bitmap, skip, count));
}

/**
 * Runs `work` with every bitmap it creates freed when it returns: on WebAssembly, whose memory JavaScript's collector
 * frees only eventually, through an arena; on the native binding, those made through `RoaringBitmap32` (its
 * constructor and static methods; `copyOf` for a copy). `work` must create no bitmap that outlives it.
 */
export function withTemporaryBitmaps<T>(work: () => T): T {
  if (wasm) return new wasm.RoaringArenaAllocator().with(work);
  const outer = temporaries;
  const made: Bitmap[] = [];
  temporaries = made;
  try {
    return work();
  } finally {
    temporaries = outer;
    for (const bitmap of made) bitmap.dispose();
  }
}

/** A copy of a bitmap, freed with the other temporaries of the withTemporaryBitmaps it is made in. */
export function copyOf(bitmap: Bitmap): Bitmap {
  return RoaringBitmap32.or(bitmap, new RoaringBitmap32());
}

/** Run-compresses a bitmap and frees its containers' spare capacity (the native binding's `shrinkToFit`). */
export function compact(bitmap: Bitmap): void {
  bitmap.runOptimize();
  (bitmap as Partial<{ shrinkToFit(): number }>).shrinkToFit?.();
}
