/**
 * One generation of an index whose document numbers follow a time order (a post's posting time, a job's
 * recruiting start), so that "newest first" is a bitmap read from its top and a time window a range of
 * document numbers. An item that arrives out of that order (updated, or written by an instance whose clock is
 * behind) is "displaced": kept in a small bitmap and merged by its own time. Each document can carry a few
 * numbers more (`extra`: a job's end and views) for the index that owns it.
 */
import { NumberColumn } from './number-column.js';
import { bytesOf, type Chunk, type ChunkReader } from './index-snapshot.js';
import { descending, highest, highestSet, RoaringBitmap32, type Bitmap } from './bitmaps.js';
import { PostingIndex, type IndexQuery, type PostingMeta, type SearchDocument } from './posting-index.js';

/** What an index is given of an item: its id, its time (the order), its texts and facets, and extra numbers. */
export interface IndexedItem {
  id: number;
  time: number;
  document: SearchDocument;
  extra?: number[];
  /**
   * When its row last changed, as the table says (`updated_at`, kept modulo 2^32): the check against the tables
   * (LiveIndex.audit) compares it to find an item held as it was before a change the index never read.
   */
  stamp?: number;
}

export interface DocumentsMeta {
  documents: number;
  extraColumns: number;
  last: { time: number; id: number };
  postings: PostingMeta;
}

/** What V8's `Map` takes for an entry of two numbers: 29 MB a million after a full collection, its table grown by doubling. */
const MAP_ENTRY_BYTES = 30;

/** Ids below this many times the items held (and a floor) are kept in the array; any other in a map. */
const DENSE_IDS_PER_ITEM = 4;
const DENSE_IDS_FLOOR = 65_536;

/**
 * Document numbers by item id. Ids come from a table's sequence, so nearly all of them are below a few times the number
 * of items: those are held in a typed array indexed by id, any other in a map (MAP_ENTRY_BYTES an entry, several times
 * an array's slot).
 */
export class DocumentsById {
  /** Each id's document number plus one (0: none held). */
  private dense = new Int32Array(0);
  private readonly sparse = new Map<number, number>();
  private held = 0;

  get size(): number {
    return this.held;
  }

  /** The bytes it holds. */
  get bytes(): number {
    return this.dense.byteLength + this.sparse.size * MAP_ENTRY_BYTES;
  }

  get(id: number): number | undefined {
    if (id < this.dense.length) {
      const doc = this.dense[id]!;
      return doc === 0 ? undefined : doc - 1;
    }
    return this.sparse.get(id);
  }

  set(id: number, doc: number): void {
    if (id >= this.dense.length && Number.isInteger(id) && id >= 0) {
      const room = Math.max(DENSE_IDS_FLOOR, DENSE_IDS_PER_ITEM * (this.held + 1));
      if (id < room) this.grow(Math.min(room, Math.max(id + 1, this.dense.length * 2)));
    }
    if (this.get(id) === undefined) this.held++;
    if (id < this.dense.length) this.dense[id] = doc + 1;
    else this.sparse.set(id, doc);
  }

  delete(id: number): void {
    if (this.get(id) === undefined) return;
    this.held--;
    if (id < this.dense.length) this.dense[id] = 0;
    else this.sparse.delete(id);
  }

  /** Room for ids below `length`, taking in those of the map it now covers. */
  private grow(length: number): void {
    const dense = new Int32Array(length);
    dense.set(this.dense);
    this.dense = dense;
    for (const [id, doc] of this.sparse) {
      if (id >= length) continue;
      dense[id] = doc + 1;
      this.sparse.delete(id);
    }
  }
}

export class OrderedDocuments {
  index = new PostingIndex();
  private ids = new NumberColumn();
  private times = new NumberColumn();
  /**
   * Where a displaced document stands in time order for windows: the slot time of the document before it. Every
   * other document's slot time is its own time, so slot times never decrease along document numbers (one column
   * fewer: 8 MB at a million posts).
   */
  private displacedSlots = new Map<number, number>();
  private extras: NumberColumn[];
  private stamps = new NumberColumn();
  /** Each held item's document number, by item id. */
  private readonly docOf = new DocumentsById();
  displaced = new RoaringBitmap32();
  private last = { time: -Infinity, id: -Infinity };

