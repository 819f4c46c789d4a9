import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoData, type DemoManifest } from '../src/demo/demo-generator.js';
import { TEST_NOW } from './helpers/test-app.js';
import { createTestDatabase, type TestDatabase } from './helpers/test-database.js';

describe('demo data', () => {
  let a: TestDatabase;
  let b: TestDatabase;
  let demo: DemoManifest;
  beforeAll(async () => {
    a = await createTestDatabase('sqlite');
    b = await createTestDatabase('sqlite');
    demo = await generateDemoData(a.database, { now: TEST_NOW });
    await generateDemoData(b.database, { now: TEST_NOW });
  });
  afterAll(async () => {
    for (const db of [a, b]) {
      await db.database.close();
      await db.drop();
    }
  });

  it('is the same on every run', async () => {
    for (const table of [
      'posts',
      'jobs',
      'events',
      'post_translations',
      'job_translations',
      'event_tickets',
    ] as const) {
      const rowsA = await a.database.db.selectFrom(table).selectAll().execute();
      const rowsB = await b.database.db.selectFrom(table).selectAll().execute();
      expect(rowsB).toEqual(rowsA);
    }
  });

  it('names an example of every case the spec and docs/decisions.md list', () => {
    for (const group of [demo.posts, demo.jobs, demo.events]) {
      for (const [name, value] of Object.entries(group)) expect(value, name).toBeDefined();
    }
    expect(demo.posts.byDemoUser.length).toBeGreaterThan(3);
  });

  it('translates posts, jobs and events into en, ja, zh-CN and zh-TW', async () => {
    const db = a.database.db;
    for (const table of ['post_translations', 'job_translations', 'event_translations'] as const) {
      const languages = (await db.selectFrom(table).select('language').distinct().execute())
        .map((r) => r.language)
        .sort();
      expect(languages).toEqual(['en', 'ja', 'zh-CN', 'zh-TW']);
    }
  });

  it('gives the demo user company-wide roles at the demo company and only resource roles at the other', async () => {
    const db = a.database.db;
    const roles = await db
      .selectFrom('company_roles')
      .innerJoin('companies', 'companies.id', 'company_roles.company_id')
      .select(['companies.handle', 'company_roles.role'])
      .where('company_roles.user_id', '=', demo.user.id)
      .execute();
    expect(roles.map((r) => `${r.handle}:${r.role}`).sort()).toEqual([
      'acme-labs:EVENT_MANAGER',
      'acme-labs:RECRUITER',
    ]);
    const resourceRoles = await db
      .selectFrom('resource_roles')
      .innerJoin('companies', 'companies.id', 'resource_roles.company_id')
      .select(['companies.handle', 'resource_roles.resource_type'])
      .where('resource_roles.user_id', '=', demo.user.id)
      .execute();
    expect(resourceRoles.map((r) => `${r.handle}:${r.resource_type}`).sort()).toEqual([
      'nova-fintech:EVENT',
      'nova-fintech:JOB',
    ]);
  });

  it('covers company and member authors, certificated authors, images with and without sizes, and stats', async () => {
    const db = a.database.db;
    const authorTypes = (await db.selectFrom('posts').select('author_type').distinct().execute())
      .map((r) => r.author_type)
      .sort();
    expect(authorTypes).toEqual(['COMPANY', 'MEMBER']);
    expect(await db.selectFrom('users').select('id').where('certificated', '=', 1).execute()).not.toEqual([]);
    expect(await db.selectFrom('post_images').select('id').where('width', 'is', null).execute()).not.toEqual([]);
    expect(await db.selectFrom('post_images').select('id').where('width', 'is not', null).execute()).not.toEqual([]);
    expect(await db.selectFrom('posts').select('id').where('like_count', 'is', null).execute()).not.toEqual([]);
  });
});
