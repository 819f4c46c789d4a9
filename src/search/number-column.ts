/**
 * A column of numbers by document number (an item's id, its time, its text's length, a job's pay) held in the
 * narrowest form that keeps every value it was given exactly: whole numbers from 0 to 65,535 take 2 bytes each; to
 * 2^32 - 1 and to 2^48 - 1 (a time in milliseconds), a low part of 2 or 4 bytes a document and a high part (the bits
 * above) that a block of documents shares where its values share it (`HighParts`); anything else 8 bytes (a double).
 * The column widens itself, once, when a value does not fit; it never narrows.
 *
 * Ids and times grow along document numbers (documents are numbered in time order), so a block's values nearly always
 * share their high part: such a column costs its low part and little more.
 */
import { roomFor } from './growing-arrays.js';

const TWO_32 = 4_294_967_296;
/** The widths a column can take, narrowest first: the exclusive upper bound of the whole numbers each holds. */
const LIMITS = [65_536, TWO_32, 2 ** 48] as const;
/** Where a value is split into its low and high parts, at widths 1 and 2. */
const SPLITS = [0, 65_536, TWO_32] as const;

/** Documents in a block that shares a high part: 2^BLOCK_BITS. */
const BLOCK_BITS = 8;
const BLOCK = 1 << BLOCK_BITS;
/** A block's shared high part when none of its documents has one yet, and when they differ. */
const UNSET = -2;
const MIXED = -1;
/** What a block of differing high parts costs beside its array of high parts: the array's object and its map entry. */
const PER_MIXED_BLOCK = 128;

/** How many of LIMITS a value is too wide for (3: only a double holds it). */
function widthOf(value: number): number {
  if (!Number.isInteger(value) || value < 0 || Object.is(value, -0)) return LIMITS.length;
  let width = 0;
  while (width < LIMITS.length && value >= LIMITS[width]!) width++;
  return width;
}

const blocksFor = (documents: number): number => Math.ceil(documents / BLOCK);

/**
 * The high parts of a column's values (each below 65,536): one for a block of BLOCK documents where every value of
 * the block has it, else one a document (a block crossing a boundary of the high part, or holding a displaced item's
 * old id or time).
 */
class HighParts {
  private shared: Int32Array<ArrayBuffer>;
  private readonly perDocument = new Map<number, Uint16Array<ArrayBuffer>>();

  constructor(capacity: number) {
    this.shared = new Int32Array(blocksFor(capacity)).fill(UNSET);
  }

  at(doc: number): number {
    const shared = this.shared[doc >>> BLOCK_BITS]!;
    if (shared >= 0) return shared;
    return shared === MIXED ? this.perDocument.get(doc >>> BLOCK_BITS)![doc & (BLOCK - 1)]! : 0;
  }

  set(doc: number, high: number): void {
    const block = doc >>> BLOCK_BITS;
    const shared = this.shared[block]!;
    if (shared === high) return;
    if (shared === UNSET) {
      this.shared[block] = high;
      return;
    }
    let parts = this.perDocument.get(block);
    if (!parts) {
      this.perDocument.set(block, (parts = new Uint16Array(BLOCK).fill(shared)));
      this.shared[block] = MIXED;
    }
    parts[doc & (BLOCK - 1)] = high;
  }

  get bytes(): number {
    return this.shared.byteLength + this.perDocument.size * (2 * BLOCK + PER_MIXED_BLOCK);
  }

  /** Room for `capacity` documents, keeping the blocks of the first `keep`. */
  resize(capacity: number, keep: number): void {
    const shared = new Int32Array(blocksFor(capacity)).fill(UNSET);
    shared.set(this.shared.subarray(0, Math.min(blocksFor(keep), shared.length)));
    this.shared = shared;
    for (const block of this.perDocument.keys()) if (block >= shared.length) this.perDocument.delete(block);
  }
}

export class NumberColumn {
  /** The values (width 0), their low parts (widths 1 and 2); empty at width 3. */
  private low: Uint16Array<ArrayBuffer> | Uint32Array<ArrayBuffer> = new Uint16Array(1024);
  /** The values' high parts, at widths 1 and 2. */
  private high: HighParts | null = null;
  /** The values, at width 3. */
  private float: Float64Array<ArrayBuffer> | null = null;
  private width = 0;
  private split = 0;
  length = 0;

  at(doc: number): number {
    if (this.float) return this.float[doc]!;
    return this.high ? this.high.at(doc) * this.split + this.low[doc]! : this.low[doc]!;
  }

  push(value: number): void {
    this.set(this.length, value);
  }

  /** Sets the value of document `doc`; the documents between the last one set and it read 0. */
  set(doc: number, value: number): void {
    const width = widthOf(value);
    if (width > this.width) this.widen(width);
    if (doc >= this.capacity) this.resize(Math.max(doc + 1, this.capacity * 2));
    if (this.float) this.float[doc] = value;
    else if (this.high) {
      // The documents skipped over read 0 in a block whose values share another high part.
      for (let skipped = this.length; skipped < doc; skipped++) this.high.set(skipped, 0);
      this.low[doc] = value % this.split;
      this.high.set(doc, Math.floor(value / this.split));
    } else this.low[doc] = value;
    if (doc >= this.length) this.length = doc + 1;
  }

  /** The bytes the column holds, room to grow included. */
  get bytes(): number {
    return (this.float?.byteLength ?? 0) + this.low.byteLength + (this.high?.bytes ?? 0);
  }

  /** Lets go of the room grown by doubling, keeping a little for the writes that follow (after a build). */
  compact(): void {
    const room = roomFor(this.length);
    if (room < this.capacity) this.resize(room);
  }

  /** The values of the first `count` documents as doubles, 0 past the last one set (for a saved copy). */
  toFloat64(count = this.length): Float64Array {
    const out = new Float64Array(count);
    for (let doc = 0; doc < Math.min(count, this.length); doc++) out[doc] = this.at(doc);
    return out;
  }

  static of(values: ArrayLike<number>): NumberColumn {
    const column = new NumberColumn();
    let width = 0;
    for (let i = 0; i < values.length; i++) width = Math.max(width, widthOf(values[i]!));
    column.widen(width);
    column.resize(roomFor(values.length));
    for (let i = 0; i < values.length; i++) column.set(i, values[i]!);
    return column;
  }

  private get capacity(): number {
    return this.float ? this.float.length : this.low.length;
  }

  /** Moves the values into arrays of `length` at the current width. */
  private resize(length: number): void {
    const keep = Math.min(length, this.length);
    if (this.float) {
      this.float = copied(this.float, new Float64Array(length), keep);
      return;
    }
    this.low = copied(this.low, this.width === 2 ? new Uint32Array(length) : new Uint16Array(length), keep);
    this.high?.resize(length, keep);
  }

  /** Moves the values to arrays of width `width`. */
  private widen(width: number): void {
    const values = Array.from({ length: this.length }, (_, doc) => this.at(doc));
    const capacity = this.capacity;
    this.width = width;
    this.split = SPLITS[width] ?? 0;
    this.float = width === 3 ? new Float64Array(capacity) : null;
    this.low = width === 2 ? new Uint32Array(capacity) : new Uint16Array(width === 3 ? 0 : capacity);
    this.high = width === 1 || width === 2 ? new HighParts(capacity) : null;
    this.length = 0;
    values.forEach((value, doc) => this.set(doc, value));
  }
}

function copied<T extends Uint16Array<ArrayBuffer> | Uint32Array<ArrayBuffer> | Float64Array<ArrayBuffer>>(
  from: T,
  to: T,
  count: number,
): T {
  to.set(from.subarray(0, count));
  return to;
}
