/**
 * An inverted index held in memory: for every token (a word, a CJK bigram or character, a facet) the set of
 * documents holding it, as a compressed bitmap (roaring) of document numbers. A query is bitmap algebra, so
 * its cost follows the sizes of the posting lists it combines, and its count is exact at any size.
 *
 * What relevance needs is held too, so that ranking reads no text: each document's length, and for each
 * token the documents in which it repeats, in tiers (at least 2, 4 and 8 occurrences: occurrence-tiers.ts).
 *
 * The bitmaps are CRoaring's (bitmaps.ts: the native binding where it loads, WebAssembly elsewhere), each container
 * in the form CRoaring chooses (an array, a bitset, or runs after `optimize`). A token one document holds (a company's
 * own name, a word of its handle: nearly every token of a directory) is that document's number instead: a bitmap costs
 * some 400 bytes of native memory and a V8 object, whatever it holds.
 */
import { compact, copyOf, RoaringBitmap32, withTemporaryBitmaps, type Bitmap } from './bitmaps.js';
import { bytesOf, type Chunk, type ChunkReader } from './index-snapshot.js';
import { COLUMN_KINDS } from './fields.js';
import { analyzeInto, facet, facetParts, type TokenSink } from './search-text.js';
import { PostingLog, Vocabulary } from './vocabulary.js';
import { grown } from './growing-arrays.js';
import { NumberColumn } from './number-column.js';
import {
  compactTiers,
  levelIn,
  levelOf,
  plainTiers,
  TIERS,
  tiersTaking,
  tiersWithin,
  type Tier,
} from './occurrence-tiers.js';

/**
 * Postings gathered before they are added to the bitmaps in bulk (a build adds hundreds of millions): 12 MB of typed
 * arrays while they wait and drain. Four times as many built no faster and held more memory at the build's peak.
 */
const PENDING_LIMIT = 1_000_000;

/** The documents holding a token: a bitmap, or the number of the one document that holds it. */
export type Posting = Bitmap | number;

/** How many documents a posting holds. */
export const postingSize = (posting: Posting): number => (typeof posting === 'number' ? 1 : posting.size);

/** How many documents of `within` a posting holds. */
export const countWithin = (posting: Posting, within: Bitmap): number =>
  typeof posting === 'number' ? (within.has(posting) ? 1 : 0) : within.andCardinality(posting);

/**
 * A one-document posting as a saved copy holds it: a bitmap in the portable format, written through one bitmap kept
 * for that (a copy is written synchronously, chunk after chunk: index-snapshot.ts).
 */
const scratch = new RoaringBitmap32();
function oneDocumentChunk(doc: number): Chunk {
  const held = () => {
    scratch.clear();
    scratch.add(doc);
    return scratch;
  };
  return {
    getSerializationSizeInBytes: (format) => held().getSerializationSizeInBytes(format),
    serialize: (format, into) => held().serialize(format, into),
  };
}

/** What the index is given of a document: its texts, which it tokenizes (search-text.ts), and its facet tokens (fields.ts). */
export interface SearchDocument {
  texts: ReadonlyArray<string | null | undefined>;
  facets: readonly string[];
}

export interface IndexQuery {
  /** Every group must be matched by at least one of its tokens. */
  all: string[][];
  /** No document holding one of these matches. */
  none: string[];
}

/** `missing`: for each token of `tiered`, which of its tiers are kept as missing documents (bit i for tier i). */
export interface PostingMeta {
  tokens: string[];
  tiered: string[];
  missing: number[];
}

/** The values of a facet kind with their postings, as the index holds them (made from its vocabulary when asked). */
export interface FacetValues extends Iterable<[string, Posting]> {
  readonly size: number;
  keys(): Iterable<string>;
  get(value: string): Posting | undefined;
}

/** A facet kind's value of each document: the value's number (its index in `values`), -1 for none. */
export interface FacetColumn {
  readonly values: readonly string[];
  valueOf(doc: number): number;
}

/** A facet column as the index fills it: the numbers of values it has seen, and the column growing with the documents. */
class GrowingFacetColumn implements FacetColumn {
  readonly values: string[] = [];
  private readonly numberOf = new Map<string, number>();
  /** Each document's value's number plus one (0: none), 2 bytes a document while there are fewer than 65,535 values. */
  private readonly column = new NumberColumn();

