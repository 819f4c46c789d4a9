/**
 * The search engine every searchable resource runs on. It knows documents, fields and orders, not posts, jobs or
 * events: a resource declares what it searches (`Declaration`: its facets, its numbers, its orders, whether its
 * documents have a span of time, what it suggests) and how its search parameters read as a `SearchQuery`; the engine
 * does the rest the same way for every resource: keyword terms and typos, filters as bitmap algebra, exact counts,
 * relevance, facet counts with each facet's own filter left out, and suggestions.
 *
 * Documents are numbered in their time order (ordered-documents.ts), so "newest first" is a bitmap read from its top
 * and a time window is a range of document numbers. Documents with a span (a job hiring, an event under way) are
 * placed against a moment through two time cursors (docs-by-key.ts), so the index never changes with the clock.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { inSpan } from '../telemetry/trace-spans.js';
import { RoaringBitmap32, withTemporaryBitmaps, type Bitmap } from './bitmaps.js';
import { DocsByKey, Places, TimeReached } from './docs-by-key.js';
import { countFlag, countValues, type FacetCounts } from './facet-counts.js';
import { ServedIndex, type IndexLog, type ItemSource } from './live-index.js';
import type { OrderedDocuments } from './ordered-documents.js';
import type { IndexQuery } from './posting-index.js';
import { relevancePage, relevanceReach, tolerantRelevancePage } from './ranking.js';
import { SearchCache, type SearchResult } from './search-cache.js';
import type { QueryWord } from './search-text.js';
import { Suggestions, type SuggestedKind, type Suggestion } from './suggestions.js';
import { alternativesOf, didYouMean, keywordMatches, type KeywordMatches } from './typo-tolerance.js';

/** A facet that can be counted: the facet kind of its tokens (fields.ts), how many values it gives, or a yes/no. */
export interface FacetRule {
  kind: string;
  top?: number;
  flag?: boolean;
}

/** What a searchable resource declares (a file of its module: post-search.ts, job-search.ts, event-search.ts). */
export interface Declaration<F> {
  /** Its name in the change log (search-changes.ts). */
  kind: IndexKind;
  /** Its name in traces, metrics and readiness: `posts`, `jobs`, `events`. */
  name: string;
  /** The numbers each document carries besides its time, by name (IndexedItem.extra, in this order). */
  numbers: readonly string[];
  /** The facets a search can count, by the name of the search parameter that filters by them. */
  facets: Readonly<Record<string, FacetRule>>;
  /** The number that says when a document's span ends (its time is when it starts): searches can ask for a phase. */
  ends?: string;
  /**
   * Orders besides time and relevance: each by a number, or by several compared in turn, highest first (equal ones by
   * id, highest first).
   */
  orders?: Readonly<Record<string, string | readonly string[]>>;
  /** The facet kinds whose values complete a half-typed search. */
  suggestions?: readonly SuggestedKind[];
  /** The resource's filter as the engine's query. */
  query(filter: F): SearchQuery;
}

export type IndexKind = ItemSource['kind'];

/** Where a document stands against a moment, when its resource declares spans: not started, started and not ended, ended. */
export type Phase = 'UPCOMING' | 'ONGOING' | 'ENDED';

/** A filter: a document matches holding one of `any` (when given), none of `none`, and passing `refine`. */
export interface Filter {
  any?: readonly string[];
  none?: readonly string[];
  /** Removes from `result` (in place) the documents the tokens only approach (a distance, an amount). */
  refine?(docs: OrderedDocuments, result: Bitmap): void;
}

/**
 * A list of items a service passes into a search (`first`, `items`), named by `key`: a search is kept under the name of
 * each list it was given (search-cache.ts), so a list must never change under its name.
 */
export class ItemList {
  constructor(
    readonly ids: readonly number[],
    readonly key: string,
  ) {}

  toJSON(): string {
    return `list:${this.key}`;
  }
}

