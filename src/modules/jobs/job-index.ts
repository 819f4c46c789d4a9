/**
 * Job search served from the service's own index (docs/search.md), the same machinery as posts
 * (post-index.ts): posting lists as compressed bitmaps over document numbers given in recruiting-start order,
 * so DATE_DESC is the bitmap read from its top and a count is the exact size of a bitmap.
 *
 * The index holds every published job with a recruiting start, whether or not it is hiring now: hiring is a
 * matter of the moment of the search (docs/decisions.md: started and not ended), worked out at that moment from two
 * time cursors (docs-by-key.ts), so the index itself never changes with the clock and equals a build from the
 * tables at any time. POPULARITY_DESC is a third order over the same documents, by views.
 */
import path from 'node:path';
import type { Kysely } from 'kysely';
import { DataVersion } from '../../cache/data-version.js';
import type { Database } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import { DocsByKey, TimeReached } from '../../search/docs-by-key.js';
import { ServedIndex, type IndexLog, type ItemSource } from '../../search/live-index.js';
import { countValues, FACET_TOP, type FacetCounts } from '../../search/facet-counts.js';
import type { IndexedItem, OrderedDocuments } from '../../search/ordered-documents.js';
import { tolerantRelevancePage } from '../../search/ranking.js';
import { alternativesOf, didYouMean, keywordMatches, type KeywordMatches } from '../../search/typo-tolerance.js';
import type { QueryWord } from '../../search/search-text.js';
import { RoaringBitmap32, withTemporaryBitmaps, type Bitmap } from '../../search/bitmaps.js';
import type { IndexQuery, PostingIndex } from '../../search/posting-index.js';
import { FACET_KIND, FACETS } from '../../search/fields.js';
import { coordinatesOf, jobDocument, jobDocumentParts } from './job-document.js';
import { PLACE_AND_PAY_COLUMNS, yearlyRange } from './job-place-and-pay.js';
import { coverCircle, withinRadius } from '../../search/geo-cells.js';
import { bucketOf } from '../../search/number-buckets.js';
import { Suggestions, type Suggestion } from '../../search/suggestions.js';
import { inSpan } from '../../telemetry/trace-spans.js';

/** The job search parameters that facet counts can be asked for (the `facets` parameter). */
export const JOB_FACETS = [
  'companyId',
  'jobCategories',
  'seniorities',
  'employmentTypes',
  'companySizes',
  'workTypes',
  'countries',
  'regions',
  'salary',
] as const;
export type JobFacet = (typeof JOB_FACETS)[number];

/** The facet kind of each (search/fields.ts), and how many values it gives. */
const FACET_OF: Record<JobFacet, { kind: string; top?: number }> = {
  companyId: { kind: FACET_KIND.company, top: FACET_TOP },
  jobCategories: { kind: FACET_KIND.jobCategory },
  seniorities: { kind: FACET_KIND.seniority },
  employmentTypes: { kind: FACET_KIND.employmentType },
  companySizes: { kind: FACET_KIND.companySize },
  workTypes: { kind: FACET_KIND.workType },
  countries: { kind: FACET_KIND.country },
  regions: { kind: FACET_KIND.region, top: FACET_TOP },
  salary: { kind: FACET_KIND.payRange },
};

/** Jobs within a radius of a point, and whether REMOTE jobs match wherever they are. */
export interface NearFilter {
  latitude: number;
  longitude: number;
  radiusKm: number;
  includeRemote: boolean;
}

/** Jobs paying in a currency, with yearly amounts reaching `min` and starting at no more than `max`. */
export interface SalaryFilter {
  currency: string;
  min?: number;
  max?: number;
  includeUnstated: boolean;
}

export interface JobSearchFilter {
  /** Keyword terms (search-text.ts queryTerms), all required; null without a keyword. */
  terms: string[] | null;
  companyId?: number;
  jobCategories?: string[];
  seniorities?: string[];
  employmentTypes?: string[];
  companySizes?: string[];
  workTypes?: string[];
  countries?: string[];
  regions?: string[];
  near?: NearFilter;
  salary?: SalaryFilter;
  /** The moment whose hiring jobs are searched. */
  now: number;
  order: 'rank' | 'date' | 'popularity';
  limit: number;
  offset: number;
  /** Facets whose counts are wanted besides the page; company values are company ids. */
  facets?: readonly JobFacet[];
  /** The keyword's words, when its typos are tolerated (typo-tolerance.ts). */
  typoWords?: QueryWord[];
}