  valueOf(doc: number): number {
    return doc < this.column.length ? this.column.at(doc) - 1 : -1;
  }

  /** The bytes the column holds. */
  get bytes(): number {
    return this.column.bytes;
  }

  set(doc: number, value: string): void {
    this.setAll([doc], value);
  }

  setAll(docs: ArrayLike<number>, value: string): void {
    let n = this.numberOf.get(value);
    if (n === undefined) {
      n = this.values.push(value) - 1;
      this.numberOf.set(value, n);
    }
    for (let i = 0; i < docs.length; i++) this.column.set(docs[i]!, n + 1);
  }

  /** Lets go of the room grown by doubling (after a build). */
  compact(): void {
    this.column.compact();
  }
}

/**
 * How often each token occurs in the document being added: the tokenizer's sink (search-text.ts), counting by
 * token number, so that a build makes no string or map per document and no string per CJK token.
 */
class DocumentCounts implements TokenSink {
  /** The numbers of the tokens the document holds, `length` of them; `counts[n]` is how often token n occurs. */
  numbers: Int32Array<ArrayBuffer> = new Int32Array(256);
  length = 0;
  counts: Int32Array<ArrayBuffer> = new Int32Array(1024);
  private marks: Int32Array<ArrayBuffer> = new Int32Array(1024);
  private mark = 0;

  constructor(private readonly vocabulary: Vocabulary) {}

  /** Starts counting a new document. */
  reset(): void {
    this.length = 0;
    this.mark++;
  }

  count(n: number): void {
    if (n >= this.marks.length) {
      this.marks = grown(this.marks, n + 1);
      this.counts = grown(this.counts, n + 1);
    }
    if (this.marks[n] === this.mark) {
      this.counts[n]!++;
      return;
    }
    this.marks[n] = this.mark;
    this.counts[n] = 1;
    if (this.length === this.numbers.length) this.numbers = grown(this.numbers, this.length + 1);
    this.numbers[this.length++] = n;
  }

  word(word: string): void {
    this.count(this.vocabulary.intern(word));
  }
  pair(first: number, second: number): void {
    this.count(this.vocabulary.internPair(first, second));
  }
  char(code: number): void {
    this.count(this.vocabulary.internChar(code));
  }
  other(token: string): void {
    this.count(this.vocabulary.intern(token));
  }
}

/** Sets `marks[i]` to `mark` for each document `docs[i]` (ascending) that `some` (a part of them) holds. */
function markAll(docs: Uint32Array, some: Bitmap, marks: Uint8Array, mark: number): void {
  let i = 0;
  for (const doc of some.toUint32Array()) {
    while (docs[i]! < doc) i++;
    marks[i] = mark;
  }
}

/** A posting as far as its size and ranks go. */
export interface Ranked {
  readonly size: number;
  select(rank: number): number | undefined;
}

export class PostingIndex {
  /** Every token the index has seen, numbered: postings and tiers are held by token number. */
  private readonly vocabulary = new Vocabulary();
  private readonly postings: Posting[] = [];
  private readonly tiers: Array<Tier[] | undefined> = [];
  /**
   * The tokens of each facet kind's values, in order of first sight (`c` → the token numbers of its company ids), for
   * facet counts and suggestions: numbers, where a map from each value's text to its posting held a second string and
   * an entry for every value (hundreds of thousands of company names).
   */
  private readonly facetTokens = new Map<string, number[]>();
  private readonly facetColumns = new Map<string, GrowingFacetColumn>(
    COLUMN_KINDS.map((kind) => [kind, new GrowingFacetColumn()]),
  );
  /** Documents that are in the index now (a removed document leaves its postings until the next rebuild). */
  readonly live = new RoaringBitmap32();
  private lengths = new NumberColumn();
  private readonly counts = new DocumentCounts(this.vocabulary);
  /** Postings added since the last flush: (token number, document), and (token number × tiers + tier, document) for the tiers they change. */
  private readonly pending = new PostingLog();
  private readonly pendingTiers = new PostingLog();
  private changes = 0;

  /** Grows with every document added or removed: what was computed from `live` at one count holds while it stays. */
  get version(): number {
    return this.changes;
  }

