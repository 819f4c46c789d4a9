/**
 * An index held in memory and kept true on every instance (docs/search.md, "Keeping the index true"): built
 * from the tables, then following the change log (search-changes.ts). Before a search the caller asks for
 * `current()`: the data version is read (one query per turn of the event loop), and when it moved the changed
 * items are read again from the tables and applied all at once.
 */
import fs from 'node:fs';
import { setImmediate } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import { withoutQueryTimeLimit } from '../db/database-unavailable.js';
import type { DB } from '../db/schema.js';
import {
  ChangeFollower,
  ChangesLostError,
  prunedBelow,
  type ChangeKind,
  type FollowerState,
  type PendingChanges,
} from './search-changes.js';
import { DamagedCopyError, readSnapshot, writeSnapshot } from './index-snapshot.js';
import { OrderedDocuments, type DocumentsMeta, type IndexedItem } from './ordered-documents.js';

const BATCH = 2_000;
/** A build lets the event loop turn after adding this many items (a few milliseconds of tokenizing). */
const YIELD_EVERY = 250;
/** With this many items out of order, the index is rebuilt (in the background, serving meanwhile). */
const DISPLACED_LIMIT = 20_000;
/** A running instance saves its copy this often when something changed since the last one (and when it stops). */
const SAVE_EVERY_MS = 10 * 60_000;
/** A running instance checks which items its index holds against the tables this often (`audit`). */
const AUDIT_EVERY_MS = 10 * 60_000;
/** Ids a check reads from the tables at a time. */
const AUDIT_BATCH = 10_000;
/** After a failed read of changed items, the next try waits 1 s, doubling up to this. */
const RETRY_MAX_MS = 60_000;

/** Where an index says what went wrong and how it mended (pino's shape; the app's logger). */
export interface IndexLog {
  warn(fields: object, message: string): void;
  info(fields: object, message: string): void;
}
const SILENT: IndexLog = { warn: () => undefined, info: () => undefined };

interface CopyHeader {
  kind: ChangeKind;
  follower: FollowerState;
  documents: DocumentsMeta;
}

/** Where an index reads its items: all of them in time order, page by page, and some of them by id. */
export interface ItemSource {
  kind: ChangeKind;
  /** Extra numbers each item carries (IndexedItem.extra). */
  extraColumns: number;
  /** Up to `limit` items after (time, id) `after`, in (time, id) order. */
  inOrder(after: [number, number] | null, limit: number): Promise<IndexedItem[]>;
  /** The items of `ids` that the index should hold now (the others are taken out). */
  byIds(ids: number[]): Promise<IndexedItem[]>;
  /** How many items a build reads (for its progress). */
  count(): Promise<number>;
  /**
   * Up to `limit` items the index should hold, above id `after`, ascending: each id with its row's change time
   * (IndexedItem.stamp), for `audit`.
   */
  idsAfter(after: number, limit: number): Promise<Array<[number, number]>>;
}

export interface IndexStats {
  items: number;
  tokens: number;
  bytes: number;
  displaced: number;
  /** How long the last build or load took, and which it was (a saved copy plus the changes since, or the tables). */
  readyInMs: number;
  fromCopy: boolean;
  /** Reads of changed items that failed in a row and are being tried again (0: caught up). */
  failingReads: number;
  /** Items a check found differing from the tables and read again, since the instance started. */
  mended: number;
}

