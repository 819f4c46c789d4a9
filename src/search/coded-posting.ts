/**
 * A posting kept in fewer bytes than CRoaring takes for it. CRoaring holds a container (65,536 document numbers) of
 * up to 4,096 documents as a sorted array of 2 bytes a document, and a fuller one as a bitset of 8 KB. Here each
 * container is kept in whichever of the codings of container-codings.ts takes the fewest bytes: one-byte gaps (a
 * container a few documents in a hundred full), Elias-Fano (fuller ones), or CRoaring's bitset where neither saves
 * enough to be worth reading back. Postings of CJK characters and bigrams are most of an index's bytes.
 *
 * A search reads a coded posting back as a CRoaring bitmap: its containers are read straight into roaring's portable
 * format, which the library copies in (`deserialize`), so the bitmap algebra is CRoaring's either way. The reading
 * costs more than an intersection of the bitmap would (docs/performance.md); which postings are worth coding is the
 * index's choice (posting-index.ts).
 *
 * A coded posting grows at its end only (documents are numbered in the order they are added), in gaps: how each of its
 * containers is best kept is decided when the index moves its postings into new slabs (`moveTo`).
 */
import { RoaringBitmap32, type Bitmap } from './bitmaps.js';
import type { PortableChunk } from './index-snapshot.js';
import {
  BITSET,
  BITSET_BYTES,
  type Coding,
  decoded,
  eliasFanoBytes,
  ELIAS_FANO,
  GAPS,
  loadCoded,
  readBits,
  readValues,
  valuesAt,
  writeEliasFano,
} from './container-codings.js';

/** Roaring's portable format: the cookie of a bitmap without run containers, and the most an array container holds. */
const NO_RUN_COOKIE = 12_346;
const ARRAY_MOST = 4096;

/** A gap at least this large is this value and 2 bytes. */
const ESCAPE = 255;

/**
 * A container of more than 4,096 documents stays CRoaring's bitset unless its coding takes less than this share of
 * its bytes: the fuller a container, the less a coding saves and the longer it takes to read back, and a posting made
 * of bitsets stays a bitmap (posting-index.ts), read at no cost.
 */
const BITSET_KEPT_ABOVE = 0.85;

/**
 * A posting is kept coded when that takes at most this share of its bytes as a compacted bitmap: reading it back costs
 * each search that uses it more than an intersection of the bitmap would, so it must save enough to be worth that (a
 * token in a tenth of the documents codes to about half; one in a fifth to about seven eighths: kept a bitmap).
 */
const KEPT_CODED_AT_MOST = 0.85;