/** `corrections`: the terms of the corrections a typo-tolerant search matched by (for highlights). */
export interface JobSearchResult {
  total: number;
  ids: number[];
  validFrom: number;
  validUntil: number;
  facets?: FacetCounts;
  didYouMean?: string;
  corrections?: string[];
}

/** The filter as bitmap algebra: keyword terms required, and one facet group per filter (its values ORed). */
export function jobIndexQuery(filter: JobSearchFilter): IndexQuery {
  const all = (filter.terms ?? []).map((t) => [t]);
  if (filter.companyId !== undefined) all.push([FACETS.company(filter.companyId)]);
  const groups: Array<[string[] | undefined, (code: string) => string]> = [
    [filter.jobCategories, FACETS.jobCategory],
    [filter.seniorities, FACETS.seniority],
    [filter.employmentTypes, FACETS.employmentType],
    [filter.companySizes, FACETS.companySize],
    [filter.workTypes, FACETS.workType],
  ];
  for (const [values, token] of groups) if (values?.length) all.push(values.map(token));
  for (const [values, token] of [
    [filter.countries, FACETS.country],
    [filter.regions, FACETS.region],
  ] as const)
    if (values?.length) all.push(values.map(token));
  const none: string[] = [];
  const { near, salary } = filter;
  if (near) {
    const { inside, edge } = coverCircle(near, near.radiusKm);
    const cells = [...inside, ...edge].map(FACETS.cell);
    if (near.includeRemote) cells.push(FACETS.workType('REMOTE'));
    else none.push(FACETS.workType('REMOTE'));
    all.push(cells);
  }
  if (salary) all.push([FACETS.payCurrency(salary.currency), ...(salary.includeUnstated ? [FACETS.payUnstated] : [])]);
  return { all, none };
}

/** The buckets (number-buckets.ts) of a pay bound kind that jobs of each currency hold, ascending; made again as new ones appear. */
const payBuckets = new WeakMap<PostingIndex, Map<string, { values: number; byCurrency: Map<string, number[]> }>>();
function bucketsHeld(index: PostingIndex, kind: string, currency: string): number[] {
  let kinds = payBuckets.get(index);
  if (!kinds) payBuckets.set(index, (kinds = new Map()));
  const values = index.facetValues(kind);
  let held = kinds.get(kind);
  if (held?.values !== values.size) {
    const byCurrency = new Map<string, number[]>();
    for (const value of values.keys()) {
      const [code, bucket] = value.split(':') as [string, string];
      let list = byCurrency.get(code);
      if (!list) byCurrency.set(code, (list = []));
      list.push(Number(bucket));
    }
    for (const list of byCurrency.values()) list.sort((a, b) => a - b);
    kinds.set(kind, (held = { values: values.size, byCurrency }));
  }
  return held.byCurrency.get(currency) ?? [];
}

/**
 * The exact rule of the filters the tokens only approach: the distance of each job in the cells near the point
 * (a REMOTE job let in by `includeRemote` is not measured), and the pay bounds: the jobs of the buckets beyond a
 * bound dropped, the amount of each job in the bound's own bucket checked. Removes from `result` in place.
 */