export class LiveIndex {
  private docs: OrderedDocuments | null = null;
  private follower: ChangeFollower;
  private syncedVersion = -1;
  private building: Promise<void> | null = null;
  private syncing: Promise<void> | null = null;
  private rebuilding = false;
  private readyInMs = 0;
  private fromCopy = false;
  private changedSinceSave = false;
  private saver: NodeJS.Timeout | null = null;
  private auditor: NodeJS.Timeout | null = null;
  private retry: NodeJS.Timeout | null = null;
  private failingReads = 0;
  private mended = 0;
  /** Items a check found differing, read again by the next sync (after the log's changes, so a write wins). */
  private suspects = new Set<number>();
  private epochValue: Promise<string> | null = null;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly source: ItemSource,
    private readonly version: { read(): Promise<number> },
    /** Where this instance keeps its saved copy (none: always built from the tables). */
    private readonly copyFile: string | null = null,
    private readonly log: IndexLog = SILENT,
  ) {
    this.follower = new ChangeFollower(db, source.kind);
  }

  /**
   * Loads the saved copy, or builds from the tables (and saves a copy), once; later calls wait for that. `serving`:
   * an instance's index, which also checks itself against the tables every ten minutes (a command's does not).
   */
  ready(serving = false): Promise<void> {
    this.building ??= (async () => {
      if (!(await this.load())) {
        await this.rebuild();
        await this.saveOrSay();
      }
      if (this.copyFile) {
        this.saver = setInterval(() => {
          if (this.changedSinceSave) void this.saveOrSay();
        }, SAVE_EVERY_MS);
        this.saver.unref();
      }
      if (serving) {
        this.auditor = setInterval(() => {
          this.audit().catch((err: unknown) =>
            this.log.warn({ err, index: this.source.kind }, 'checking the search index against the tables failed'),
          );
        }, AUDIT_EVERY_MS);
        this.auditor.unref();
      }
    })();
    return this.building;
  }

  /** Stops saving and checking on a timer and saves once more, so the next start loads a recent copy. */
  async close(): Promise<void> {
    for (const timer of [this.saver, this.auditor, this.retry]) if (timer) clearTimeout(timer);
    this.saver = this.auditor = this.retry = null;
    if (this.building) await this.building.catch(() => undefined);
    if (this.docs && this.changedSinceSave) await this.saveOrSay();
  }

  /**
   * Saves a copy; one that cannot be written (a full disk) is logged, and the instance serves on without it (the
   * next start builds from the tables, or loads the last whole copy, which a failed write leaves as it was).
   */
  private async saveOrSay(): Promise<void> {
    try {
      await this.save();
    } catch (err) {
      this.changedSinceSave = true;
      this.log.warn(
        { err, index: this.source.kind, file: this.copyFile },
        'the search index copy could not be saved; serving without it',
      );
    }
  }

  private epoch(): Promise<string> {
    this.epochValue ??= this.db
      .selectFrom('search_log_state')
      .select('value')
      .where('name', '=', 'epoch')
      .executeTakeFirstOrThrow()
      .then((r) => r.value);
    return this.epochValue;
  }

  /**
   * Starts from the saved copy and the change log since it: false (build instead) when there is none, or it
   * was made by other code, or ahead of this database's log (a restored backup). A copy that is damaged, cut short,
   * crafted or from another database (its checksum, keyed by this database's epoch, does not match), or whose
   * bitmaps do not restore, is logged and set aside (`<file>.damaged`, the last one kept) before the build.
   */
  private async load(): Promise<boolean> {
    if (!this.copyFile) return false;
    const started = performance.now();
    let copy: ReturnType<typeof readSnapshot<CopyHeader>>;
    try {
      copy = readSnapshot<CopyHeader>(this.copyFile, await this.epoch());
    } catch (err) {
      if (!(err instanceof DamagedCopyError)) throw err;
      this.setAside(err.message);
      return false;
    }
    if (!copy) return false;
    const { header } = copy;
    const latest = await this.db
      .selectFrom('search_changes')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst();
    const pruned = await prunedBelow(this.db);
    // How far this database's log has come (its rows may all have been pruned).
    const reached = Math.max(Number(latest?.id ?? 0), pruned - 1);
    if (
      header?.kind !== this.source.kind ||
      typeof header.follower?.horizon !== 'number' ||
      reached < header.follower.horizon ||
      header.follower.horizon + 1 < pruned
    ) {
      copy.chunks.close();
      return false;
    }
    let docs: OrderedDocuments;
    try {
      docs = OrderedDocuments.restore(header.documents, copy.chunks);
    } catch (err) {
      this.setAside(`its bitmaps do not restore: ${String(err)}`);
      return false;
    } finally {
      copy.chunks.close();
    }
    const version = await this.version.read();
    const follower = new ChangeFollower(this.db, this.source.kind);
    follower.restore(header.follower);
    try {
      await this.install(docs, follower, version, started, true);
    } catch (err) {
      // Pruned past the copy's place since it was checked: build from the tables instead.
      if (err instanceof ChangesLostError) return false;
      throw err;
    }
    return true;
  }

  /** Moves a copy that cannot be used out of the way (kept for a look), and says so. */
  private setAside(reason: string): void {
    const file = this.copyFile!;
    const aside = `${file}.damaged`;
    try {
      fs.renameSync(file, aside);
    } catch {
      fs.rmSync(file, { force: true });
    }
    this.log.warn(
      { index: this.source.kind, file, setAsideAs: aside, reason },
      'the saved search index copy cannot be used: set aside, building from the tables',
    );
  }

  /**
   * What the next start would serve (the saved copy and the change log since) against a build from the tables
   * now: the items that differ. Null when there is no copy to check.
   */
  async check(
    progress?: (done: number, total: number) => void,
  ): Promise<{ items: number; differing: number[] } | null> {
    if (!(await this.load())) return null;
    const loaded = this.docs!.fingerprints();
    await this.rebuild(progress);
    const built = this.docs!.fingerprints();
    const differing = new Set<number>();
    for (const [id, print] of built) if (loaded.get(id) !== print) differing.add(id);
    for (const id of loaded.keys()) if (!built.has(id)) differing.add(id);
    return { items: built.size, differing: [...differing].sort((a, b) => a - b) };
  }

  /** Saves a copy of the current generation with the follower's place in the log, taken at one moment. */
  async save(): Promise<void> {
    if (!this.copyFile || !this.docs) return;
    const epoch = await this.epoch();
    // No sync halfway: the log's place and the documents must be of the same moment.
    while (this.syncing) await this.syncing.catch(() => undefined);
    const { meta, chunks } = this.docs.save();
    const header: CopyHeader = { kind: this.source.kind, follower: this.follower.state(), documents: meta };
    this.changedSinceSave = false;
    // Written to the file before this turn ends (the bitmaps are the live ones), then flushed to disk.
    await writeSnapshot(this.copyFile, header, chunks, epoch);
  }

  /**
   * Builds a new generation from the tables and swaps it in, serving the old one meanwhile: the change log is
   * followed from before the first read, so what a write changes during the build is applied after it.
   */
  rebuild(progress?: (done: number, total: number) => void): Promise<void> {
    // A build is the index's own work, at start or in the background: no client waits on its reads, so they are
    // held to no request's time limit (a slow machine makes a start slower, never fatal).
    return withoutQueryTimeLimit(() => this.build(progress));
  }

  private async build(progress?: (done: number, total: number) => void): Promise<void> {
    const started = performance.now();
    const total = progress ? await this.source.count() : 0;
    let done = 0;
    const version = await this.version.read();
    const follower = new ChangeFollower(this.db, this.source.kind);
    await follower.start();
    const docs = new OrderedDocuments(this.source.extraColumns);
    // The next batch is read while this one is added; the adding yields now and then, so the read goes on
    // (and a serving instance keeps answering).
    let next = readAhead(this.source.inOrder(null, BATCH));
    for (let items = await next; items.length > 0; items = await next) {
      const last = items[items.length - 1]!;
      next = readAhead(this.source.inOrder([last.time, last.id], BATCH));
      for (let i = 0; i < items.length; i++) {
        docs.add(items[i]!);
        if (i % YIELD_EVERY === YIELD_EVERY - 1) await setImmediate();
      }
      done += items.length;
      progress?.(done, total);
    }
    await this.install(docs, follower, version, started, false);
    docs.optimize();
    this.changedSinceSave = true;
  }

  /** Catches a new generation up with the log (read after `version`) and serves it from now on. */
  private async install(
    docs: OrderedDocuments,
    follower: ChangeFollower,
    version: number,
    started: number,
    fromCopy: boolean,
  ): Promise<void> {
    const pending = await follower.pending();
    await this.apply(docs, pending.documents);
    follower.accept(pending);
    this.docs = docs;
    this.follower = follower;
    this.syncedVersion = Math.max(this.syncedVersion, version);
    this.readyInMs = performance.now() - started;
    this.fromCopy = fromCopy;
  }

  /**
   * The index as every write committed before this call left it; or, given the data version the request read
   * earlier (`known`), as every write that version counts left it.
   */
  async current(known: number | null = null): Promise<OrderedDocuments> {
    await this.ready();
    const version = known ?? (await this.version.read());
    if (version > this.syncedVersion || this.follower.waiting || this.suspects.size > 0) {
      await (this.syncing ??= this.sync().finally(() => {
        this.syncing = null;
      }));
      // A sync that started before this version was read may have missed it: one more.
      if (version > this.syncedVersion)
        await (this.syncing ??= this.sync().finally(() => {
          this.syncing = null;
        }));
    }
    return this.docs!;
  }

  private async sync(): Promise<void> {
    try {
      await this.catchUp();
    } catch (err) {
      this.failed(err);
      throw err;
    }
    if (this.failingReads > 0) {
      this.log.info(
        { index: this.source.kind, failedReads: this.failingReads },
        'search index caught up with the tables again',
      );
      this.failingReads = 0;
    }
  }

  /**
   * A read of changed items failed (a lock held past the time limit, the database away): the changes stay in the
   * log to be read again by the next search, or by a try of its own after a second, doubling up to a minute.
   */
  private failed(err: unknown): void {
    this.failingReads++;
    const delay = Math.min(1_000 * 2 ** (this.failingReads - 1), RETRY_MAX_MS);
    this.log.warn(
      { err, index: this.source.kind, failedReads: this.failingReads, retryInMs: delay },
      'search index could not read the changed items; they are read again',
    );
    if (this.retry || !this.building) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      this.current().catch(() => undefined);
    }, delay);
    this.retry.unref();
  }

  private async catchUp(): Promise<void> {
    // The version first: every write it counts is in the log read after it.
    const version = await this.version.read();
    const docs = this.docs!;
    let pending: PendingChanges;
    try {
      pending = await this.follower.pending();
    } catch (err) {
      // This instance fell behind the log's retention (it served no search for a week): build afresh.
      if (err instanceof ChangesLostError) return this.rebuild();
      throw err;
    }
    const suspects = [...this.suspects];
    // How each suspect was held before it is read again (its document number changes whenever it is re-added).
    const held = suspects.map((id) => docs.stampedAs(id));
    await this.apply(docs, [...new Set([...pending.documents, ...suspects])]);
    // Only now, with the documents in: a read that failed above leaves the follower where it was.
    this.follower.accept(pending);
    this.syncedVersion = Math.max(this.syncedVersion, version);
    if (suspects.length) {
      for (const id of suspects) this.suspects.delete(id);
      const changed = pending.documents.length ? new Set(pending.documents) : null;
      // A suspect the log also changed was a write racing the check, not a divergence.
      const differed = suspects.filter((id, i) => !changed?.has(id) && docs.stampedAs(id) !== held[i]);
      if (differed.length) {
        this.mended += differed.length;
        this.log.warn(
          { index: this.source.kind, items: differed.slice(0, 20), count: differed.length },
          'search index held items otherwise than the tables; read them again',
        );
      }
    }
    if (docs.displaced.size > DISPLACED_LIMIT && !this.rebuilding) {
      this.rebuilding = true;
      // In the background: searches keep the current generation until the new one is ready. A failed
      // rebuild leaves it serving, and a later sync tries again.
      this.rebuild()
        .catch(() => undefined)
        .finally(() => {
          this.rebuilding = false;
        });
    }
  }

  /**
   * Compares the items the index holds, and the row change each was read at, with what the tables say (ids and change
   * times only, a batch at a time), and has the next sync read the differing ones again: a divergence mends itself,
   * however it arose (a change missed, an item missing or left behind). Returns how many differed. The items' texts
   * are compared by the operator's `search check`.
   */
  async audit(): Promise<number> {
    const held = (await this.current()).itemIds();
    const suspects: number[] = [];
    let at = 0;
    for (let after = 0; ; ) {
      const rows = await this.source.idsAfter(after, AUDIT_BATCH);
      const last = rows.length < AUDIT_BATCH ? Number.POSITIVE_INFINITY : rows[rows.length - 1]![0];
      const docs = this.docs!;
      for (const [id, stamp] of rows) {
        while (at < held.length && held[at]! < id) suspects.push(held[at++]!);
        if (held[at] === id) {
          at++;
          if (!docs.holdsAsOf(id, stamp)) suspects.push(id);
        } else suspects.push(id);
      }
      while (at < held.length && held[at]! <= last) suspects.push(held[at++]!);
      if (rows.length < AUDIT_BATCH) break;
      after = last;
    }
    if (suspects.length === 0) return 0;
    for (const id of suspects) this.suspects.add(id);
    const before = this.mended;
    // Writes that raced the reads above are in the log: this sync applies them first, then reads the suspects.
    await (this.syncing ??= this.sync().finally(() => {
      this.syncing = null;
    }));
    return this.mended - before;
  }

  /** Reads the changed items again and puts them in (or takes them out of) the index, all at once. */
  private async apply(docs: OrderedDocuments, ids: number[]): Promise<void> {
    const found: IndexedItem[] = [];
    for (let i = 0; i < ids.length; i += BATCH) found.push(...(await this.source.byIds(ids.slice(i, i + BATCH))));
    // Synchronous from here: a search sees all of these changes or none.
    if (ids.length) this.changedSinceSave = true;
    const present = new Set(found.map((item) => item.id));
    for (const id of ids) if (!present.has(id)) docs.remove(id);
    for (const item of found) docs.add(item);
    docs.index.flush();
  }

  /** Reads of changed items that failed in a row, being tried again (0: caught up). */
  get readsFailing(): number {
    return this.failingReads;
  }

  stats(): IndexStats {
    const docs = this.docs;
    return {
      items: docs?.size ?? 0,
      tokens: docs?.index.tokenCount ?? 0,
      bytes: docs?.bytes() ?? 0,
      displaced: docs?.displaced.size ?? 0,
      readyInMs: this.readyInMs,
      fromCopy: this.fromCopy,
      failingReads: this.failingReads,
      mended: this.mended,
    };
  }
}

