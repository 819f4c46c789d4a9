/**
 * Post search served from the service's own index (docs/search.md): posting lists as compressed bitmaps over
 * document numbers given in posting order, so that RECENT is the bitmap read from its top, a time window is a
 * range of document numbers, and a count is the exact size of a bitmap. The same code serves SQLite and
 * PostgreSQL; the tables stay the truth, and the index is built from them.
 *
 * Kept true by the change log (search-changes.ts): before a search the instance reads the posts data version,
 * and when it moved, the posts the log names are read again. A post that arrives out of posting order (an
 * update keeps its posting time but gets a new document number; a clock behind another instance's) is
 * "displaced": it is ordered by its posting time explicitly, and enough of them make the index rebuild itself.
 */
import type { Kysely } from 'kysely';
import { DataVersion } from '../cache/data-version.js';
import type { DB } from '../db/schema.js';
import { groupBy } from '../shared/group.js';
import { ChangeFollower } from './search-changes.js';
import { PostingIndex, RoaringBitmap32, type Bitmap, type IndexQuery } from './posting-index.js';
import { FACETS, postTokens } from './search-documents.js';

/** RELEVANCE ranks the newest this many matches; the older matches follow newest first. */
export const RELEVANCE_CANDIDATES = 200;
const BATCH = 2_000;
/** With this many posts out of posting order, the index is rebuilt (in the background, serving meanwhile). */
const DISPLACED_LIMIT = 20_000;

export interface PostSearchFilter {
  /** Keyword terms (search-text.ts queryTerms), all required; null without a keyword. */
  terms: string[] | null;
  authorCompanyId?: number;
  hasImages?: boolean;
  hasOg?: boolean;
  postedAfter?: number;
  postedBefore?: number;
  order: 'rank' | 'recent';
  limit: number;
  offset: number;
}

/** The filter as bitmap algebra: keyword terms and facets required, facets excluded for `false` filters. */
export function postIndexQuery(filter: PostSearchFilter): IndexQuery {
  const all = (filter.terms ?? []).map((t) => [t]);
  const none: string[] = [];
  if (filter.authorCompanyId !== undefined) all.push([FACETS.company(filter.authorCompanyId)]);
  for (const [wanted, token] of [[filter.hasImages, FACETS.postImages], [filter.hasOg, FACETS.postOg]] as const) {
    if (wanted === true) all.push([token]);
    if (wanted === false) none.push(token);
  }
  return { all, none };
}

/** A column of numbers by document number that grows as documents are added. */
class Column {
  private values = new Float64Array(1024);
  length = 0;

