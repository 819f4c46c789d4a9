import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateBenchData } from '../bench/generate-data.js';
import { generateDemoData } from '../src/demo/demo-generator.js';
import { eventDocument } from '../src/modules/events/event-document.js';
import { EventIndex, type EventSearchFilter } from '../src/modules/events/event-index.js';
import { TIERS } from '../src/search/occurrence-tiers.js';
import { RELEVANCE_CANDIDATES } from '../src/search/ranking.js';
import { queryTerms, textTokens } from '../src/search/search-text.js';
import { FACETS } from '../src/search/fields.js';
import { jsonPart, multipart } from './helpers/multipart.js';
import { createTestApp, TEST_NOW, type TestContext } from './helpers/test-app.js';
import { createTestDatabase, ENGINES, type Engine, type TestDatabase } from './helpers/test-database.js';
import { accessToken, bearer } from './helpers/tokens.js';

/**
 * Event search on the search index (issue 87): every answer held to the rule computed here, event by event, from the
 * tables, on both engines; and what a client sees over HTTP (highlights, relevance, typos, a write seen at once).
 */
const DAY = 86_400_000;

interface EventTruth {
  number: number;
  id: string;
  start: number;
  end: number;
  tokens: Map<string, number>;
  length: number;
  companyId: number;
  openType: string;
  categories: string[];
  subjects: string[];
}

async function eventTruths(test: TestDatabase): Promise<EventTruth[]> {
  const db = test.database.db;
  const rows = await db.selectFrom('events').selectAll().where('status', '=', 'published').execute();
  const [categories, subjects, translations] = await Promise.all([
    db.selectFrom('event_categories').select(['event_id', 'category']).execute(),
    db.selectFrom('event_subjects').select(['event_id', 'subject']).execute(),
    db.selectFrom('event_translations').select(['event_id', 'event_name', 'description']).execute(),
  ]);
  return rows.map((row) => {
    const own = {
      categories: categories.filter((c) => c.event_id === row.id).map((c) => c.category),
      subjects: subjects.filter((s) => s.event_id === row.id).map((s) => s.subject),
      translations: translations.filter((t) => t.event_id === row.id).flatMap((t) => [t.event_name, t.description]),
    };
    const { texts, facets } = eventDocument({ ...row, ...own });
    const tokens = new Map<string, number>();
    for (const token of [...textTokens(...texts), ...facets]) tokens.set(token, (tokens.get(token) ?? 0) + 1);
    const length = texts.reduce((n, text) => n + (text ? text.normalize('NFKC').toLowerCase().length : 0), 0);
    return {
      number: Number(row.search_number),
      id: row.id,
      start: Number(row.start_at),
      end: Number(row.end_at),
      tokens,
      length,
      companyId: row.company_id,
      openType: row.event_open_type,
      ...own,
    };
  });
}

const search = (f: Partial<EventSearchFilter>): EventSearchFilter => ({
  terms: null,
  order: 'newest',
  limit: 50,
  offset: 0,
  ...f,
});

/** Whether an event passes a filter, by the rules of docs/search.md, computed from its own tokens and times. */
function passes(e: EventTruth, f: EventSearchFilter): boolean {
  if (f.terms && !f.terms.every((term) => e.tokens.has(term))) return false;
  if (f.companyId !== undefined && e.companyId !== f.companyId) return false;
  if (f.categories?.length && !f.categories.some((c) => e.categories.includes(c))) return false;
  if (f.subjects?.length && !f.subjects.some((s) => e.subjects.includes(s))) return false;
  if (f.openTypes?.length && !f.openTypes.includes(e.openType)) return false;
  if (f.startFrom !== undefined && e.start < f.startFrom) return false;
  if (f.startTo !== undefined && e.start > f.startTo) return false;
  if (f.status) {
    const { is, now } = f.status;
    if (is === 'UPCOMING' && !(e.start > now)) return false;
    if (is === 'ONGOING' && !(e.start <= now && e.end > now)) return false;
    if (is === 'CLOSED' && !(e.end <= now)) return false;
  }
  return true;
}

const newestFirst = (a: EventTruth, b: EventTruth) => b.start - a.start || b.number - a.number;

function relevance(terms: string[], e: EventTruth): number {
  let score = 0;
  for (const term of terms) {
    const n = e.tokens.get(term) ?? 0;
    score += Math.log1p(n === 0 ? 0 : ([...TIERS].reverse().find((least) => n >= least) ?? 1));
  }
  return score / Math.log(Math.E + e.length / 500);
}

