/**
 * A sparse posting kept in half the bytes CRoaring takes for it. CRoaring holds a container (65,536 document numbers)
 * of at most 4,096 documents as a sorted array of 2 bytes a document; here each document is the gap from the one
 * before it in its container, in one byte when under 255 (an escape byte and 2 bytes otherwise). Such postings, a
 * CJK character's or bigram's in a few percent of the documents, are most of an index's bytes.
 *
 * A search reads a coded posting back as a CRoaring bitmap: the gaps are summed straight into the bytes of roaring's
 * portable format, which the library copies in (`deserialize`), so the bitmap algebra is CRoaring's either way. The
 * reading costs about 2 ns a document, where an intersection costs a fraction of that; which postings are worth
 * coding is the index's choice (posting-index.ts).
 *
 * A coded posting grows at its end only: documents are numbered in the order they are added.
 */
import { RoaringBitmap32, type Bitmap } from './bitmaps.js';
import type { PortableChunk } from './index-snapshot.js';

/** Roaring's portable format: the cookie of a bitmap without run containers, and the most an array container holds. */
const NO_RUN_COOKIE = 12_346;
const ARRAY_MOST = 4096;
const ESCAPE = 255;
/** What a container costs beside its gaps: its key, count and start, in JavaScript arrays. */
const PER_CONTAINER = 24;

if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1)
  throw new Error('Coded postings are written in the portable format through little-endian typed arrays');

/** Where portable bytes are written on their way to CRoaring (grown to the largest posting read). */
let scratch = new ArrayBuffer(1 << 16);

/**
 * The most bytes a slab holds, the least, and the most a posting's gaps take from a shared slab rather than a
 * buffer of their own. A new slab holds a sixteenth of what the slabs hold already, within those bounds.
 */
const SLAB_MOST = 1 << 20;
const SLAB_LEAST = 1 << 16;
const SHARED_MOST = SLAB_MOST >>> 2;

/**
 * Where an index's coded postings keep their gaps: slabs of up to a megabyte, which the system's allocator maps
 * apart from its heap from 128 KB up (`npm start` holds glibc's threshold there), handed out in pieces. A posting that
 * outgrows its piece takes a larger one and leaves the old one unused until the index moves every posting into
 * new slabs (`CodedPosting.moveTo`, after a build); then the old slabs are unmapped whole. Thousands of small
 * buffers grown and freed during a build instead left holes in the heap that stayed resident.
 */
export class GapSlabs {
  private slabs: Uint8Array<ArrayBuffer>[] = [];
  private slab = new Uint8Array(0);
  private free = 0;

  /** Slabs whose first holds `first` bytes (the postings an index moves in after a build, to the byte). */
  constructor(first = 0) {
    if (first > 0) this.slab = this.kept(new Uint8Array(first));
  }

  /** A piece of `size` zeroed bytes. */
  take(size: number): Uint8Array<ArrayBuffer> {
    if (size > SHARED_MOST) return this.kept(new Uint8Array(size));
    if (this.slab.length - this.free < size) {
      const slab = Math.max(size, Math.min(SLAB_MOST, Math.max(SLAB_LEAST, this.bytes >>> 4)));
      this.slab = this.kept(new Uint8Array(slab));
      this.free = 0;
    }
    this.free += size;
    return this.slab.subarray(this.free - size, this.free);
  }

  /** The bytes the slabs hold, the pieces no posting uses any more and the room not yet handed out included. */
  bytes = 0;

  private kept(slab: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
    this.slabs.push(slab);
    this.bytes += slab.byteLength;
    return slab;
  }
}

/** The bytes `docs` (ascending, all after `last`) take as gaps. */
function bytesFor(docs: ArrayLike<number>, last: number): number {
  let bytes = 0;
  let previous = last;
  for (let i = 0; i < docs.length; i++) {
    const doc = docs[i]!;
    const from = doc >>> 16 === previous >>> 16 && previous >= 0 ? previous & 0xffff : -1;
    bytes += (doc & 0xffff) - from - 1 < ESCAPE ? 1 : 3;
    previous = doc;
  }
  return bytes;
}

export class CodedPosting implements PortableChunk {
  /** Each container's key (the high 16 bits of its documents) and how many documents it holds. */
  private readonly keys: number[] = [];
  private readonly counts: number[] = [];
  /** Where each container's gaps begin. */
  private readonly starts: number[] = [];
  private gaps: Uint8Array<ArrayBuffer> = new Uint8Array(0);
  private used = 0;
  private last = -1;
  size = 0;

  constructor(private slabs: GapSlabs) {}

  /**
   * A bitmap's documents coded, their gaps taken from `slabs`; null (nothing taken) when coding would not save a
   * quarter of the bitmap's bytes.
   */
  static of(bitmap: Bitmap, slabs: GapSlabs): CodedPosting | null {
    const docs = bitmap.toUint32Array();
    let containers = 0;
    for (let i = 0; i < docs.length; i++) if (i === 0 || docs[i]! >>> 16 !== docs[i - 1]! >>> 16) containers++;
    if (bytesFor(docs, -1) + PER_CONTAINER * containers > 0.75 * bitmap.getSerializationSizeInBytes('portable'))
      return null;
    const coded = new CodedPosting(slabs);
    coded.append(docs);
    return coded;
  }

