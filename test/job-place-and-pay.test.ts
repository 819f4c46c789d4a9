/**
 * Where a job is and what it pays, over HTTP: written with the job (create and update), shown in its detail, its
 * search item and the change feed, refused when it breaks a rule, and searched by country, region, radius and pay
 * with exact counts and facets. The rule each filter keeps, job by job, is held by test/search-engines.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonPart, multipart } from './helpers/multipart.js';
import { createTestApp, type TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';
import { accessToken, bearer } from './helpers/tokens.js';

/** A word no demo job holds, so each search below sees only the jobs this file writes. */
const WORD = 'zqplacepay';

const job = (title: string, extra: Record<string, unknown>) => ({
  jobTitle: `${WORD} ${title}`,
  jobCategory: 'dev',
  seniorities: ['JUNIOR'],
  employmentTypes: ['FULL_TIME'],
  jobBio: 'API를 만듭니다.',
  ...extra,
});

const GANGNAM = {
  country: 'KR',
  region: '서울',
  locality: '강남구',
  address: '테헤란로 152',
  latitude: 37.5006,
  longitude: 127.0364,
};
const PANGYO = { country: 'KR', region: '경기', locality: '성남시 분당구', latitude: 37.3948, longitude: 127.1112 };
const BUSAN = { country: 'KR', region: '부산', locality: '해운대구', latitude: 35.1631, longitude: 129.1636 };
const TOKYO = { country: 'JP', region: '東京都', locality: '渋谷区', latitude: 35.662, longitude: 139.7038 };

/** The jobs written, by name: where they are, what they pay, how they work. */
const JOBS: Record<string, Record<string, unknown>> = {
  gangnam: {
    location: GANGNAM,
    salary: { min: 50_000_000, max: 70_000_000, currency: 'KRW', period: 'YEAR' },
    workType: 'ONSITE',
  },
  pangyoMonthly: {
    location: PANGYO,
    salary: { min: 5_000_000, max: 6_000_000, currency: 'KRW', period: 'MONTH' },
    workType: 'HYBRID',
  },
  busanHourly: { location: BUSAN, salary: { min: 20_000, currency: 'KRW', period: 'HOUR' }, workType: 'ONSITE' },
  tokyo: { location: TOKYO, salary: { min: 6_000_000, max: 9_000_000, currency: 'JPY' }, workType: 'ONSITE' },
  remoteNoPay: { location: { ...GANGNAM, address: null }, workType: 'REMOTE' },
  seoulNoCoordinates: {
    location: { country: 'KR', region: '서울' },
    salary: { max: 40_000_000, currency: 'KRW', period: 'YEAR' },
  },
  nowhere: {},
};

