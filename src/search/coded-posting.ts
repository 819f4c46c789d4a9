/**
 * A posting kept in fewer bytes than CRoaring takes for it. CRoaring holds a container (65,536 document numbers) of
 * up to 4,096 documents as a sorted array of 2 bytes a document, and a fuller one as a bitset of 8 KB. Here a
 * container is kept as gaps (each document's distance from the one before it) of a byte each, with an escape for
 * the few larger ones, unless it is full enough that CRoaring's bitset is nearly as small: then as that bitset. Gaps
 * suit a token in a few documents in a hundred (a CJK character or bigram); such postings are most of an index's
 * bytes.
 *
 * A search reads a coded posting back as a CRoaring bitmap: the gaps are summed straight into the bytes of roaring's
 * portable format, which the library copies in (`deserialize`), so the bitmap algebra is CRoaring's either way. The
 * reading costs more than an intersection of the bitmap would (docs/performance.md); which postings are worth
 * coding is the index's choice (posting-index.ts).
 *
 * A coded posting grows at its end only (documents are numbered in the order they are added), in gaps: which of its
 * containers are better kept as bitsets is decided when the index moves its postings into new slabs (`moveTo`).
 */
import { RoaringBitmap32, type Bitmap } from './bitmaps.js';
import type { PortableChunk } from './index-snapshot.js';

/** Roaring's portable format: the cookie of a bitmap without run containers, and the most an array container holds. */
const NO_RUN_COOKIE = 12_346;
const ARRAY_MOST = 4096;
const BITSET_BYTES = 8192;

/** How a container is coded. */
const GAPS = 0;
const BITSET = 1;
/** A gap at least this large is this value and 2 bytes. */
const ESCAPE = 255;

/**
 * A container of more than 4,096 documents stays CRoaring's bitset unless its gaps take less than this share of its
 * bytes: the fuller a container, the less its gaps save and the longer they take to read back, and a posting made
 * of bitsets stays a bitmap (posting-index.ts), read at no cost.
 */
const BITSET_KEPT_ABOVE = 0.6;

/**
 * A posting is kept coded when that takes at most this share of its bytes as a compacted bitmap: reading it back costs
 * each search that uses it more than an intersection of the bitmap would, so it must save enough to be worth that (a
 * token in a tenth of the documents, a bitset and a sparse last container, codes to about four fifths: kept a bitmap).
 */
const KEPT_CODED_AT_MOST = 0.75;

/** What a container costs beside its coding: its key, count, start and coding, in JavaScript arrays. */
const PER_CONTAINER = 32;

if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1)
  throw new Error('Coded postings are written in the portable format through little-endian typed arrays');

/**
 * Where portable bytes are written on their way to CRoaring (grown to the largest posting read), with its views made
 * once: a search reads many postings back, and views made per container were garbage for the young generation.
 */
let scratch = new ArrayBuffer(1 << 16);
let scratchBytes = new Uint8Array(scratch);
let scratchWords = new Uint16Array(scratch);
let scratchHeader = new Uint32Array(scratch);
/** One container's documents (their low 16 bits), read back; and one container as a bitset, read back. */
const containerValues = new Uint16Array(65_536);
const containerBits = new Uint32Array(BITSET_BYTES / 4);
const containerBitBytes = new Uint8Array(containerBits.buffer);

/**
 * The most bytes a slab holds, the least, and the most a posting's gaps take from a shared slab rather than a
 * buffer of their own. A new slab holds a sixteenth of what the slabs hold already, within those bounds.
 */
const SLAB_MOST = 1 << 20;
const SLAB_LEAST = 1 << 16;
const SHARED_MOST = SLAB_MOST >>> 2;

/**
 * Where an index's coded postings keep their gaps: slabs of up to a megabyte, which the system's allocator maps
 * apart from its heap from 128 KB up (`npm start` holds glibc's threshold there), handed out in pieces. A posting
 * that outgrows its piece takes a larger one and leaves the old one unused until the index moves every posting
 * into new slabs (`CodedPosting.moveTo`, after a build); then the old slabs are unmapped whole. Thousands of small
 * buffers grown and freed during a build instead left holes in the heap that stayed resident.
 */
export class GapSlabs {
  private slab = new Uint8Array(0);
  private free = 0;
  /** The bytes the slabs hold, the pieces no posting uses any more and the room not yet handed out included. */
  bytes = 0;