const FILTERS: Array<[string, Partial<EventSearchFilter>]> = [
  ['everything', {}],
  ['Korean keyword', { terms: queryTerms('서울 컨퍼런스') }],
  ['English keyword (a translation)', { terms: queryTerms('conference') }],
  ['categories', { categories: ['CONFERENCE', 'NETWORKING'] }],
  ['subjects and open types', { subjects: ['TECHNOLOGY'], openTypes: ['ONLINE', 'ON_OFFLINE'] }],
  ['company', { companyId: 1 }],
  ['start window', { startFrom: TEST_NOW - 30 * DAY, startTo: TEST_NOW + 30 * DAY }],
  ['upcoming', { status: { is: 'UPCOMING', now: TEST_NOW } }],
  ['ongoing', { status: { is: 'ONGOING', now: TEST_NOW } }],
  ['closed, a keyword', { status: { is: 'CLOSED', now: TEST_NOW }, terms: queryTerms('컨퍼런스') }],
];

describe.each(ENGINES)('event search by the index rule on %s', (engine: Engine) => {
  let test: TestDatabase;
  let index: EventIndex;
  let truths: EventTruth[];
  const matching = (f: EventSearchFilter) => truths.filter((e) => passes(e, f)).sort(newestFirst);
  const ids = (events: EventTruth[]) => events.map((e) => e.number);

  beforeAll(async () => {
    test = await createTestDatabase(engine);
    await generateDemoData(test.database, { now: TEST_NOW, posts: 20, jobs: 20, events: 40 });
    await generateBenchData(test.database, { posts: 0, jobs: 0, events: 1_500 }, 11, TEST_NOW);
    index = new EventIndex(test.database);
    await index.ready();
    truths = await eventTruths(test);
  }, 300_000);
  afterAll(async () => {
    await index?.close();
    await test?.database.close();
    await test?.drop();
  });

  it('answers every filter with the same events and exact totals, latest start first and earliest first', async () => {
    for (const [name, partial] of FILTERS) {
      const filter = search(partial);
      const truth = matching(filter);
      const newest = await index.search(filter);
      expect(newest.total, name).toBe(truth.length);
      expect(truth.length, name).toBeGreaterThan(0);
      expect(newest.ids, name).toEqual(ids(truth.slice(0, 50)));
      const oldest = await index.search({ ...filter, order: 'oldest', offset: 5, limit: 20 });
      expect(oldest.ids, name).toEqual(ids([...truth].reverse().slice(5, 25)));
    }
    expect(matching(search({ status: { is: 'UPCOMING', now: TEST_NOW } })).length).toBeGreaterThan(0);
    expect(matching(search({ status: { is: 'CLOSED', now: TEST_NOW } })).length).toBeGreaterThan(0);
  });

  it('counts each facet with its own filter left out, the others kept', async () => {
    const filter = search({ terms: queryTerms('컨퍼런스'), categories: ['CONFERENCE'], openTypes: ['OFFLINE'] });
    const { facets } = await index.search({ ...filter, facets: ['categories', 'openTypes', 'subjects', 'companyId'] });
    const count = (f: EventSearchFilter, value: (e: EventTruth) => string[]) => {
      const counts = new Map<string, number>();
      for (const e of matching(f)) for (const v of value(e)) counts.set(v, (counts.get(v) ?? 0) + 1);
      return Object.fromEntries(counts);
    };
    const asObject = (list: Array<{ value: string; count: number }> | undefined) =>
      Object.fromEntries((list ?? []).map((c) => [c.value, c.count]));
    expect(asObject(facets?.categories)).toEqual(count({ ...filter, categories: undefined }, (e) => e.categories));
    expect(asObject(facets?.openTypes)).toEqual(count({ ...filter, openTypes: undefined }, (e) => [e.openType]));
    expect(asObject(facets?.subjects)).toEqual(count(filter, (e) => e.subjects));
    expect(Object.values(asObject(facets?.companyId)).reduce((a, b) => a + b, 0)).toBe(matching(filter).length);
  });

  it('ranks the newest matches by relevance, as posts and jobs are ranked', async () => {
    const terms = queryTerms('서울');
    const truth = matching(search({ terms }));
    expect(truth.length).toBeGreaterThan(30);
    const expected = truth
      .slice(0, RELEVANCE_CANDIDATES)
      .map((e, i) => ({ number: e.number, score: relevance(terms, e), i }))
      .sort((a, b) => b.score - a.score || a.i - b.i)
      .map((e) => e.number);
    expect(expected.slice(0, 30)).not.toEqual(ids(truth.slice(0, 30)));
    expect((await index.search(search({ terms, order: 'rank', limit: 30 }))).ids).toEqual(expected.slice(0, 30));
  });

  it('holds the facet tokens the declaration names', () => {
    const [first] = truths;
    expect(first!.tokens.has(FACETS.company(first!.companyId))).toBe(true);
    expect(first!.tokens.has(FACETS.openType(first!.openType))).toBe(true);
  });
});

