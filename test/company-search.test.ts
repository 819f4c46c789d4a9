import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateBenchData } from '../bench/generate-data.js';
import { companyDocument, industriesOf } from '../src/modules/companies/company-document.js';
import { withinRadius } from '../src/search/geo-cells.js';
import { queryTerms, textTokens } from '../src/search/search-text.js';
import { createTestApp, TEST_NOW, type TestContext } from './helpers/test-app.js';
import { ENGINES, type Engine } from './helpers/test-database.js';

/**
 * Company search (issue 88): every answer over HTTP held to the rule computed here, company by company, from the tables
 * (the demo's companies and some hundreds generated, with jobs hiring at some of them), on both engines.
 */
interface CompanyTruth {
  id: number;
  handle: string;
  name: string;
  created: number;
  tokens: Set<string>;
  industries: string[];
  size: string;
  fundingStage: string | null;
  foundedYear: number | null;
  country: string | null;
  region: string | null;
  latitude: number | null;
  longitude: number | null;
  hiring: number;
}

async function companyTruths(t: TestContext): Promise<CompanyTruth[]> {
  const db = t.db.database.db;
  const [rows, translations, labels, jobs] = await Promise.all([
    db.selectFrom('companies').selectAll().execute(),
    db.selectFrom('company_translations').select(['company_id', 'description']).execute(),
    db.selectFrom('code_labels').select(['code', 'display_name']).where('catalog', '=', 'job-industries').execute(),
    db.selectFrom('jobs').select(['company_id', 'status', 'start_at', 'end_at']).execute(),
  ]);
  const now = t.clock.now;
  return rows.map((row) => {
    const industries = industriesOf(row);
    const names = [...new Set(labels.filter((l) => industries.includes(l.code)).map((l) => l.display_name))];
    const own = translations.filter((tr) => tr.company_id === row.id).map((tr) => tr.description);
    const { texts } = companyDocument({ ...row, industries }, own, names);
    return {
      id: row.id,
      handle: row.handle,
      name: row.name,
      created: Number(row.created_at),
      tokens: new Set(textTokens(...texts)),
      industries,
      size: row.size,
      fundingStage: row.funding_stage,
      foundedYear: row.founded_year,
      country: row.location_country,
      region: row.location_region,
      latitude: row.location_latitude === null ? null : Number(row.location_latitude),
      longitude: row.location_longitude === null ? null : Number(row.location_longitude),
      hiring: jobs.filter(
        (j) =>
          j.company_id === row.id &&
          j.status === 'published' &&
          j.start_at !== null &&
          Number(j.start_at) <= now &&
          (j.end_at === null || Number(j.end_at) > now),
      ).length,
    };
  });
}

interface Query {
  keyword?: string;
  industries?: string[];
  companySizes?: string[];
  fundingStages?: string[];
  countries?: string[];
  regions?: string[];
  near?: { latitude: number; longitude: number; radiusKm: number };
  hiring?: boolean;
  foundedFrom?: number;
  foundedTo?: number;
}

/** Whether a company passes a search's filters, by the rules of docs/companies.md. */
function passes(c: CompanyTruth, q: Query): boolean {
  if (q.keyword && !queryTerms(q.keyword).every((term) => c.tokens.has(term))) return false;
  if (q.industries && !q.industries.some((code) => c.industries.includes(code))) return false;
  if (q.companySizes && !q.companySizes.includes(c.size)) return false;
  if (q.fundingStages && !(c.fundingStage !== null && q.fundingStages.includes(c.fundingStage))) return false;
  if (q.countries && !(c.country !== null && q.countries.includes(c.country))) return false;
  if (q.regions && !(c.region !== null && q.regions.includes(c.region))) return false;
  if (q.near) {
    if (c.latitude === null || c.longitude === null) return false;
    if (!withinRadius(q.near, q.near.radiusKm)(c.latitude, c.longitude)) return false;
  }
  if (q.hiring !== undefined && c.hiring > 0 !== q.hiring) return false;
  if (q.foundedFrom !== undefined && !(c.foundedYear !== null && c.foundedYear >= q.foundedFrom)) return false;
  if (q.foundedTo !== undefined && !(c.foundedYear !== null && c.foundedYear <= q.foundedTo)) return false;
  return true;
}

const newestFirst = (a: CompanyTruth, b: CompanyTruth) => b.created - a.created || b.id - a.id;
const mostHiringFirst = (a: CompanyTruth, b: CompanyTruth) =>
  a.hiring > 0 || b.hiring > 0 ? b.hiring - a.hiring || b.id - a.id : newestFirst(a, b);