export interface SearchQuery {
  /** Keyword terms (search-text.ts queryTerms), all required; null without a keyword. */
  terms: string[] | null;
  /** The keyword's words, when its typos are tolerated (typo-tolerance.ts). */
  typoWords?: QueryWord[];
  /** Filters by name: a facet of the same name is counted without its own filter (a menu counts every value). */
  filters: Readonly<Record<string, Filter | undefined>>;
  /** Documents whose time is within [from, to]. */
  window?: { from: number; to: number };
  /** Documents in a phase at a moment (ONGOING: also the only ones suggestions count). */
  phase?: { now: number; is: Phase };
  /** `rank` (relevance, with terms; otherwise newest), `newest`, `oldest`, or one of the declared orders. */
  order: string;
  /**
   * Items that come before every other match, in this order, when they match (an order by numbers the index does not
   * hold, such as what another index counts at the moment of the search); the other matches follow in `order`.
   */
  first?: ItemList;
  /** Only the documents of these items (`keep`), or none of them: a property another index knows (hiring now). */
  items?: { list: ItemList; keep: boolean };
  limit: number;
  offset: number;
  facets?: readonly string[];
}

export type { SearchResult };

/** What services ask of an index: a page of ids with its exact total and facet counts, and completions. */
export interface Searchable<F> {
  search(filter: F, version?: number | null): Promise<SearchResult>;
  suggest(
    prefix: string,
    limit: number,
    now: number,
    version?: number | null,
  ): Promise<{ items: Suggestion[]; validFrom: number; validUntil: number }>;
}

/** A facet's values counted among the documents under way at a moment, and the span in which the counts hold. */
export interface UnderwayCounts {
  counts: ReadonlyMap<string, number>;
  validFrom: number;
  validUntil: number;
}

/**
 * The orders and time cursors of one generation, and `hiring`: the documents under way (started, not ended) in the span
 * they were last worked out for, named for the first resource that had spans (a job hiring; an event ongoing).
 */
interface Orders {
  byNumber: Map<string, DocsByKey>;
  started?: TimeReached;
  ended?: TimeReached;
  hiring?: { at: string; docs: Bitmap };
}

/** How many times the documents a page needs its one posting (or the index) must hold for broadPage to read it. */
const BROAD = 16;

export class SearchIndex<F> extends ServedIndex implements Searchable<F> {
  private readonly orders = new WeakMap<OrderedDocuments, Orders>();
  private readonly suggested: Suggestions | null;
  private readonly cache = new SearchCache();
  private readonly underway = new Map<string, { at: string; counts: UnderwayCounts }>();

  /** `clock`: the service's, for the moment whose phases are worked out at start (a search says its own). */
  constructor(
    private readonly declaration: Declaration<F>,
    db: Kysely<DB>,
    source: ItemSource,
    version: { read(): Promise<number> },
    copyFile: string | null = null,
    log?: IndexLog,
    private readonly clock: () => number = Date.now,
  ) {
    super(db, source, version, copyFile, log);
    this.suggested = declaration.suggestions ? new Suggestions(declaration.suggestions) : null;
  }

  /** Loads or builds, then sorts the declared orders and places the documents against now, so the first search does not. */
  override async ready(serving = false): Promise<void> {
    await super.ready(serving);
    const docs = await this.live.current();
    const orders = this.ordersOf(docs);
    for (const order of [...orders.byNumber.values(), orders.started, orders.ended]) order?.catchUp();
    if (this.declaration.ends) this.phaseAt(orders, docs, this.clock());
  }

  /**
   * The exact total and one page of ids, and what else the filter asks for. Results are kept per data version
   * (search-cache.ts), and with a phase only for the span in which they hold.
   */
  search(filter: F, version: number | null = null): Promise<SearchResult> {
    const query = this.declaration.query(filter);
    const run = (at: number | null) =>
      inSpan('search index', { 'svc.index': this.declaration.name }, () => this.run(query, at));
    if (version === null) return run(null);
    return this.cache.get(JSON.stringify(filter, withoutMoment), query.phase?.now ?? 0, run, version);
  }