describe.each(ENGINES)('event search over HTTP on %s', (engine: Engine) => {
  let t: TestContext;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp(engine);
    token = await accessToken(t, 'event:write');
  });
  afterAll(async () => {
    await t?.close();
  });

  const list = async (query: string) => {
    const res = await t.get(`/api/v1/events?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { totalItems: number; items: Array<Record<string, any>>; didYouMean?: string };
  };
  const write = (method: 'POST' | 'PATCH', url: string, body: unknown) => {
    const parts = multipart([jsonPart(body)]);
    return t.request({ method, url, headers: { ...parts.headers, ...bearer(token) }, payload: parts.payload });
  };

  it('finds an event by the words of its name at once, then by its new name only, and not once deleted', async () => {
    const created = await write('POST', '/api/v1/events?companyId=acme-labs', {
      eventName: 'Quokkathon 해커톤',
      description: '주말 동안 함께 만드는 자리',
      startAt: '2026-12-20T10:00:00+09:00',
      endAt: '2026-12-20T18:00:00+09:00',
      eventOpenType: 'OFFLINE',
      eventCategories: ['NETWORKING'],
      eventSubjects: ['TECHNOLOGY'],
    });
    expect(created.statusCode, created.body).toBe(201);
    const { eventId } = created.json();
    expect((await list('keyword=quokkathon')).items.map((e) => e.eventId)).toEqual([eventId]);
    expect((await list('keyword=해커톤&categories=NETWORKING')).items.map((e) => e.eventId)).toContain(eventId);

    expect((await write('PATCH', `/api/v1/events/${eventId}`, { eventName: 'Wombatcon 해커톤' })).statusCode).toBe(200);
    expect((await list('keyword=quokkathon')).totalItems).toBe(0);
    expect((await list('keyword=wombatcon')).items.map((e) => e.eventId)).toEqual([eventId]);

    const deleted = await t.request({ method: 'DELETE', url: `/api/v1/events/${eventId}`, headers: bearer(token) });
    expect(deleted.statusCode).toBe(204);
    expect((await list('keyword=wombatcon')).totalItems).toBe(0);
  });

  it('highlights the keyword in the name and description, ranks by RELEVANCE, and tolerates typos when asked', async () => {
    const created = await write('POST', '/api/v1/events?companyId=acme-labs', {
      eventName: 'Quokkaops operators workshop',
      description: 'Writing Quokkaops operators in Go, Quokkaops from the inside',
      startAt: '2026-12-21T10:00:00+09:00',
      endAt: '2026-12-21T12:00:00+09:00',
      eventOpenType: 'ONLINE',
    });
    expect(created.statusCode, created.body).toBe(201);
    const { eventId } = created.json();
    const [item] = (await list('keyword=quokkaops&highlight=true&sort=RELEVANCE')).items;
    expect(item!.eventId).toBe(eventId);
    expect(item!.highlights.map((h: { field: string }) => h.field)).toEqual(['eventName', 'description']);
    expect(item!.highlights[0].fragments[0]).toEqual({ text: 'Quokkaops operators workshop', matches: [[0, 9]] });
    expect((await list('keyword=quokkaops')).items[0]!.highlights).toBeUndefined();

    expect((await list('keyword=quokkaosp')).totalItems).toBe(0);
    const tolerant = await list('keyword=quokkaosp&typoTolerance=true');
    expect(tolerant.items.map((e) => e.eventId)).toEqual([eventId]);
    expect(tolerant.didYouMean).toBe('quokkaops');
  });

  it('refuses an unknown sort as before, and takes the new one', async () => {
    expect((await t.get('/api/v1/events?sort=POPULAR')).statusCode).toBe(400);
    expect((await t.get('/api/v1/events?sort=RELEVANCE')).statusCode).toBe(200);
  });
});
