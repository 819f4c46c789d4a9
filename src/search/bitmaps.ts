/**
 * The compressed bitmaps the search indexes are made of: CRoaring, through its native Node.js binding (`roaring`)
 * where that binding is installed and loads, and otherwise through the same library compiled to WebAssembly
 * (`roaring-wasm`, by the same author, with the same API and serialization).
 *
 * Both are CRoaring, but not equally fast. `roaring-wasm` 1.1.0 counts the bits of its dense containers (a bitset of
 * 65,536 documents, 8 KB) a byte at a time through memory, ~80 µs for one container pair where the native binding
 * takes ~0.5 µs; every intersection of two dense postings counts its result that way (docs/search.md, "The bitmap
 * library"). The native binding is an optional dependency because its C++ does not yet build on Node.js 26: there
 * `npm install` skips it and the service runs on `roaring-wasm`, with the same results, more slowly.
 *
 * The two libraries read and write the same portable format, so a saved index copy loads under either.
 */
import { createRequire } from 'node:module';
import { RoaringArenaAllocator, RoaringBitmap32 as WasmBitmap32 } from 'roaring-wasm';

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

export const RoaringBitmap32: typeof WasmBitmap32 = native ?? WasmBitmap32;
/**
 * A bitmap of either library. Their methods agree, but for a few that only one has or that take other arguments under
 * the same name (`rangeUint32Array` takes values on WebAssembly, ranks on the native binding; `select` past the end gives
 * NaN or undefined). The indexes call none of those (a page by rank goes through `highest` below), and
 * test/bitmaps.test.ts runs every call they make on both libraries.
 */
export type Bitmap = WasmBitmap32;
export const bitmapLibrary: BitmapLibrary = native ? 'roaring' : 'roaring-wasm';

/**
 * The `count` highest values of a bitmap after skipping its `skip` highest, highest first (a page newest first).
 * Found by rank (`select`: a count of bits a word at a time) and cut out by value (an intersection with a range),
 * which costs the same on both libraries; reading ranks from the top of a dense container one value at a time, as
 * a slice by rank does, took ~40 µs for the broadest keyword at a million posts, this ~4 µs.
 */
export function highest(bitmap: Bitmap, skip: number, count: number): number[] {
  const end = bitmap.size - skip;
  if (count <= 0 || end <= 0) return [];
  const start = Math.max(0, end - count);
  const Bitmaps = bitmap.constructor as typeof RoaringBitmap32;
  const low = bitmap.select(start)!;
  const high = skip === 0 ? bitmap.maximum() + 1 : bitmap.select(end)!;
  return Array.from(Bitmaps.and(bitmap, Bitmaps.fromRange(low, high)).toUint32Array()).reverse();
}

/**
 * Runs `work` with every bitmap it creates freed when it returns: on WebAssembly, whose memory JavaScript's collector
 * frees only eventually, through an arena; the native binding's bitmaps tell V8 their size and are freed with the
 * objects. `work` must create no bitmap that outlives it.
 */
export function withTemporaryBitmaps<T>(work: () => T): T {
  return native ? work() : new RoaringArenaAllocator().with(work);
}