/** What a container costs beside its coding: its key, count, start and coding, in JavaScript arrays. */
const PER_CONTAINER = 32;

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
  private codings: Coding[] = [];
  private gaps: Uint8Array<ArrayBuffer> = new Uint8Array(0);
  private used = 0;
  private last = -1;
  /** What `plan` found, until the posting changes. */
  private planned: { codings: Coding[]; bytes: number } | null = null;
  size = 0;

  constructor(private slabs: GapSlabs) {}

  /**
   * A bitmap's documents coded, their gaps taken from `slabs`; null when, once moved, it would not save enough of the
   * bitmap's bytes (`savesOn`; what it took of `slabs` is then unused until they are let go of).
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
    if (c >= 0 && this.codings[c] !== GAPS && docs[0]! >>> 16 === this.keys[c]) this.reopenLast();
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
   * Moves it into a piece of `slabs` of just its size, each container in the coding `plan` chose, after a build, into
   * new slabs.
   */
  moveTo(slabs: GapSlabs): void {
    const plan = this.plan();
    const piece = slabs.take(plan.bytes);
    let at = 0;
    for (let c = 0; c < this.keys.length; c++) {
      const values = this.valuesOf(c);
      const start = at;
      if (plan.codings[c] === BITSET) at = writeBitset(values, piece, at);
      else if (plan.codings[c] === ELIAS_FANO) at = writeEliasFano(values, values.length, piece, at);
      else at = writeGaps(values, piece, at);
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
    const values = this.valuesOf(c);
    const value = doc & 0xffff;
    let lo = 0;
    let hi = values.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (values[mid]! < value) lo = mid + 1;
      else hi = mid;
    }
    return lo < values.length && values[lo] === value;
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
      if (rank < before + this.counts[c]!) return this.keys[c]! * 65_536 + this.valuesOf(c)[rank - before]!;
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

  /**
   * Each container's coding (gaps or Elias-Fano, whichever is smaller, or a bitset where neither saves enough), and
   * what they take together.
   */
  private plan(): { codings: Coding[]; bytes: number } {
    if (this.planned) return this.planned;
    const codings: Coding[] = [];
    let bytes = 0;
    for (let c = 0; c < this.keys.length; c++) {
      const count = this.counts[c]!;
      const gaps = gapsFor(this.valuesOf(c), -1);
      const eliasFano = eliasFanoBytes(count);
      let coding: Coding = eliasFano < gaps ? ELIAS_FANO : GAPS;
      let size = Math.min(gaps, eliasFano);
      if (count > ARRAY_MOST && size > BITSET_KEPT_ABOVE * BITSET_BYTES) [coding, size] = [BITSET, BITSET_BYTES];
      codings.push(coding);
      bytes += size;
    }
    return (this.planned = { codings, bytes });
  }

  /**
   * Recodes the last container (a bitset or Elias-Fano) in gaps, so that documents can be added to it; it stays gaps,
   * maybe larger, until the index is next built.
   */
  private reopenLast(): void {
    const c = this.keys.length - 1;
    const key = this.keys[c]!;
    const docs = Uint32Array.from(this.valuesOf(c), (value) => key * 65_536 + value);
    const count = docs.length;
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

  /** Container c's documents (their low 16 bits), read back into the decoder's memory: valid until its next read. */
  private valuesOf(c: number): Uint16Array {
    const count = this.counts[c]!;
    loadCoded(this.gaps.subarray(this.starts[c], this.endOf(c)), 0);
    readValues(this.codings[c]!, 0, count);
    return decoded.words.subarray(valuesAt, valuesAt + count);
  }

  /** Where container c's coding ends. */
  private endOf(c: number): number {
    return c + 1 < this.keys.length ? this.starts[c + 1]! : this.used;
  }

  /** The bytes containers [first, end) take in roaring's portable format. */
  private portableSize(first: number, end: number): number {
    let size = 8 + 8 * (end - first);
    for (let c = first; c < end; c++) size += this.counts[c]! > ARRAY_MOST ? BITSET_BYTES : 2 * this.counts[c]!;
    return size;
  }

  /** Containers [first, end) in roaring's portable format, in the decoder's memory (valid until its next read). */
  private portable(first: number, end: number): Uint8Array {
    const size = this.portableSize(first, end);
    const codedFrom = this.starts[first] ?? 0;
    const out = loadCoded(this.gaps.subarray(codedFrom, end > first ? this.endOf(end - 1) : codedFrom), size);
    const containers = end - first;
    const { words, longs } = decoded;
    longs[out >>> 2] = NO_RUN_COOKIE;
    longs[(out >>> 2) + 1] = containers;
    let at = 8 + 8 * containers;
    for (let i = 0; i < containers; i++) {
      const c = first + i;
      const count = this.counts[c]!;
      words[(out >>> 1) + 4 + 2 * i] = this.keys[c]!;
      words[(out >>> 1) + 5 + 2 * i] = count - 1;
      longs[(out >>> 2) + 2 + containers + i] = at;
      if (count <= ARRAY_MOST) readValues(this.codings[c]!, this.starts[c]! - codedFrom, count, out + at);
      else readBits(this.codings[c]!, this.starts[c]! - codedFrom, count, out + at);
      at += count > ARRAY_MOST ? BITSET_BYTES : 2 * count;
    }
    return decoded.bytes.subarray(out, out + size);
  }
}

/** Writes `values` as gaps at `into[at..]`; returns where they end. */
function writeGaps(values: Uint16Array, into: Uint8Array, at: number): number {
  for (let i = 0, previous = -1; i < values.length; previous = values[i++]!)
    at = writeGap(into, at, previous, values[i]!);
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

/** Writes `values` as a bitset of 8 KB at `into[at..]`; returns where it ends. */
function writeBitset(values: Uint16Array, into: Uint8Array, at: number): number {
  for (const value of values) into[at + (value >>> 3)]! |= 1 << (value & 7);
  return at + BITSET_BYTES;
}