function refine(docs: OrderedDocuments, result: Bitmap, filter: JobSearchFilter): Bitmap {
  const { near, salary } = filter;
  if (near && !result.isEmpty) {
    // Only the documents of the cells the circle crosses can be outside it (a REMOTE one let in by includeRemote is not).
    const edge = coverCircle(near, near.radiusKm).edge.flatMap((cell) => docs.index.posting(FACETS.cell(cell)) ?? []);
    if (edge.length > 0) {
      const measured = RoaringBitmap32.and(result, edge.length === 1 ? edge[0]! : RoaringBitmap32.orMany(edge));
      const remote = near.includeRemote ? docs.index.posting(FACETS.workType('REMOTE')) : undefined;
      if (remote) measured.andNotInPlace(remote);
      const within = withinRadius(near, near.radiusKm);
      const outside: number[] = [];
      for (const doc of measured.toUint32Array())
        if (!within(docs.extra(doc, LATITUDE), docs.extra(doc, LONGITUDE))) outside.push(doc);
      if (outside.length > 0) result.removeMany(outside);
    }
  }
  if (salary && !result.isEmpty) {
    // The currency's jobs (and the unstated ones, when let in) are all that is left: drop those of the buckets beyond
    // the bound, then check the amounts of those in the bound's own bucket.
    const bound = (
      kind: string,
      token: (bucket: number) => string,
      edgeBucket: number,
      beyond: (bucket: number) => boolean,
      fails: (doc: number) => boolean,
    ) => {
      const dropped = bucketsHeld(docs.index, kind, salary.currency)
        .filter(beyond)
        .flatMap((b) => docs.index.posting(token(b)) ?? []);
      if (dropped.length > 0)
        result.andNotInPlace(dropped.length === 1 ? dropped[0]! : RoaringBitmap32.orMany(dropped));
      const edge = docs.index.posting(token(edgeBucket));
      if (!edge || result.isEmpty) return;
      const out = Array.from(RoaringBitmap32.and(result, edge).toUint32Array()).filter(fails);
      if (out.length > 0) result.removeMany(out);
    };
    const { min, max, currency } = salary;
    if (min !== undefined) {
      const at = bucketOf(min);
      bound(
        FACET_KIND.payHigh,
        (b) => FACETS.payHigh(currency, b),
        at,
        (b) => b < at,
        (doc) => docs.extra(doc, PAY_HIGH) < min,
      );
    }
    if (max !== undefined) {
      const at = bucketOf(max);
      bound(
        FACET_KIND.payLow,
        (b) => FACETS.payLow(currency, b),
        at,
        (b) => b > at,
        (doc) => docs.extra(doc, PAY_LOW) > max,
      );
    }
  }
  return result;
}

/** Where an instance keeps the job index's saved copy. */
export const jobIndexCopy = (dataDir: string): string => path.join(dataDir, 'search-index', 'jobs.idx');

/** The numbers a job document carries besides its time (the recruiting start): OrderedDocuments extra columns. */
const END = 0;
const VIEWS = 1;
const LATITUDE = 2;
const LONGITUDE = 3;
/** The yearly least and most it pays (NaN when it states none). */
const PAY_LOW = 4;
const PAY_HIGH = 5;

const JOB_COLUMNS = [
  'jobs.id',
  'jobs.updated_at',
  'jobs.title',
  'jobs.subtitle',
  'jobs.description',
  'jobs.status',
  'jobs.job_category',
  'jobs.work_type',
  'jobs.company_id',
  'companies.size as company_size',
  'companies.name as company_name',
  'jobs.start_at',
  'jobs.end_at',
  'jobs.view_count',
  'jobs.seniorities',
  'jobs.employment_types',
  ...PLACE_AND_PAY_COLUMNS.map((column) => `jobs.${column}` as const),
] as const;

/** The jobs as the index takes them: the published ones with a recruiting start, in (start, id) order. */
function jobSource(db: Kysely<DB>): ItemSource {
  const candidates = () =>
    db
      .selectFrom('jobs')
      .innerJoin('companies', 'companies.id', 'jobs.company_id')
      .select(JOB_COLUMNS)
      .where('jobs.status', '=', 'published')
      .where('jobs.start_at', 'is not', null);
  type Row = Awaited<ReturnType<ReturnType<typeof candidates>['execute']>>[number];
  const items = async (rows: Row[]): Promise<IndexedItem[]> => {
    if (rows.length === 0) return [];
    const parts = await jobDocumentParts(
      db,
      rows.map((r) => r.id),
    );
    return rows.map((job) => {
      const point = coordinatesOf(job);
      const pay = yearlyRange(job);
      return {
        id: job.id,
        time: Number(job.start_at),
        stamp: Number(job.updated_at),
        document: jobDocument(job, parts),
        extra: [
          job.end_at === null ? Number.POSITIVE_INFINITY : Number(job.end_at),
          job.view_count,
          point?.latitude ?? Number.NaN,
          point?.longitude ?? Number.NaN,
          pay?.[0] ?? Number.NaN,
          pay?.[1] ?? Number.NaN,
        ],
      };
    });
  };
  return {
    kind: 'job',
    extraColumns: 6,
    inOrder: async (after, limit) =>
      items(
        await candidates()
          .$if(after !== null, (q) =>
            q.where((eb) => eb(eb.refTuple('jobs.start_at', 'jobs.id'), '>', eb.tuple(after![0], after![1]))),
          )
          .orderBy('jobs.start_at')
          .orderBy('jobs.id')
          .limit(limit)
          .execute(),
      ),
    byIds: async (ids) => items(await candidates().where('jobs.id', 'in', ids).execute()),
    idsAfter: async (after, limit) =>
      (
        await db
          .selectFrom('jobs')
          .innerJoin('companies', 'companies.id', 'jobs.company_id')
          .select(['jobs.id', 'jobs.updated_at'])
          .where('jobs.status', '=', 'published')
          .where('jobs.start_at', 'is not', null)
          .where('jobs.id', '>', after)
          .orderBy('jobs.id')
          .limit(limit)
          .execute()
      ).map((row): [number, number] => [Number(row.id), Number(row.updated_at)]),
    count: async () =>
      Number(
        (
          await db
            .selectFrom('jobs')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('status', '=', 'published')
            .where('start_at', 'is not', null)
            .executeTakeFirstOrThrow()
        ).n,
      ),
  };
}