/**
 * What an index offers the instance that serves it and the operator, whatever it indexes: start (a saved copy
 * and the changes since, or a build), a rebuild that saves a copy, the check of a copy, a last save at shutdown,
 * and its figures. PostIndex and JobIndex add their searches.
 */
export abstract class ServedIndex {
  protected readonly live: LiveIndex;

  constructor(
    db: Kysely<DB>,
    source: ItemSource,
    version: { read(): Promise<number> },
    copyFile: string | null,
    log?: IndexLog,
  ) {
    this.live = new LiveIndex(db, source, version, copyFile, log);
  }

  /**
   * Loads the saved copy and the changes since, or builds from the tables (an instance does it before it reports
   * ready). `serving`: the instance's own index, which checks itself against the tables every ten minutes.
   */
  ready(serving = false): Promise<void> {
    return this.live.ready(serving);
  }

  /** Checks which items the index holds against the tables now and mends what differs (it does so every ten minutes). */
  audit(): Promise<number> {
    return this.live.audit();
  }

  /** Builds afresh from the tables and saves a copy (the operator's `search rebuild`). */
  async rebuild(progress?: (done: number, total: number) => void): Promise<void> {
    await this.live.rebuild(progress);
    await this.live.save();
  }

  /** The items in which the saved copy and the changes since differ from a build now (the operator's `search check`). */
  check(progress?: (done: number, total: number) => void): Promise<{ items: number; differing: number[] } | null> {
    return this.live.check(progress);
  }

  /** Saves a copy now (a timer does it every ten minutes while the index changes; the benchmark times it). */
  save(): Promise<void> {
    return this.live.save();
  }

  /** Saves a last copy (at shutdown). */
  close(): Promise<void> {
    return this.live.close();
  }

  /**
   * Its figures, for the metrics and the operator: `bytes` walks every bitmap (a fraction of a second at a million
   * documents), so readiness asks `failingReads` alone.
   */
  stats(): IndexStats {
    return this.live.stats();
  }

  /** Reads of changed items that failed in a row, being tried again (0: caught up). */
  get failingReads(): number {
    return this.live.readsFailing;
  }
}

/** A read started ahead of being awaited: its failure is reported where it is awaited, never as unhandled meanwhile. */
function readAhead<T>(read: Promise<T>): Promise<T> {
  read.catch(() => undefined);
  return read;
}
