import sharp from 'sharp';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failingMediaStore } from './helpers/failing-media-store.js';
import { gif, jpeg, png, webp } from './helpers/images.js';
import { imagePart, jsonPart, multipart, type Part } from './helpers/multipart.js';
import { createTestApp, type TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';
import { accessToken, bearer, createUser } from './helpers/tokens.js';
import { realWait } from './helpers/real-time.js';

const NEW_JOB = {
  jobTitle: '백엔드개발자 (TypeScript)',
  jobCategory: 'dev',
  seniorities: ['JUNIOR', 'MIDLEVEL'],
  employmentTypes: ['FULL_TIME'],
  jobBio: 'TypeScript로 API를 만듭니다.',
  jobResponse: 'API 설계',
  jobSubtitle: '판교에서 함께',
  jobMinimumQual: '경력 2년',
  jobPreferQual: 'PostgreSQL',
  jobBenefit: '유연 근무',
  jobHireProcess: '서류 → 면접',
  jobHireNotes: '수습 3개월',
  email: 'jobs@acme.example',
  notifyEmails: ['hr@acme.example'],
  military: false,
  veteran: true,
  settings: [{ title: '이력서', required: true, uploadType: 'ANY' }],
  workType: 'HYBRID',
};

describe.each(ENGINES)('job postings on %s', (engine) => {
  let t: TestContext;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp(engine);
    token = await accessToken(t, 'job:write job:manage:read');
  });
  afterAll(async () => {
    await t?.close();
  });

  const send = (method: 'POST' | 'PATCH', url: string, parts: Part[], authToken = token) => {
    const body = multipart(parts);
    return t.request({ method, url, headers: { ...body.headers, ...bearer(authToken) }, payload: body.payload });
  };
  const create = (request: unknown = NEW_JOB, extra: Part[] = [], company = 'acme-labs') =>
    send('POST', `/api/v1/jobs/platform?companyId=${company}`, [jsonPart(request), ...extra]);
  const call = (method: 'PUT' | 'DELETE', url: string, body?: unknown, authToken = token) =>
    t.request({
      method,
      url,
      headers: { ...bearer(authToken), ...(body ? { 'content-type': 'application/json' } : {}) },
      payload: body ? JSON.stringify(body) : undefined,
    });
  const jobCount = async () =>
    Number(
      (
        await t.db.database.db
          .selectFrom('jobs')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  describe('POST /api/v1/jobs/platform', () => {
    it('creates a draft with every field, 201 and Location', async () => {
      const res = await create(NEW_JOB, [imagePart(png(640, 480))]);
      expect(res.statusCode, res.body).toBe(201);
      const job = res.json();
      expect(res.headers.location).toBe(`/api/v1/jobs/${job.jobId}`);
      expect(job).toEqual({
        jobId: expect.any(Number),
        status: 'draft',
        hiring: false,
        title: NEW_JOB.jobTitle,
        seniorities: ['JUNIOR', 'MIDLEVEL'],
        employmentTypes: ['FULL_TIME'],
        webUrl: `https://www.test.example/jobs/${job.jobId}`,
        subtitle: '판교에서 함께',
        jobCategory: 'dev',
        workType: 'HYBRID',
        startAt: null,
        endAt: null,
      });
      expect((await t.get(`/api/v1/jobs/${job.jobId}`)).statusCode).toBe(404);
      const row = await t.db.database.db
        .selectFrom('jobs')
        .selectAll()
        .where('id', '=', job.jobId)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        duty: 'API 설계',
        minimum_qualification: '경력 2년',
        hire_notes: '수습 3개월',
        email: 'jobs@acme.example',
        veteran: 1,
        military: 0,
        allow_remote: 1,
      });
      const settings = await t.db.database.db
        .selectFrom('job_settings')
        .selectAll()
        .where('job_id', '=', job.jobId)
        .execute();
      expect(settings).toEqual([
        { job_id: job.jobId, position: 0, setting_type: 'CUSTOM', title: '이력서', required: 1, upload_type: 'ANY' },
      ]);
    });

    it('accepts the request part as an application/json file part', async () => {
      const res = await send('POST', '/api/v1/jobs/platform?companyId=acme-labs', [jsonPart(NEW_JOB, true)]);
      expect(res.statusCode, res.body).toBe(201);
    });

    it('stores images measured from their bytes and serves them with long-lived caching', async () => {
      const res = await create(NEW_JOB, [
        imagePart(png(640, 480)),
        imagePart(await gif(120, 90), 'a.gif', 'images', 'image/gif'),
        imagePart(await jpeg(800, 600), 'b.jpg'),
        imagePart(await webp(300, 200), 'c.webp'),
      ]);
      expect(res.statusCode).toBe(201);
      const published = await call('PUT', `/api/v1/jobs/${res.json().jobId}/active`, { startDate: '2026-11-01' });
      expect(published.statusCode).toBe(200);
      const detail = (await t.get(`/api/v1/jobs/${res.json().jobId}`)).json();
      expect(detail.jobImages).toHaveLength(4);
      expect(detail.jobImages.map((u: string) => u.slice(-4))).toEqual(['.png', '.gif', '.jpg', 'webp']);
      const media = await t.app.inject({ method: 'GET', url: new URL(detail.jobImages[0]).pathname });
      expect(media.statusCode).toBe(200);
      expect(media.headers['content-type']).toBe('image/png');
      expect(media.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(await sharp(media.rawPayload).metadata()).toMatchObject({ format: 'png', width: 640, height: 480 });
    });

    it("takes the reference's setting types, upload types and null for optional text, and stores each setting's type", async () => {
      const res = await create({
        ...NEW_JOB,
        jobSubtitle: null,
        jobBenefit: null,
        email: null,
        endDate: null,
        settings: [
          { type: 'RESUME', required: true, uploadType: 'FILE' },
          { type: 'PORTFOLIO', uploadType: 'URL' },
          { type: 'CUSTOM', title: '자기소개', uploadType: 'ANY' },
        ],
      });
      expect(res.statusCode, res.body).toBe(201);
      const { jobId } = res.json();
      const settings = await t.db.database.db
        .selectFrom('job_settings')
        .select(['setting_type', 'title', 'required', 'upload_type'])
        .where('job_id', '=', jobId)
        .orderBy('position')
        .execute();
      expect(settings).toEqual([
        { setting_type: 'RESUME', title: '', required: 1, upload_type: 'FILE' },
        { setting_type: 'PORTFOLIO', title: '', required: 0, upload_type: 'URL' },
        { setting_type: 'CUSTOM', title: '자기소개', required: 0, upload_type: 'ANY' },
      ]);
      const row = await t.db.database.db
        .selectFrom('jobs')
        .select(['subtitle', 'benefit', 'email', 'end_at'])
        .where('id', '=', jobId)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ subtitle: '', benefit: '', email: null, end_at: null });
      const untitled = await create({ ...NEW_JOB, settings: [{ type: 'CUSTOM', uploadType: 'ANY' }] });
      expect(untitled.json()).toMatchObject({ code: 'C0002', details: 'request.settings.0.title' });
      const patched = await send('PATCH', `/api/v1/jobs/${jobId}?type=PLATFORM`, [
        jsonPart({ jobHireNotes: null, settings: [{ type: 'COVER_LETTER' }] }),
      ]);
      expect(patched.statusCode, patched.body).toBe(200);
    });

    it('refuses a PATCH without type=PLATFORM with 400 C0005', async () => {
      const { jobId } = (await create()).json();
      const res = await send('PATCH', `/api/v1/jobs/${jobId}`, [jsonPart({ jobSubtitle: 'x' })]);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'C0005', details: 'type' });
      expect(
        (await send('PATCH', `/api/v1/jobs/${jobId}?type=EXTERNAL`, [jsonPart({ jobSubtitle: 'x' })])).json().code,
      ).toBe('C0005');
    });

    it.each([
      ['no request part', [] as Part[], 400, 'C0002', 'request'],
      ['a request that is not JSON', [{ name: 'request', value: '{oops' }], 400, 'C0002', 'request'],
      ['a missing title', [jsonPart({ ...NEW_JOB, jobTitle: undefined })], 400, 'C0002', 'request.jobTitle'],
      [
        'an unknown category',
        [jsonPart({ ...NEW_JOB, jobCategory: 'ASTRONAUT' })],
        400,
        'C0002',
        'request.jobCategory',
      ],
      [
        'an unknown employment type',
        [jsonPart({ ...NEW_JOB, employmentTypes: ['FOREVER'] })],
        400,
        'C0002',
        'request.employmentTypes.0',
      ],
      [
        'an unknown seniority',
        [jsonPart({ ...NEW_JOB, seniorities: ['WIZARD'] })],
        400,
        'C0002',
        'request.seniorities.0',
      ],
      ['a bad e-mail', [jsonPart({ ...NEW_JOB, email: 'not-an-email' })], 400, 'C0002', 'request.email'],
      ['a bad notify e-mail', [jsonPart({ ...NEW_JOB, notifyEmails: ['x@'] })], 400, 'C0002', 'request.notifyEmails'],
      [
        'a bad setting',
        [jsonPart({ ...NEW_JOB, settings: [{ title: 'CV', required: 'yes', uploadType: 'ANY' }] })],
        400,
        'C0002',
        'request.settings.0.required',
      ],
      ['a bad date', [jsonPart({ ...NEW_JOB, startDate: '2026-02-30' })], 400, 'C0002', 'request.startDate'],
      [
        'an end before the start',
        [jsonPart({ ...NEW_JOB, startDate: '2026-12-10', endDate: '2026-12-01' })],
        400,
        'C0002',
        'request.endDate',
      ],
      ['an unknown field', [jsonPart({ ...NEW_JOB, bonus: 1 })], 400, 'C0002', 'request'],
      [
        '11 images',
        [jsonPart(NEW_JOB), ...Array.from({ length: 11 }, () => imagePart(png(2, 2)))],
        400,
        'P0010',
        'images',
      ],
      [
        'a non-image named .png',
        [jsonPart(NEW_JOB), imagePart(Buffer.from('<html>not an image</html>'), 'evil.png')],
        400,
        'P0012',
        'images',
      ],
    ])('refuses %s with %i %s and stores nothing', async (_label, parts, status, code, details) => {
      const before = await jobCount();
      const res = await send('POST', '/api/v1/jobs/platform?companyId=acme-labs', parts);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json()).toMatchObject({ code, details });
      expect(await jobCount()).toBe(before);
    });

    it('refuses a JSON body with 415 C0007, a missing company with 400 C0005 and an unknown one with 404 C0008', async () => {
      const json = await t.request({
        method: 'POST',
        url: '/api/v1/jobs/platform?companyId=acme-labs',
        headers: { ...bearer(token), 'content-type': 'application/json' },
        payload: JSON.stringify(NEW_JOB),
      });
      expect(json.statusCode).toBe(415);
      expect(json.json().code).toBe('C0007');
      const noCompany = await send('POST', '/api/v1/jobs/platform', [jsonPart(NEW_JOB)]);
      expect(noCompany.json()).toMatchObject({ code: 'C0005', details: 'companyId' });
      expect((await create(NEW_JOB, [], 'no-such-company')).json()).toMatchObject({ code: 'C0008' });
    });

    it('needs a token (401 C0003), the job:write scope (403 C0011) and the capability at the company (403 C0004)', async () => {
      const before = await jobCount();
      const body = multipart([jsonPart(NEW_JOB)]);
      const noToken = await t.request({
        method: 'POST',
        url: '/api/v1/jobs/platform?companyId=acme-labs',
        headers: body.headers,
        payload: body.payload,
      });
      expect(noToken.statusCode).toBe(401);
      expect(noToken.json().code).toBe('C0003');
      const wrongScope = await send(
        'POST',
        '/api/v1/jobs/platform?companyId=acme-labs',
        [jsonPart(NEW_JOB)],
        await accessToken(t, 'profile'),
      );
      expect(wrongScope.statusCode).toBe(403);
      expect(wrongScope.json().code).toBe('C0011');
      expect(wrongScope.headers['www-authenticate']).toContain('scope="job:write"');
      const notHere = await create(NEW_JOB, [], 'nova-fintech');
      expect(notHere.statusCode).toBe(403);
      expect(notHere.json()).toMatchObject({ code: 'C0004' });
      expect(notHere.json().message).toContain('ENT_JOB_CREATE');
      expect(await jobCount()).toBe(before);
    });
  });

  describe('PATCH /api/v1/jobs/{jobId}', () => {
    it('changes only the fields sent', async () => {
      const id = (await create()).json().jobId;
      const res = await send('PATCH', `/api/v1/jobs/${id}?type=PLATFORM`, [
        jsonPart({ jobTitle: '시니어 백엔드개발자', seniorities: ['SENIOR'] }),
      ]);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        title: '시니어 백엔드개발자',
        seniorities: ['SENIOR'],
        subtitle: '판교에서 함께',
        employmentTypes: ['FULL_TIME'],
        workType: 'HYBRID',
      });
      const row = await t.db.database.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ description: NEW_JOB.jobBio, duty: 'API 설계', email: 'jobs@acme.example' });
    });

    it('makes the new title searchable once published', async () => {
      const id = (await create()).json().jobId;
      await send('PATCH', `/api/v1/jobs/${id}?type=PLATFORM`, [jsonPart({ jobTitle: 'Quantum gardener' })]);
      await call('PUT', `/api/v1/jobs/${id}/active`, { startDate: '2026-11-01' });
      const found = (await t.get('/api/v1/jobs?keyword=quantum')).json();
      expect(found.items.map((j: { jobId: number }) => j.jobId)).toEqual([id]);
    });

    it('refuses dates (they change only by publishing) and empty updates', async () => {
      const id = (await create()).json().jobId;
      const dates = await send('PATCH', `/api/v1/jobs/${id}?type=PLATFORM`, [jsonPart({ startDate: '2026-12-01' })]);
      expect(dates.statusCode).toBe(400);
      expect(dates.json().code).toBe('C0002');
      expect((await send('PATCH', `/api/v1/jobs/${id}?type=PLATFORM`, [jsonPart({})])).statusCode).toBe(400);
    });

    it('allows a job role holder on that job only, and checks companyId', async () => {
      const nova = t.demo.jobs.withResourceRole;
      expect(
        (await send('PATCH', `/api/v1/jobs/${nova}?type=PLATFORM`, [jsonPart({ jobSubtitle: '역할로 수정' })]))
          .statusCode,
      ).toBe(200);
      const otherNova = await t.db.database.db
        .selectFrom('jobs')
        .innerJoin('companies', 'companies.id', 'jobs.company_id')
        .select('jobs.id')
        .where('companies.handle', '=', 'nova-fintech')
        .where('jobs.id', '!=', nova)
        .where('jobs.job_type', '=', 'PLATFORM')
        .executeTakeFirstOrThrow();
      const refused = await send('PATCH', `/api/v1/jobs/${otherNova.id}?type=PLATFORM`, [
        jsonPart({ jobSubtitle: 'x' }),
      ]);
      expect(refused.statusCode).toBe(403);
      const mismatch = await send('PATCH', `/api/v1/jobs/${nova}?companyId=acme-labs&type=PLATFORM`, [
        jsonPart({ jobSubtitle: 'x' }),
      ]);
      expect(mismatch.statusCode).toBe(404);
      expect(mismatch.json().code).toBe('R0001');
      expect(
        (await send('PATCH', '/api/v1/jobs/999999?type=PLATFORM', [jsonPart({ jobSubtitle: 'x' })])).json().code,
      ).toBe('R0001');
    });

    it('refuses jobs that are not PLATFORM postings with 409 C0009', async () => {
      const outlink = await t.db.database.db
        .selectFrom('jobs')
        .innerJoin('companies', 'companies.id', 'jobs.company_id')
        .select('jobs.id')
        .where('companies.handle', '=', 'acme-labs')
        .where('jobs.job_type', '=', 'OUTLINK')
        .where('jobs.status', '!=', 'deleted')
        .executeTakeFirstOrThrow();
      const res = await send('PATCH', `/api/v1/jobs/${outlink.id}?type=PLATFORM`, [jsonPart({ jobSubtitle: 'x' })]);
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('C0009');
    });
  });

  describe('the job lifecycle', () => {
    it('follows docs/decisions.md: draft → published → finish → published → deleted, and refuses the rest with 409', async () => {
      const id = (await create()).json().jobId;
      const publish = () =>
        call('PUT', `/api/v1/jobs/${id}/active`, { startDate: '2026-11-20', endDate: '2026-12-31' });
      const deactivate = () => call('DELETE', `/api/v1/jobs/${id}/active`);
      expect((await deactivate()).statusCode).toBe(409);
      const published = await publish();
      expect(published.statusCode).toBe(200);
      expect(published.json()).toMatchObject({
        status: 'published',
        hiring: true,
        startAt: '2026-11-19T15:00:00.000Z',
        endAt: '2026-12-31T14:59:59.999Z',
      });
      expect((await t.get(`/api/v1/jobs/${id}`)).json()).toMatchObject({ status: 'published', hiring: true });
      expect((await publish()).statusCode).toBe(409);
      const finished = await deactivate();
      expect(finished.json()).toMatchObject({ status: 'finish', hiring: false });
      expect((await deactivate()).json().code).toBe('C0009');
      expect((await publish()).json()).toMatchObject({ status: 'published' });
      const deleted = await call('DELETE', `/api/v1/jobs/${id}`);
      expect(deleted.statusCode).toBe(204);
      expect(deleted.body).toBe('');
      expect((await t.get(`/api/v1/jobs/${id}`)).json().code).toBe('R0001');
      for (const res of [
        await publish(),
        await deactivate(),
        await call('DELETE', `/api/v1/jobs/${id}`),
        await send('PATCH', `/api/v1/jobs/${id}?type=PLATFORM`, [jsonPart({ jobSubtitle: 'x' })]),
      ]) {
        expect(res.statusCode).toBe(409);
        expect(res.json().code).toBe('C0009');
      }
    });

    it('answers a create, a publish and a deactivate with the job as written, reading none of them back', async () => {
      /** The statements `write` sends, once what earlier requests do after their answers (completing changes) is done. */
      const statementsOf = async (write: () => Promise<{ statusCode: number; body: string }>) => {
        for (let last = -1; last !== t.db.database.statements.count; ) {
          last = t.db.database.statements.count;
          await realWait(50, 'poll');
        }
        const before = t.db.database.statements.count;
        const res = await write();
        expect(res.statusCode, res.body).toBeLessThan(300);
        return { count: t.db.database.statements.count - before, answer: JSON.parse(res.body) as { jobId: number } };
      };
      // The token's checks and each operation's rate-limit units, kept from here on.
      const warm = (await create()).json().jobId;
      await call('PUT', `/api/v1/jobs/${warm}/active`, {});
      await call('DELETE', `/api/v1/jobs/${warm}/active`);
      const created = await statementsOf(() =>
        create({ ...NEW_JOB, seniorities: ['MIDLEVEL', 'JUNIOR'], employmentTypes: ['INTERN', 'FULL_TIME'] }),
      );
      const id = created.answer.jobId;
      // Seniorities and employment types in the catalogs' order, as every read shows them.
      expect(created.answer).toMatchObject({
        status: 'draft',
        seniorities: ['JUNIOR', 'MIDLEVEL'],
        employmentTypes: ['FULL_TIME', 'INTERN'],
      });
      // The company and the user's roles at it; the transaction: its begin, the job (its seniorities and employment
      // types in its row), its settings, its search change, the data version, the commit. Ten before migration 024,
      // which moved the codes out of two tables into the job's row; fourteen before that.
      expect(created.count).toBe(8);
      const listed = async () =>
        (await t.request({ url: '/api/v1/companies/acme-labs/jobs/accessible?pageSize=50', headers: bearer(token) }))
          .json()
          .items.find((job: { jobId: number }) => job.jobId === id);
      const asListed = (answer: object) => ({ ...answer, startAt: expect.any(String), endAt: expect.any(String) });
      expect(await listed()).toEqual({ ...created.answer });

      const published = await statementsOf(() =>
        call('PUT', `/api/v1/jobs/${id}/active`, { startDate: '2026-11-20', endDate: '2026-12-31' }),
      );
      expect(published.answer).toMatchObject({
        status: 'published',
        hiring: true,
        seniorities: ['JUNIOR', 'MIDLEVEL'],
        employmentTypes: ['FULL_TIME', 'INTERN'],
      });
      // The job (its codes in its row), the user's roles at its company; the transaction's begin, the job's status
      // changed from the one read, its search change, the data version, the feed's position, the change (its
      // company's handle taken in the same insert) and the commit. Ten before migration 024 (the codes read from two
      // tables); fourteen before that: the status read again inside the transaction, the company's handle read
      // apart, and the job read back for the answer.
      expect(published.count).toBe(9);
      expect(await listed()).toEqual(asListed(published.answer));

      const finished = await statementsOf(() => call('DELETE', `/api/v1/jobs/${id}/active`));
      expect(finished.answer).toMatchObject({
        status: 'finish',
        hiring: false,
        startAt: '2026-11-19T15:00:00.000Z',
        endAt: '2026-12-31T14:59:59.999Z',
      });
      expect(finished.count).toBe(9);
      expect(await listed()).toEqual(asListed(finished.answer));
      const changes = await t.db.database.db
        .selectFrom('change_events')
        .select(['type', 'company_handle'])
        .where('resource_id', '=', String(id))
        .orderBy('position')
        .execute();
      expect(changes).toEqual([
        { type: 'job.published', company_handle: 'acme-labs' },
        { type: 'job.closed', company_handle: 'acme-labs' },
      ]);
    });

    it('lets one of four deactivations sent at once through, refuses the others with 409 and records the change once', async () => {
      const id = (await create()).json().jobId;
      expect((await call('PUT', `/api/v1/jobs/${id}/active`, {})).statusCode).toBe(200);
      const answers = await Promise.all(Array.from({ length: 4 }, () => call('DELETE', `/api/v1/jobs/${id}/active`)));
      expect(answers.map((res) => res.statusCode).sort()).toEqual([200, 409, 409, 409]);
      for (const res of answers.filter((res) => res.statusCode === 409))
        expect(res.json()).toMatchObject({ code: 'C0009', details: 'status' });
      const closed = await t.db.database.db
        .selectFrom('change_events')
        .select('type')
        .where('resource_id', '=', String(id))
        .where('type', '=', 'job.closed')
        .execute();
      expect(closed).toHaveLength(1);
    });

    it('deletes drafts too, and refuses a publish with bad dates', async () => {
      const id = (await create()).json().jobId;
      expect((await call('PUT', `/api/v1/jobs/${id}/active`, { startDate: 'tomorrow' })).json()).toMatchObject({
        code: 'C0002',
        details: 'startDate',
      });
      expect(
        (await call('PUT', `/api/v1/jobs/${id}/active`, { startDate: '2026-11-01', endDate: '2026-11-10' })).json(),
      ).toMatchObject({ code: 'C0002', details: 'endDate' });
      expect((await call('DELETE', `/api/v1/jobs/${id}`)).statusCode).toBe(204);
    });

    it('opens a job now when startDate is left out or null', async () => {
      for (const body of [{}, { startDate: null }]) {
        const id = (await create()).json().jobId;
        const res = await call('PUT', `/api/v1/jobs/${id}/active`, body);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toMatchObject({
          status: 'published',
          hiring: true,
          startAt: new Date(t.clock.now).toISOString(),
          endAt: null,
        });
      }
    });

    it('opens an always-open job when endDate is left out', async () => {
      const id = (await create()).json().jobId;
      expect((await call('PUT', `/api/v1/jobs/${id}/active`, { startDate: '2026-11-21' })).json()).toMatchObject({
        endAt: null,
        hiring: true,
      });
    });
  });

  describe('GET /api/v1/companies/{companyId}/jobs/accessible', () => {
    it('lists every non-deleted company job with ENT_JOB_LIST', async () => {
      const body = (
        await t.request({
          method: 'GET',
          url: '/api/v1/companies/acme-labs/jobs/accessible?pageSize=50',
          headers: bearer(token),
        })
      ).json();
      const rows = await t.db.database.db
        .selectFrom('jobs')
        .innerJoin('companies', 'companies.id', 'jobs.company_id')
        .select('jobs.status')
        .where('companies.handle', '=', 'acme-labs')
        .where('jobs.status', '!=', 'deleted')
        .execute();
      expect(body.totalItems).toBe(rows.length);
      expect(new Set(body.items.map((j: { status: string }) => j.status))).toContain('draft');
      for (const job of body.items) expect(job.status).not.toBe('deleted');
    });

    it('lists only the jobs with item-level ENT_JOB_VIEW otherwise, and nothing for a stranger', async () => {
      const nova = (
        await t.request({
          method: 'GET',
          url: '/api/v1/companies/nova-fintech/jobs/accessible',
          headers: bearer(token),
        })
      ).json();
      expect(nova.items.map((j: { jobId: number }) => j.jobId)).toEqual([t.demo.jobs.withResourceRole]);
      const stranger = await createUser(t, 'stranger-jobs');
      const strangerToken = await accessToken(t, 'job:manage:read', stranger);
      const none = (
        await t.request({
          method: 'GET',
          url: '/api/v1/companies/acme-labs/jobs/accessible',
          headers: bearer(strangerToken),
        })
      ).json();
      expect(none).toMatchObject({ totalItems: 0, items: [] });
    });

    it('answers 404 C0008 for an unknown company and 403 without the scope', async () => {
      expect(
        (
          await t.request({ method: 'GET', url: '/api/v1/companies/nobody/jobs/accessible', headers: bearer(token) })
        ).json().code,
      ).toBe('C0008');
      const other = await accessToken(t, 'job:write');
      expect(
        (await t.request({ method: 'GET', url: '/api/v1/companies/acme-labs/jobs/accessible', headers: bearer(other) }))
          .statusCode,
      ).toBe(403);
    });
  });

  it('survives a restart of the database connection', async () => {
    const id = (await create()).json().jobId;
    const reopened = t.db.reopen();
    try {
      expect(await reopened.db.selectFrom('jobs').select('title').where('id', '=', id).executeTakeFirst()).toEqual({
        title: NEW_JOB.jobTitle,
      });
    } finally {
      await reopened.close();
    }
  });
});

