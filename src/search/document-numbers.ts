/**
 * Which document number an item id has now: an open-addressing hash table (linear probing) of document
 * numbers only. The ids themselves are already in the index's id column, so a slot holds a document number
 * and a lookup compares `idOf(doc)` with the id asked for. At a million items this is a fraction of the
 * heap a `Map<number, number>` took, and it costs the collector nothing to scan. A slot takes three bytes
 * while every document number fits in them (THREE_BYTES_MOST), and four from the first that does not.
 */
const EMPTY = -1;
/** The most a slot of 3 bytes holds: a document number plus one. */
const THREE_BYTES_MOST = 0xff_ffff;
/** Grow (doubling) when more than this share of the slots is taken (probes stay short). */
const MAX_LOAD = 0.75;
/** The share of slots taken once the table is compacted: room for a sixth more items before it grows again. */
const COMPACT_LOAD = 0.65;
const TWO_32 = 4_294_967_296;

export class DocumentNumbers {
  /** Each slot's document number plus one (0: an empty slot), as its low 16 bits and the bits above them. */
  private lows: Uint16Array;
  private highs: Uint8Array | Uint16Array;
  private count = 0;

  constructor(
    private readonly idOf: (doc: number) => number,
    expected = 0,
  ) {
    const slots = Math.max(1024, Math.ceil(expected / COMPACT_LOAD));
    this.lows = new Uint16Array(slots);
    this.highs = new Uint8Array(slots);
  }

  private get slots(): number {
    return this.lows.length;
  }

  /** The document in `slot`; EMPTY for none. */
  private docIn(slot: number): number {
    return docAt(this.lows, this.highs, slot);
  }

  private put(slot: number, doc: number): void {
    this.lows[slot] = (doc + 1) & 0xffff;
    this.highs[slot] = Math.floor((doc + 1) / 65_536);
  }

  get size(): number {
    return this.count;
  }

  /** The bytes the table holds. */
  get bytes(): number {
    return this.lows.byteLength + this.highs.byteLength;
  }

  get(id: number): number | undefined {
    for (let slot = this.home(id); ; slot = this.next(slot)) {
      const doc = this.docIn(slot);
      if (doc === EMPTY) return undefined;
      if (this.idOf(doc) === id) return doc;
    }
  }

  /** Sets the document of `id` (which `idOf(doc)` must already return). */
  set(id: number, doc: number): void {
    if (doc + 1 > THREE_BYTES_MOST && this.highs instanceof Uint8Array) this.rehash(this.slots, true);
    if (this.count + 1 > this.slots * MAX_LOAD) this.rehash(this.slots * 2);
    for (let slot = this.home(id); ; slot = this.next(slot)) {
      const held = this.docIn(slot);
      if (held === EMPTY) {
        this.put(slot, doc);
        this.count++;
        return;
      }
      if (this.idOf(held) === id) {
        this.put(slot, doc);
        return;
      }
    }
  }

  delete(id: number): void {
    let slot = this.home(id);
    for (; ; slot = this.next(slot)) {
      const doc = this.docIn(slot);
      if (doc === EMPTY) return;
      if (this.idOf(doc) === id) break;
    }
    // Backward-shift deletion: move later entries of the same run into the gap, so no tombstones build up.
    let gap = slot;
    for (let next = this.next(gap); ; next = this.next(next)) {
      const doc = this.docIn(next);
      if (doc === EMPTY) break;
      const home = this.home(this.idOf(doc));
      // The entry may move to the gap only when its home is not inside (gap, next] going round the table.
      const between = gap <= next ? home > gap && home <= next : home > gap || home <= next;
      if (!between) {
        this.put(gap, doc);
        gap = next;
      }
    }
    this.put(gap, EMPTY);
    this.count--;
  }

  /** Lets go of the room grown by doubling (after a build): the table is kept at COMPACT_LOAD. */
  compact(): void {
    const slots = Math.max(1024, Math.ceil(this.count / COMPACT_LOAD));
    if (slots < this.slots) this.rehash(slots);
  }

  private next(slot: number): number {
    return slot + 1 === this.slots ? 0 : slot + 1;
  }

  private home(id: number): number {
    // Ids are integers below 2^53: mix both 32-bit halves, then a multiplicative hash, whose high bits (its low bits
    // would follow the id's low bits, and ids in steps of a power of two would collide) scale to the table's size.
    const mixed = (id >>> 0) ^ Math.floor(id / TWO_32);
    const hash = Math.imul(mixed, 0x9e3779b1) >>> 0;
    // floor(hash × slots / 2^32), in two halves so that no product passes 2^53.
    const slots = this.slots;
    return Math.floor(((hash >>> 16) * slots + Math.floor(((hash & 0xffff) * slots) / 65_536)) / 65_536);
  }

  /** Puts every document into `length` slots, of 4 bytes when `wide` (or already). */
  private rehash(length: number, wide = this.highs instanceof Uint16Array): void {
    const { lows, highs } = this;
    this.lows = new Uint16Array(length);
    this.highs = wide ? new Uint16Array(length) : new Uint8Array(length);
    this.count = 0;
    for (let slot = 0; slot < lows.length; slot++) {
      const doc = docAt(lows, highs, slot);
      if (doc !== EMPTY) this.set(this.idOf(doc), doc);
    }
  }
}

/** The document a table's slot holds (its number plus one, in a low and a high part); EMPTY for none. */
function docAt(lows: Uint16Array, highs: Uint8Array | Uint16Array, slot: number): number {
  return highs[slot]! * 65_536 + lows[slot]! - 1;
}