  /** Adds documents after the last one it holds, in ascending order; false (nothing added) when one is not after it. */
  append(docs: ArrayLike<number>): boolean {
    if (docs.length === 0) return true;
    if (docs[0]! <= this.last) return false;
    const needed = this.used + bytesFor(docs, this.last);
    if (needed > this.gaps.length) this.moveInto(this.slabs.take(Math.max(needed, Math.floor(1.5 * this.gaps.length))));
    const gaps = this.gaps;
    let used = this.used;
    let key = this.last < 0 ? -1 : this.last >>> 16;
    let previous = this.last & 0xffff;
    for (let i = 0; i < docs.length; i++) {
      const doc = docs[i]!;
      if (doc >>> 16 !== key) {
        key = doc >>> 16;
        this.keys.push(key);
        this.counts.push(0);
        this.starts.push(used);
        previous = -1;
      }
      const gap = (doc & 0xffff) - previous - 1;
      if (gap < ESCAPE) gaps[used++] = gap;
      else {
        gaps[used++] = ESCAPE;
        gaps[used++] = gap & 0xff;
        gaps[used++] = gap >>> 8;
      }
      previous = doc & 0xffff;
      this.counts[this.counts.length - 1]!++;
    }
    this.used = used;
    this.last = docs[docs.length - 1]!;
    this.size += docs.length;
    return true;
  }

  /** Moves its gaps into a piece of `slabs` of just their size (after a build, into new slabs). */
  moveTo(slabs: GapSlabs): void {
    this.slabs = slabs;
    this.moveInto(slabs.take(this.used));
  }

  /** The bytes it holds, as the index counts them beside its slabs: each container's key, count and start. */
  get bytes(): number {
    return PER_CONTAINER * this.keys.length;
  }

  /** The bytes of its gaps (a piece of just its size holds them). */
  get gapBytes(): number {
    return this.used;
  }

  /** The bytes it would hold in a piece of just its size: its gaps and its containers. */
  get codedBytes(): number {
    return this.used + this.bytes;
  }

  /** Whether it holds `doc` (read from the start of the document's container: for checks, not searches). */
  has(doc: number): boolean {
    const c = this.keys.indexOf(doc >>> 16);
    if (c < 0) return false;
    const gaps = this.gaps;
    let read = this.starts[c]!;
    for (let i = 0, value = -1; i < this.counts[c]!; i++) {
      let gap = gaps[read++]!;
      if (gap === ESCAPE) {
        gap = gaps[read]! | (gaps[read + 1]! << 8);
        read += 2;
      }
      value += gap + 1;
      if (value >= (doc & 0xffff)) return value === (doc & 0xffff);
    }
    return false;
  }

  /** The posting as a CRoaring bitmap (made through RoaringBitmap32: a temporary inside withTemporaryBitmaps). */
  decode(): Bitmap {
    return RoaringBitmap32.deserialize(this.portable(), 'portable');
  }

  getSerializationSizeInBytes(_format: 'portable'): number {
    return this.portableSize();
  }

  serialize(_format: 'portable', into: Uint8Array): void {
    into.set(this.portable());
  }

  private moveInto(piece: Uint8Array<ArrayBuffer>): void {
    piece.set(this.gaps.subarray(0, this.used));
    this.gaps = piece;
  }

  private portableSize(): number {
    let size = 8 + 8 * this.keys.length;
    for (const count of this.counts) size += count > ARRAY_MOST ? 8192 : 2 * count;
    return size;
  }

  /** The posting in roaring's portable format, in the scratch buffer (valid until the next call). */
  private portable(): Uint8Array {
    const size = this.portableSize();
    if (scratch.byteLength < size) scratch = new ArrayBuffer(Math.max(size, 2 * scratch.byteLength));
    const words = new Uint16Array(scratch, 0, size >>> 1);
    const header = new Uint32Array(scratch, 0, 2 + 2 * this.keys.length);
    const containers = this.keys.length;
    header[0] = NO_RUN_COOKIE;
    header[1] = containers;
    let at = 8 + 8 * containers;
    for (let c = 0; c < containers; c++) {
      words[4 + 2 * c] = this.keys[c]!;
      words[5 + 2 * c] = this.counts[c]! - 1;
      header[2 + containers + c] = at;
      at += this.counts[c]! > ARRAY_MOST ? 8192 : 2 * this.counts[c]!;
    }
    const gaps = this.gaps;
    let read = 0;
    let word = (8 + 8 * containers) >>> 1;
    for (let c = 0; c < containers; c++) {
      const count = this.counts[c]!;
      if (count > ARRAY_MOST) {
        words.fill(0, word, word + 4096);
        for (let i = 0, value = -1; i < count; i++) {
          let gap = gaps[read++]!;
          if (gap === ESCAPE) {
            gap = gaps[read]! | (gaps[read + 1]! << 8);
            read += 2;
          }
          value += gap + 1;
          words[word + (value >>> 4)]! |= 1 << (value & 15);
        }
        word += 4096;
        continue;
      }
      for (let end = word + count, value = -1; word < end; word++) {
        let gap = gaps[read++]!;
        if (gap === ESCAPE) {
          gap = gaps[read]! | (gaps[read + 1]! << 8);
          read += 2;
        }
        value += gap + 1;
        words[word] = value;
      }
    }
    return new Uint8Array(scratch, 0, size);
  }
}