  constructor(extraColumns = 0) {
    this.extras = Array.from({ length: extraColumns }, () => new NumberColumn());
  }

  /** This generation as chunks for a saved copy (index-snapshot.ts). Synchronous: no write lands halfway. */
  save(): { meta: DocumentsMeta; chunks: Chunk[] } {
    const documents = this.ids.length;
    const postings = this.index.save(documents);
    const columns = [this.ids, this.times, this.stamps, ...this.extras].map((column) => bytesOf(column.toFloat64()));
    const slots = bytesOf(Float64Array.from([...this.displacedSlots].flat()));
    return {
      meta: { documents, extraColumns: this.extras.length, last: { ...this.last }, postings: postings.meta },
      chunks: [...columns, slots, this.displaced, ...postings.chunks],
    };
  }

  static restore(meta: DocumentsMeta, reader: ChunkReader): OrderedDocuments {
    const docs = new OrderedDocuments(0);
    docs.ids = NumberColumn.of(reader.float64());
    docs.times = NumberColumn.of(reader.float64());
    docs.stamps = NumberColumn.of(reader.float64());
    docs.extras = Array.from({ length: meta.extraColumns }, () => NumberColumn.of(reader.float64()));
    const slots = reader.float64();
    for (let i = 0; i + 1 < slots.length; i += 2) docs.displacedSlots.set(slots[i]!, slots[i + 1]!);
    docs.displaced = RoaringBitmap32.deserialize(reader.take(), 'portable');
    docs.index = PostingIndex.restore(meta.postings, reader);
    docs.last = { ...meta.last };
    for (const doc of docs.index.live) docs.docOf.set(docs.ids.at(doc), doc);
    return docs;
  }

  /**
   * Approximate bytes this generation holds: the posting index's (PostingIndex.bytes), the columns by document (ids,
   * times, extra numbers) as allocated, the documents by id (DocumentsById), and the displaced
   * documents.
   */
  bytes(): number {
    let total = this.index.bytes() + this.docOf.bytes + this.displaced.getSerializationSizeInBytes('portable');
    for (const column of [this.ids, this.times, this.stamps, ...this.extras]) total += column.bytes;
    return total + this.displacedSlots.size * 16;
  }

  /** Lets go of the room the columns grew by doubling, and compacts the bitmaps (after a build). */
  optimize(): void {
    for (const column of [this.ids, this.times, this.stamps, ...this.extras]) column.compact();
    this.index.optimize();
  }

  /** Items in the index. */
  get size(): number {
    return this.docOf.size;
  }

  /** The document of the item `id`, or undefined when the index does not hold it. */
  documentOf(id: number): number | undefined {
    return this.docOf.get(id);
  }

  /** Whether the index holds the item `id`. */
  holds(id: number): boolean {
    return this.docOf.get(id) !== undefined;
  }

  /** The row change the item `id` is held as of (IndexedItem.stamp, as kept), or null when it is not held. */
  stampedAs(id: number): number | null {
    const doc = this.docOf.get(id);
    return doc === undefined ? null : this.stamps.at(doc);
  }

  /** Whether the index holds the item `id` as of the row change `stamp` (IndexedItem.stamp). */
  holdsAsOf(id: number, stamp: number): boolean {
    const doc = this.docOf.get(id);
    return doc !== undefined && this.stamps.at(doc) === stampOf(stamp);
  }

  /** The ids of the items held, ascending (for the check against the tables' ids: 8 bytes an item, for a moment). */
  itemIds(): Float64Array {
    const out = new Float64Array(this.size);
    let i = 0;
    for (const doc of this.index.live) out[i++] = this.ids.at(doc);
    return out.sort();
  }

  /** Document numbers given so far (live or not). */
  get documents(): number {
    return this.ids.length;
  }