describe.each(ENGINES)('a job create that fails part-way on %s', (engine) => {
  it('leaves no job and no files when the media store fails on the third image', async () => {
    const failing = failingMediaStore(3);
    const t = await createTestApp(engine, { mediaStore: failing.store });
    const dir = path.join(t.config.dataDir, 'media');
    failing.useFolder(dir);
    try {
      const token = await accessToken(t, 'job:write');
      const before = await t.db.database.db.selectFrom('jobs').select('id').execute();
      const body = multipart([jsonPart(NEW_JOB), ...[1, 2, 3, 4].map(() => imagePart(png(10, 10)))]);
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/jobs/platform?companyId=acme-labs',
        headers: { ...body.headers, ...bearer(token) },
        payload: body.payload,
      });
      expect(res.statusCode).toBe(502);
      expect(res.json().code).toBe('P0013');
      expect(await t.db.database.db.selectFrom('jobs').select('id').execute()).toEqual(before);
      const files = fs.existsSync(dir)
        ? fs.readdirSync(dir, { recursive: true }).filter((f) => String(f).includes('.'))
        : [];
      expect(files).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('refuses an image over the size limit with 400 P0011', async () => {
    const t = await createTestApp(engine, { config: { MEDIA_MAX_IMAGE_BYTES: '2048' } });
    try {
      const token = await accessToken(t, 'job:write');
      const big = Buffer.concat([png(40, 40), randomBytes(4096)]);
      expect(big.length).toBeGreaterThan(2048);
      const body = multipart([jsonPart(NEW_JOB), imagePart(big)]);
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/jobs/platform?companyId=acme-labs',
        headers: { ...body.headers, ...bearer(token) },
        payload: body.payload,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'P0011', details: 'images' });
    } finally {
      await t.close();
    }
  });
});