  /**
   * Up to `limit` values of the declared suggestions beginning with `prefix` as it is typed (suggestions.ts), counted
   * among the documents under way at `now` (all of them without spans), most first; and the span in which that holds.
   */
  suggest(
    prefix: string,
    limit: number,
    now: number,
    version: number | null = null,
  ): Promise<{ items: Suggestion[]; validFrom: number; validUntil: number }> {
    return inSpan('search index', { 'svc.index': this.declaration.name }, async () => {
      const docs = await this.live.current(version);
      if (!this.suggested) return { items: [], validFrom: -Infinity, validUntil: Infinity };
      const { within, validFrom, validUntil } = this.declaration.ends
        ? this.phaseAt(this.ordersOf(docs), docs, now)
        : { within: docs.index.live, validFrom: -Infinity, validUntil: Infinity };
      return { items: this.suggested.find(docs.index, within, prefix, limit), validFrom, validUntil };
    });
  }

  /**
   * How many of the documents under way at `now` hold each value of the declared facet `facet` (a company's jobs hiring
   * now, by company), and the span in which that holds. Kept for that span and the index's state.
   */
  async underwayCounts(facet: string, now: number, version: number | null = null): Promise<UnderwayCounts> {
    const docs = await this.live.current(version);
    const placed = this.phaseAt(this.ordersOf(docs), docs, now);
    const at = `${facet}|${docs.index.version}|${placed.validFrom}|${placed.validUntil}`;
    const kept = this.underway.get(facet);
    if (kept?.at === at) return kept.counts;
    const rule = this.declaration.facets[facet];
    if (!rule) throw new Error(`${this.declaration.name} declares no facet ${facet}`);
    const counted = countValues(docs.index, placed.within, rule.kind);
    const counts: UnderwayCounts = {
      counts: new Map(counted.map((c) => [c.value, c.count])),
      validFrom: placed.validFrom,
      validUntil: placed.validUntil,
    };
    this.underway.set(facet, { at, counts });
    return counts;
  }

  private ordersOf(docs: OrderedDocuments): Orders {
    let orders = this.orders.get(docs);
    if (orders) return orders;
    const { numbers, ends } = this.declaration;
    const column = (name: string) => numbers.indexOf(name);
    const byNumber = new Map<string, DocsByKey>();
    for (const [name, by] of Object.entries(this.declaration.orders ?? {})) {
      const at = (typeof by === 'string' ? [by] : by).map(column);
      byNumber.set(
        name,
        new DocsByKey(docs, (a, b) => {
          for (const c of at) {
            const va = docs.extra(a, c);
            const vb = docs.extra(b, c);
            if (va !== vb) return va > vb;
          }
          return docs.itemId(a) > docs.itemId(b);
        }),
      );
    }
    orders = { byNumber };
    if (ends) {
      const at = column(ends);
      orders.started = new TimeReached(docs, (doc) => docs.time(doc));
      orders.ended = new TimeReached(docs, (doc) => docs.extra(doc, at));
    }
    this.orders.set(docs, orders);
    return orders;
  }

  /**
   * The live documents started and not ended at `now`, the ones started and ended by then, and the moments around it
   * between which no document starts or ends. The ongoing ones are one bitmap kept for the span and the index's state
   * (two operations over every document saved on each search). Moves the cursors, which keep their bitmaps: call
   * outside a search's arena.
   */
  private phaseAt(orders: Orders, docs: OrderedDocuments, now: number) {
    const started = orders.started!.upTo(now);
    const ended = orders.ended!.upTo(now);
    const validFrom = Math.max(orders.started!.previous(), orders.ended!.previous());
    const validUntil = Math.min(orders.started!.next(), orders.ended!.next());
    const at = `${docs.index.version}|${validFrom}|${validUntil}`;
    if (orders.hiring?.at !== at) {
      orders.hiring?.docs.dispose();
      const underway = RoaringBitmap32.and(docs.index.live, started);
      underway.andNotInPlace(ended);
      orders.hiring = { at, docs: underway };
    }
    return { within: orders.hiring.docs, started, ended, validFrom, validUntil };
  }

