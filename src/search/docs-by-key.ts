/**
 * Orders of one index generation besides its own (ordered-documents.ts): its documents sorted by another key,
 * kept as documents are added. Document numbers are only ever appended, so catching up means sorting in the
 * numbers given since the last look; a removed document stays in the order (a search intersects with the live
 * documents anyway) until the generation is rebuilt.
 */
import type { OrderedDocuments } from './ordered-documents.js';
import { RoaringBitmap32, type Bitmap } from './bitmaps.js';

/** Documents `from` to `to` of an order, sorted by number: what a bitmap takes in fastest (twice as fast as in time order). */
const sortedDocs = (order: number[], from: number, to: number): Uint32Array =>
  Uint32Array.from(order.slice(from, to)).sort();

/** A document's place when it is not in the order (removed before it was sorted in, or left out by `include`). */
const NOT_PLACED = 0xffffffff;

/** How many matches a walk's step costs as much as, marking them by place (page). */
const WALK_COST = 16;

/** With more new documents than this, they are appended and the whole order sorted again. */
const RESORT_ABOVE = 1_000;

export class DocsByKey {
  protected order: number[] = [];
  private seen = 0;
  /** The documents' places in `order`, made when a page is read by them; dropped when the order changes. */
  private places: Places | null = null;

  constructor(
    protected readonly docs: OrderedDocuments,
    /** Whether document a comes before document b. */
    private readonly before: (a: number, b: number) => boolean,
    /** Whether a document belongs in this order at all. */
    private readonly include: (doc: number) => boolean = () => true,
  ) {}

  /** Sorts in the documents added since the last call. */
  catchUp(): void {
    const total = this.docs.documents;
    if (total === this.seen) return;
    this.places = null;
    const fresh: number[] = [];
    for (let doc = this.seen; doc < total; doc++) if (this.docs.isLive(doc) && this.include(doc)) fresh.push(doc);
    if (fresh.length > RESORT_ABOVE) {
      // Not push(...fresh): a spread of a generation's worth of documents overflows the call stack.
      this.order = this.order.concat(fresh).sort((a, b) => (this.before(a, b) ? -1 : this.before(b, a) ? 1 : 0));
      this.resorted();
      this.seen = total;
      return;
    }
    this.seen = total;
    for (const doc of fresh) {
      const at = this.upperBound(doc);
      this.order.splice(at, 0, doc);
      this.inserted(at, doc);
    }
  }

  /** The first position whose document comes after `doc` (equal ones stay before it). */
  private upperBound(doc: number): number {
    let lo = 0;
    let hi = this.order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.before(doc, this.order[mid]!)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /** For subclasses that keep state by position. */
  protected inserted(_at: number, _doc: number): void {}
  protected resorted(): void {}

  /**
   * `limit` documents of `result` in this order after skipping `offset`: a walk of the order testing membership when
   * the page is met within a few steps, else the matches marked by their places in the order and read back in order.
   */
  page(result: Bitmap, offset: number, limit: number): number[] {
    this.catchUp();
    const size = result.size;
    if (limit <= 0 || offset >= size) return [];
    const walk = ((offset + limit) * this.order.length) / size;
    // A walk tests each document it passes, a call into the bitmap library each; marking the matches costs a few
    // typed-array operations a match: a walk only when it passes few documents beside the matches.
    if (walk * WALK_COST > size)
      return (this.places ??= new Places(this.order, this.docs.documents)).page(result.toUint32Array(), offset, limit);
    const out: number[] = [];
    let skipped = 0;
    for (const doc of this.order) {
      if (!result.has(doc)) continue;
      if (skipped < offset) skipped++;
      else if (out.push(doc) === limit) break;
    }
    return out;
  }
}

/**
 * Documents by their place in an order (a sort, a list of items), for reading a page of some of them in that order:
 * each one's place set in a bitset of places, which is then read from the start, a word of 32 places at a time. Linear
 * in the documents and the places, where sorting by place cost a logarithm more a document.
 */
export class Places {
  /** Each document's place (NOT_PLACED: none), by document number. */
  private readonly placeOf: Uint32Array;
  /** A bit per place, all clear between pages. */
  private readonly marks: Int32Array;

