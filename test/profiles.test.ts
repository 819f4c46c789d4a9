import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.js';
import { DEMO_USER } from '../src/demo/demo-generator.js';
import { foldedSkill } from '../src/search/fields.js';
import { distanceKm } from '../src/search/geo-cells.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';
import { ConsoleForms } from './helpers/console-forms.js';
import { injectSend } from './helpers/oauth-browser.js';
import { anotherInstance, createTestApp, testConfig, type TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';
import { accessToken, bearer, consentPage, createUser } from './helpers/tokens.js';

/**
 * Members' profiles over HTTP on the demo (issue 89): what an app key finds and reads is only what each member made
 * public, counts and facets included; a profile taken back is gone on another instance at the next request, in the
 * feed and in webhooks; the member keeps their own with a token; the daily and deep-page bounds.
 */
describe.each(ENGINES)('profiles on %s', (engine) => {
  let t: TestContext;
  let other: App;
  let receiver: Receiver;
  beforeAll(async () => {
    t = await createTestApp(engine, { config: { WEBHOOKS_ALLOW_LOOPBACK: 'true', WEBHOOK_TIMEOUT_MS: '2000' } });
    other = await anotherInstance(t);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await other?.close();
    await t?.close();
    await receiver?.close();
  });

  const onOther = (url: string) =>
    other.inject({ method: 'GET', url, headers: { 'x-svc-api-key': t.demo.apiKey } }).then((res) => res.json());

  /** A new member with a `profile:write` token who writes `payload` as their profile; their token. */
  async function memberWith(handle: string, payload: Record<string, unknown>): Promise<string> {
    const token = await accessToken(t, 'profile:write', await createUser(t, handle));
    const res = await t.request({ method: 'PATCH', url: '/api/v1/me/profile', headers: bearer(token), payload });
    expect(res.statusCode, res.body).toBe(200);
    return token;
  }

  /** The public profiles worked out row by row: public, of an account in use. */
  async function publicRows() {
    const rows = await t.db.database.db
      .selectFrom('profiles as p')
      .innerJoin('users as u', 'u.id', 'p.user_id')
      .select([
        'u.id',
        'u.handle',
        'p.skills',
        'p.visibility',
        'u.disabled_at',
        'p.location_country',
        'p.location_latitude',
        'p.location_longitude',
        'p.open_to_work',
        'p.show_open_to_work',
        'p.show_experiences',
        'p.current_company_id',
        'p.updated_at',
      ])
      .execute();
    return rows.filter((r) => r.visibility === 'PUBLIC' && r.disabled_at === null);
  }

  it('finds only public profiles, with exact counts, ordered and filtered as the rule says row by row', async () => {
    const rows = await publicRows();
    const all = (await t.get('/api/v1/profiles?sort=RECENT&pageSize=50')).json();
    const recent = [...rows].sort((a, b) => Number(b.updated_at) - Number(a.updated_at) || Number(b.id) - Number(a.id));
    expect(all.totalItems).toBe(rows.length);
    expect(all.items.map((p: { handle: string }) => p.handle)).toEqual(recent.map((r) => r.handle));
    // The private members and the one without a profile are nowhere.
    const handles = new Set(all.items.map((p: { handle: string }) => p.handle));
    for (const hidden of ['member-07', 'member-15', 'member-24']) expect(handles.has(hidden)).toBe(false);

    // Each filter against the rows: a skill in any case, a country, open to work only where shown.
    const skill = JSON.parse(rows[0]!.skills)[0] as string;
    const bySkill = (await t.get(`/api/v1/profiles?skills=${encodeURIComponent(skill.toUpperCase())}`)).json();
    expect(bySkill.totalItems).toBe(
      rows.filter((r) => (JSON.parse(r.skills) as string[]).some((s) => foldedSkill(s) === foldedSkill(skill))).length,
    );
    // A radius: the members whose town is within it, measured row by row (and none without coordinates).
    for (const [near, radiusKm] of [
      ['37.5665,126.978', 25],
      ['37.4,127.1', 5],
      ['35.1796,129.0756', 50],
    ] as const) {
      const [latitude, longitude] = near.split(',').map(Number) as [number, number];
      const expected = rows.filter(
        (r) =>
          r.location_latitude !== null &&
          distanceKm(
            { latitude, longitude },
            { latitude: Number(r.location_latitude), longitude: Number(r.location_longitude) },
          ) <= radiusKm,
      );
      const found = (await t.get(`/api/v1/profiles?near=${near}&radiusKm=${radiusKm}&pageSize=50`)).json();
      expect(found.totalItems, near).toBe(expected.length);
      if (radiusKm === 25) expect(expected.length).toBeGreaterThan(0);
      expect(found.items.map((p: { handle: string }) => p.handle).sort()).toEqual(expected.map((r) => r.handle).sort());
    }
    const japan = (await t.get('/api/v1/profiles?countries=JP')).json();
    expect(japan.totalItems).toBe(rows.filter((r) => r.location_country === 'JP').length);
    const open = (await t.get('/api/v1/profiles?openToWork=true&facets=openToWork,companyId,skills')).json();
    const openRows = rows.filter((r) => r.open_to_work === 1 && r.show_open_to_work === 1);
    expect(open.totalItems).toBe(openRows.length);
    expect(openRows.length).toBeGreaterThan(0);
    // An item whose member hides openness to work does not carry the field at all.
    for (const item of all.items) {
      const row = rows.find((r) => r.handle === item.handle)!;
      expect('openToWork' in item).toBe(row.show_open_to_work === 1);
      expect('currentPosition' in item).toBe(row.show_experiences === 1);
    }
    // Facets count only what is shown: openToWork=true among everyone, companies only of shown experiences.
    const facets = (await t.get('/api/v1/profiles?facets=openToWork,companyId')).json().facets;
    expect(facets.openToWork).toEqual(expect.arrayContaining([{ value: 'true', count: openRows.length }]));
    const shownCompanies = rows.filter((r) => r.show_experiences === 1 && r.current_company_id !== null).length;
    expect(facets.companyId.reduce((sum: number, f: { count: number }) => sum + f.count, 0)).toBe(shownCompanies);
  });

  it('reads a public profile without its hidden sections, and answers every profile it may not show with one 404', async () => {
    // member-04 (n = 4) hides experiences; member-05 educations; member-03 links; member-02 openness to work.
    const four = (await t.get('/api/v1/profiles/member-04')).json();
    expect(four).toMatchObject({ handle: 'member-04', webUrl: 'https://www.test.example/profiles/member-04' });
    expect(four).not.toHaveProperty('experiences');
    expect(four).not.toHaveProperty('currentPosition');
    expect(four.educations).toHaveLength(1);
    expect((await t.get('/api/v1/profiles/member-05')).json()).not.toHaveProperty('educations');
    expect((await t.get('/api/v1/profiles/member-03')).json()).not.toHaveProperty('links');
    expect((await t.get('/api/v1/profiles/member-02')).json()).not.toHaveProperty('openToWork');
    const one = (await t.get('/api/v1/profiles/member-01')).json();
    expect(one.experiences[0]).toMatchObject({ companyId: expect.any(String), endDate: null });
    expect(one).not.toHaveProperty('email');
    // The app's request log keeps the operation and its status, never what a profile says.
    await t.app.requestLog.flush();
    const logged = await t.db.database.db.selectFrom('app_requests').selectAll().execute();
    expect(logged.some((row) => row.operation === 'getProfile')).toBe(true);
    expect(JSON.stringify(logged)).not.toContain(one.headline);

    // Another member's token beside the app key changes nothing an app sees.
    const stranger = await createUser(t, 'curious-member');
    const theirs = await accessToken(t, 'profile', stranger);
    const withToken = await t.get('/api/v1/profiles/member-04', bearer(theirs));
    expect(withToken.json()).toEqual(four);
    expect((await t.get('/api/v1/profiles/member-07', bearer(theirs))).statusCode).toBe(404);
    expect((await t.get('/api/v1/profiles?pageSize=50', bearer(theirs))).json().totalItems).toBe(
      (await t.get('/api/v1/profiles?pageSize=50')).json().totalItems,
    );

    // Private, never written, disabled and never existing: the same status, body and header names.
    const disabled = await createUser(t, 'gone-member');
    await t.db.database.db
      .insertInto('profiles')
      .values({ user_id: disabled.id, visibility: 'PUBLIC', headline: 'x', created_at: 1, updated_at: 1 })
      .execute();
    await t.db.database.db.updateTable('users').set({ disabled_at: 1 }).where('id', '=', disabled.id).execute();
    const answers = await Promise.all(
      ['member-07', 'member-24', 'gone-member', 'nobody-here'].map((handle) => t.get(`/api/v1/profiles/${handle}`)),
    );
    const shape = (res: (typeof answers)[number], handle: string) => ({
      status: res.statusCode,
      body: res.body.replace(handle, 'HANDLE'),
      headers: Object.keys(res.headers).sort(),
    });
    const [first, ...rest] = answers.map((res, i) =>
      shape(res, ['member-07', 'member-24', 'gone-member', 'nobody-here'][i]!),
    );
    expect(first!.status).toBe(404);
    expect(JSON.parse(first!.body)).toMatchObject({ code: 'C0008' });
    for (const answer of rest) expect(answer).toEqual(first);
  });

  it('gives the member their whole profile with profile:read, the e-mail only with email, and refuses other scopes', async () => {
    const token = await accessToken(t, 'profile:read');
    const mine = await t.request({ method: 'GET', url: '/api/v1/me/profile', headers: bearer(token) });
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json()).toMatchObject({ handle: DEMO_USER.handle, visibility: { profile: 'PUBLIC' } });
    expect(mine.json()).not.toHaveProperty('email');
    const withEmail = await accessToken(t, 'profile email');
    expect(
      (await t.request({ method: 'GET', url: '/api/v1/me/profile', headers: bearer(withEmail) })).json().email,
    ).toBe(DEMO_USER.email);
    const wrong = await accessToken(t, 'post:write');
    const refused = await t.request({ method: 'GET', url: '/api/v1/me/profile', headers: bearer(wrong) });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('C0011');
    const write = await t.request({
      method: 'PATCH',
      url: '/api/v1/me/profile',
      headers: bearer(token),
      payload: { headline: 'x' },
    });
    expect(write.statusCode).toBe(403);
  });

  it('refuses a bad profile with the field at fault, changing nothing', async () => {
    const token = await accessToken(t, 'profile:write profile:read');
    const before = (await t.request({ method: 'GET', url: '/api/v1/me/profile', headers: bearer(token) })).json();
    const cases: Array<[Record<string, unknown>, string]> = [
      [
        {
          experiences: [
            {
              companyName: 'A',
              companyId: 'no-such-co',
              title: 'T',
              startDate: '2020-01',
              endDate: null,
              description: null,
            },
          ],
        },
        'request.experiences[0].companyId',
      ],
      [
        { educations: [{ school: 'S', degree: null, fieldOfStudy: null, startDate: '2020-05', endDate: '2019-01' }] },
        'request.educations[0].endDate',
      ],
      [{ links: [{ type: 'BLOG', url: 'javascript:alert(1)' }] }, 'request.links[0].url'],
      [{ location: { country: 'KR', region: null, latitude: 37.5, longitude: null } }, 'request.location'],
      [{ visibility: { profile: 'FRIENDS' } }, ''],
    ];
    for (const [payload, field] of cases) {
      const res = await t.request({ method: 'PATCH', url: '/api/v1/me/profile', headers: bearer(token), payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      if (field) expect(res.json().details ?? res.json().field ?? res.body).toContain(field);
    }
    const after = (await t.request({ method: 'GET', url: '/api/v1/me/profile', headers: bearer(token) })).json();
    expect(after).toEqual(before);
  });

  it('takes a profile made private from search, detail, facets and suggestions on another instance at once, and from the feed and webhooks', async () => {
    const forms = new ConsoleForms(injectSend(t.app));
    await forms.signIn(t.demo.user);
    const { appId } = await forms.createApp('프로필 웹훅');
    const { secret } = await forms.createEndpoint(appId, receiver.url(), ['profile.updated', 'profile.deleted']);
    const cursor = (await t.get('/api/v1/changes?after=now')).json().nextCursor as string;
    const member = await createUser(t, 'rare-skill-member');
    const token = await accessToken(t, 'profile:write profile:read', member);
    const patch = (payload: Record<string, unknown>) =>
      t.request({ method: 'PATCH', url: '/api/v1/me/profile', headers: bearer(token), payload });

    // Public with a skill nobody else has, and experiences at a demo company.
    const made = await patch({
      headline: '희귀한 기술의 엔지니어',
      skills: ['Zig-Quasar'],
      experiences: [
        {
          companyName: 'Acme Labs',
          companyId: 'acme-labs',
          title: 'Engineer',
          startDate: '2024-01',
          endDate: null,
          description: 'secret project',
        },
      ],
      location: { country: 'KR', region: '서울', latitude: 37.5665, longitude: 126.978 },
      visibility: { profile: 'PUBLIC' },
    });
    expect(made.statusCode, made.body).toBe(200);
    // A town, never an address: coordinates kept to one decimal.
    expect(made.json().location).toEqual({ country: 'KR', region: '서울', latitude: 37.6, longitude: 127 });
    expect((await onOther('/api/v1/profiles?skills=zig-quasar')).totalItems).toBe(1);
    // Its town is a point of its own (one member): found within a radius of it, not beyond.
    expect(
      (await onOther('/api/v1/profiles?near=37.62,127.02&radiusKm=5')).items.map((p: { handle: string }) => p.handle),
    ).toEqual(['rare-skill-member']);
    expect((await onOther('/api/v1/profiles?near=37.9,127.5&radiusKm=5')).totalItems).toBe(0);
    expect((await onOther('/api/v1/profiles/suggestions?prefix=zig'))[0]).toMatchObject({
      text: 'zig-quasar',
      count: 1,
    });
    const companyFacet = (await onOther('/api/v1/profiles?keyword=zig-quasar&facets=companyId')).facets.companyId;
    expect(companyFacet).toEqual([{ value: 'acme-labs', count: 1 }]);
    expect((await onOther('/api/v1/profiles/rare-skill-member')).experiences).toHaveLength(1);

    // Experiences hidden: the company facet and title words no longer find it; the detail has no experiences.
    await patch({ visibility: { experiences: false } });
    expect((await onOther('/api/v1/profiles?keyword=zig-quasar&facets=companyId')).facets.companyId).toEqual([]);
    expect((await onOther('/api/v1/profiles?companyId=acme-labs&skills=zig-quasar')).totalItems).toBe(0);
    expect(await onOther('/api/v1/profiles/rare-skill-member')).not.toHaveProperty('experiences');

    // A search answer's ETag from before: it must not be confirmed (304) once the profile is private.
    const before = await other.inject({
      method: 'GET',
      url: '/api/v1/profiles?skills=zig-quasar',
      headers: { 'x-svc-api-key': t.demo.apiKey },
    });
    const etag = before.headers.etag as string;
    expect(etag).toBeTruthy();

    // Private: gone everywhere on the other instance at its next request.
    await patch({ visibility: { profile: 'PRIVATE' } });
    const revalidated = await other.inject({
      method: 'GET',
      url: '/api/v1/profiles?skills=zig-quasar',
      headers: { 'x-svc-api-key': t.demo.apiKey, 'if-none-match': etag },
    });
    expect(revalidated.statusCode).toBe(200);
    expect(revalidated.json().totalItems).toBe(0);
    expect((await onOther('/api/v1/profiles?skills=zig-quasar')).totalItems).toBe(0);
    expect(await onOther('/api/v1/profiles/suggestions?prefix=zig')).toEqual([]);
    expect((await onOther('/api/v1/profiles/rare-skill-member')).code).toBe('C0008');

    // The feed: two updates and a deletion, none of them holding anything now.
    const changes = (await t.get(`/api/v1/changes?after=${cursor}&types=profile.updated,profile.deleted`)).json();
    expect(changes.items.map((c: { type: string }) => c.type)).toEqual([
      'profile.updated',
      'profile.updated',
      'profile.deleted',
    ]);
    for (const change of changes.items) {
      expect(change.resource).toMatchObject({ type: 'profile', id: 'rare-skill-member' });
      expect(change.data).toBeNull();
    }
    expect(JSON.stringify(changes)).not.toContain('secret project');
    // Webhooks carry no more than the feed held at their sending: only the change made while the experiences were
    // public may have been sent with them (when its delivery went out before they were hidden).
    await t.app.webhooks.settle();
    const bodies = receiver.received.map(
      (d) => new Webhook(secret).verify(d.body, d.headers) as { id: string; type: string; data: unknown },
    );
    // At least once: a change may come twice, under its one id.
    expect([...new Set(bodies.map((b) => b.id))].sort()).toEqual(changes.items.map((c: { id: string }) => c.id).sort());
    for (const body of bodies.filter((b) => b.id !== changes.items[0].id))
      expect(JSON.stringify(body)).not.toContain('secret project');
    expect(bodies.find((b) => b.type === 'profile.deleted')!.data).toBeNull();
  });

  it('carries only the public profile in profile.updated', async () => {
    const cursor = (await t.get('/api/v1/changes?after=now')).json().nextCursor as string;
    await memberWith('feed-member', {
      headline: 'Open data',
      links: [{ type: 'GITHUB', url: 'https://github.com/feed-member' }],
      visibility: { profile: 'PUBLIC', links: false },
    });
    const changes = (await t.get(`/api/v1/changes?after=${cursor}&types=profile.updated`)).json();
    expect(changes.items).toHaveLength(1);
    expect(changes.items[0].data).toMatchObject({ handle: 'feed-member', headline: 'Open data' });
    expect(changes.items[0].data).not.toHaveProperty('links');
  });

  it('highlights the name and headline, tolerates typos with didYouMean, and finds job titles only where shown', async () => {
    const token = await memberWith('highlight-member', {
      headline: 'Kubernetes platform engineer',
      experiences: [
        {
          companyName: 'Orbitalworks',
          companyId: null,
          title: 'Quartermaster',
          startDate: '2022-01',
          endDate: null,
          description: null,
        },
      ],
      visibility: { profile: 'PUBLIC' },
    });
    const lit = (await t.get('/api/v1/profiles?keyword=platform&highlight=true')).json();
    const item = lit.items.find((p: { handle: string }) => p.handle === 'highlight-member');
    expect(item.highlights).toEqual([
      expect.objectContaining({ field: 'headline', fragments: [expect.objectContaining({ matches: [[11, 19]] })] }),
    ]);
    const typo = (await t.get('/api/v1/profiles?keyword=platfrom&typoTolerance=true')).json();
    expect(typo.didYouMean).toBe('platform');
    expect(typo.items.map((p: { handle: string }) => p.handle)).toContain('highlight-member');
    // A job title finds the member while experiences are shown, and not once they are hidden.
    expect((await t.get('/api/v1/profiles?keyword=quartermaster')).json().totalItems).toBe(1);
    await t.request({
      method: 'PATCH',
      url: '/api/v1/me/profile',
      headers: bearer(token),
      payload: { visibility: { experiences: false } },
    });
    expect((await t.get('/api/v1/profiles?keyword=quartermaster')).json().totalItems).toBe(0);
  });

  it('refuses a missing or wrong key, a missing token and a spent profile.update limit, changing nothing', async () => {
    for (const url of ['/api/v1/profiles', '/api/v1/profiles/member-01', '/api/v1/profiles/suggestions?prefix=t']) {
      expect((await t.app.inject({ method: 'GET', url })).json(), url).toMatchObject({ code: 'C0001' });
      const wrong = await t.app.inject({ method: 'GET', url, headers: { 'x-svc-api-key': 'svc_not_a_key' } });
      expect(wrong.statusCode, url).toBe(401);
      expect(wrong.body).not.toContain('headline');
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/me/profile' })).statusCode).toBe(401);
    const limited = await anotherInstance(
      t,
      testConfig({
        RATE_LIMIT_PROFILE_UPDATE_PER_MINUTE: '5',
        RATE_LIMIT_PROFILE_UPDATE_PER_HOUR: '40',
        RATE_LIMIT_PROFILE_UPDATE_PER_DAY: '300',
      }),
    );
    try {
      t.clock.now += 7 * 86_400_000;
      const token = await accessToken(t, 'profile:write', await createUser(t, 'limited-writer'));
      const write = (headline: string) =>
        limited.inject({ method: 'PATCH', url: '/api/v1/me/profile', headers: bearer(token), payload: { headline } });
      for (let i = 0; i < 5; i++) expect((await write(`take ${i}`)).statusCode).toBe(200);
      const over = await write('one too many');
      expect(over.statusCode).toBe(429);
      expect(over.json()).toMatchObject({ code: 'C0010' });
      expect(over.headers['x-svc-ratelimit-scope']).toBe('profile.update');
      const own = await t.db.database.db
        .selectFrom('profiles as p')
        .innerJoin('users as u', 'u.id', 'p.user_id')
        .select('p.headline')
        .where('u.handle', '=', 'limited-writer')
        .executeTakeFirstOrThrow();
      expect(own.headline).toBe('take 4');
    } finally {
      await limited.close();
    }
  });

  it('stops profile search at result 1,000 with 400 C0005', async () => {
    const deep = await t.get('/api/v1/profiles?page=21&pageSize=50');
    expect(deep.statusCode).toBe(400);
    expect(deep.json()).toMatchObject({ code: 'C0005' });
    expect(deep.json().message).toContain('1,000');
    expect((await t.get('/api/v1/profiles?page=20&pageSize=50')).statusCode).toBe(200);
    expect((await t.get('/api/v1/profiles?page=50&pageSize=20')).statusCode).toBe(200);
    expect((await t.get('/api/v1/profiles?page=51&pageSize=20')).statusCode).toBe(400);
  });

  it('reads at most PROFILE_READS_PER_DAY distinct profiles a day per app, then 429 with the scope header', async () => {
    const limited = await anotherInstance(t, testConfig({ PROFILE_READS_PER_DAY: '2' }));
    try {
      t.clock.now += 3 * 86_400_000;
      const read = (handle: string) =>
        limited.inject({
          method: 'GET',
          url: `/api/v1/profiles/${handle}`,
          headers: { 'x-svc-api-key': t.demo.apiKey },
        });
      expect((await read('member-01')).statusCode).toBe(200);
      expect((await read('member-02')).statusCode).toBe(200);
      // The same profile again the same day: not counted again. A 404 is not counted either.
      expect((await read('member-01')).statusCode).toBe(200);
      expect((await read('member-07')).statusCode).toBe(404);
      const over = await read('member-03');
      expect(over.statusCode).toBe(429);
      expect(over.json()).toMatchObject({ code: 'C0010' });
      expect(over.headers['x-svc-ratelimit-scope']).toBe('profile.read');
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      // The console's usage page of the app shows the day's count against the bound.
      const forms = new ConsoleForms(injectSend(limited));
      await forms.signIn(t.demo.user);
      const demoApp = await t.db.database.db
        .selectFrom('apps')
        .select('id')
        .where('name', '=', 'Demo app')
        .executeTakeFirstOrThrow();
      const usage = async () => (await forms.browser.request('GET', `/console/apps/${demoApp.id}/usage`)).body;
      expect(await usage()).toMatch(/오늘 읽은 서로 다른 프로필 \(UTC\)<\/dt><dd>2 \/ 2<\/dd>/);
      // The next UTC day starts a new count.
      t.clock.now += 86_400_000;
      expect((await read('member-03')).statusCode).toBe(200);
      await forms.signIn(t.demo.user);
      expect(await usage()).toMatch(/<dd>1 \/ 2<\/dd>/);
    } finally {
      await limited.close();
    }
  });

  it("offers profile:write on the consent page, in the server metadata and in the console's scope list", async () => {
    const metadata = (await t.app.inject({ url: '/.well-known/oauth-authorization-server' })).json();
    expect(metadata.scopes_supported).toEqual(expect.arrayContaining(['profile', 'profile:read', 'profile:write']));
    const user = await createUser(t, 'profile-consent');
    const page = await consentPage(t.app, t.demo.client, 'profile profile:write', user);
    expect(page.body).toContain('내 프로필(경력, 학력, 기술, 공개 범위) 수정 및 삭제');
    expect(page.body).toContain('비공개 항목 포함');
    const forms = new ConsoleForms(injectSend(t.app));
    await forms.signIn(t.demo.user);
    const { appId } = await forms.createApp('프로필 앱');
    const clientPage = await forms.browser.request('GET', `/console/apps/${appId}`);
    expect(clientPage.body).toContain('value="profile:write"');
  });

  it('takes profiles made private or deleted on one instance out of an instance started afterwards from the saved copies', async () => {
    const members = await Promise.all(['restart-private', 'restart-deleted'].map((handle) => createUser(t, handle)));
    const tokens = await Promise.all(members.map((member) => accessToken(t, 'profile:write', member)));
    for (const token of tokens)
      await t.request({
        method: 'PATCH',
        url: '/api/v1/me/profile',
        headers: bearer(token),
        payload: { skills: ['Restart-Skill'], visibility: { profile: 'PUBLIC' } },
      });
    expect((await onOther('/api/v1/profiles?skills=restart-skill')).totalItems).toBe(2);
    // This instance stops (its indexes saved); the other takes both back; a new instance starts from the copies.
    await t.app.close();
    const hidden = await other.inject({
      method: 'PATCH',
      url: '/api/v1/me/profile',
      headers: bearer(tokens[0]!),
      payload: { visibility: { profile: 'PRIVATE' } },
    });
    expect(hidden.statusCode, hidden.body).toBe(200);
    const gone = await other.inject({ method: 'DELETE', url: '/api/v1/me/profile', headers: bearer(tokens[1]!) });
    expect(gone.statusCode, gone.body).toBe(204);
    const restarted = await anotherInstance(t);
    try {
      expect(restarted.profileIndex.stats().fromCopy).toBe(true);
      const read = (url: string) =>
        restarted.inject({ method: 'GET', url, headers: { 'x-svc-api-key': t.demo.apiKey } });
      expect((await read('/api/v1/profiles?skills=restart-skill')).json().totalItems).toBe(0);
      expect((await read('/api/v1/profiles/suggestions?prefix=restart')).json()).toEqual([]);
      for (const handle of ['restart-private', 'restart-deleted'])
        expect((await read(`/api/v1/profiles/${handle}`)).statusCode).toBe(404);
    } finally {
      await restarted.close();
    }
  });
});