  /** Slabs whose first holds `first` bytes (the postings an index moves in after a build, to the byte). */
  constructor(first = 0) {
    if (first > 0) this.slab = this.made(first);
  }

  /** A piece of `size` zeroed bytes. */
  take(size: number): Uint8Array<ArrayBuffer> {
    if (size > SHARED_MOST) return this.made(size);
    if (this.slab.length - this.free < size) {
      this.slab = this.made(Math.max(size, Math.min(SLAB_MOST, Math.max(SLAB_LEAST, this.bytes >>> 4))));
      this.free = 0;
    }
    this.free += size;
    return this.slab.subarray(this.free - size, this.free);
  }

  private made(size: number): Uint8Array<ArrayBuffer> {
    this.bytes += size;
    return new Uint8Array(size);
  }
}

/**
 * The bytes `docs` (ascending, all after `last`; -1: none) take as gaps, each from the document before it in its
 * container. A container's documents alone (their low 16 bits) count as the container's gaps.
 */
function gapsFor(docs: ArrayLike<number>, last: number): number {
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
  /** Each container's key (the high 16 bits of its documents), how many documents it holds, where its coding begins, and which coding it is. */
  private keys: number[] = [];
  private counts: number[] = [];
  private starts: number[] = [];
  private codings: number[] = [];
  private gaps: Uint8Array<ArrayBuffer> = new Uint8Array(0);
  private used = 0;
  private last = -1;
  /** What `plan` found, until the posting changes. */
  private planned: { codings: number[]; bytes: number } | null = null;
  size = 0;

  constructor(private slabs: GapSlabs) {}

  /**
   * A bitmap's documents coded, their gaps taken from `slabs`; null when coding would not save a quarter of the
   * bitmap's bytes (what it took of `slabs` is then unused until they are let go of).
   */
  static of(bitmap: Bitmap, slabs: GapSlabs): CodedPosting | null {
    const coded = new CodedPosting(slabs);
    coded.append(bitmap.toUint32Array());
    return coded.savesOn(bitmap) ? coded : null;
  }

  /** Whether, once moved, it takes at most KEPT_CODED_AT_MOST of the bytes of `bitmap` (its documents, compacted). */
  savesOn(bitmap: Bitmap): boolean {
    return this.codedBytes <= KEPT_CODED_AT_MOST * bitmap.getSerializationSizeInBytes('portable');
  }

  /** Adds documents after the last one it holds, in ascending order; false (nothing added) when one is not after it. */
  append(docs: ArrayLike<number>): boolean {
    if (docs.length === 0) return true;
    if (docs[0]! <= this.last) return false;
    this.planned = null;
    const c = this.keys.length - 1;
    if (c >= 0 && this.codings[c] === BITSET && docs[0]! >>> 16 === this.keys[c]) this.reopenLast();
    const needed = this.used + gapsFor(docs, this.last);
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
        this.codings.push(GAPS);
        previous = -1;
      }
      used = writeGap(gaps, used, previous, doc & 0xffff);
      previous = doc & 0xffff;
      this.counts[this.counts.length - 1]!++;
    }
    this.used = used;
    this.last = docs[docs.length - 1]!;
    this.size += docs.length;
    return true;
  }

  /**
   * Moves it into a piece of `slabs` of just its size, each container as gaps or as a bitset (`plan`), after a build,
   * into new slabs.
   */
  moveTo(slabs: GapSlabs): void {
    const plan = this.plan();
    const piece = slabs.take(plan.bytes);
    let at = 0;
    for (let c = 0; c < this.keys.length; c++) {
      const count = this.valuesOf(c);
      const start = at;
      if (plan.codings[c] === BITSET) at = writeBitset(containerValues, count, piece, at);
      else at = writeGaps(containerValues, count, piece, at);
      this.starts[c] = start;
    }
    this.codings = [...plan.codings];
    this.slabs = slabs;
    this.gaps = piece;
    this.used = at;
  }

  /** The bytes it holds, as the index counts them beside its slabs: each container's key, count, start and coding. */
  get bytes(): number {
    return PER_CONTAINER * this.keys.length;
  }

  /** The bytes its containers take as `plan` codes them (what `moveTo` takes). */
  get gapBytes(): number {
    return this.plan().bytes;
  }

  /** The bytes it would hold once moved: its codings and its containers. */
  get codedBytes(): number {
    return this.gapBytes + this.bytes;
  }

  /** Whether it holds `doc` (its container read back whole: for checks, not searches). */
  has(doc: number): boolean {
    const c = this.keys.indexOf(doc >>> 16);
    if (c < 0) return false;
    const count = this.valuesOf(c);
    const value = doc & 0xffff;
    let lo = 0;
    let hi = count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (containerValues[mid]! < value) lo = mid + 1;
      else hi = mid;
    }
    return lo < count && containerValues[lo] === value;
  }

  /** The posting as a CRoaring bitmap (made through RoaringBitmap32: a temporary inside withTemporaryBitmaps). */
  decode(): Bitmap {
    return RoaringBitmap32.deserialize(this.portable(0, this.keys.length), 'portable');
  }

  /**
   * Its documents from `from` on, and maybe some before (those of the container `from` is in), as a CRoaring bitmap:
   * only the containers that can hold them are read back.
   */
  decodeFrom(from: number): Bitmap {
    let first = this.keys.length;
    while (first > 0 && this.keys[first - 1]! >= from >>> 16) first--;
    if (first === this.keys.length) return new RoaringBitmap32();
    return RoaringBitmap32.deserialize(this.portable(first, this.keys.length), 'portable');
  }

  /** The document at `rank` (0: the first), or undefined past the last. */
  select(rank: number): number | undefined {
    for (let c = 0, before = 0; c < this.keys.length; before += this.counts[c]!, c++) {
      if (rank < before + this.counts[c]!) {
        this.valuesOf(c);
        return this.keys[c]! * 65_536 + containerValues[rank - before]!;
      }
    }
    return undefined;
  }

  /**
   * How many of its documents `live` holds, where every document number below `documents` not in `live` is a
   * document removed: a container with none removed in its range counts whole, without being read back.
   */
  liveCount(live: Bitmap, documents: number): number {
    let total = 0;
    for (let c = 0; c < this.keys.length; c++) {
      const low = this.keys[c]! * 65_536;
      const high = Math.min(documents, low + 65_536);
      if (live.rangeCardinality(low, high) === high - low) total += this.counts[c]!;
      else total += RoaringBitmap32.deserialize(this.portable(c, c + 1), 'portable').andCardinality(live);
    }
    return total;
  }

  getSerializationSizeInBytes(_format: 'portable'): number {
    return this.portableSize(0, this.keys.length);
  }

  serialize(_format: 'portable', into: Uint8Array): void {
    into.set(this.portable(0, this.keys.length));
  }

  /** Each container's coding (gaps, or a bitset where gaps save too little), and what they take together. */
  private plan(): { codings: number[]; bytes: number } {
    if (this.planned) return this.planned;
    const codings: number[] = [];
    let bytes = 0;
    for (let c = 0; c < this.keys.length; c++) {
      const count = this.valuesOf(c);
      const gaps = gapsFor(containerValues.subarray(0, count), -1);
      const bitset = count > ARRAY_MOST && gaps > BITSET_KEPT_ABOVE * BITSET_BYTES;
      codings.push(bitset ? BITSET : GAPS);
      bytes += bitset ? BITSET_BYTES : gaps;
    }
    return (this.planned = { codings, bytes });
  }

  /**
   * Recodes the last container (a bitset) in gaps, so that documents can be added to it; it stays gaps, larger, until
   * the index is next built.
   */
  private reopenLast(): void {
    const c = this.keys.length - 1;
    const key = this.keys[c]!;
    const count = this.valuesOf(c);
    const docs = Uint32Array.from(containerValues.subarray(0, count), (value) => key * 65_536 + value);
    this.used = this.starts[c]!;
    for (const column of [this.keys, this.counts, this.starts, this.codings]) column.pop();
    this.size -= count;
    // Any number below the container's first document and in another container.
    this.last = key * 65_536 - 1;
    this.append(docs);
  }

  private moveInto(piece: Uint8Array<ArrayBuffer>): void {
    piece.set(this.gaps.subarray(0, this.used));
    this.gaps = piece;
  }

  /** Reads container c's documents (their low 16 bits) into `containerValues`; returns how many. */
  private valuesOf(c: number): number {
    const count = this.counts[c]!;
    const gaps = this.gaps;
    const start = this.starts[c]!;
    if (this.codings[c] === BITSET) {
      let n = 0;
      for (let byte = 0; byte < BITSET_BYTES; byte++) {
        const bits = gaps[start + byte]!;
        for (let bit = 0; bit < 8; bit++) if (bits & (1 << bit)) containerValues[n++] = byte * 8 + bit;
      }
      return n;
    }
    readGaps(gaps, start, count, containerValues, 0, null);
    return count;
  }

  /** The bytes containers [first, end) take in roaring's portable format. */
  private portableSize(first: number, end: number): number {
    let size = 8 + 8 * (end - first);
    for (let c = first; c < end; c++) size += this.counts[c]! > ARRAY_MOST ? BITSET_BYTES : 2 * this.counts[c]!;
    return size;
  }

  /** Containers [first, end) in roaring's portable format, in the scratch buffer (valid until the next call). */
  private portable(first: number, end: number): Uint8Array {
    const size = this.portableSize(first, end);
    if (scratch.byteLength < size) {
      scratch = new ArrayBuffer(Math.max(size, 2 * scratch.byteLength));
      scratchBytes = new Uint8Array(scratch);
      scratchWords = new Uint16Array(scratch);
      scratchHeader = new Uint32Array(scratch);
    }
    const containers = end - first;
    const words = scratchWords;
    const header = scratchHeader;
    header[0] = NO_RUN_COOKIE;
    header[1] = containers;
    let at = 8 + 8 * containers;
    for (let i = 0; i < containers; i++) {
      const count = this.counts[first + i]!;
      words[4 + 2 * i] = this.keys[first + i]!;
      words[5 + 2 * i] = count - 1;
      header[2 + containers + i] = at;
      at += count > ARRAY_MOST ? BITSET_BYTES : 2 * count;
    }
    const gaps = this.gaps;
    let word = (8 + 8 * containers) >>> 1;
    for (let c = first; c < end; c++) {
      const count = this.counts[c]!;
      const start = this.starts[c]!;
      const coding = this.codings[c];
      if (count <= ARRAY_MOST) {
        readGaps(gaps, start, count, words, word, null);
        word += count;
        continue;
      }
      if (coding === BITSET) scratchBytes.set(gaps.subarray(start, start + BITSET_BYTES), 2 * word);
      else {
        containerBits.fill(0);
        readGaps(gaps, start, count, null, 0, containerBits);
        scratchBytes.set(containerBitBytes, 2 * word);
      }
      word += BITSET_BYTES / 2;
    }
    return scratchBytes.subarray(0, size);
  }
}