  /** Adds an item (replacing the document it had): in order after the newest, or displaced. Returns its number. */
  add(item: IndexedItem): number {
    this.remove(item.id);
    const doc = this.ids.length;
    const inOrder = item.time > this.last.time || (item.time === this.last.time && item.id > this.last.id);
    this.ids.push(item.id);
    this.times.push(item.time);
    if (!inOrder) this.displacedSlots.set(doc, doc === 0 ? -Infinity : this.slotTime(doc - 1));
    this.extras.forEach((column, i) => column.push(item.extra?.[i] ?? 0));
    this.stamps.push(stampOf(item.stamp));
    if (inOrder) this.last = { time: item.time, id: item.id };
    else this.displaced.add(doc);
    this.docOf.set(item.id, doc);
    this.index.add(doc, item.document);
    return doc;
  }

  remove(id: number): void {
    const doc = this.docOf.get(id);
    if (doc === undefined) return;
    this.index.remove(doc);
    this.displaced.remove(doc);
    this.docOf.delete(id);
  }

  /**
   * What each item is in this generation, by item id: its time, text length, extra numbers, and a sum of the
   * hashes of its tokens and their repetition tiers. Two generations hold the same items alike exactly when
   * these agree (for the operator's check; it reads every posting, so it is not for the search path).
   */
  fingerprints(): Map<number, string> {
    const tokens = new Map<number, number>();
    for (const [token, docs, occurrences] of this.index.tokens()) {
      let hash = 2166136261;
      for (let i = 0; i < token.length; i++) hash = Math.imul(hash ^ token.charCodeAt(i), 16777619) >>> 0;
      docs.forEach((doc, i) => {
        const weighted = (hash + Math.imul(occurrences[i]!, 2654435761)) >>> 0;
        tokens.set(doc, ((tokens.get(doc) ?? 0) + weighted) >>> 0);
      });
    }
    const out = new Map<number, string>();
    for (const doc of this.index.live) {
      const extra = this.extras.map((column) => column.at(doc)).join(',');
      out.set(
        this.ids.at(doc),
        `${this.times.at(doc)}|${this.stamps.at(doc)}|${this.index.lengthOf(doc)}|${extra}|${tokens.get(doc) ?? 0}`,
      );
    }
    return out;
  }

  /** Whether document `doc` is an item's current document. */
  isLive(doc: number): boolean {
    return this.index.live.has(doc);
  }

  itemId(doc: number): number {
    return this.ids.at(doc);
  }

  /** The time (the order's key) of document `doc`. */
  time(doc: number): number {
    return this.times.at(doc);
  }

  extra(doc: number, column: number): number {
    return this.extras[column]!.at(doc);
  }

  /** Whether document a comes before b newest first (later time, then higher id). */
  newer(a: number, b: number): boolean {
    const at = this.times.at(a);
    const bt = this.times.at(b);
    return at > bt || (at === bt && this.ids.at(a) > this.ids.at(b));
  }

  /** The time order's place of a document: its time, or a displaced document's slot. */
  private slotTime(doc: number): number {
    return this.displacedSlots.get(doc) ?? this.times.at(doc);
  }

  /** The first document whose slot time is at least `time` (slot times never decrease). */
  private firstSlotFrom(time: number): number {
    let lo = 0;
    let hi = this.times.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.slotTime(mid) < time) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The documents of `result` whose time is within [from, to] (inclusive). */
  window(result: Bitmap, from: number, to: number): Bitmap {
    const lo = this.firstSlotFrom(from);
    // Times are whole milliseconds.
    const hi = this.firstSlotFrom(to + 1);
    const within = RoaringBitmap32.and(result, RoaringBitmap32.fromRange(lo, hi));
    if (this.displaced.isEmpty) return within;
    within.andNotInPlace(this.displaced);
    for (const doc of RoaringBitmap32.and(result, this.displaced)) {
      const at = this.times.at(doc);
      if (at >= from && at <= to) within.add(doc);
    }
    return within;
  }

  /** The `count` newest documents of `result`, newest first, and as a bitmap. */
  newestSet(result: Bitmap, count: number): { docs: number[]; set: Bitmap } {
    const out = this.displacedIn(result);
    if (!out) {
      const set = highestSet(result, 0, count);
      return { docs: descending(set), set };
    }
    const docs = this.merged(result, out, 0, count);
    return { docs, set: new RoaringBitmap32(docs) };
  }

