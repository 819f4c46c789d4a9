/**
 * Which document number an item id has now: an open-addressing hash table (linear probing) of document
 * numbers only. The ids themselves are already in the index's id column, so a slot holds a document number
 * and a lookup compares `idOf(doc)` with the id asked for. At a million items this is a fraction of the
 * heap a `Map<number, number>` took, and it costs the collector nothing to scan.
 */
const EMPTY = -1;
/** Grow when more than this share of the slots is taken (probes stay short). */
const MAX_LOAD = 0.6;

export class DocumentNumbers {
  private slots: Int32Array;
  private mask: number;
  private shift: number;
  private count = 0;

  constructor(
    private readonly idOf: (doc: number) => number,
    expected = 0,
  ) {
    let capacity = 1024;
    while (expected > capacity * MAX_LOAD) capacity *= 2;
    this.slots = new Int32Array(capacity).fill(EMPTY);
    this.mask = capacity - 1;
    this.shift = 32 - Math.log2(capacity);
  }

  get size(): number {
    return this.count;
  }

  /** The bytes the table holds. */
  get bytes(): number {
    return this.slots.byteLength;
  }

  get(id: number): number | undefined {
    for (let slot = this.home(id); ; slot = (slot + 1) & this.mask) {
      const doc = this.slots[slot]!;
      if (doc === EMPTY) return undefined;
      if (this.idOf(doc) === id) return doc;
    }
  }

  /** Sets the document of `id` (which `idOf(doc)` must already return). */
  set(id: number, doc: number): void {
    if (this.count + 1 > this.slots.length * MAX_LOAD) this.grow();
    for (let slot = this.home(id); ; slot = (slot + 1) & this.mask) {
      const held = this.slots[slot]!;
      if (held === EMPTY) {
        this.slots[slot] = doc;
        this.count++;
        return;
      }
      if (this.idOf(held) === id) {
        this.slots[slot] = doc;
        return;
      }
    }
  }

  delete(id: number): void {
    let slot = this.home(id);
    for (; ; slot = (slot + 1) & this.mask) {
      const doc = this.slots[slot]!;
      if (doc === EMPTY) return;
      if (this.idOf(doc) === id) break;
    }
    // Backward-shift deletion: move later entries of the same run into the gap, so no tombstones build up.
    let gap = slot;
    for (let next = (gap + 1) & this.mask; ; next = (next + 1) & this.mask) {
      const doc = this.slots[next]!;
      if (doc === EMPTY) break;
      const home = this.home(this.idOf(doc));
      // The entry may move to the gap only when its home is not inside (gap, next] going round the table.
      const between = gap <= next ? home > gap && home <= next : home > gap || home <= next;
      if (!between) {
        this.slots[gap] = doc;
        gap = next;
      }
    }
    this.slots[gap] = EMPTY;
    this.count--;
  }

  private home(id: number): number {
    // Ids are integers below 2^53: mix both 32-bit halves, then take the high bits of a multiplicative hash
    // (its low bits would follow the id's low bits, and ids in steps of a power of two would collide).
    const mixed = (id >>> 0) ^ Math.floor(id / 4_294_967_296);
    return Math.imul(mixed, 0x9e3779b1) >>> this.shift;
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Int32Array(old.length * 2).fill(EMPTY);
    this.mask = this.slots.length - 1;
    this.shift--;
    this.count = 0;
    for (const doc of old) if (doc !== EMPTY) this.set(this.idOf(doc), doc);
  }
}
