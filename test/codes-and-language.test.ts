import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_NAMES, LOCALES } from '../src/shared/catalog-data.js';
import { negotiateLocale } from '../src/shared/locale.js';
import { createTestApp, type TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';

describe('Accept-Language negotiation', () => {
  it.each([
    [undefined, 'ko'],
    ['', 'ko'],
    ['en', 'en'],
    ['en-US', 'en'],
    ['EN-gb', 'en'],
    ['zh', 'zh-CN'],
    ['zh-Hans', 'zh-CN'],
    ['zh-SG', 'zh-CN'],
    ['zh-CN', 'zh-CN'],
    ['zh-Hant', 'zh-TW'],
    ['zh-TW', 'zh-TW'],
    ['zh-HK', 'zh-TW'],
    ['zh-Hant-TW', 'zh-TW'],
    ['pt-BR', 'pt'],
    ['xx, yy', 'ko'],
    ['*', 'ko'],
    ['fr;q=0.5, de;q=0.9', 'de'],
    ['xx;q=1, ja;q=0.2', 'ja'],
    ['en;q=0, vi', 'vi'],
    ['th-TH,th;q=0.9', 'th'],
    ['es-419', 'es'],
  ])('%j → %s', (header, expected) => {
    expect(negotiateLocale(header)).toBe(expected);
  });
});

describe.each(ENGINES)('code catalogs on %s', (engine) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp(engine, { seed: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A catalog's entries as a client iterates them: the industries' leaves under their groups. */
  const entries = async (catalog: string, headers: Record<string, string> = {}) => {
    const res = await t.get(`/api/v1/codes/${catalog}`, headers);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Array.isArray(body), `${catalog} is a bare array`).toBe(true);
    return catalog === 'job-industries' ? body.flatMap((group: { children: unknown[] }) => group.children) : body;
  };

  it.each(CATALOG_NAMES.filter((c) => c !== 'job-industries'))(
    'serves /api/v1/codes/%s as a bare array of {code, displayName, description}',
    async (catalog) => {
      const items = await entries(catalog);
      expect(items.length).toBeGreaterThan(2);
      for (const item of items) {
        expect(Object.keys(item).sort()).toEqual(['code', 'description', 'displayName']);
        expect(typeof item.description).toBe('string');
        // The real service's styles: camelCase job categories (`dataAi`), upper snake case for the rest.
        expect(item.code).toMatch(catalog === 'job-categories' ? /^[a-z][A-Za-z]*$/ : /^[A-Z][A-Z0-9_]*$/);
      }
    },
  );

  it("serves the job industries as groups in the leaves' style, each industry under the group its code begins with", async () => {
    const groups = (await t.get('/api/v1/codes/job-industries', { 'accept-language': 'en' })).json();
    expect(groups.map((g: { code: string }) => g.code)).toEqual([
      'IT',
      'FIN',
      'MEDIA',
      'SERVICE',
      'MFG',
      'DIST',
      'MEDICAL',
      'CONST',
    ]);
    for (const group of groups) {
      expect(Object.keys(group).sort()).toEqual(['children', 'code', 'displayName']);
      expect(group.children.length).toBeGreaterThan(0);
      for (const child of group.children) {
        expect(Object.keys(child).sort()).toEqual(['code', 'displayName']);
        expect(child.code.split('_')[0]).toBe(group.code);
      }
    }
    expect(groups[0]).toMatchObject({ displayName: 'IT & Internet' });
    expect(groups[0].children).toContainEqual({ code: 'IT_AI', displayName: 'IT · Artificial Intelligence' });
  });

  it('describes seniorities and event codes in the asked language, and leaves "" where there is nothing to add', async () => {
    const seniorities = await entries('seniorities', { 'accept-language': 'en' });
    expect(seniorities.find((s: { code: string }) => s.code === 'JUNIOR').description).toMatch(/1–3 years/);
    const categories = await entries('event-categories', { 'accept-language': 'ja' });
    expect(categories.find((s: { code: string }) => s.code === 'COMPETITION').description).toBe(
      'ハッカソン・コンテスト',
    );
    for (const item of await entries('employment-types')) expect(item.description).toBe('');
  });

  it("holds the real service's codes: exactly its enums, and at least every job category and industry seen in its responses", async () => {
    const codes = async (catalog: string) => (await entries(catalog)).map((i: { code: string }) => i.code);
    expect(await codes('employment-types')).toEqual([
      'FULL_TIME',
      'FIXED_TERM',
      'COMMISSIONED',
      'INTERN',
      'FREELANCER',
      'SELF_EMPLOYED',
    ]);
    expect(await codes('event-categories')).toEqual([
      'MARKET',
      'FAIR',
      'CONFERENCE',
      'NETWORKING',
      'BUSINESS',
      'COMPETITION',
      'LIFESTYLE',
    ]);
    expect(await codes('event-subjects')).toEqual([
      'WEB3',
      'TECHNOLOGY',
      'PRODUCT',
      'FINANCE',
      'HUMANITIES',
      'BUSINESS',
      'CULTURE',
    ]);
    expect(await codes('seniorities')).toEqual(['BEGINNER', 'JUNIOR', 'MIDLEVEL', 'SENIOR', 'EXECUTIVE']);
    expect(await codes('company-sizes')).toEqual(['TINY', 'SMALL', 'MEDIUM', 'LARGE', 'HUGE']);
    expect(await codes('work-types')).toEqual(['ONSITE', 'HYBRID', 'REMOTE']);
    expect(await codes('job-categories')).toEqual(
      expect.arrayContaining(['dev', 'dataAi', 'designUX', 'manage', 'marketingPr', 'media', 'rnd']),
    );
    expect(await codes('job-industries')).toEqual(
      expect.arrayContaining([
        'IT_PORTAL',
        'IT_NETWORK',
        'IT_AI',
        'IT_CONSULTING',
        'MEDIA_ENTERTAINMENT',
        'MEDIA_DESIGN',
        'SERVICE_ETC',
        'SERVICE_FACILITY',
        'MFG_ETC',
        'DIST_SALES',
        'DIST_ETC',
        'MEDICAL_HOSPITAL',
        'CONST_CONSTRUCTION',
      ]),
    );
  });

  it('labels and describes every entry in all 11 locales with real, non-Korean text outside ko', async () => {
    const groupsKo = (await t.get('/api/v1/codes/job-industries')).json();
    for (const catalog of CATALOG_NAMES) {
      const ko = await entries(catalog);
      for (const locale of LOCALES.filter((l) => l !== 'ko')) {
        const res = await t.get(`/api/v1/codes/${catalog}`, { 'accept-language': locale });
        expect(res.headers['content-language']).toBe(locale);
        const items = await entries(catalog, { 'accept-language': locale });
        expect(items.map((i: { code: string }) => i.code)).toEqual(ko.map((i: { code: string }) => i.code));
        for (const [i, item] of items.entries()) {
          for (const field of ['displayName', 'description'] as const) {
            if (field === 'description' && ko[i].description === '') {
              expect(item.description).toBe('');
              continue;
            }
            if (field === 'description' && catalog === 'job-industries') continue;
            expect(item[field], `${catalog} ${item.code} ${field} ${locale}`).not.toBe(ko[i][field]);
            expect(item[field], `${catalog} ${item.code} ${field} ${locale}`).not.toMatch(/[\uac00-\ud7a3]/);
          }
        }
        if (catalog === 'job-industries') {
          const groups = res.json();
          for (const [i, group] of groups.entries())
            expect(group.displayName, `${group.code} ${locale}`).not.toBe(groupsKo[i].displayName);
        }
      }
    }
  });

  it('falls back to Korean for unsupported languages and always sends Vary', async () => {
    const res = await t.get('/api/v1/codes/work-types', { 'accept-language': 'sw, xx;q=0.5' });
    expect(res.headers['content-language']).toBe('ko');
    expect(res.headers.vary).toMatch(/Accept-Language/);
    expect(res.json()[0].displayName).toBe('출근');
  });

  it('says Content-Language: en on an error, whose message is English whatever was asked for', async () => {
    for (const language of ['ko', 'ja', 'en']) {
      const res = await t.get('/api/v1/jobs?employmentTypes=CONTRACT', { 'accept-language': language });
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-language'], language).toBe('en');
      expect(res.headers.vary).toMatch(/Accept-Language/);
    }
    expect((await t.get('/api/v1/codes/work-types', { 'accept-language': 'ja' })).headers['content-language']).toBe(
      'ja',
    );
  });

  it('requires an app key', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v1/codes/seniorities' });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('C0001');
  });
});
