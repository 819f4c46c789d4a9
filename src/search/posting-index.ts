/**
 * An inverted index held in memory: for every token (a word, a CJK bigram or character, a facet) the set of
 * documents holding it, as a compressed bitmap (roaring) of document numbers. A query is bitmap algebra, so
 * its cost follows the sizes of the posting lists it combines, and its count is exact at any size.
 *
 * What relevance needs is held too, so that ranking reads no text: each document's length, and for each
 * token the documents in which it repeats, in tiers (at least 2, 4 and 8 occurrences).
 *
 * The bitmaps are CRoaring's (bitmaps.ts: the native binding where it loads, WebAssembly elsewhere).
 */
import { RoaringBitmap32, type Bitmap } from './bitmaps.js';
import { bytesOf, type Chunk, type ChunkReader } from './index-snapshot.js';
import { COLUMN_KINDS } from './fields.js';
import { facetParts } from './search-text.js';

/** A document is in tier i of a token when the token occurs at least TIERS[i] times in it. */
export const TIERS = [2, 4, 8] as const;
/** Postings gathered before they are added to the bitmaps in bulk (a build adds millions). */
const PENDING_LIMIT = 2_000_000;

export interface IndexQuery {
  /** Every group must be matched by at least one of its tokens. */
  all: string[][];
  /** No document holding one of these matches. */
  none: string[];
}

export interface PostingMeta { tokens: string[]; tiered: string[] }

/** A facet kind's value of each document: the value's number (its index in `values`), -1 for none. */
export interface FacetColumn {
  readonly values: readonly string[];
  readonly ofDoc: Int32Array;
}

/** A facet column as the index fills it: the numbers of values it has seen, and the column growing with the documents. */
class GrowingFacetColumn implements FacetColumn {
  readonly values: string[] = [];
  private readonly numberOf = new Map<string, number>();
  ofDoc = new Int32Array(1024).fill(-1);

  set(doc: number, value: string): void {
    this.setAll([doc], value);
  }

  setAll(docs: ArrayLike<number>, value: string): void {
    let n = this.numberOf.get(value);
    if (n === undefined) {
      n = this.values.push(value) - 1;
      this.numberOf.set(value, n);
    }
    for (let i = 0; i < docs.length; i++) this.place(docs[i]!, n);
  }

  private place(doc: number, n: number): void {
    if (doc >= this.ofDoc.length) {
      const grown = new Int32Array(Math.max(doc + 1, this.ofDoc.length * 2)).fill(-1);
      grown.set(this.ofDoc);
      this.ofDoc = grown;
    }
    this.ofDoc[doc] = n;
  }
}

export class PostingIndex {
  private readonly postings = new Map<string, Bitmap>();
  private readonly tiers = new Map<string, Bitmap[]>();
  /** The postings of each facet kind's values (`c` → company id → posting), for facet counts. */
  private readonly facetPostings = new Map<string, Map<string, Bitmap>>();
  private readonly facetColumns = new Map<string, GrowingFacetColumn>(COLUMN_KINDS.map((kind) => [kind, new GrowingFacetColumn()]));
  /** Documents that are in the index now (a removed document leaves its postings until the next rebuild). */
  readonly live = new RoaringBitmap32();
  private lengths = new Uint32Array(1024);
  private pending = new Map<string, number[]>();
  private pendingCount = 0;
  private changes = 0;

  /** Grows with every document added or removed: what was computed from `live` at one count holds while it stays. */
  get version(): number {
    return this.changes;
  }

  /** Adds document `doc` (a number never used before) with its tokens and text length. */
  add(doc: number, tokens: string[], length: number): void {
    const counts = new Map<string, number>();
    for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
    for (const [token, n] of counts) {
      this.setColumn(doc, token);
      let list = this.pending.get(token);
      if (!list) this.pending.set(token, list = []);
      list.push(doc);
      if (n >= TIERS[0]) {
        let tiers = this.tiers.get(token);
        if (!tiers) this.tiers.set(token, tiers = TIERS.map(() => new RoaringBitmap32()));
        TIERS.forEach((least, i) => { if (n >= least) tiers[i]!.add(doc); });
      }
    }
    this.pendingCount += counts.size;
    if (doc >= this.lengths.length) {
      const grown = new Uint32Array(Math.max(doc + 1, this.lengths.length * 2));
      grown.set(this.lengths);
      this.lengths = grown;
    }
    this.lengths[doc] = length;
    this.live.add(doc);
    this.changes++;
    if (this.pendingCount >= PENDING_LIMIT) this.flush();
  }

  remove(doc: number): void {
    this.live.remove(doc);
    this.changes++;
  }

  /** Adds what `add` gathered to the bitmaps; whoever adds flushes before the next query (live-index.ts does). */
  flush(): void {
    if (this.pendingCount === 0) return;
    for (const [token, docs] of this.pending) {
      let posting = this.postings.get(token);
      if (!posting) this.setPosting(token, posting = new RoaringBitmap32());
      posting.addMany(docs);
    }
    this.pending = new Map();
    this.pendingCount = 0;
  }

  private setPosting(token: string, posting: Bitmap): void {
    this.postings.set(token, posting);
    const parts = facetParts(token);
    if (!parts) return;
    let values = this.facetPostings.get(parts.kind);
    if (!values) this.facetPostings.set(parts.kind, values = new Map());
    values.set(parts.value, posting);
  }