/**
 * The orders one generation needs besides its own: started and ended by a moment, and by views; and the jobs
 * hiring in the span between two starts or ends, kept for the index's state it was computed at.
 */
interface Orders {
  started: TimeReached;
  ended: TimeReached;
  byViews: DocsByKey;
  hiring?: { at: string; docs: Bitmap };
}

/**
 * The live jobs started and not ended, for any moment between `from` and `until` (no start or end falls
 * between them): one bitmap computed when the span or the index changes, instead of two more operations
 * over every job on each search. Made outside any search's arena, and freed when replaced.
 */
function hiringBetween(
  orders: Orders,
  docs: OrderedDocuments,
  from: number,
  until: number,
  startedNow: Bitmap,
  endedNow: Bitmap,
): Bitmap {
  const at = `${docs.index.version}|${from}|${until}`;
  if (orders.hiring?.at === at) return orders.hiring.docs;
  orders.hiring?.docs.dispose();
  const hiring = RoaringBitmap32.and(docs.index.live, startedNow);
  hiring.andNotInPlace(endedNow);
  orders.hiring = { at, docs: hiring };
  return hiring;
}

/**
 * The live jobs hiring at `now`, and the moments around it between which no job starts or stops hiring. Moves
 * the cursors, which keep their bitmaps: call outside a search's arena.
 */
function hiringAt(
  orders: Orders,
  docs: OrderedDocuments,
  now: number,
): { hiringNow: Bitmap; validFrom: number; validUntil: number } {
  const { started, ended } = orders;
  const startedNow = started.upTo(now);
  const endedNow = ended.upTo(now);
  const validFrom = Math.max(started.previous(), ended.previous());
  const validUntil = Math.min(started.next(), ended.next());
  return { hiringNow: hiringBetween(orders, docs, validFrom, validUntil, startedNow, endedNow), validFrom, validUntil };
}

/** What a half-typed search is offered (job-document.ts suggestedTokens), and the type each says it is. */
const SUGGESTED = new Suggestions([
  { kind: FACET_KIND.title, type: 'TITLE' },
  { kind: FACET_KIND.companyName, type: 'COMPANY' },
  { kind: FACET_KIND.titleWord, type: 'KEYWORD' },
]);

export class JobIndex extends ServedIndex {
  private readonly orders = new WeakMap<OrderedDocuments, Orders>();

  /** `clock`: the service's, for the moment whose hiring jobs are worked out at start (a search says its own). */
  constructor(
    database: Pick<Database, 'db' | 'reads'>,
    version: { read(): Promise<number> } = new DataVersion(database.reads, 'jobs'),
    copyFile: string | null = null,
    private readonly clock: () => number = Date.now,
    log?: IndexLog,
  ) {
    super(database.db, jobSource(database.db), version, copyFile, log);
  }

  /**
   * Loads or builds the index, then sorts its extra orders and works out the jobs hiring now, so the first search
   * does not pay for them (moving the cursors past every job's start and end, a pass over every job).
   */
  override async ready(serving = false): Promise<void> {
    await super.ready(serving);
    const docs = await this.live.current();
    const orders = this.ordersOf(docs);
    for (const order of [orders.started, orders.ended, orders.byViews]) order.catchUp();
    hiringAt(orders, docs, this.clock());
  }