/**
 * Reads `count` gaps from `gaps[start..]`: as values into `values` from `values[at]` on, or as bits set in `bits` (a
 * container's bitset). One loop for both, branching on which, rather than two copies of the decoding.
 */
function readGaps(
  gaps: Uint8Array,
  start: number,
  count: number,
  values: Uint16Array | null,
  at: number,
  bits: Uint32Array | null,
): void {
  let read = start;
  for (let i = 0, value = -1; i < count; i++) {
    let gap = gaps[read++]!;
    if (gap === ESCAPE) {
      gap = gaps[read]! | (gaps[read + 1]! << 8);
      read += 2;
    }
    value += gap + 1;
    if (bits) bits[value >>> 5]! |= 1 << (value & 31);
    else values![at + i] = value;
  }
}

/** Writes `values[0..count)` as gaps at `into[at..]`; returns where they end. */
function writeGaps(values: Uint16Array, count: number, into: Uint8Array, at: number): number {
  for (let i = 0, previous = -1; i < count; previous = values[i++]!) at = writeGap(into, at, previous, values[i]!);
  return at;
}

/**
 * Writes the gap from `previous` (-1: a container's first document) to `value`, both a container's (below 65,536), at
 * `into[at..]`: a byte, or an escape and 2 bytes; returns where it ends.
 */
function writeGap(into: Uint8Array, at: number, previous: number, value: number): number {
  const gap = value - previous - 1;
  if (gap < ESCAPE) {
    into[at] = gap;
    return at + 1;
  }
  into[at] = ESCAPE;
  into[at + 1] = gap & 0xff;
  into[at + 2] = gap >>> 8;
  return at + 3;
}

/** Writes `values[0..count)` as a bitset of 8 KB at `into[at..]`; returns where it ends. */
function writeBitset(values: Uint16Array, count: number, into: Uint8Array, at: number): number {
  for (let i = 0; i < count; i++) into[at + (values[i]! >>> 3)]! |= 1 << (values[i]! & 7);
  return at + BITSET_BYTES;
}