  push(value: number): void {
    if (this.length === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = value;
  }

  at(doc: number): number {
    return this.values[doc]!;
  }

  /** The first position whose value is at least `value` (the column must not decrease). */
  lowerBound(value: number): number {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.values[mid]! < value) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** What the index reads of a post (its translations besides). */
const POST_COLUMNS = ['id', 'content', 'image_count', 'has_og', 'author_company_id', 'posted_at'] as const;
type PostRow = Pick<DB['posts'], 'content' | 'image_count' | 'has_og' | 'author_company_id' | 'posted_at'> & { id: number };

interface IndexedPost { id: number; postedAt: number; tokens: string[]; length: number }

/** One generation of the index: the posts in it, numbered, and what ordering and time windows need. */
class PostDocuments {
  readonly index = new PostingIndex();
  private readonly postIds = new Column();
  private readonly postedAt = new Column();
  /** Posting time of each document for time windows: never decreasing (a displaced document repeats the one before it). */
  private readonly slotTime = new Column();
  private readonly docOf = new Map<number, number>();
  readonly displaced = new RoaringBitmap32();
  private last = { postedAt: -Infinity, id: -Infinity };

  get size(): number {
    return this.docOf.size;
  }

  /** Adds a post (replacing the document it had): in posting order after the newest, or displaced. */
  add(post: IndexedPost): void {
    this.remove(post.id);
    const doc = this.postIds.length;
    const inOrder = post.postedAt > this.last.postedAt || (post.postedAt === this.last.postedAt && post.id > this.last.id);
    this.postIds.push(post.id);
    this.postedAt.push(post.postedAt);
    this.slotTime.push(inOrder ? post.postedAt : doc === 0 ? -Infinity : this.slotTime.at(doc - 1));
    if (inOrder) this.last = { postedAt: post.postedAt, id: post.id };
    else this.displaced.add(doc);
    this.docOf.set(post.id, doc);
    this.index.add(doc, post.tokens, post.length);
  }

  remove(postId: number): void {
    const doc = this.docOf.get(postId);
    if (doc === undefined) return;
    this.index.remove(doc);
    this.displaced.remove(doc);
    this.docOf.delete(postId);
  }

  postId(doc: number): number {
    return this.postIds.at(doc);
  }

  /** Whether document a comes before b in RECENT order (newer posting time, then higher id). */
  private newer(a: number, b: number): boolean {
    const at = this.postedAt.at(a);
    const bt = this.postedAt.at(b);
    return at > bt || (at === bt && this.postIds.at(a) > this.postIds.at(b));
  }

  /** The documents of `result` posted within [from, to] (inclusive). */
  window(result: Bitmap, from: number, to: number): Bitmap {
    const lo = this.slotTime.lowerBound(from);
    const hi = this.slotTime.lowerBound(to + 1);
    const within = RoaringBitmap32.and(result, RoaringBitmap32.fromRange(lo, hi));
    if (this.displaced.isEmpty) return within;
    within.andNotInPlace(this.displaced);
    for (const doc of RoaringBitmap32.and(result, this.displaced)) {
      const at = this.postedAt.at(doc);
      if (at >= from && at <= to) within.add(doc);
    }
    return within;
  }

  /** `limit` documents of `result` in RECENT order after skipping `offset`. */
  newest(result: Bitmap, offset: number, limit: number): number[] {
    if (limit <= 0 || offset >= result.size) return [];
    const out = this.displaced.isEmpty ? null : RoaringBitmap32.and(result, this.displaced);
    if (!out || out.isEmpty) return topOf(result, offset + limit).slice(offset);
    // Merge the documents in order (read from the top of the bitmap) with the displaced ones, sorted by time.
    const inOrder = topOf(RoaringBitmap32.andNot(result, this.displaced), offset + limit);
    const displaced = out.toArray().sort((a, b) => (this.newer(a, b) ? -1 : 1));
    const merged: number[] = [];
    for (let i = 0, j = 0; merged.length < offset + limit && (i < inOrder.length || j < displaced.length);) {
      if (j >= displaced.length || (i < inOrder.length && this.newer(inOrder[i]!, displaced[j]!))) merged.push(inOrder[i++]!);
      else merged.push(displaced[j++]!);
    }
    return merged.slice(offset);
  }
}

/** The highest `count` numbers of a bitmap, highest first. */
function topOf(bitmap: Bitmap, count: number): number[] {
  const from = Math.max(0, bitmap.size - count);
  return Array.from(bitmap.rangeUint32Array(from, bitmap.size - from)).reverse();
}

export interface PostIndexStats { posts: number; tokens: number; bytes: number; displaced: number; builtInMs: number }

export class PostIndex {
  private docs: PostDocuments | null = null;
  private follower: ChangeFollower;
  private readonly version: { read(): Promise<number> };
  private syncedVersion = -1;
  private building: Promise<void> | null = null;
  private syncing: Promise<void> | null = null;
  private rebuilding = false;
  private builtInMs = 0;

  constructor(private readonly db: Kysely<DB>, version?: { read(): Promise<number> }) {
    this.version = version ?? new DataVersion(db, 'posts');
    this.follower = new ChangeFollower(db, 'post');
  }

  /** Builds the index from the tables once; later calls wait for that build. */
  ready(): Promise<void> {
    this.building ??= this.rebuild();
    return this.building;
  }

  /**
   * Builds a new generation from the tables and swaps it in, serving the old one meanwhile: the change log is
   * followed from before the first read, so what a write changes during the build is applied after it.
   */
  async rebuild(): Promise<void> {
    const started = performance.now();
    const version = await this.version.read();
    const follower = new ChangeFollower(this.db, 'post');
    await follower.start();
    const docs = new PostDocuments();
    for (let after: [number, number] | null = null; ;) {
      const from = after;
      const rows: PostRow[] = await this.db.selectFrom('posts').select(POST_COLUMNS)
        .$if(from !== null, (q) => q.where((eb) => eb(eb.refTuple('posted_at', 'id'), '>', eb.tuple(from![0], from![1]))))
        .orderBy('posted_at').orderBy('id').limit(BATCH).execute();
      if (rows.length === 0) break;
      for (const post of await this.withTranslations(rows)) docs.add(post);
      after = [rows[rows.length - 1]!.posted_at, rows[rows.length - 1]!.id];
    }
    await this.apply(docs, await follower.next());
    docs.index.optimize();
    this.docs = docs;
    this.follower = follower;
    this.syncedVersion = Math.max(this.syncedVersion, version);
    this.builtInMs = performance.now() - started;
  }

  /** The index as every write committed before this call left it. */
  private async current(): Promise<PostDocuments> {
    await this.ready();
    const version = await this.version.read();
    if (version > this.syncedVersion || this.follower.waiting) {
      this.syncing ??= this.sync().finally(() => { this.syncing = null; });
      await this.syncing;
      // A sync that started before this version was read may have missed it: one more.
      if (version > this.syncedVersion) await (this.syncing ??= this.sync().finally(() => { this.syncing = null; }));
    }
    return this.docs!;
  }

  private async sync(): Promise<void> {
    // The version first: every write it counts is in the log read after it.
    const version = await this.version.read();
    const docs = this.docs!;
    const changed = await this.follower.next();
    await this.apply(docs, changed);
    this.syncedVersion = Math.max(this.syncedVersion, version);
    if (docs.displaced.size > DISPLACED_LIMIT && !this.rebuilding) {
      this.rebuilding = true;
      // In the background: searches keep the current generation until the new one is ready. A failed
      // rebuild leaves it serving, and the next sync tries again.
      this.rebuild().catch(() => undefined).finally(() => { this.rebuilding = false; });
    }
  }

  /** Reads the changed posts again and puts them in (or takes them out of) the index, all at once. */
  private async apply(docs: PostDocuments, ids: number[]): Promise<void> {
    const found: IndexedPost[] = [];
    for (let i = 0; i < ids.length; i += BATCH) {
      const batch = ids.slice(i, i + BATCH);
      const rows = await this.db.selectFrom('posts').select(POST_COLUMNS).where('id', 'in', batch).execute();
      found.push(...await this.withTranslations(rows));
    }
    // Synchronous from here: a search sees all of these changes or none.
    const present = new Set(found.map((post) => post.id));
    for (const id of ids) if (!present.has(id)) docs.remove(id);
    for (const post of found) docs.add(post);
  }

  private async withTranslations(rows: PostRow[]): Promise<IndexedPost[]> {
    if (rows.length === 0) return [];
    const translations = groupBy(
      await this.db.selectFrom('post_translations').select(['post_id', 'content']).where('post_id', 'in', rows.map((r) => r.id)).execute(),
      (t) => t.post_id,
    );
    return rows.map((row) => {
      const texts = [row.content, ...(translations.get(row.id) ?? []).map((t) => t.content)];
      return { id: row.id, postedAt: Number(row.posted_at), tokens: postTokens(row, texts.slice(1)), length: normalizedLength(texts) };
    });
  }

  /** The exact total and one page of post ids. */
  async search(filter: PostSearchFilter): Promise<{ total: number; ids: number[] }> {
    const docs = await this.current();
    let result = docs.index.match(postIndexQuery(filter));
    if (filter.postedAfter !== undefined || filter.postedBefore !== undefined) {
      result = docs.window(result, filter.postedAfter ?? -Infinity, filter.postedBefore ?? Infinity);
    }
    const total = result.size;
    const terms = filter.terms;
    let page: number[];
    if (!terms || filter.order === 'recent' || filter.offset >= RELEVANCE_CANDIDATES) {
      page = docs.newest(result, filter.offset, filter.limit);
    } else {
      const candidates = docs.newest(result, 0, RELEVANCE_CANDIDATES);
      const score = new Map(candidates.map((doc) => [doc, docs.index.relevance(terms, doc)]));
      // Stable sort: candidates are newest first, so equal scores stay newest first.
      const ranked = [...candidates].sort((a, b) => score.get(b)! - score.get(a)!);
      page = ranked.slice(filter.offset, filter.offset + filter.limit);
      if (page.length < filter.limit && candidates.length === RELEVANCE_CANDIDATES) {
        page.push(...docs.newest(result, RELEVANCE_CANDIDATES, filter.limit - page.length));
      }
    }
    return { total, ids: page.map((doc) => docs.postId(doc)) };
  }

  stats(): PostIndexStats {
    const docs = this.docs;
    return { posts: docs?.size ?? 0, tokens: docs?.index.tokenCount ?? 0, bytes: docs?.index.bytes() ?? 0, displaced: docs?.displaced.size ?? 0, builtInMs: this.builtInMs };
  }
}

/** Characters of the texts once normalized as the tokenizer does (the length relevance divides by). */
function normalizedLength(texts: Array<string | null>): number {
  let length = 0;
  for (const text of texts) if (text) length += text.normalize('NFKC').toLowerCase().length;
  return length;
}