  private async run(query: SearchQuery, version: number | null): Promise<SearchResult> {
    const docs = await this.live.current(version);
    const orders = this.ordersOf(docs);
    const placed = query.phase ? this.phaseAt(orders, docs, query.phase.now) : null;
    // Kept between searches, so made outside the search's arena.
    const first = query.first ? listedDocuments(docs, query.first.ids) : null;
    const items = query.items ? listedDocuments(docs, query.items.list.ids) : null;
    return withTemporaryBitmaps(() => {
      let within = docs.index.live;
      if (items)
        within = query.items!.keep ? RoaringBitmap32.and(within, items.set) : RoaringBitmap32.andNot(within, items.set);
      if (placed && query.phase) {
        const { is } = query.phase;
        within =
          is === 'ONGOING'
            ? placed.within
            : is === 'ENDED'
              ? RoaringBitmap32.and(within, placed.ended)
              : RoaringBitmap32.andNot(within, placed.started);
      }
      const span = placed ? { validFrom: placed.validFrom, validUntil: placed.validUntil } : {};
      const broad = placed ? null : broadPage(docs, query);
      if (broad) return broad;
      const alternatives = query.typoWords ? alternativesOf(docs.index, query.typoWords) : null;
      const matching = (q: SearchQuery): Bitmap => {
        const result = docs.index.match(indexQuery(q), within);
        const windowed = q.window ? docs.window(result, q.window.from, q.window.to) : result;
        for (const filter of Object.values(q.filters))
          if (filter?.refine && !windowed.isEmpty) filter.refine(docs, windowed);
        return windowed;
      };
      const keywordMatching = (q: SearchQuery): KeywordMatches =>
        keywordMatches(docs.index, alternatives, matching(q), () => matching({ ...q, terms: null }));
      const matches = keywordMatching(query);
      const { result } = matches;
      const byNumber = orders.byNumber.get(query.order);
      const pageOf = (from: Bitmap, offset: number, limit: number) =>
        byNumber
          ? byNumber.page(from, offset, limit)
          : query.order === 'oldest'
            ? docs.oldest(from, offset, limit)
            : query.terms && query.order === 'rank'
              ? tolerantRelevancePage(docs, matchesWithin(matches, from), query.terms, offset, limit)
              : docs.newest(from, offset, limit);
      const page = first ? firstThen(first, result, query, pageOf) : pageOf(result, query.offset, query.limit);
      const found: SearchResult = { total: result.size, ids: page.map((doc) => docs.itemId(doc)), ...span };
      if (matches.corrections.length) found.corrections = matches.corrections;
      if (query.typoWords && matches.alternatives && matches.exact.isEmpty) {
        const corrected = didYouMean(
          docs.index,
          query.typoWords,
          matches.alternatives,
          (terms) => !matching({ ...query, terms }).isEmpty,
        );
        if (corrected !== null) found.didYouMean = corrected;
      }
      if (!query.facets?.length) return found;
      const facets: FacetCounts = {};
      for (const name of query.facets) {
        const rule = this.declaration.facets[name]!;
        const counted = query.filters[name]
          ? keywordMatching({ ...query, filters: { ...query.filters, [name]: undefined } }).result
          : result;
        facets[name] = rule.flag
          ? countFlag(docs.index, counted, rule.kind)
          : countValues(docs.index, counted, rule.kind, rule.top);
      }
      return { ...found, facets };
    });
  }
}

/** The keyword's matches narrowed to `from`, a part of them (exact ones staying exact). */
function matchesWithin(matches: KeywordMatches, from: Bitmap): KeywordMatches {
  if (from === matches.result) return matches;
  const exact = matches.exact === matches.result ? from : RoaringBitmap32.and(matches.exact, from);
  return { ...matches, result: from, exact };
}

/** The documents of a list of items in one state of an index: in the list's order, as a bitmap, and by position. */
interface ListedDocuments {
  docs: OrderedDocuments;
  version: number;
  set: Bitmap;
  /** The documents by their place in the list. */
  places: Places;
}

/** Lists (`first`, `items`) are made once per moment by their service and asked for again: worked out once per state. */
const listed = new WeakMap<readonly number[], ListedDocuments>();

