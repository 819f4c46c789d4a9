/**
 * A column of numbers by document number (an item's id, its time, its text's length, a job's pay) held in the
 * narrowest typed array that keeps every value it was given exactly: whole numbers from 0 to 65,535 take 2 bytes
 * each, to 2^32 - 1 4 bytes, to 2^48 - 1 (a time in milliseconds) 6 bytes (a low and a high part), and anything
 * else 8 (a double). The column widens itself, once, when a value does not fit; it never narrows.
 */
import { roomFor } from './growing-arrays.js';

const TWO_32 = 4_294_967_296;
/** The widths a column can take, narrowest first: the exclusive upper bound of the whole numbers each holds. */
const LIMITS = [65_536, TWO_32, 2 ** 48] as const;

/** How many of LIMITS a value is too wide for (3: only a double holds it). */
function widthOf(value: number): number {
  if (!Number.isInteger(value) || value < 0 || Object.is(value, -0)) return LIMITS.length;
  let width = 0;
  while (width < LIMITS.length && value >= LIMITS[width]!) width++;
  return width;
}

export class NumberColumn {
  /** The values (width 0 and 1), or their low 32 bits (width 2); empty at width 3. */
  private low: Uint16Array<ArrayBuffer> | Uint32Array<ArrayBuffer> = new Uint16Array(1024);
  /** The values' bits above 32, at width 2. */
  private high: Uint16Array<ArrayBuffer> | null = null;
  /** The values, at width 3. */
  private float: Float64Array<ArrayBuffer> | null = null;
  private width = 0;
  length = 0;

  at(doc: number): number {
    if (this.float) return this.float[doc]!;
    return this.high ? this.high[doc]! * TWO_32 + this.low[doc]! : this.low[doc]!;
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
      this.low[doc] = value % TWO_32;
      this.high[doc] = Math.floor(value / TWO_32);
    } else this.low[doc] = value;
    if (doc >= this.length) this.length = doc + 1;
  }

  /** The bytes the column holds, room to grow included. */
  get bytes(): number {
    return (this.float?.byteLength ?? 0) + this.low.byteLength + (this.high?.byteLength ?? 0);
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
    this.low = copied(this.low, this.width === 0 ? new Uint16Array(length) : new Uint32Array(length), keep);
    if (this.high) this.high = copied(this.high, new Uint16Array(length), keep);
  }

  /** Moves the values to arrays of width `width`. */
  private widen(width: number): void {
    const values = Array.from({ length: this.length }, (_, doc) => this.at(doc));
    const capacity = this.capacity;
    this.width = width;
    this.float = width === 3 ? new Float64Array(capacity) : null;
    this.low = width === 0 ? new Uint16Array(capacity) : new Uint32Array(width === 3 ? 0 : capacity);
    this.high = width === 2 ? new Uint16Array(capacity) : null;
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
