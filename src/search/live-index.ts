/**
 * An index held in memory and kept true on every instance (docs/search.md, "Keeping the index true"): built
 * from the tables, then following the change log (search-changes.ts). Before a search the caller asks for
 * `current()`: the data version is read (one query per turn of the event loop), and when it moved the changed
 * items are read again from the tables and applied all at once.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { ChangeFollower, type ChangeKind } from './search-changes.js';
import { OrderedDocuments, type IndexedItem } from './ordered-documents.js';

const BATCH = 2_000;
/** With this many items out of order, the index is rebuilt (in the background, serving meanwhile). */
const DISPLACED_LIMIT = 20_000;

/** Where an index reads its items: all of them in time order, page by page, and some of them by id. */
export interface ItemSource {
  kind: ChangeKind;
  /** Extra numbers each item carries (IndexedItem.extra). */
  extraColumns: number;
  /** Up to `limit` items after (time, id) `after`, in (time, id) order. */
  inOrder(after: [number, number] | null, limit: number): Promise<IndexedItem[]>;
  /** The items of `ids` that the index should hold now (the others are taken out). */
  byIds(ids: number[]): Promise<IndexedItem[]>;
}

export interface IndexStats { items: number; tokens: number; bytes: number; displaced: number; builtInMs: number }

export class LiveIndex {
  private docs: OrderedDocuments | null = null;
  private follower: ChangeFollower;
  private syncedVersion = -1;
  private building: Promise<void> | null = null;
  private syncing: Promise<void> | null = null;
  private rebuilding = false;
  private builtInMs = 0;
  /** Bumped with each new generation, so what an owner derives from one can tell it is stale. */
  generation = 0;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly source: ItemSource,
    private readonly version: { read(): Promise<number> },
  ) {
    this.follower = new ChangeFollower(db, source.kind);
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
    const follower = new ChangeFollower(this.db, this.source.kind);
    await follower.start();
    const docs = new OrderedDocuments(this.source.extraColumns);
    for (let after: [number, number] | null = null; ;) {
      const items = await this.source.inOrder(after, BATCH);
      if (items.length === 0) break;
      for (const item of items) docs.add(item);
      const last = items[items.length - 1]!;
      after = [last.time, last.id];
    }
    await this.apply(docs, await follower.next());
    docs.index.optimize();
    this.docs = docs;
    this.follower = follower;
    this.generation++;
    this.syncedVersion = Math.max(this.syncedVersion, version);
    this.builtInMs = performance.now() - started;
  }

  /** The index as every write committed before this call left it. */
  async current(): Promise<OrderedDocuments> {
    await this.ready();
    const version = await this.version.read();
    if (version > this.syncedVersion || this.follower.waiting) {
      await (this.syncing ??= this.sync().finally(() => { this.syncing = null; }));
      // A sync that started before this version was read may have missed it: one more.
      if (version > this.syncedVersion) await (this.syncing ??= this.sync().finally(() => { this.syncing = null; }));
    }
    return this.docs!;
  }

  private async sync(): Promise<void> {
    // The version first: every write it counts is in the log read after it.
    const version = await this.version.read();
    const docs = this.docs!;
    await this.apply(docs, await this.follower.next());
    this.syncedVersion = Math.max(this.syncedVersion, version);
    if (docs.displaced.size > DISPLACED_LIMIT && !this.rebuilding) {
      this.rebuilding = true;
      // In the background: searches keep the current generation until the new one is ready. A failed
      // rebuild leaves it serving, and a later sync tries again.
      this.rebuild().catch(() => undefined).finally(() => { this.rebuilding = false; });
    }
  }

  /** Reads the changed items again and puts them in (or takes them out of) the index, all at once. */
  private async apply(docs: OrderedDocuments, ids: number[]): Promise<void> {
    const found: IndexedItem[] = [];
    for (let i = 0; i < ids.length; i += BATCH) found.push(...await this.source.byIds(ids.slice(i, i + BATCH)));
    // Synchronous from here: a search sees all of these changes or none.
    const present = new Set(found.map((item) => item.id));
    for (const id of ids) if (!present.has(id)) docs.remove(id);
    for (const item of found) docs.add(item);
  }

  stats(): IndexStats {
    const docs = this.docs;
    return { items: docs?.size ?? 0, tokens: docs?.index.tokenCount ?? 0, bytes: docs?.index.bytes() ?? 0, displaced: docs?.displaced.size ?? 0, builtInMs: this.builtInMs };
  }
}

/** Characters of texts once normalized as the tokenizer does (the length relevance divides by). */
export function normalizedLength(texts: Array<string | null | undefined>): number {
  let length = 0;
  for (const text of texts) if (text) length += text.normalize('NFKC').toLowerCase().length;
  return length;
}
