import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../src/db/migrate.js';
import { hashSecret } from '../src/shared/keys.js';
import { databasesAt } from './helpers/database-at.js';
import { serviceOn } from './helpers/migrated-service.js';
import { ENGINES } from './helpers/test-database.js';

const BEFORE = '2026-11-22-010-job-popularity-index';
const NOW = Date.parse('2026-11-21T03:00:00Z');

/** Data stored before the migrations after 010 (011-019) is carried over, in the reference's shape. */
describe.each(ENGINES)('migrations after 010 on %s', (engine) => {
  const openAt010 = databasesAt(engine, BEFORE);

  it('keeps every row and gives it the new fields: HYBRID events, old form fields, settings, sessions, FAQs, claims', async () => {
    const database = await openAt010();
    const db = database.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    const insert = (table: string, row: Record<string, unknown>) => db.insertInto(table).values(row).execute();
    const { id: companyId } = (await db
      .insertInto('companies')
      .values({ handle: 'old-co', name: 'Old Co', industry: 'SOFTWARE', size: 'SMALL', created_at: NOW })
      .returning('id')
      .executeTakeFirstOrThrow()) as { id: number };
    await insert('events', {
      id: 'evt_old',
      company_id: companyId,
      status: 'published',
      event_name: '옛 행사',
      event_open_type: 'HYBRID',
      start_at: NOW + 86_400_000,
      end_at: NOW + 90_000_000,
      language: 'ko',
      created_at: NOW,
      updated_at: NOW,
    });
    await insert('event_tickets', {
      event_id: 'evt_old',
      ticket_type: 'FREE',
      ticket_name: '일반',
      form_fields: JSON.stringify([{ label: '회사', type: 'TEXT', required: true }]),
      created_at: NOW,
      updated_at: NOW,
    });
    await insert('event_sessions', { event_id: 'evt_old', position: 0, title: '키노트', description: '시작' });
    await insert('event_faqs', { event_id: 'evt_old', position: 0, question: '주차?', answer: '됩니다' });
    const { id: jobId } = (await db
      .insertInto('jobs')
      .values({
        company_id: companyId,
        job_type: 'PLATFORM',
        status: 'draft',
        title: '옛 공고',
        job_category: 'SOFTWARE_ENGINEERING',
        work_type: 'ONSITE',
        language: 'ko',
        apply_type: 'PLATFORM',
        created_at: NOW,
        updated_at: NOW,
      })
      .returning('id')
      .executeTakeFirstOrThrow()) as { id: number };
    await insert('job_settings', { job_id: jobId, position: 0, title: '이력서', required: 1, upload_type: 'ANY' });
    await insert('jobs', {
      company_id: companyId,
      job_type: 'PLATFORM',
      status: 'published',
      title: '옛 채용 wombat',
      job_category: 'SOFTWARE_ENGINEERING',
      work_type: 'ONSITE',
      language: 'ko',
      apply_type: 'PLATFORM',
      created_at: NOW,
      updated_at: NOW,
      start_at: NOW - 86_400_000,
      end_at: null,
    });
    // A job whose window ended before the change feed existed, and one whose window ends later.
    const endedAt = Date.now() - 3_600_000;
    const endsAt = Date.now() + 30 * 86_400_000;
    for (const [title, end] of [
      ['끝난 채용 quokka', endedAt],
      ['열린 채용 quokka', endsAt],
    ] as const) {
      await insert('jobs', {
        company_id: companyId,
        job_type: 'PLATFORM',
        status: 'published',
        title,
        job_category: 'SOFTWARE_ENGINEERING',
        work_type: 'ONSITE',
        language: 'ko',
        apply_type: 'PLATFORM',
        created_at: NOW,
        updated_at: NOW,
        start_at: NOW - 86_400_000,
        end_at: end,
      });
    }
    await insert('idempotency_keys', {
      scope: 's',
      idempotency_key: 'k',
      request_hash: 'h',
      response_status: 201,
      response_body: '{"postId":1}',
      created_at: NOW,
      expires_at: NOW + 1,
    });
    const { id: oldAppId } = (await db
      .insertInto('apps')
      .values({ name: 'old app', owner_user_id: null, created_at: NOW })
      .returning('id')
      .executeTakeFirstOrThrow()) as { id: number };
    const oldKey = `svck_${'Old'.padEnd(32, '0')}`;
    await insert('app_keys', {
      app_id: oldAppId,
      key_hash: hashSecret(oldKey),
      key_hint: 'd000',
      created_at: NOW,
      revoked_at: null,
    });
    await insert('posts', {
      author_type: 'COMPANY',
      author_company_id: companyId,
      content: '옛날 글 platypus',
      language: 'ko',
      image_count: 0,
      has_og: 0,
      like_count: 0,
      comment_count: 0,
      posted_at: NOW,
      updated_at: NOW,
    });
    await insert('oauth_clients', {
      client_id: 'svcc_old',
      name: 'old client',
      secret_hash: 'h',
      redirect_uris: '["https://old.example/cb"]',
      allowed_scopes: 'profile',
      created_at: NOW,
      updated_at: NOW,
    });

    // A database made by the migrations as they were had the engines' full-text tables (the migrations no longer make them).
    for (const table of ['post_search', 'job_search', 'job_search_popular'])
      await sql`CREATE TABLE ${sql.table(table)} (doc_id bigint)`.execute(db);
    expect(await migrateToLatest(database)).toEqual([
      '2026-11-23-011-idempotency-claims',
      '2026-11-23-012-media-key-indexes',
      '2026-11-23-013-job-setting-types',
      '2026-11-23-014-event-reference-shape',
      '2026-11-23-015-app-credentials-lifecycle',
      '2026-11-24-016-post-search-index',
      '2026-11-24-017-job-search-index',
      '2026-11-24-018-console-reveals',
      '2026-11-25-019-real-service-codes',
      '2026-11-25-020-app-web-origins',
      '2026-11-25-021-change-events',
      '2026-11-25-022-webhooks',
      '2026-11-27-023-post-images-covering-index',
      '2026-11-27-024-job-codes-in-row',
      '2026-11-28-025-catalog-groups-and-descriptions',
      '2026-11-28-026-change-events-by-resource',
      '2026-11-28-027-webhook-test-deliveries',
      '2026-11-28-028-user-disabled',
      '2026-11-29-029-app-request-log',
      '2026-11-29-030-account-links',
      '2026-11-29-031-token-resource',
      '2026-12-01-032-dynamic-clients',
      '2026-12-01-033-client-registered-from',
      '2026-12-02-034-job-location-and-salary',
      '2026-12-07-035-event-search-index',
      '2026-12-07-036-company-directory',
      '2026-12-07-037-member-profiles',
    ]);
    // The change feed starts empty; a window that ended before it is not news (the hiring sweep skips it), a later end is.
    expect(await db.selectFrom('change_events').select('position').execute()).toEqual([]);
    const windows = await db
      .selectFrom('jobs')
      .select(['title', 'end_at', 'closed_event_for'])
      .where('title', 'like', '%quokka')
      .orderBy('title')
      .execute();
    expect(windows.map((j) => [j.title, Number(j.closed_event_for ?? 0) === Number(j.end_at)])).toEqual([
      ['끝난 채용 quokka', true],
      ['열린 채용 quokka', false],
    ]);
    // Keys keep working until revoked, apps have an empty profile, clients belong to no app and have no previous secret.
    expect((await sql`SELECT expires_at, revoked_at FROM app_keys`.execute(db)).rows).toEqual([
      { expires_at: null, revoked_at: null },
    ]);
    expect((await sql`SELECT description, homepage_url, privacy_url, deleted_at FROM apps`.execute(db)).rows).toEqual([
      { description: '', homepage_url: null, privacy_url: null, deleted_at: null },
    ]);
    expect(
      (await sql`SELECT app_id, previous_secret_hash, previous_secret_expires_at FROM oauth_clients`.execute(db)).rows,
    ).toEqual([{ app_id: null, previous_secret_hash: null, previous_secret_expires_at: null }]);

    const event = await sql<
      Record<string, unknown>
    >`SELECT event_open_type, access_type, join_type, latitude FROM events WHERE id = 'evt_old'`.execute(db);
    expect(event.rows).toEqual([
      { event_open_type: 'ON_OFFLINE', access_type: 'PUBLIC', join_type: 'OPEN', latitude: null },
    ]);
    const ticket = await sql<{
      form_fields: string;
      price: unknown;
    }>`SELECT form_fields, price FROM event_tickets`.execute(db);
    expect(JSON.parse(ticket.rows[0]!.form_fields)).toEqual([
      { fieldLabel: '회사', fieldType: 'TEXT', required: true },
    ]);
    expect(ticket.rows[0]!.price).toBeNull();
    expect((await sql`SELECT title, description, speakers, sort_no FROM event_sessions`.execute(db)).rows).toEqual([
      { title: '키노트', description: '시작', speakers: '[]', sort_no: 0 },
    ]);
    expect((await sql`SELECT question, answer, category_name FROM event_faqs`.execute(db)).rows).toEqual([
      { question: '주차?', answer: '됩니다', category_name: 'FAQ' },
    ]);
    expect((await sql`SELECT setting_type, title, upload_type FROM job_settings`.execute(db)).rows).toEqual([
      { setting_type: 'CUSTOM', title: '이력서', upload_type: 'ANY' },
    ]);
    expect((await sql`SELECT response_status, owner, resource_id FROM idempotency_keys`.execute(db)).rows).toEqual([
      { response_status: 201, owner: null, resource_id: null },
    ]);

    // And the service reads them in the new shape.
    const { app, get } = await serviceOn(database, NOW);
    try {
      expect(await get('/api/v1/events/evt_old')).toMatchObject({
        eventOpenType: 'ON_OFFLINE',
        accessType: 'PUBLIC',
        tickets: [{ formFields: [{ fieldLabel: '회사', fieldType: 'TEXT' }] }],
      });
      expect(
        (await app.inject({ method: 'GET', url: '/api/v1/events/evt_old', headers: { 'x-svc-api-key': oldKey } }))
          .statusCode,
      ).toBe(200);
      // A post stored before post search moved to the service's own index is found in it.
      expect(await get('/api/v1/posts?keyword=platypus')).toMatchObject({
        totalItems: 1,
        items: [{ content: '옛날 글 platypus' }],
      });
      // So is a job hiring before job search moved there, and the engines' full-text tables are gone.
      expect(await get('/api/v1/jobs?keyword=wombat')).toMatchObject({
        totalItems: 1,
        items: [{ title: '옛 채용 wombat' }],
      });
      for (const table of ['post_search', 'job_search', 'job_search_popular', 'search_sweeps']) {
        await expect(sql`SELECT 1 FROM ${sql.table(table)}`.execute(db)).rejects.toThrow();
      }
    } finally {
      await app.close();
    }
  });
});
