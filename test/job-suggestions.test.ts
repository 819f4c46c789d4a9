/**
 * Completions of a half-typed job search over HTTP: what they offer (titles, company names, title words of the jobs
 * hiring now), how Latin and Korean prefixes match, the order, the limit, the alias, the key, and that a write and the
 * end of hiring are seen by the next call. The matching rule itself, job by job, is held by test/search-engines.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonPart, multipart } from './helpers/multipart.js';
import { createTestApp, type TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';
import { accessToken, bearer } from './helpers/tokens.js';

interface Suggestion {
  text: string;
  type: string;
  count: number;
}

describe.each(ENGINES)('job search suggestions on %s', (engine) => {
  let t: TestContext;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp(engine);
    token = await accessToken(t, 'job:write job:manage:read');
  });
  afterAll(async () => {
    await t?.close();
  });

  const suggest = async (prefix: string, extra = ''): Promise<Suggestion[]> => {
    const res = await t.get(`/api/v1/jobs/suggestions?prefix=${encodeURIComponent(prefix)}${extra}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const texts = (list: Suggestion[]) => list.map((s) => `${s.type} ${s.text}`);

  it('offers the title words, titles and companies that begin with a Korean prefix, by syllable, half-typed syllable and initial consonants', async () => {
    const bySyllable = await suggest('백엔');
    expect(texts(bySyllable)).toContain('KEYWORD 백엔드개발자');
    expect(bySyllable.every((s) => s.text.toLowerCase().startsWith('백엔'))).toBe(true);
    expect(await suggest('배ㄱ')).toEqual(await suggest('백'));
    expect(texts(await suggest('백ㅇ'))).toContain('KEYWORD 백엔드개발자');
    const byInitials = await suggest('ㅂㅇㄷ');
    expect(texts(byInitials)).toContain('KEYWORD 백엔드개발자');
    expect(byInitials.find((s) => s.text === '백엔드개발자')).toEqual(
      bySyllable.find((s) => s.text === '백엔드개발자'),
    );
    expect(texts(await suggest('ㄴㅂ'))).toContain('COMPANY 노바핀테크');
    expect(texts(await suggest('노바'))).toContain('COMPANY 노바핀테크');
  });

  it('matches Latin prefixes in any case, most jobs first, then by text; at most pageSize', async () => {
    const lower = await suggest('back');
    expect(lower).toEqual(await suggest('BACK'));
    expect(texts(lower)).toContain('KEYWORD backend');
    const all = await suggest('p');
    expect(all.length).toBe(10);
    for (let i = 1; i < all.length; i++) {
      const [a, b] = [all[i - 1]!, all[i]!];
      expect(a.count > b.count || (a.count === b.count && a.text <= b.text), `${a.text} before ${b.text}`).toBe(true);
    }
    expect(await suggest('p', '&pageSize=3')).toEqual(all.slice(0, 3));
    expect(await suggest('zzzz')).toEqual([]);
  });

  it('counts only the jobs hiring now, and sees a write and the end of hiring at the next call', async () => {
    const body = multipart([
      jsonPart({
        jobTitle: 'Quokka 플랫폼엔지니어',
        jobCategory: 'dev',
        seniorities: ['JUNIOR'],
        employmentTypes: ['FULL_TIME'],
        jobBio: '플랫폼을 만듭니다.',
      }),
    ]);
    const created = await t.request({
      method: 'POST',
      url: '/api/v1/jobs/platform?companyId=acme-labs',
      headers: { ...body.headers, ...bearer(token) },
      payload: body.payload,
    });
    const id = created.json().jobId;
    // A draft is not hiring.
    expect(await suggest('quok')).toEqual([]);
    const call = (method: 'PUT' | 'DELETE', payload?: unknown) =>
      t.request({
        method,
        url: `/api/v1/jobs/${id}/active`,
        headers: { ...bearer(token), ...(payload ? { 'content-type': 'application/json' } : {}) },
        payload: payload ? JSON.stringify(payload) : undefined,
      });
    expect((await call('PUT', { startDate: '2026-11-01' })).statusCode).toBe(200);
    expect(await suggest('quok')).toEqual([
      { text: 'Quokka 플랫폼엔지니어', type: 'TITLE', count: 1 },
      { text: 'quokka', type: 'KEYWORD', count: 1 },
    ]);
    expect(await suggest('플랫ㅍ')).toEqual([{ text: '플랫폼엔지니어', type: 'KEYWORD', count: 1 }]);
    expect(await suggest('ㅍㄹㅍㅇ')).toEqual([{ text: '플랫폼엔지니어', type: 'KEYWORD', count: 1 }]);
    expect((await call('DELETE')).statusCode).toBe(200);
    expect(await suggest('quok')).toEqual([]);
  });

  it("answers at the reference's /v1 path too, needs an app key, and refuses a prefix of spaces or too long", async () => {
    const alias = await t.get('/v1/jobs/suggestions?prefix=back');
    expect(alias.statusCode).toBe(200);
    expect(alias.json()).toEqual(await suggest('back'));
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/v1/jobs/suggestions?prefix=back' });
    expect([anonymous.statusCode, anonymous.json().code]).toEqual([401, 'C0001']);
    for (const query of [
      '',
      'prefix=',
      'prefix=%20%20',
      `prefix=${'a'.repeat(51)}`,
      'prefix=a&pageSize=11',
      'prefix=a&pageSize=0',
    ]) {
      const res = await t.get(`/api/v1/jobs/suggestions?${query}`);
      expect([res.statusCode, res.json().code], query).toEqual([400, 'C0005']);
    }
  });
});