/** NAME: the first nine characters of the case-folded name, in code unit order; then the highest id. */
const byName = (a: CompanyTruth, b: CompanyTruth) => {
  const [x, y] = [a, b].map((c) => c.name.normalize('NFC').toLowerCase().slice(0, 9));
  return x! < y! ? -1 : x! > y! ? 1 : b.id - a.id;
};

const asParams = (q: Query): string => {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(q)) {
    if (name === 'near') {
      const near = value as NonNullable<Query['near']>;
      params.set('near', `${near.latitude},${near.longitude}`);
      params.set('radiusKm', String(near.radiusKm));
    } else params.set(name, Array.isArray(value) ? value.join(',') : String(value));
  }
  return params.toString();
};

const FILTERS: Array<[string, Query]> = [
  ['everything', {}],
  ['a Korean word of names', { keyword: '랩스' }],
  ['an English word of names', { keyword: 'labs' }],
  ['a word of descriptions only', { keyword: 'Kubernetes' }],
  ['a word of translations only', { keyword: 'building' }],
  ['an industry name', { keyword: 'fintech' }],
  ['industries', { industries: ['IT_SOFTWARE', 'IT_AI'] }],
  ['sizes and funding stages', { companySizes: ['SMALL', 'MEDIUM'], fundingStages: ['SEED', 'SERIES_A'] }],
  ['a country', { countries: ['JP'] }],
  ['a region', { regions: ['서울'] }],
  ['near a point', { near: { latitude: 37.5, longitude: 127.03, radiusKm: 8 } }],
  ['hiring', { hiring: true }],
  ['not hiring', { hiring: false }],
  ['founded within years', { foundedFrom: 2000, foundedTo: 2010 }],
  ['a keyword with filters', { keyword: '랩스', hiring: true, companySizes: ['LARGE', 'HUGE', 'MEDIUM'] }],
];