  /** Adds document `doc` (a number never used before): its texts' tokens, its facets, and its texts' length. */
  add(doc: number, document: SearchDocument): void {
    const counts = this.counts;
    counts.reset();
    const length = analyzeInto(document.texts, counts);
    for (const token of document.facets) {
      counts.count(this.vocabulary.intern(token));
      const parts = facetParts(token);
      if (parts) this.facetColumns.get(parts.kind)?.set(doc, parts.value);
    }
    for (let i = 0; i < counts.length; i++) {
      const n = counts.numbers[i]!;
      this.pending.push(n, doc);
      tiersTaking(this.tiers[n], levelOf(counts.counts[n]!), (tier) =>
        this.pendingTiers.push(n * TIERS.length + tier, doc),
      );
    }
    this.lengths.set(doc, length);
    this.live.add(doc);
    this.changes++;
    if (this.pending.length >= PENDING_LIMIT) this.flush();
  }

  remove(doc: number): void {
    this.live.remove(doc);
    this.changes++;
  }

  /** Adds what `add` gathered to the bitmaps; whoever adds flushes before the next query (live-index.ts does). */
  flush(): void {
    this.pending.drain(this.vocabulary.size, (n, docs) => {
      const held = this.postings[n];
      if (held === undefined && docs.length === 1) return this.setPosting(n, docs[0]!);
      if (held !== undefined && typeof held !== 'number') return void held.addMany(docs);
      const posting = new RoaringBitmap32(held === undefined ? [] : [held]);
      posting.addMany(docs);
      this.setPosting(n, posting);
    });
    this.pendingTiers.drain(this.vocabulary.size * TIERS.length, (key, docs) => {
      const n = Math.floor(key / TIERS.length);
      (this.tiers[n] ??= plainTiers())[key % TIERS.length]!.docs.addMany(docs);
    });
  }

  private setPosting(n: number, posting: Posting): void {
    const first = this.postings[n] === undefined;
    this.postings[n] = posting;
    const parts = first ? facetParts(this.vocabulary.names[n]!) : null;
    if (!parts) return;
    let tokens = this.facetTokens.get(parts.kind);
    if (!tokens) this.facetTokens.set(parts.kind, (tokens = []));
    tokens.push(n);
  }

  /** Every token name the index has seen, in order of first sight (the list only grows). */
  tokenNames(): readonly string[] {
    return this.vocabulary.names;
  }

  /**
   * The posting of a token (every document that held it, live or not) as a bitmap; undefined when no document has. A
   * one-document posting is made into a bitmap afresh, freed with the withTemporaryBitmaps it is asked in.
   */
  posting(token: string): Bitmap | undefined {
    const n = this.vocabulary.numberOf(token);
    return n === undefined ? undefined : this.bitmapAt(n);
  }

  /** The posting of a token as it is held (a bitmap, or the one document's number); undefined when no document has. */
  heldPosting(token: string): Posting | undefined {
    const n = this.vocabulary.numberOf(token);
    return n === undefined ? undefined : this.postings[n];
  }

  /** How many documents a token's posting holds (live or not); 0 when none held it. */
  postingSize(token: string): number {
    const n = this.vocabulary.numberOf(token);
    const held = n === undefined ? undefined : this.postings[n];
    return held === undefined ? 0 : postingSize(held);
  }

  /** Posting `n` as a bitmap: a one-document posting made afresh (a temporary bitmap inside withTemporaryBitmaps). */
  private bitmapAt(n: number): Bitmap | undefined {
    const held = this.postings[n];
    return typeof held === 'number' ? new RoaringBitmap32([held]) : held;
  }

  /**
   * For each of TIERS, the documents of `within` that hold the token at least that many times, as temporary bitmaps;
   * undefined when it repeats in no document. Relevance reads a page's candidates this way (ranking.ts).
   */
  tiersWithin(token: string, within: Bitmap): Bitmap[] | undefined {
    const n = this.vocabulary.numberOf(token);
    const tiers = n === undefined ? undefined : this.tiers[n];
    return tiers && tiersWithin(RoaringBitmap32.and(this.bitmapAt(n!)!, within), tiers);
  }

  /** Each document's value of a facet kind (documents removed since included), for the kinds that keep a column. */
  facetColumn(kind: string): FacetColumn | undefined {
    return this.facetColumns.get(kind);
  }