  private setColumn(doc: number, token: string): void {
    const parts = facetParts(token);
    if (parts) this.facetColumns.get(parts.kind)?.set(doc, parts.value);
  }

  /** Each document's value of a facet kind (documents removed since included), for the kinds that keep a column. */
  facetColumn(kind: string): FacetColumn | undefined {
    return this.facetColumns.get(kind);
  }

  /** Every value of a facet kind with its posting (live or not: intersect with a match). */
  facetValues(kind: string): ReadonlyMap<string, Bitmap> {
    return this.facetPostings.get(kind) ?? new Map();
  }

  /** Compresses runs in every bitmap (after a build): less memory, faster intersections. */
  optimize(): void {
    this.flush();
    for (const posting of this.postings.values()) posting.runOptimize();
    for (const tiers of this.tiers.values()) for (const tier of tiers) tier.runOptimize();
    this.live.runOptimize();
  }

  /** The documents of `within` (the live ones, or a part of them) that hold a token of every group of `all` and none of `none`. */
  match(query: IndexQuery, within: Bitmap = this.live): Bitmap {
    // Never flushed here: a query may run in an arena (withTemporaryBitmaps), which would free the new postings.
    if (this.pendingCount > 0) throw new Error('The index was queried with postings not yet flushed');
    const groups: Bitmap[] = [];
    for (const group of query.all) {
      const lists = group.flatMap((token) => this.postings.get(token) ?? []);
      if (lists.length === 0) return new RoaringBitmap32();
      groups.push(lists.length === 1 ? lists[0]! : RoaringBitmap32.orMany(lists));
    }
    groups.sort((a, b) => a.size - b.size);
    const result = groups.length === 0 ? within.clone() : RoaringBitmap32.and(groups[0]!, within);
    for (const group of groups.slice(1)) {
      if (result.isEmpty) break;
      result.andInPlace(group);
    }
    for (const token of query.none) {
      const posting = this.postings.get(token);
      if (posting && !result.isEmpty) result.andNotInPlace(posting);
    }
    return result;
  }

  /** How often `token` occurs in `doc`, rounded down to a tier (1 when it occurs once; 0 when not at all). */
  occurrences(token: string, doc: number): number {
    if (!this.postings.get(token)?.has(doc)) return 0;
    const tiers = this.tiers.get(token);
    if (!tiers) return 1;
    for (let i = TIERS.length - 1; i >= 0; i--) if (tiers[i]!.has(doc)) return TIERS[i]!;
    return 1;
  }

  /**
   * The relevance of `doc` to a keyword's terms, from the index alone: for each term ln(1 + occurrences),
   * summed, divided by ln(e + characters / 500) so that a long text does not win by its length alone.
   */
  relevance(terms: string[], doc: number): number {
    let score = 0;
    for (const term of terms) score += Math.log1p(this.occurrences(term, doc));
    return score / Math.log(Math.E + (this.lengths[doc] ?? 0) / 500);
  }

  /** Every token with the live documents holding it (for the operator's check; not a search path). */
  *tokens(): Generator<[string, Bitmap]> {
    this.flush();
    for (const [token, posting] of this.postings) {
      const live = RoaringBitmap32.and(posting, this.live);
      yield [token, live];
      live.dispose();
    }
  }

  /** The length relevance divides by, of one document. */
  lengthOf(doc: number): number {
    return this.lengths[doc] ?? 0;
  }

  /** The index as chunks for a saved copy (index-snapshot.ts), with what is needed to read them back. */
  save(documents: number): { meta: PostingMeta; chunks: Chunk[] } {
    this.flush();
    const tokens = [...this.postings.keys()];
    const tiered = [...this.tiers.keys()];
    const chunks: Chunk[] = [bytesOf(this.lengths.subarray(0, documents)), this.live];
    for (const token of tokens) chunks.push(this.postings.get(token)!);
    for (const token of tiered) chunks.push(...this.tiers.get(token)!);
    return { meta: { tokens, tiered }, chunks };
  }

  static restore(meta: PostingMeta, reader: ChunkReader): PostingIndex {
    const index = new PostingIndex();
    const lengths = reader.uint32();
    index.lengths = new Uint32Array(Math.max(1024, lengths.length));
    index.lengths.set(lengths);
    const bitmap = () => RoaringBitmap32.deserialize(reader.take(), 'portable');
    const live = bitmap();
    index.live.orInPlace(live);
    live.dispose();
    for (const token of meta.tokens) index.setPosting(token, bitmap());
    for (const token of meta.tiered) index.tiers.set(token, TIERS.map(() => bitmap()));
    // The columns are not in the copy: each value's posting says which documents hold it.
    for (const kind of COLUMN_KINDS) {
      for (const [value, posting] of index.facetValues(kind)) {
        index.facetColumns.get(kind)!.setAll(posting.toUint32Array(), value);
      }
    }
    return index;
  }

  /** Approximate bytes held by the bitmaps (for the operator and the benchmark). */
  bytes(): number {
    this.flush();
    let total = this.lengths.byteLength + this.live.getSerializationSizeInBytes('portable');
    for (const posting of this.postings.values()) total += posting.getSerializationSizeInBytes('portable');
    for (const tiers of this.tiers.values()) for (const tier of tiers) total += tier.getSerializationSizeInBytes('portable');
    return total;
  }

  get tokenCount(): number {
    this.flush();
    return this.postings.size;
  }
}