describe.each(ENGINES)('where a job is and what it pays, on %s', (engine) => {
  let t: TestContext;
  let token: string;
  const ids: Record<string, number> = {};

  const send = (method: 'POST' | 'PATCH', url: string, request: unknown) => {
    const body = multipart([jsonPart(request)]);
    return t.request({ method, url, headers: { ...body.headers, ...bearer(token) }, payload: body.payload });
  };
  const create = (request: unknown) => send('POST', '/api/v1/jobs/platform?companyId=acme-labs', request);
  const publish = (id: number) =>
    t.request({
      method: 'PUT',
      url: `/api/v1/jobs/${id}/active`,
      headers: { ...bearer(token), 'content-type': 'application/json' },
      payload: JSON.stringify({ startDate: '2026-11-01' }),
    });
  /** The names of the jobs of this file a search finds (newest first), and its answer. */
  const search = async (query: string) => {
    const res = await t.get(`/api/v1/jobs?keyword=${WORD}&sort=DATE_DESC&pageSize=50&${query}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const names = body.items.map((item: { jobId: number }) =>
      Object.keys(ids).find((name) => ids[name] === item.jobId),
    );
    return { names: [...names].sort(), body };
  };

  beforeAll(async () => {
    t = await createTestApp(engine);
    token = await accessToken(t, 'job:write job:manage:read');
    for (const [name, extra] of Object.entries(JOBS)) {
      const res = await create(job(name, extra));
      expect(res.statusCode, res.body).toBe(201);
      ids[name] = res.json().jobId;
      expect((await publish(ids[name]!)).statusCode).toBe(200);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('shows the place and pay as written in the detail and in search items; null for a job without them', async () => {
    const detail = (await t.get(`/api/v1/jobs/${ids.gangnam}`)).json();
    expect(detail.location).toEqual(GANGNAM);
    expect(detail.salary).toEqual({ min: 50_000_000, max: 70_000_000, currency: 'KRW', period: 'YEAR' });
    expect((await t.get(`/api/v1/jobs/${ids.tokyo}`)).json().salary).toEqual({
      min: 6_000_000,
      max: 9_000_000,
      currency: 'JPY',
      period: 'YEAR',
    });
    expect((await t.get(`/api/v1/jobs/${ids.seoulNoCoordinates}`)).json().location).toEqual({
      country: 'KR',
      region: '서울',
      locality: null,
      address: null,
      latitude: null,
      longitude: null,
    });
    const none = (await t.get(`/api/v1/jobs/${ids.nowhere}`)).json();
    expect([none.location, none.salary]).toEqual([null, null]);
    const { body } = await search('');
    const item = body.items.find((i: { jobId: number }) => i.jobId === ids.busanHourly);
    expect(item.location).toEqual({ ...BUSAN, address: null });
    expect(item.salary).toEqual({ min: 20_000, max: null, currency: 'KRW', period: 'HOUR' });
  });

  it('changes them on update, clears them with null, keeps them when left out; the change feed carries them', async () => {
    // A word of its own: the searches of the other cases never see this job.
    const res = await create({
      ...job('moving', { location: PANGYO, salary: { min: 30_000_000, currency: 'KRW' } }),
      jobTitle: 'zqmoving',
    });
    const id = res.json().jobId;
    const near = async (query: string) =>
      (await t.get(`/api/v1/jobs?keyword=zqmoving&${query}`)).json().items.map((i: { jobId: number }) => i.jobId);
    await publish(id);
    const start = (await t.get('/api/v1/changes?after=now')).json().nextCursor;
    const update = (request: unknown) => send('PATCH', `/api/v1/jobs/${id}?companyId=acme-labs&type=PLATFORM`, request);
    expect((await update({ location: BUSAN })).statusCode).toBe(200);
    let detail = (await t.get(`/api/v1/jobs/${id}`)).json();
    expect([detail.location, detail.salary]).toEqual([
      { ...BUSAN, address: null },
      { min: 30_000_000, max: null, currency: 'KRW', period: 'YEAR' },
    ]);
    expect(await near(`near=${BUSAN.latitude},${BUSAN.longitude}&radiusKm=5`)).toEqual([id]);
    const changes = (await t.get(`/api/v1/changes?after=${start}`)).json().items;
    expect(changes.at(-1).data.location).toEqual({ ...BUSAN, address: null });
    expect((await update({ location: null, salary: null })).statusCode).toBe(200);
    detail = (await t.get(`/api/v1/jobs/${id}`)).json();
    expect([detail.location, detail.salary]).toEqual([null, null]);
    expect(await near(`near=${BUSAN.latitude},${BUSAN.longitude}&radiusKm=5`)).toEqual([]);
    expect(await near('')).toEqual([id]);
  });

  it('refuses a place or pay that breaks a rule, naming the field, and writes nothing', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ location: { country: 'XX' } }, 'request.location.country'],
      [{ location: { country: 'kr' } }, 'request.location.country'],
      [{ location: { country: 'KR', latitude: 37.5 } }, 'request.location.longitude'],
      [{ location: { country: 'KR', latitude: 91, longitude: 0 } }, 'request.location.latitude'],
      [{ location: { country: 'KR', city: '서울' } }, 'does not allow the property "city"'],
      [{ salary: { currency: 'KRW' } }, 'request.salary.min'],
      [{ salary: { min: 9, max: 5, currency: 'KRW' } }, 'request.salary.min'],
      [{ salary: { min: 9, currency: 'ABC' } }, 'request.salary.currency'],
      [{ salary: { min: -1, currency: 'KRW' } }, 'request.salary.min'],
      [{ salary: { min: 1, currency: 'KRW', period: 'WEEK' } }, 'request.salary.period'],
    ];
    const before = (await search('')).names.length;
    for (const [extra, field] of cases) {
      const res = await create(job('refused', extra));
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      expect(res.json().code, JSON.stringify(extra)).toBe('C0002');
      expect(`${res.json().details} ${res.json().message}`, JSON.stringify(extra)).toContain(
        field.replace(/^request\./, ''),
      );
    }
    const update = await send('PATCH', `/api/v1/jobs/${ids.gangnam}?companyId=acme-labs&type=PLATFORM`, {
      salary: { min: 9, max: 5, currency: 'KRW' },
    });
    expect(update.statusCode).toBe(400);
    expect((await t.get(`/api/v1/jobs/${ids.gangnam}`)).json().salary.min).toBe(50_000_000);
    expect((await search('')).names.length).toBe(before);
  });

  it('filters by countries and regions, OR within and AND across', async () => {
    expect((await search('countries=JP')).names).toEqual(['tokyo']);
    expect((await search('regions=서울')).names).toEqual(['gangnam', 'remoteNoPay', 'seoulNoCoordinates']);
    expect((await search('regions=서울&regions=부산&workTypes=ONSITE')).names).toEqual([
      'busanHourly',
      'gangnam',
      'seoulNoCoordinates',
    ]);
    expect((await search('countries=JP,KR&regions=東京都')).names).toEqual(['tokyo']);
    expect((await search('countries=US')).body.totalItems).toBe(0);
  });

  it('finds jobs within a radius by their coordinates, REMOTE ones only with includeRemote', async () => {
    const gangnam = `near=${GANGNAM.latitude},${GANGNAM.longitude}`;
    expect((await search(gangnam)).names).toEqual(['gangnam', 'pangyoMonthly']);
    // 판교 is 13.5 km from 강남 as the crow flies.
    expect((await search(`${gangnam}&radiusKm=13`)).names).toEqual(['gangnam']);
    expect((await search(`${gangnam}&radiusKm=15`)).names).toEqual(['gangnam', 'pangyoMonthly']);
    expect((await search(`${gangnam}&radiusKm=15&includeRemote=true`)).names).toEqual([
      'gangnam',
      'pangyoMonthly',
      'remoteNoPay',
    ]);
    expect((await search(`${gangnam}&radiusKm=500`)).names).toEqual(['busanHourly', 'gangnam', 'pangyoMonthly']);
    expect((await search(`${gangnam}&radiusKm=500`)).body.totalItems).toBe(3);
    expect((await search('near=35.66,139.70&radiusKm=1')).names).toEqual(['tokyo']);
  });

  it('filters by yearly pay in a currency: a month ×12, an hour ×2,080; unstated pay only with includeUnstatedSalary', async () => {
    // 강남 50-70M a year, 판교 60-72M (5-6M a month), 부산 41.6M (20,000 an hour, no most), no-coordinates up to 40M.
    expect((await search('salaryCurrency=KRW')).names).toEqual([
      'busanHourly',
      'gangnam',
      'pangyoMonthly',
      'seoulNoCoordinates',
    ]);
    expect((await search('salaryCurrency=KRW&salaryMin=60000000')).names).toEqual(['gangnam', 'pangyoMonthly']);
    expect((await search('salaryCurrency=KRW&salaryMin=70000001')).names).toEqual(['pangyoMonthly']);
    expect((await search('salaryCurrency=KRW&salaryMin=72000000')).names).toEqual(['pangyoMonthly']);
    expect((await search('salaryCurrency=KRW&salaryMin=72000001')).names).toEqual([]);
    expect((await search('salaryCurrency=KRW&salaryMax=41600000')).names).toEqual([
      'busanHourly',
      'seoulNoCoordinates',
    ]);
    expect((await search('salaryCurrency=KRW&salaryMin=40000000&salaryMax=55000000')).names).toEqual([
      'busanHourly',
      'gangnam',
      'seoulNoCoordinates',
    ]);
    expect((await search('salaryCurrency=KRW&salaryMin=65000000&includeUnstatedSalary=true')).names).toEqual([
      'gangnam',
      'nowhere',
      'pangyoMonthly',
      'remoteNoPay',
    ]);
    expect((await search('salaryCurrency=JPY&salaryMin=8000000')).names).toEqual(['tokyo']);
  });

  it('counts regions, countries and salary ranges as facets, each without its own filter', async () => {
    const { body } = await search('facets=regions,countries,salary&regions=서울&salaryCurrency=KRW&salaryMin=45000000');
    expect(body.totalItems).toBe(1);
    expect(body.facets.regions).toEqual([
      { value: '경기', count: 1 },
      { value: '서울', count: 1 },
    ]);
    expect(body.facets.countries).toEqual([{ value: 'KR', count: 1 }]);
    expect(body.facets.salary).toEqual([
      { value: 'KRW:20000000-50000000', count: 1 },
      { value: 'KRW:50000000-100000000', count: 1 },
    ]);
    const all = (await search('facets=salary')).body.facets.salary;
    expect(all).toEqual(
      expect.arrayContaining([
        { value: 'JPY:5000000-10000000', count: 1 },
        { value: 'KRW:50000000-100000000', count: 2 },
      ]),
    );
  });

  it('refuses a radius or pay filter without what it needs, in the error body', async () => {
    const cases: Array<[string, string]> = [
      ['radiusKm=10', 'radiusKm'],
      ['includeRemote=true', 'includeRemote'],
      ['near=95,10', 'near'],
      ['near=seoul', 'near'],
      ['near=37,127&radiusKm=501', 'radiusKm'],
      ['near=37,127&radiusKm=0', 'radiusKm'],
      ['salaryMin=1', 'salaryMin'],
      ['includeUnstatedSalary=true', 'includeUnstatedSalary'],
      ['salaryCurrency=KRWX', 'salaryCurrency'],
      ['salaryCurrency=ABC', 'salaryCurrency'],
      ['salaryCurrency=KRW&salaryMin=9&salaryMax=5', 'salaryMin'],
      ['countries=Korea', 'countries'],
    ];
    for (const [query, name] of cases) {
      const res = await t.get(`/api/v1/jobs?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().code, query).toBe('C0005');
      expect(JSON.stringify(res.json()), query).toContain(name);
    }
  });
});