  /** Every value of a facet kind with its posting (live or not: intersect with a match). */
  facetValues(kind: string): FacetValues {
    const tokens = this.facetTokens.get(kind) ?? [];
    const { names } = this.vocabulary;
    const postings = this.postings;
    const valueOf = (n: number) => facetParts(names[n]!)!.value;
    return {
      size: tokens.length,
      keys: () => tokens.map(valueOf),
      get: (value) => {
        const n = this.vocabulary.numberOf(facet(kind, value));
        return n === undefined ? undefined : postings[n];
      },
      *[Symbol.iterator]() {
        for (const n of tokens) yield [valueOf(n), postings[n]!];
      },
    };
  }

  /** Compresses runs in every bitmap and lets go of spare capacity (after a build): less memory, faster intersections. */
  optimize(): void {
    this.flush();
    this.pending.release();
    this.pendingTiers.release();
    this.postings.forEach((posting, n) => {
      if (typeof posting === 'number') return;
      compact(posting);
      const tiers = this.tiers[n];
      if (!tiers?.every((tier) => !tier.missing)) return;
      for (const tier of tiers) compact(tier.docs);
      compactTiers(posting, tiers);
    });
    compact(this.live);
    this.lengths.compact();
    for (const column of this.facetColumns.values()) column.compact();
  }

  /** The documents of `within` (the live ones, or a part of them) that hold a token of every group of `all` and none of `none`. */
  match(query: IndexQuery, within: Bitmap = this.live): Bitmap {
    const groups = this.groupsOf(query);
    if (!groups) return new RoaringBitmap32();
    const result = groups.length === 0 ? copyOf(within) : RoaringBitmap32.and(groups[0]!, within);
    for (const group of groups.slice(1)) {
      if (result.isEmpty) break;
      result.andInPlace(group);
    }
    for (const token of query.none) {
      const posting = this.posting(token);
      if (posting && !result.isEmpty) result.andNotInPlace(posting);
    }
    return result;
  }

  /** How many documents `match` gives, without making the last intersection (a count reads both sides, writes nothing). */
  count(query: IndexQuery, within: Bitmap = this.live): number {
    if (query.none.length > 0) return this.match(query, within).size;
    const groups = this.groupsOf(query);
    if (!groups) return 0;
    if (groups.length === 0) return within.size;
    if (groups.length === 1) return groups[0]!.andCardinality(within);
    const result = RoaringBitmap32.and(groups[0]!, within);
    for (const group of groups.slice(1, -1)) {
      if (result.isEmpty) return 0;
      result.andInPlace(group);
    }
    return result.andCardinality(groups.at(-1)!);
  }

  /**
   * The smallest of the query's single-token groups' postings: every match is among its documents (undefined when no
   * group is a single token).
   */
  narrowest(query: IndexQuery): Ranked | undefined {
    let narrowest: Ranked | undefined;
    for (const group of query.all) {
      const n = group.length === 1 ? this.vocabulary.numberOf(group[0]!) : undefined;
      const held = n === undefined ? undefined : this.postings[n];
      if (held === undefined || (narrowest && postingSize(held) >= narrowest.size)) continue;
      narrowest = typeof held === 'number' ? { size: 1, select: (rank) => (rank === 0 ? held : undefined) } : held;
    }
    return narrowest;
  }

  /** Each group of `all` as the documents holding one of its tokens, smallest first; null when a group matches nothing. */
  private groupsOf(query: IndexQuery): Bitmap[] | null {
    // Never flushed here: a query may run in an arena (withTemporaryBitmaps), which would free the new postings.
    if (this.pending.length > 0) throw new Error('The index was queried with postings not yet flushed');
    const groups: Bitmap[] = [];
    for (const group of query.all) {
      const lists = group.flatMap((token) => {
        const n = this.vocabulary.numberOf(token);
        return (n === undefined ? undefined : this.bitmapAt(n)) ?? [];
      });
      if (lists.length === 0) return null;
      groups.push(lists.length === 1 ? lists[0]! : RoaringBitmap32.orMany(lists));
    }
    return groups.sort((a, b) => a.size - b.size);
  }

  /** How often `token` occurs in `doc`, rounded down to a tier (1 when it occurs once; 0 when not at all). */
  occurrences(token: string, doc: number): number {
    const n = this.vocabulary.numberOf(token);
    const held = n === undefined ? undefined : this.postings[n];
    if (held === undefined || (typeof held === 'number' ? held !== doc : !held.has(doc))) return 0;
    const tiers = this.tiers[n!];
    const level = tiers ? levelIn(tiers, doc) : 0;
    return level === 0 ? 1 : TIERS[level - 1]!;
  }