  /**
   * A part of `index.match(query)` that holds its `count` newest matches: its matches among the highest document
   * numbers, widened until `count` of them came in order (or the first document is reached). A displaced document
   * is older than every document that came in order after it, so none below the part is newer than those. Its
   * newest first, to `count`, are those of the whole match, at a cost that follows `count` rather than the number
   * of matches (the broadest keyword matches most of the index).
   */
  newestMatches(query: IndexQuery, count: number): Bitmap {
    const live = this.index.live;
    const anchor = this.index.narrowest(query) ?? live;
    for (let take = count; ; take *= 4) {
      const from = take >= anchor.size ? 0 : anchor.select(anchor.size - take)!;
      const within = RoaringBitmap32.and(live, RoaringBitmap32.fromRange(from, this.documents));
      const part = this.index.match(query, within);
      const inOrder = this.displaced.isEmpty ? part.size : part.andNotCardinality(this.displaced);
      if (inOrder >= count || from === 0) return part;
    }
  }

  /** `limit` documents of `result` newest first after skipping `offset`. */
  newest(result: Bitmap, offset: number, limit: number): number[] {
    if (limit <= 0 || offset >= result.size) return [];
    const out = this.displacedIn(result);
    return out ? this.merged(result, out, offset, limit) : highest(result, offset, limit);
  }

  /** `limit` documents of `result` oldest first after skipping `offset`. */
  oldest(result: Bitmap, offset: number, limit: number): number[] {
    if (limit <= 0 || offset >= result.size) return [];
    const out = this.displacedIn(result);
    if (!out) return lowest(result, offset, limit);
    const inOrder = lowest(result, 0, offset + limit + out.size).filter((doc) => !out.has(doc));
    const displaced = out.toArray().sort((a, b) => (this.newer(a, b) ? 1 : -1));
    const merged: number[] = [];
    for (let i = 0, j = 0; merged.length < offset + limit && (i < inOrder.length || j < displaced.length); ) {
      if (j >= displaced.length || (i < inOrder.length && this.newer(displaced[j]!, inOrder[i]!)))
        merged.push(inOrder[i++]!);
      else merged.push(displaced[j++]!);
    }
    return merged.slice(offset);
  }

  /** The displaced documents of `result`; null when it has none. */
  private displacedIn(result: Bitmap): Bitmap | null {
    if (this.displaced.isEmpty) return null;
    const out = RoaringBitmap32.and(result, this.displaced);
    return out.isEmpty ? null : out;
  }

  /**
   * A page newest first of `result`, whose displaced documents are `out`: the documents in order (read from the top
   * of the bitmap, passing over the displaced ones among them) merged with the displaced ones, sorted by time.
   */
  private merged(result: Bitmap, out: Bitmap, offset: number, limit: number): number[] {
    const inOrder = highest(result, 0, offset + limit + out.size).filter((doc) => !out.has(doc));
    const displaced = out.toArray().sort((a, b) => (this.newer(a, b) ? -1 : 1));
    const merged: number[] = [];
    for (let i = 0, j = 0; merged.length < offset + limit && (i < inOrder.length || j < displaced.length); ) {
      if (j >= displaced.length || (i < inOrder.length && this.newer(inOrder[i]!, displaced[j]!)))
        merged.push(inOrder[i++]!);
      else merged.push(displaced[j++]!);
    }
    return merged.slice(offset);
  }
}

/** The `count` lowest values of a bitmap after skipping its `skip` lowest, lowest first. */
function lowest(bitmap: Bitmap, skip: number, count: number): number[] {
  const end = Math.min(bitmap.size, skip + count);
  if (skip >= end) return [];
  const range = RoaringBitmap32.fromRange(bitmap.select(skip)!, bitmap.select(end - 1)! + 1);
  return Array.from(RoaringBitmap32.and(bitmap, range).toUint32Array());
}

/** A row's change time as the stamps column keeps it: modulo 2^32 (four bytes an item; only equality matters). */
const stampOf = (stamp: number | undefined): number => (stamp ?? 0) % 4_294_967_296;