describe.each(ENGINES)('company search by the rule on %s', (engine: Engine) => {
  let t: TestContext;
  let truths: CompanyTruth[];
  const matching = (q: Query, order = newestFirst) => truths.filter((c) => passes(c, q)).sort(order);

  beforeAll(async () => {
    t = await createTestApp(engine, {
      prepare: (database) =>
        generateBenchData(database, { companies: 400, posts: 0, jobs: 300, events: 0 }, 5, TEST_NOW),
    });
    truths = await companyTruths(t);
  }, 300_000);
  afterAll(async () => {
    await t?.close();
  });

  const search = async (query: string) => {
    const res = await t.get(`/api/v1/companies?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{
      totalItems: number;
      items: Array<{ companyId: string; hiringJobCount: number }>;
      facets?: Record<string, Array<{ value: string; count: number }>>;
    }>();
  };
  const handles = (list: CompanyTruth[]) => list.map((c) => c.handle);

  it('answers every filter with the same companies and exact totals, in each order', async () => {
    for (const [name, q] of FILTERS) {
      const truth = matching(q);
      expect(truth.length, name).toBeGreaterThan(0);
      const recent = await search(`${asParams(q)}&sort=RECENT&pageSize=50`);
      expect(recent.totalItems, name).toBe(truth.length);
      expect(
        recent.items.map((i) => i.companyId),
        name,
      ).toEqual(handles(truth.slice(0, 50)));
      const hiring = await search(`${asParams(q)}&sort=HIRING_DESC&pageSize=20&page=2`);
      expect(
        hiring.items.map((i) => i.companyId),
        name,
      ).toEqual(handles(matching(q, mostHiringFirst).slice(20, 40)));
      const named = await search(`${asParams(q)}&sort=NAME&pageSize=30`);
      expect(
        named.items.map((i) => i.companyId),
        name,
      ).toEqual(handles(matching(q, byName).slice(0, 30)));
      if (q.keyword && truth.length <= 50) {
        const ranked = await search(`${asParams(q)}&pageSize=50`);
        expect(ranked.items.map((i) => i.companyId).sort(), name).toEqual(handles(truth).sort());
      }
    }
    // The filters are not all the same one: hiring and not hiring split the directory.
    expect(matching({ hiring: true }).length + matching({ hiring: false }).length).toBe(truths.length);
  });

  it('gives each item the jobs its company is hiring for now', async () => {
    const page = await search('sort=HIRING_DESC&pageSize=50');
    const byHandle = new Map(truths.map((c) => [c.handle, c]));
    expect(page.items[0]!.hiringJobCount).toBeGreaterThan(1);
    for (const item of page.items)
      expect(item.hiringJobCount, item.companyId).toBe(byHandle.get(item.companyId)!.hiring);
  });

  it('counts each facet with its own filter left out, the others kept', async () => {
    const q: Query = { industries: ['IT_SOFTWARE'], companySizes: ['SMALL'], keyword: '랩스' };
    const { facets } = await search(`${asParams(q)}&facets=industries,companySizes,fundingStages,countries`);
    const count = (list: CompanyTruth[], values: (c: CompanyTruth) => Array<string | null>) => {
      const counts = new Map<string, number>();
      for (const c of list) for (const v of values(c)) if (v !== null) counts.set(v, (counts.get(v) ?? 0) + 1);
      return Object.fromEntries(counts);
    };
    const asObject = (list: Array<{ value: string; count: number }> | undefined) =>
      Object.fromEntries((list ?? []).map((c) => [c.value, c.count]));
    const top = (counts: Record<string, number>, n: number) =>
      Object.values(counts)
        .sort((a, b) => b - a)
        .slice(0, n);
    const industries = count(matching({ ...q, industries: undefined }), (c) => c.industries);
    expect(
      Object.values(asObject(facets?.industries))
        .sort((a, b) => b - a)
        .slice(0, 10),
    ).toEqual(top(industries, 10));
    expect(asObject(facets?.companySizes)).toEqual(count(matching({ ...q, companySizes: undefined }), (c) => [c.size]));
    expect(asObject(facets?.fundingStages)).toEqual(count(matching(q), (c) => [c.fundingStage]));
    expect(asObject(facets?.countries)).toEqual(count(matching(q), (c) => [c.country]));
  });

  it('finds a company created after start at once, and its new profile after a write', async () => {
    const db = t.db.database.db;
    const before = await search('keyword=zeppelin');
    expect(before.totalItems).toBe(0);
    const [created] = await db
      .insertInto('companies')
      .values({
        handle: 'zeppelin-air',
        name: 'Zeppelin Air',
        industry: 'IT_AI',
        size: 'TINY',
        certificated: 0,
        created_at: TEST_NOW,
      })
      .returning('id')
      .execute();
    await db
      .insertInto('search_changes')
      .values({ kind: 'company', doc_id: created!.id, created_at: TEST_NOW })
      .execute();
    await db
      .updateTable('data_version_slots')
      .set((eb) => ({ version: eb('version', '+', 1) }))
      .where('name', '=', 'companies')
      .where('slot', '=', 0)
      .execute();
    expect((await search('keyword=zeppelin')).items.map((i) => i.companyId)).toEqual(['zeppelin-air']);
  });

  it('answers a search kept in another language anew once the clock passes a job that changes who is hiring', async () => {
    const jobs = await t.db.database.db
      .selectFrom('jobs')
      .select(['company_id', 'status', 'start_at', 'end_at'])
      .where('status', '=', 'published')
      .execute();
    const hiringAt = (now: number) =>
      new Set(
        jobs
          .filter(
            (j) => j.start_at !== null && Number(j.start_at) <= now && (j.end_at === null || Number(j.end_at) > now),
          )
          .map((j) => j.company_id),
      );
    const asked = 'hiring=true&sort=HIRING_DESC&pageSize=50';
    const now = hiringAt(t.clock.now);
    // Asked twice: the engine keeps a search the second time it sees it.
    expect((await search(asked)).totalItems).toBe(now.size);
    expect((await t.get(`/api/v1/companies?${asked}`, { 'accept-language': 'ja' })).json().totalItems).toBe(now.size);
    // The first moment the number of companies hiring changes.
    const moments = jobs
      .flatMap((j) => [j.start_at, j.end_at])
      .filter((at) => at !== null && Number(at) > t.clock.now)
      .map(Number)
      .sort((a, b) => a - b);
    const changed = moments.find((at) => hiringAt(at).size !== now.size);
    expect(changed).toBeDefined();
    t.clock.now = changed!;
    truths = await companyTruths(t);
    const res = await t.get(`/api/v1/companies?${asked}`, { 'accept-language': 'en' });
    expect(res.statusCode, res.body).toBe(200);
    const after = res.json<{ totalItems: number; items: Array<{ companyId: string }> }>();
    expect(after.totalItems).toBe(hiringAt(changed!).size);
    expect(after.items.map((i) => i.companyId)).toEqual(
      handles(matching({ hiring: true }, mostHiringFirst).slice(0, 50)),
    );
  });
});