  /**
   * Every token with the live documents holding it, ascending, and how often each holds it (`occurrences`), for the
   * operator's check; not a search path.
   */
  *tokens(): Generator<[string, Uint32Array, Uint8Array]> {
    this.flush();
    for (let n = 0; n < this.postings.length; n++) {
      const [docs, times] = withTemporaryBitmaps(() => {
        const live = RoaringBitmap32.and(this.bitmapAt(n)!, this.live);
        const docs = live.toUint32Array();
        const times = new Uint8Array(docs.length).fill(1);
        const tiers = this.tiers[n];
        if (tiers) tiersWithin(live, tiers).forEach((reached, i) => markAll(docs, reached, times, TIERS[i]!));
        return [docs, times] as const;
      });
      yield [this.vocabulary.names[n]!, docs, times];
    }
  }

  /** The characters of `doc`'s texts, which relevance divides by (ranking.ts). */
  lengthOf(doc: number): number {
    return doc < this.lengths.length ? this.lengths.at(doc) : 0;
  }

  /** The index as chunks for a saved copy (index-snapshot.ts), with what is needed to read them back. */
  save(documents: number): { meta: PostingMeta; chunks: Chunk[] } {
    this.flush();
    const tokens = this.vocabulary.names.slice(0, this.postings.length);
    const tiered = tokens.filter((_, n) => this.tiers[n]);
    const missing = this.tiers.flatMap((tiers) =>
      tiers ? [tiers.reduce((bits, tier, i) => bits | (tier.missing ? 1 << i : 0), 0)] : [],
    );
    const chunks: Chunk[] = [
      bytesOf(Uint32Array.from(this.lengths.toFloat64(documents))),
      this.live,
      ...this.postings.map((posting) => (typeof posting === 'number' ? oneDocumentChunk(posting) : posting)),
    ];
    for (const tiers of this.tiers) if (tiers) chunks.push(...tiers.map((tier) => tier.docs));
    return { meta: { tokens, tiered, missing }, chunks };
  }

  static restore(meta: PostingMeta, reader: ChunkReader): PostingIndex {
    const index = new PostingIndex();
    index.lengths = NumberColumn.of(reader.uint32());
    const bitmap = () => RoaringBitmap32.deserialize(reader.take(), 'portable');
    const live = bitmap();
    index.live.orInPlace(live);
    live.dispose();
    for (const token of meta.tokens) {
      const n = index.vocabulary.intern(token);
      const posting = bitmap();
      if (posting.size === 1) {
        index.setPosting(n, posting.minimum());
        posting.dispose();
      } else index.setPosting(n, posting);
    }
    meta.tiered.forEach((token, i) => {
      index.tiers[index.vocabulary.intern(token)] = TIERS.map((_, tier) => ({
        docs: bitmap(),
        missing: (meta.missing[i]! & (1 << tier)) !== 0,
      }));
    });
    // The columns are not in the copy: each value's posting says which documents hold it.
    for (const kind of COLUMN_KINDS) {
      for (const [value, posting] of index.facetValues(kind)) {
        index.facetColumns.get(kind)!.setAll(typeof posting === 'number' ? [posting] : posting.toUint32Array(), value);
      }
      index.facetColumns.get(kind)!.compact();
    }
    return index;
  }

  /**
   * Approximate bytes the index holds (for the operator and the benchmark): the bitmaps (postings, tiers, live) as
   * serialized, the columns (lengths, facet values) as allocated, and the token names.
   */
  bytes(): number {
    this.flush();
    let total = this.lengths.bytes + this.live.getSerializationSizeInBytes('portable');
    const held = (bitmap: Bitmap) => bitmap.getSerializationSizeInBytes('portable');
    for (const posting of this.postings) total += typeof posting === 'number' ? 4 : held(posting);
    for (const tiers of this.tiers) if (tiers) for (const tier of tiers) total += held(tier.docs);
    for (const column of this.facetColumns.values()) total += column.bytes;
    for (const name of this.vocabulary.names) total += Buffer.byteLength(name);
    return total;
  }

  get tokenCount(): number {
    this.flush();
    return this.postings.length;
  }
}