  private ordersOf(docs: OrderedDocuments): Orders {
    let orders = this.orders.get(docs);
    if (!orders) {
      orders = {
        started: new TimeReached(docs, (doc) => docs.time(doc)),
        ended: new TimeReached(docs, (doc) => docs.extra(doc, END)),
        byViews: new DocsByKey(docs, (a, b) => {
          const va = docs.extra(a, VIEWS);
          const vb = docs.extra(b, VIEWS);
          return va > vb || (va === vb && docs.itemId(a) > docs.itemId(b));
        }),
      };
      this.orders.set(docs, orders);
    }
    return orders;
  }

  /**
   * The exact total and one page of job ids among the jobs hiring at `filter.now`, and the moments around it
   * between which no job starts or stops hiring (in that span the result cannot change without a write).
   */
  search(filter: JobSearchFilter, version: number | null = null): Promise<JobSearchResult> {
    return inSpan('search index', { 'svc.index': 'jobs' }, () => this.searchIndex(filter, version));
  }

  /**
   * Up to `limit` titles, company names and title words of the jobs hiring at `now` that begin with `prefix` as it
   * is typed (suggestions.ts), most jobs first; and the span in which that holds without a write.
   */
  suggest(
    prefix: string,
    limit: number,
    now: number,
    version: number | null = null,
  ): Promise<{ items: Suggestion[]; validFrom: number; validUntil: number }> {
    return inSpan('search index', { 'svc.index': 'jobs' }, async () => {
      const docs = await this.live.current(version);
      const { hiringNow, validFrom, validUntil } = hiringAt(this.ordersOf(docs), docs, now);
      return { items: SUGGESTED.find(docs.index, hiringNow, prefix, limit), validFrom, validUntil };
    });
  }

  private async searchIndex(filter: JobSearchFilter, version: number | null): Promise<JobSearchResult> {
    const docs = await this.live.current(version);
    const orders = this.ordersOf(docs);
    const { byViews } = orders;
    // The cursors keep their bitmaps: moved before the search's arena, which frees what it makes.
    const { hiringNow, validFrom, validUntil } = hiringAt(orders, docs, filter.now);
    return withTemporaryBitmaps(() => {
      const hiring = (query: JobSearchFilter): Bitmap =>
        refine(docs, docs.index.match(jobIndexQuery(query), hiringNow), query);
      const alternatives = filter.typoWords ? alternativesOf(docs.index, filter.typoWords) : null;
      const matching = (query: JobSearchFilter): KeywordMatches =>
        keywordMatches(docs.index, alternatives, hiring(query), () => hiring({ ...query, terms: null }));
      const matches = matching(filter);
      const { result } = matches;
      const page =
        filter.order === 'popularity'
          ? byViews.page(result, filter.offset, filter.limit)
          : filter.terms && filter.order === 'rank'
            ? tolerantRelevancePage(docs, matches, filter.terms, filter.offset, filter.limit)
            : docs.newest(result, filter.offset, filter.limit);
      const found: JobSearchResult = {
        total: result.size,
        ids: page.map((doc) => docs.itemId(doc)),
        validFrom,
        validUntil,
      };
      if (matches.corrections.length) found.corrections = matches.corrections;
      if (filter.typoWords && matches.alternatives && matches.exact.isEmpty) {
        const corrected = didYouMean(
          docs.index,
          filter.typoWords,
          matches.alternatives,
          (terms) => !hiring({ ...filter, terms }).isEmpty,
        );
        if (corrected !== null) found.didYouMean = corrected;
      }
      if (!filter.facets?.length) return found;
      const facets: FacetCounts = {};
      for (const name of filter.facets) {
        // A menu counts every value of its facet: the search without the facet's own filter.
        const own =
          name === 'companyId'
            ? filter.companyId !== undefined
            : name === 'salary'
              ? filter.salary !== undefined
              : Boolean(filter[name]?.length);
        const counted = own ? matching({ ...filter, [name]: undefined }).result : result;
        facets[name] = countValues(docs.index, counted, FACET_OF[name].kind, FACET_OF[name].top);
      }
      return { ...found, facets };
    });
  }
}
