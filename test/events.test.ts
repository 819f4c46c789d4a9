import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_NOW, type TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';

type Event = Record<string, any>;

describe.each(ENGINES)('events on %s', (engine) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp(engine);
  });
  afterAll(async () => {
    await t?.close();
  });

  const list = async (query: string) => {
    const res = await t.get(`/api/v1/events?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { totalItems: number; items: Event[] };
  };

  it('lists published events only, latest start first', async () => {
    const body = await list('pageSize=50');
    expect(body.totalItems).toBe(t.demo.events.published);
    const ids = body.items.map((e) => e.eventId);
    expect(ids).not.toContain(t.demo.events.draft);
    expect(ids).not.toContain(t.demo.events.deleted);
    const starts = body.items.map((e) => e.startAt);
    expect([...starts].sort().reverse()).toEqual(starts);
    const ascending = (await list('pageSize=50&sort=START_AT_ASC')).items.map((e) => e.startAt);
    expect(ascending).toEqual([...starts].reverse());
  });

  it('filters by company, category, subject and open type', async () => {
    for (const e of (await list('companyId=acme-labs&pageSize=50')).items) expect(e.company.id).toBe('acme-labs');
    for (const e of (await list('eventCategories=CONFERENCE,NETWORKING&pageSize=50')).items) {
      expect(e.eventCategories.some((c: string) => ['CONFERENCE', 'NETWORKING'].includes(c))).toBe(true);
    }
    for (const e of (await list('eventSubjects=TECHNOLOGY&pageSize=50')).items)
      expect(e.eventSubjects).toContain('TECHNOLOGY');
    const online = (await list('eventOpenTypes=ONLINE&pageSize=50')).items;
    expect(online.length).toBeGreaterThan(0);
    for (const e of online) expect(e).toMatchObject({ eventOpenType: 'ONLINE', location: null });
  });

  it("takes the reference's search parameters: keyword, categories, subjects, openTypes, start dates and status", async () => {
    const all = (await list('pageSize=50')).items;
    const ids = (items: Event[]) => items.map((e) => String(e.eventId)).sort();
    expect(ids((await list('categories=CONFERENCE,NETWORKING&pageSize=50')).items)).toEqual(
      ids((await list('eventCategories=CONFERENCE,NETWORKING&pageSize=50')).items),
    );
    expect(ids((await list('subjects=TECHNOLOGY&pageSize=50')).items)).toEqual(
      ids((await list('eventSubjects=TECHNOLOGY&pageSize=50')).items),
    );
    const hybrid = ids((await list('openTypes=ON_OFFLINE&pageSize=50')).items);
    expect(hybrid.length).toBeGreaterThan(0);
    expect(hybrid).toEqual(ids((await list('eventOpenTypes=HYBRID&pageSize=50')).items));
    expect((await list('openTypes=TBD')).totalItems).toBe(0);

    const word =
      all[0]!.eventName.split(' ').find((w: string) => /[A-Za-z]{3,}/.test(w)) ?? all[0]!.eventName.split(' ')[0];
    const found = (await list(`keyword=${encodeURIComponent(word.toUpperCase())}&pageSize=50`)).items;
    expect(found.map((e) => e.eventId)).toContain(all[0]!.eventId);
    expect((await list('keyword=zzqqxx-no-such-word')).totalItems).toBe(0);
    expect((await list('keyword=%25')).totalItems).toBe(0);

    const now = TEST_NOW;
    const upcoming = (await list('status=UPCOMING&pageSize=50')).items;
    const ongoing = (await list('status=ONGOING&pageSize=50')).items;
    const closed = (await list('status=CLOSED&pageSize=50')).items;
    for (const e of upcoming) expect(Date.parse(`${e.startAt}Z`)).toBeGreaterThan(now);
    for (const e of ongoing) expect(Date.parse(`${e.startAt}Z`) <= now && Date.parse(`${e.endAt}Z`) > now).toBe(true);
    for (const e of closed) expect(Date.parse(`${e.endAt}Z`)).toBeLessThanOrEqual(now);
    expect(upcoming.length + ongoing.length + closed.length).toBe(all.length);

    const starts = all.map((e) => e.startAt).sort();
    const from = starts[Math.floor(starts.length / 2)]!;
    const later = (await list(`startDateFrom=${encodeURIComponent(from)}&pageSize=50`)).items;
    expect(later.length).toBe(starts.filter((s) => s >= from).length);
    const day = from.slice(0, 10);
    for (const e of (await list(`startDateTo=${day}&pageSize=50`)).items)
      expect(Date.parse(`${e.startAt}Z`)).toBeLessThan(Date.parse(`${day}T15:00:00Z`) + 1);
    const bad = await t.get('/api/v1/events?startDateFrom=yesterday');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'C0005', details: 'startDateFrom' });
    expect((await t.get('/api/v1/events?status=SOON')).json()).toMatchObject({ code: 'C0005', details: 'status' });
  });

  it('rejects unknown catalog codes and enum values with 400 C0005', async () => {
    for (const [query, param] of [
      ['eventCategories=PARTY', 'eventCategories'],
      ['eventOpenTypes=MOON', 'eventOpenTypes'],
      ['sort=RANDOM', 'sort'],
    ]) {
      const res = await t.get(`/api/v1/events?${query}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'C0005', details: param });
    }
  });

  it('returns an event with tickets, sessions, FAQs and hosts', async () => {
    const res = await t.get(`/api/v1/events/${t.demo.events.first}`);
    expect(res.statusCode).toBe(200);
    const event = res.json();
    expect(event.eventId).toBe(t.demo.events.first);
    expect(event.eventId).toMatch(/^evt_[0-9a-z]{26}$/);
    expect(event.webUrl).toBe(`https://www.test.example/events/${event.eventId}`);
    expect(event.tickets.length).toBeGreaterThan(0);
    expect(event.tickets[0]).toMatchObject({ ticketType: 'FREE', ticketId: expect.any(Number) });
    expect(event.sessions).toHaveLength(3);
    expect(event.faqs).toHaveLength(2);
    expect(event.hosts.map((h: { hostType: string }) => h.hostType)).toEqual(['COMPANY', 'MEMBER']);
    expect(event.hosts[0].roles).toEqual(['ORGANIZER']);
    expect(event.stats.viewCount).toEqual(expect.any(Number));
    for (const field of ['startAt', 'endAt', 'createdAt', 'updatedAt']) expect(event[field]).toMatch(/Z$/);
  });

  it('hides the location when the organizer hides it', async () => {
    const event = (await t.get(`/api/v1/events/${t.demo.events.hiddenLocation}`)).json();
    expect(event.location).toBeNull();
  });

  it('translates the name and description for translation languages', async () => {
    const ko = (await t.get(`/api/v1/events/${t.demo.events.first}`)).json();
    const ja = (await t.get(`/api/v1/events/${t.demo.events.first}`, { 'accept-language': 'ja-JP' })).json();
    expect(ja.language).toBe('ja');
    expect(ja.eventName).not.toBe(ko.eventName);
    expect(ja.description).not.toBe(ko.description);
  });

  it('answers 404 EV001 for draft, deleted and missing events, 400 C0002 for a malformed id', async () => {
    for (const id of [t.demo.events.draft, t.demo.events.deleted, 'evt_nothing']) {
      const res = await t.get(`/api/v1/events/${id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'EV001', details: 'eventId' });
    }
    const bad = await t.get('/api/v1/events/bad%20id');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'C0002', details: 'eventId' });
  });
});