  /** `order`: the documents in order (it must not change while this is used); `documents`: how many there are. */
  constructor(
    private readonly order: ArrayLike<number>,
    documents: number,
  ) {
    this.placeOf = new Uint32Array(documents).fill(NOT_PLACED);
    for (let place = 0; place < order.length; place++) this.placeOf[order[place]!] = place;
    this.marks = new Int32Array((order.length + 31) >>> 5);
  }

  /** `limit` of `docs` after skipping `offset`, in the order; documents without a place are left out. */
  page(docs: Uint32Array, offset: number, limit: number): number[] {
    const { placeOf, marks } = this;
    let last = -1;
    for (let i = 0; i < docs.length; i++) {
      const place = placeOf[docs[i]!] ?? NOT_PLACED;
      if (place === NOT_PLACED) continue;
      const word = place >>> 5;
      marks[word]! |= 1 << (place & 31);
      if (word > last) last = word;
    }
    const out: number[] = [];
    let skip = offset;
    for (let word = 0; word <= last && out.length < limit; word++) {
      let bits = marks[word]!;
      if (bits === 0) continue;
      const count = bitCount(bits);
      if (count <= skip) {
        skip -= count;
        continue;
      }
      while (bits !== 0 && out.length < limit) {
        const low = bits & -bits;
        bits ^= low;
        if (skip > 0) skip--;
        else out.push(this.order[(word << 5) | (31 - Math.clz32(low))]!);
      }
    }
    marks.fill(0, 0, last + 1);
    return out;
  }
}

/** The set bits of a 32-bit word. */
function bitCount(word: number): number {
  let v = word - ((word >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * The documents whose time (a key such as a job's recruiting start or end) has come by a moment: a cursor over
 * the documents in time order and a bitmap of those before it, moved forward or back as the clock is. Moving
 * costs the documents it passes; between them, nothing.
 */
export class TimeReached extends DocsByKey {
  private cursor = 0;
  private at = Number.NEGATIVE_INFINITY;
  /** The documents whose time is at most `at`. */
  readonly reached = new RoaringBitmap32();

  constructor(
    docs: OrderedDocuments,
    private readonly timeOf: (doc: number) => number,
  ) {
    super(
      docs,
      (a, b) => timeOf(a) < timeOf(b),
      (doc) => Number.isFinite(timeOf(doc)),
    );
  }

  /** The documents whose time is at most `now` (live or not). Call outside a search's arena: it keeps bitmaps. */
  upTo(now: number): Bitmap {
    this.catchUp();
    this.moveTo(now);
    return this.reached;
  }

  /**
   * Moves the cursor to `now`, the documents it passes added to (or taken from) `reached` in one call: the first
   * move after a start passes every document whose time has come (~200,000 jobs at 1M posts' scale).
   */
  private moveTo(now: number): void {
    const from = this.cursor;
    while (this.cursor < this.order.length && this.timeOf(this.order[this.cursor]!) <= now) this.cursor++;
    if (this.cursor > from) this.reached.addMany(sortedDocs(this.order, from, this.cursor));
    const to = this.cursor;
    while (this.cursor > 0 && this.timeOf(this.order[this.cursor - 1]!) > now) this.cursor--;
    if (this.cursor < to) this.reached.removeMany(sortedDocs(this.order, this.cursor, to));
    this.at = now;
  }

  /** The last time at or before the last `upTo` at which a document's time came (-Infinity when none). */
  previous(): number {
    const doc = this.order[this.cursor - 1];
    return doc === undefined ? Number.NEGATIVE_INFINITY : this.timeOf(doc);
  }

  /** The first time after the last `upTo` at which a document's time comes (Infinity when none). */
  next(): number {
    const doc = this.order[this.cursor];
    return doc === undefined ? Number.POSITIVE_INFINITY : this.timeOf(doc);
  }

  /** A document whose time has come is sorted in before the cursor (its time is at most every later one's). */
  protected override inserted(_at: number, doc: number): void {
    if (this.timeOf(doc) <= this.at) {
      this.reached.add(doc);
      this.cursor++;
    }
  }

  protected override resorted(): void {
    this.reached.clear();
    this.cursor = 0;
    const now = this.at;
    this.at = Number.NEGATIVE_INFINITY;
    if (now !== Number.NEGATIVE_INFINITY) this.moveTo(now);
  }
}
