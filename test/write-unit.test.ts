import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeRow } from '../src/change-feed/change-log.js';
import { writeTransaction } from '../src/writes/write-unit.js';
import { createTestDatabase, ENGINES, type TestDatabase } from './helpers/test-database.js';

const NOW = Date.parse('2026-11-29T09:00:00Z');

describe.each(ENGINES)('a write unit on %s', (engine) => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase(engine);
  });
  afterAll(async () => {
    await test.database.close();
    await test.drop();
  });

  const db = () => test.database.db;
  const versions = async () =>
    Object.fromEntries(
      (
        await db()
          .selectFrom('data_version_slots')
          .select('name')
          .select((eb) => eb.fn.sum<number | string>('version').as('version'))
          .groupBy('name')
          .execute()
      ).map((r) => [r.name, Number(r.version)]),
    );
  const searchLog = async () =>
    (await db().selectFrom('search_changes').select(['kind', 'doc_id', 'created_at']).orderBy('id').execute()).map(
      (r) => ({ ...r, doc_id: Number(r.doc_id), created_at: Number(r.created_at) }),
    );
  const feed = () =>
    db().selectFrom('change_events').select(['type', 'resource_id', 'occurred_at']).orderBy('position').execute();

  it('records each effect its resource type has, once per transaction, and hands the feed its changes after the commit', async () => {
    // An event is logged by the number the database gave its row (its id is text).
    const company = await db()
      .insertInto('companies')
      .values({
        handle: 'unit-co',
        name: 'Unit',
        logo_url: null,
        industry: 'IT',
        size: 'SMALL',
        certificated: 0,
        created_at: NOW,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const event = await db()
      .insertInto('events')
      .values({
        id: 'evt-unit',
        company_id: company.id,
        author_user_id: null,
        status: 'published',
        event_name: 'Unit',
        description: '',
        event_open_type: 'OFFLINE',
        start_at: NOW,
        end_at: NOW + 3_600_000,
        online_link: null,
        country: null,
        region: null,
        locality: null,
        location_title: null,
        location_address: null,
        location_detail: null,
        location_description: null,
        location_hidden: 0,
        guest_hidden: 0,
        latitude: null,
        longitude: null,
        banner_key: null,
        language: 'ko',
        view_count: 0,
        guest_count: 0,
        created_at: NOW,
        updated_at: NOW,
        deleted_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
      .then(({ id }) =>
        db().selectFrom('events').select(['id', 'search_number']).where('id', '=', id).executeTakeFirstOrThrow(),
      );
    expect(Number(event.search_number)).toBeGreaterThan(0);
    const before = await versions();
    const handed: ChangeRow[][] = [];
    let publishedDuringTransaction = false;
    await writeTransaction(
      db(),
      {
        publish: async (rows) => {
          handed.push(rows ?? []);
        },
      },
      (unit) => unit,
      async (unit) => {
        await unit.record(
          NOW,
          { resource: 'post', id: 7, change: 'post.created', companyId: null },
          { resource: 'post', id: 8, change: 'post.updated', companyId: null },
        );
        await unit.record(NOW, { resource: 'job', id: 3, change: null, companyId: null });
        await unit.record(NOW, { resource: 'event', id: event.id, change: 'event.updated', companyId: null });
        // A company is shown inside posts, jobs and events: its write makes their answers stale too.
        await unit.record(NOW, {
          resource: 'company',
          id: company.id,
          change: 'company.updated',
          companyId: company.id,
        });
        // A profile is known to the feed by its member's handle, to the index by the member's number.
        await unit.record(NOW, {
          resource: 'profile',
          id: 41,
          publicId: 'member-41',
          change: 'profile.updated',
          companyId: null,
        });
        publishedDuringTransaction = handed.length > 0;
      },
    );
    await new Promise((resolve) => setImmediate(resolve));

    expect(await searchLog()).toEqual([
      { kind: 'post', doc_id: 7, created_at: NOW },
      { kind: 'post', doc_id: 8, created_at: NOW },
      { kind: 'job', doc_id: 3, created_at: NOW },
      { kind: 'event', doc_id: Number(event.search_number), created_at: NOW },
      { kind: 'company', doc_id: company.id, created_at: NOW },
      { kind: 'profile', doc_id: 41, created_at: NOW },
    ]);
    const after = await versions();
    // The version grows by the number of documents written.
    expect({
      posts: after.posts! - before.posts!,
      jobs: after.jobs! - before.jobs!,
      events: after.events! - before.events!,
      companies: after.companies! - before.companies!,
      profiles: after.profiles! - before.profiles!,
    }).toEqual({ posts: 3, jobs: 2, events: 2, companies: 1, profiles: 1 });
    expect(Object.keys(after).sort()).toEqual(['companies', 'events', 'jobs', 'posts', 'profiles']);
    // A draft job's write is no change of the feed.
    expect((await feed()).map((r) => [r.type, r.resource_id])).toEqual([
      ['post.created', '7'],
      ['post.updated', '8'],
      ['event.updated', event.id],
      ['company.updated', String(company.id)],
      ['profile.updated', 'member-41'],
    ]);
    expect(publishedDuringTransaction).toBe(false);
    expect(handed.flat().map((r) => r.type)).toEqual([
      'post.created',
      'post.updated',
      'event.updated',
      'company.updated',
      'profile.updated',
    ]);
  });

  it('leaves nothing behind when the transaction rolls back, and hands the feed nothing', async () => {
    const [log, changes, version] = [await searchLog(), await feed(), await versions()];
    const handed: Array<ChangeRow[] | undefined> = [];
    await expect(
      writeTransaction(
        db(),
        {
          publish: async (rows) => {
            handed.push(rows);
          },
        },
        (unit) => unit,
        async (unit) => {
          await unit.record(NOW, { resource: 'post', id: 9, change: 'post.created', companyId: null });
          throw new Error('the write failed');
        },
      ),
    ).rejects.toThrow('the write failed');
    expect([await searchLog(), await feed(), await versions()]).toEqual([log, changes, version]);
    expect(handed).toEqual([]);
  });
});

describe('where write effects are recorded', () => {
  it("no area records an effect by hand: every write goes through its transaction's unit", () => {
    const areas = path.resolve('src/modules');
    const files = fs.readdirSync(areas, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const byHand = files.filter((file) =>
      /\b(recordSearchChanges|bumpDataVersion|recordChanges)\b/.test(fs.readFileSync(path.join(areas, file), 'utf8')),
    );
    expect(byHand).toEqual([]);
    expect(
      files.filter((file) => fs.readFileSync(path.join(areas, file), 'utf8').includes('writes/write-unit.js')).sort(),
    ).toEqual([
      'companies/company-write-repository.ts',
      'events/event-write-repository.ts',
      'jobs/job-write-repository.ts',
      'posts/post-write-repository.ts',
      'profiles/profile-write-repository.ts',
    ]);
  });
});
