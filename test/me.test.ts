import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';
import { accessToken, bearer, createUser } from './helpers/tokens.js';

describe.each(ENGINES)('me on %s', (engine) => {
  let t: TestContext;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp(engine);
    token = await accessToken(t, 'company:manage:read');
  });
  afterAll(async () => {
    await t?.close();
  });
  const get = (url: string, authToken = token) => t.request({ method: 'GET', url, headers: bearer(authToken) });

  it('lists companies with company-wide roles and their capabilities, leaving out resource-only companies', async () => {
    const res = await get('/api/v1/me/company-permissions');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      companies: [
        {
          company: {
            permalink: 'acme-labs',
            name: 'Acme Labs',
            logoUrl: 'https://api.test.example/media/demo/logos/acme-labs.png',
          },
          capabilities: [
            'ENT_JOB_LIST',
            'ENT_JOB_VIEW',
            'ENT_JOB_CREATE',
            'ENT_JOB_UPDATE',
            'ENT_JOB_PUBLISH',
            'ENT_JOB_DISABLE',
            'ENT_JOB_DELETE',
            'ENT_EVENT_CREATE',
            'ENT_EVENT_UPDATE',
            'ENT_EVENT_DELETE',
            'ENT_EVENT_SUB_MANAGE',
          ],
        },
      ],
    });
  });

  it('returns an empty list for a user without company-wide roles', async () => {
    const stranger = await createUser(t, 'stranger-me');
    expect(
      (await get('/api/v1/me/company-permissions', await accessToken(t, 'company:manage:read', stranger))).json(),
    ).toEqual({ companies: [] });
  });

  it('lists resource roles at a company, by type, precisely by id, and paged', async () => {
    const all = (await get('/api/v1/me/company-permissions/nova-fintech/resource-roles')).json();
    expect(all).toMatchObject({ totalItems: 2, totalPages: 1, page: 1, pageSize: 20 });
    expect(all.items).toEqual([
      {
        resourceType: 'EVENT',
        resourceId: t.demo.events.withResourceRole,
        capabilities: ['ENT_EVENT_UPDATE', 'ENT_EVENT_DELETE', 'ENT_EVENT_SUB_MANAGE'],
      },
      {
        resourceType: 'JOB',
        resourceId: String(t.demo.jobs.withResourceRole),
        capabilities: ['ENT_JOB_VIEW', 'ENT_JOB_UPDATE', 'ENT_JOB_PUBLISH', 'ENT_JOB_DISABLE', 'ENT_JOB_DELETE'],
      },
    ]);
    expect(
      (await get('/api/v1/me/company-permissions/nova-fintech/resource-roles?resourceType=JOB')).json().items,
    ).toHaveLength(1);
    const precise = (
      await get(
        `/api/v1/me/company-permissions/nova-fintech/resource-roles?resourceType=JOB&resourceId=${t.demo.jobs.withResourceRole}`,
      )
    ).json();
    expect(precise.items).toHaveLength(1);
    expect(
      (await get('/api/v1/me/company-permissions/nova-fintech/resource-roles?resourceType=JOB&resourceId=1')).json()
        .items,
    ).toEqual([]);
    const paged = (await get('/api/v1/me/company-permissions/nova-fintech/resource-roles?pageSize=1&page=2')).json();
    expect(paged).toMatchObject({ totalItems: 2, totalPages: 2, page: 2 });
    expect(paged.items).toHaveLength(1);
    expect((await get('/api/v1/me/company-permissions/acme-labs/resource-roles')).json()).toMatchObject({
      totalItems: 0,
      items: [],
    });
  });

  it('checks its parameters, the company and the scope', async () => {
    expect((await get('/api/v1/me/company-permissions/nova-fintech/resource-roles?resourceId=5')).json()).toMatchObject(
      { code: 'C0005', details: 'resourceType' },
    );
    expect(
      (await get('/api/v1/me/company-permissions/nova-fintech/resource-roles?resourceType=PLANET')).json(),
    ).toMatchObject({ code: 'C0005', details: 'resourceType' });
    expect((await get('/api/v1/me/company-permissions/nobody/resource-roles')).json()).toMatchObject({ code: 'C0008' });
    const other = await accessToken(t, 'profile');
    const refused = await get('/api/v1/me/company-permissions', other);
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['www-authenticate']).toContain('scope="company:manage:read"');
    expect((await t.request({ method: 'GET', url: '/api/v1/me/company-permissions' })).statusCode).toBe(401);
  });
});