function listedDocuments(docs: OrderedDocuments, ids: readonly number[]): ListedDocuments {
  const kept = listed.get(ids);
  if (kept?.docs === docs && kept.version === docs.index.version) return kept;
  const ordered: number[] = [];
  for (const id of ids) {
    const doc = docs.documentOf(id);
    if (doc !== undefined) ordered.push(doc);
  }
  const made: ListedDocuments = {
    docs,
    version: docs.index.version,
    set: new RoaringBitmap32(ordered),
    places: new Places(ordered, docs.documents),
  };
  listed.set(ids, made);
  return made;
}

/**
 * A page of `result` with its documents of the `first` list before the rest, in the list's order (read by their places
 * in it); the rest paged by `rest` in the query's order.
 */
function firstThen(
  first: ListedDocuments,
  result: Bitmap,
  query: SearchQuery,
  rest: (from: Bitmap, offset: number, limit: number) => number[],
): number[] {
  const leading = RoaringBitmap32.and(result, first.set);
  const page = first.places.page(leading.toUint32Array(), query.offset, query.limit);
  if (page.length === query.limit || leading.size === result.size) return page;
  const others = RoaringBitmap32.andNot(result, first.set);
  return [...page, ...rest(others, Math.max(0, query.offset - leading.size), query.limit - page.length)];
}

/** A filter of values (codes, names): the documents holding one of them; none without values. */
/** A yes/no filter: the documents holding the token, or those not holding it; none when not asked. */
export const flag = (wanted: boolean | undefined, token: string): Filter | undefined =>
  wanted === undefined ? undefined : wanted ? { any: [token] } : { none: [token] };

export const anyOf = (values: readonly string[] | undefined, token: (value: string) => string): Filter | undefined =>
  values?.length ? { any: values.map(token) } : undefined;

/** A time window from either bound or both (inclusive); none without either. */
export const timeWindow = (from: number | undefined, to: number | undefined): SearchQuery['window'] =>
  from === undefined && to === undefined ? undefined : { from: from ?? -Infinity, to: to ?? Infinity };

/** The query's terms and filters as bitmap algebra: every term and every filter's tokens required, `none` excluded. */
export function indexQuery(query: SearchQuery): IndexQuery {
  const all = (query.terms ?? []).map((t) => [t]);
  const none: string[] = [];
  for (const filter of Object.values(query.filters)) {
    if (filter?.any) all.push([...filter.any]);
    if (filter?.none) none.push(...filter.none);
  }
  return { all, none };
}

/** A filter as a cache key: the moment it is asked at is the cache's to check against a result's span. */
const withoutMoment = (key: string, value: unknown): unknown => (key === 'now' ? undefined : value);

/**
 * The page and total of a search that needs no more of its matches than their newest (no facet counts, window, phase,
 * refinement or typos) and whose one required token is held by many documents, or that has none: read from the newest
 * matches alone (OrderedDocuments.newestMatches) and a count, not from all of them. The same page and total as the
 * general path gives; null when the search is not of that kind.
 */
function broadPage(docs: OrderedDocuments, query: SearchQuery): SearchResult | null {
  const refined = Object.values(query.filters).some((filter) => filter?.refine);
  if (query.typoWords || query.facets?.length || query.window || query.first || query.items || refined) return null;
  if (query.order !== 'rank' && query.order !== 'newest') return null;
  const q = indexQuery(query);
  if (q.none.length > 0 || q.all.length > 1 || (q.all[0] && q.all[0].length !== 1)) return null;
  const ranked = Boolean(query.terms) && query.order === 'rank';
  const needed = ranked ? relevanceReach(query.offset, query.limit) : query.offset + query.limit;
  const holding = q.all.length === 0 ? docs.index.live.size : docs.index.postingSize(q.all[0]![0]!);
  if (holding < BROAD * needed) return null;
  const newest = docs.newestMatches(q, needed);
  const page = ranked
    ? relevancePage(docs, newest, query.terms!, query.offset, query.limit)
    : docs.newest(newest, query.offset, query.limit);
  return { total: docs.index.count(q), ids: page.map((doc) => docs.itemId(doc)) };
}
