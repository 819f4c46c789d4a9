import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { png } from './helpers/images.js';
import { imagePart, jsonPart, multipart, type Part } from './helpers/multipart.js';
import { createTestApp, type TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';
import { accessToken, bearer } from './helpers/tokens.js';

const NEW_EVENT = {
  eventName: '판교 TypeScript 밋업',
  description: '타입스크립트 실무 이야기',
  startAt: '2026-12-05T19:00:00+09:00',
  endAt: '2026-12-05T21:00:00+09:00',
  eventOpenType: 'OFFLINE',
  country: 'KR',
  region: '경기',
  locality: '성남시 분당구',
  locationTitle: 'Acme 라운지',
  locationAddress: '판교역로 1',
  locationDetail: '3층',
  locationDescription: '신분당선 판교역 1번 출구',
  locationHidden: false,
  guestHidden: false,
  eventCategories: ['NETWORKING'],
  eventSubjects: ['TECHNOLOGY', 'BUSINESS'],
};

describe.each(ENGINES)('event writes on %s', (engine) => {
  let t: TestContext;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp(engine);
    token = await accessToken(t, 'event:write');
  });
  afterAll(async () => {
    await t?.close();
  });

  const sendParts = (method: 'POST' | 'PATCH', url: string, parts: Part[]) => {
    const body = multipart(parts);
    return t.request({ method, url, headers: { ...body.headers, ...bearer(token) }, payload: body.payload });
  };
  const json = (method: 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
    t.request({
      method,
      url,
      headers: { ...bearer(token), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      payload: body === undefined ? undefined : JSON.stringify(body),
    });
  const create = async () => {
    const res = await sendParts('POST', '/api/v1/events?companyId=acme-labs', [
      jsonPart(NEW_EVENT),
      imagePart(png(1200, 400), 'banner.png', 'banner'),
    ]);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().eventId as string;
  };
  const read = async (id: string) => (await t.get(`/api/v1/events/${id}`)).json();

  it('creates an event with a banner that reads back with every field', async () => {
    const res = await sendParts('POST', '/api/v1/events?companyId=acme-labs', [
      jsonPart(NEW_EVENT),
      imagePart(png(1200, 400), 'banner.png', 'banner'),
    ]);
    expect(res.statusCode).toBe(201);
    const { eventId, webUrl } = res.json();
    expect(eventId).toMatch(/^evt_/);
    expect(webUrl).toBe(`https://www.test.example/events/${eventId}`);
    expect(res.headers.location).toBe(`/api/v1/events/${eventId}`);
    const event = await read(eventId);
    expect(event).toMatchObject({
      eventName: NEW_EVENT.eventName,
      eventOpenType: 'OFFLINE',
      startAt: '2026-12-05T10:00:00.000Z',
      endAt: '2026-12-05T12:00:00.000Z',
      eventCategories: ['NETWORKING'],
      eventSubjects: ['TECHNOLOGY', 'BUSINESS'],
      company: { id: 'acme-labs' },
      location: { country: 'KR', title: 'Acme 라운지', address: '판교역로 1' },
      stats: { viewCount: 0, guestCount: 0 },
    });
    expect(event.bannerUrl).toMatch(/\/media\/events\/.+\.png$/);
    expect((await t.app.inject({ method: 'GET', url: new URL(event.bannerUrl).pathname })).statusCode).toBe(200);
  });

  it('updates only the fields sent, replaces the banner, and answers eventId and webUrl', async () => {
    const id = await create();
    const before = await read(id);
    const res = await sendParts('PATCH', `/api/v1/events/${id}`, [
      jsonPart({ eventName: '이름만 바꿈', locationHidden: true, eventSubjects: ['TECHNOLOGY'] }),
      imagePart(png(800, 200), 'b2.png', 'banner'),
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ eventId: id, webUrl: `https://www.test.example/events/${id}` });
    const after = await read(id);
    expect(after).toMatchObject({
      eventName: '이름만 바꿈',
      location: null,
      eventSubjects: ['TECHNOLOGY'],
      description: before.description,
      startAt: before.startAt,
    });
    expect(after.bannerUrl).not.toBe(before.bannerUrl);
    expect((await t.app.inject({ method: 'GET', url: new URL(before.bannerUrl).pathname })).statusCode).toBe(404);
  });

  it.each([
    ['an end before the start', { ...NEW_EVENT, endAt: '2026-12-05T18:00:00+09:00' }, 'request.endAt'],
    ['a bad date-time', { ...NEW_EVENT, startAt: 'next friday' }, 'request.startAt'],
    ['an unknown category', { ...NEW_EVENT, eventCategories: ['PARTY'] }, 'request.eventCategories.0'],
    ['an unknown open type', { ...NEW_EVENT, eventOpenType: 'TELEPATHIC' }, 'request.eventOpenType'],
    ['a missing name', { ...NEW_EVENT, eventName: undefined }, 'request.eventName'],
  ])('refuses %s with 400 C0002', async (_label, request, details) => {
    const res = await sendParts('POST', '/api/v1/events?companyId=acme-labs', [jsonPart(request)]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'C0002', details });
  });

  it('needs the capability: 403 at a company without it, allowed on an event with a resource role', async () => {
    expect((await sendParts('POST', '/api/v1/events?companyId=nova-fintech', [jsonPart(NEW_EVENT)])).json().code).toBe(
      'C0004',
    );
    const roleEvent = t.demo.events.withResourceRole;
    expect(
      (await sendParts('PATCH', `/api/v1/events/${roleEvent}`, [jsonPart({ description: '역할로 수정' })])).statusCode,
    ).toBe(200);
    const other = await t.db.database.db
      .selectFrom('events')
      .innerJoin('companies', 'companies.id', 'events.company_id')
      .select('events.id')
      .where('companies.handle', '=', 'nova-fintech')
      .where('events.id', '!=', roleEvent)
      .where('events.status', '=', 'published')
      .executeTakeFirst();
    if (other)
      expect(
        (await sendParts('PATCH', `/api/v1/events/${other.id}`, [jsonPart({ description: 'x' })])).statusCode,
      ).toBe(403);
    expect((await sendParts('PATCH', '/api/v1/events/evt_missing', [jsonPart({ description: 'x' })])).json().code).toBe(
      'EV001',
    );
  });

  it('creates, updates and deletes free tickets', async () => {
    const id = await create();
    const created = await json('POST', `/api/v1/events/${id}/tickets/free`, {
      ticketName: '일반',
      description: '무료',
      approvalRequired: true,
      waitingRequired: false,
      maxCount: 50,
      salesStartAt: '2026-11-22T00:00:00Z',
      salesEndAt: '2026-12-05T09:00:00Z',
      formFields: [{ fieldLabel: '회사', fieldType: 'TEXT' }],
    });
    expect(created.statusCode, created.body).toBe(201);
    const { ticketId } = created.json();
    expect(ticketId).toEqual(expect.any(Number));
    const expected = {
      ticketId,
      ticketType: 'FREE',
      ticketName: '일반',
      description: '무료',
      price: null,
      currency: null,
      approvalRequired: true,
      waitingRequired: false,
      maxCount: 50,
      maxPerPerson: null,
      soldOut: false,
      saleStartAt: '2026-11-22T00:00:00.000Z',
      saleEndAt: '2026-12-05T09:00:00.000Z',
      salesStartAt: '2026-11-22T00:00:00.000Z',
      salesEndAt: '2026-12-05T09:00:00.000Z',
      formFields: [{ fieldLabel: '회사', fieldType: 'TEXT' }],
    };
    expect((await read(id)).tickets).toEqual([expected]);
    expect((await t.get(`/api/v1/events/${id}/tickets`)).json()).toEqual([expected]);
    expect(
      (
        await json('POST', `/api/v1/events/${id}/tickets/free`, {
          ticketName: 'x',
          formFields: [{ label: 'old shape' }],
        })
      ).json().code,
    ).toBe('C0002');
    expect((await json('PATCH', `/api/v1/events/${id}/tickets/${ticketId}`, { maxCount: 80 })).json()).toEqual({
      ticketId,
    });
    expect((await read(id)).tickets[0].maxCount).toBe(80);
    expect(
      (await json('PATCH', `/api/v1/events/${id}/tickets/${ticketId}`, { salesEndAt: '2026-11-01T00:00:00Z' })).json()
        .code,
    ).toBe('C0002');
    expect((await json('POST', `/api/v1/events/${id}/tickets/free`, { description: 'no name' })).json().code).toBe(
      'C0002',
    );
    expect((await json('DELETE', `/api/v1/events/${id}/tickets/${ticketId}`)).statusCode).toBe(204);
    expect((await read(id)).tickets).toEqual([]);
    expect((await json('DELETE', `/api/v1/events/${id}/tickets/${ticketId}`)).json().code).toBe('C0008');
  });

  it('sells paid tickets, and turns a ticket paid or free', async () => {
    const id = await create();
    const paid = await json('POST', `/api/v1/events/${id}/tickets/charged`, {
      ticketName: '얼리버드',
      price: 15000,
      maxCount: 10,
    });
    expect(paid.statusCode, paid.body).toBe(201);
    expect(paid.headers.location).toBe(`/api/v1/events/${id}/tickets/${paid.json().ticketId}`);
    const free = (await json('POST', `/api/v1/events/${id}/tickets/free`, { ticketName: '일반' })).json();
    let tickets = (await t.get(`/api/v1/events/${id}/tickets`)).json();
    expect(
      tickets.map((x: { ticketType: string; price: number | null; currency: string | null }) => [
        x.ticketType,
        x.price,
        x.currency,
      ]),
    ).toEqual([
      ['CHARGED', 15000, 'KRW'],
      ['FREE', null, null],
    ]);
    expect((await json('POST', `/api/v1/events/${id}/tickets/charged`, { ticketName: 'no price' })).json().code).toBe(
      'C0002',
    );
    expect(
      (await json('PATCH', `/api/v1/events/${id}/tickets/${free.ticketId}`, { ticketType: 'CHARGED' })).json(),
    ).toMatchObject({ code: 'C0002', details: 'request.price' });
    expect(
      (
        await json('PATCH', `/api/v1/events/${id}/tickets/${free.ticketId}`, {
          ticketType: 'CHARGED',
          price: 5000,
          currency: 'USD',
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (await json('PATCH', `/api/v1/events/${id}/tickets/${paid.json().ticketId}`, { ticketType: 'FREE' })).statusCode,
    ).toBe(200);
    tickets = (await t.get(`/api/v1/events/${id}/tickets`)).json();
    expect(
      tickets.map((x: { ticketType: string; price: number | null; currency: string | null }) => [
        x.ticketType,
        x.price,
        x.currency,
      ]),
    ).toEqual([
      ['FREE', null, null],
      ['CHARGED', 5000, 'USD'],
    ]);
  });

  it("takes the reference's event fields: access and join types, coordinates, hosts, ON_OFFLINE (or HYBRID), null locations", async () => {
    const res = await sendParts('POST', '/api/v1/events?companyId=acme-labs', [
      jsonPart({
        ...NEW_EVENT,
        eventOpenType: 'HYBRID',
        accessType: 'INVITE',
        joinType: 'REGISTERED',
        latitude: 37.4,
        longitude: 127.1,
        region: null,
        description: '첫 줄 <b>굵게</b>\n둘째 줄\n\n새 문단',
        hosts: [
          { hostType: 'COMPANY', hostId: 'acme-labs', roleTypes: ['ORGANIZER'] },
          { hostType: 'MEMBER', hostId: 'member-03' },
        ],
      }),
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const event = await read(res.json().eventId);
    expect(event).toMatchObject({
      eventOpenType: 'ON_OFFLINE',
      accessType: 'INVITE',
      joinType: 'REGISTERED',
      eventStatus: 'PUBLISHED',
    });
    expect(event.location).toMatchObject({
      region: null,
      latitude: 37.4,
      longitude: 127.1,
      placeName: NEW_EVENT.locationTitle,
      addressDetail: NEW_EVENT.locationDetail,
    });
    expect(event.descriptionHtml).toBe('<p>첫 줄 &lt;b&gt;굵게&lt;/b&gt;<br>둘째 줄</p><p>새 문단</p>');
    expect(event.hosts.map((h: { id: string; roles: string[] }) => [h.id, h.roles])).toEqual([
      ['acme-labs', ['ORGANIZER']],
      ['member-03', ['ORGANIZER']],
    ]);
    expect(
      (
        await sendParts('POST', '/api/v1/events?companyId=acme-labs', [
          jsonPart({ ...NEW_EVENT, hosts: [{ hostType: 'COMPANY', hostId: 'nobody' }] }),
        ])
      ).json(),
    ).toMatchObject({ code: 'C0008', details: 'request.hosts.0.hostId' });
    for (const path of ['tickets', 'sessions', 'faqs'])
      expect((await t.get(`/api/v1/events/${t.demo.events.draft}/${path}`)).json().code).toBe('EV001');
  });

  it('keeps image attachments given at creation, with their file names, and the media sweep leaves them be', async () => {
    const res = await sendParts('POST', '/api/v1/events?companyId=acme-labs', [
      jsonPart(NEW_EVENT),
      imagePart(png(30, 20), 'floor-plan.png', 'attachments'),
      imagePart(png(10, 10), 'map.png', 'attachments'),
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const { attachments } = await read(res.json().eventId);
    expect(attachments.map((a: { fileName: string }) => a.fileName)).toEqual(['floor-plan.png', 'map.png']);
    const saved = t.clock.now;
    t.clock.now = Date.now() + 2 * 3_600_000; // every file stored so far is past the sweep's grace
    try {
      expect((await t.app.mediaSweep.run()).orphans).toBe(0);
    } finally {
      t.clock.now = saved;
    }
    for (const a of attachments)
      expect((await t.app.inject({ method: 'GET', url: new URL(a.url).pathname })).statusCode).toBe(200);
    const patched = await sendParts('PATCH', `/api/v1/events/${res.json().eventId}`, [
      jsonPart({ eventName: 'x' }),
      imagePart(png(4, 4), 'a.png', 'attachments'),
    ]);
    expect(patched.json()).toMatchObject({ code: 'C0002', details: 'attachments' });
  });

  it('manages sessions, FAQs and hosts', async () => {
    const id = await create();
    const session = (
      await json('POST', `/api/v1/events/${id}/sessions`, {
        title: '키노트',
        startAt: '2026-12-05T19:00:00+09:00',
        endAt: '2026-12-05T19:30:00+09:00',
      })
    ).json();
    const second = await json('POST', `/api/v1/events/${id}/sessions`, {
      day: '2026-12-05',
      startTime: '19:30',
      endTime: '20:00',
      sessionName: '패널 토론',
      videoUrl: 'https://video.example/1',
      sortNo: 1,
      // A null is kept null (not read as an empty text by the request's type coercion).
      speakers: [
        { speakerName: '김개발', jobOrDept: 'CTO' },
        { speakerName: '이운영', jobOrDept: null },
      ],
    });
    expect(second.statusCode, second.body).toBe(201);
    const faq = (await json('POST', `/api/v1/events/${id}/faqs`, { question: '주차?', answer: '가능합니다' })).json();
    const faq2 = await json('POST', `/api/v1/events/${id}/faqs`, {
      categoryName: '참가',
      title: '환불?',
      content: '전날까지 가능합니다',
      sortNo: 1,
    });
    expect(faq2.statusCode, faq2.body).toBe(201);
    const host = await json('POST', `/api/v1/events/${id}/hosts`, {
      hostType: 'MEMBER',
      id: 'member-03',
      roles: ['SPEAKER'],
    });
    expect(host.statusCode, host.body).toBe(201);
    let event = await read(id);
    expect(event.sessions[0]).toEqual({
      sessionId: session.sessionId,
      sessionName: '키노트',
      videoUrl: null,
      thumbnailUrl: null,
      speakers: [],
      tags: [],
      sortNo: 0,
      title: '키노트',
      description: '',
      startAt: '2026-12-05T10:00:00.000Z',
      endAt: '2026-12-05T10:30:00.000Z',
    });
    expect(event.faqs[0]).toEqual({
      faqId: faq.faqId,
      title: '주차?',
      content: '가능합니다',
      sortNo: 0,
      question: '주차?',
      answer: '가능합니다',
      categoryName: 'FAQ',
    });
    const slots = (await t.get(`/api/v1/events/${id}/sessions`)).json();
    expect(
      slots.map((s: { day: string; startTime: string; endTime: string }) => [s.day, s.startTime, s.endTime]),
    ).toEqual([
      ['2026-12-05', '19:00', '19:30'],
      ['2026-12-05', '19:30', '20:00'],
    ]);
    expect(slots[1].sessions[0]).toMatchObject({
      sessionName: '패널 토론',
      videoUrl: 'https://video.example/1',
      speakers: [
        { name: '김개발', jobOrDept: 'CTO' },
        { name: '이운영', jobOrDept: null },
      ],
    });
    const categories = (await t.get(`/api/v1/events/${id}/faqs`)).json();
    expect(categories.map((c: { categoryName: string; faqs: unknown[] }) => [c.categoryName, c.faqs.length])).toEqual([
      ['FAQ', 1],
      ['참가', 1],
    ]);
    expect(categories[1].faqs[0]).toMatchObject({ title: '환불?', content: '전날까지 가능합니다' });
    expect((await json('POST', `/api/v1/events/${id}/sessions`, { description: 'no name' })).json()).toMatchObject({
      code: 'C0002',
      details: 'request.sessionName',
    });
    expect((await json('POST', `/api/v1/events/${id}/faqs`, { title: 'no content' })).json()).toMatchObject({
      code: 'C0002',
      details: 'request.content',
    });
    const byReference = await json('POST', `/api/v1/events/${id}/hosts`, {
      hostType: 'COMPANY',
      hostId: 'acme-labs',
      role: 'SPONSOR',
    });
    expect(byReference.statusCode, byReference.body).toBe(201);
    await json('DELETE', `/api/v1/events/${id}/hosts/${byReference.json().hostId}`);
    await json('DELETE', `/api/v1/events/${id}/sessions/${second.json().sessionId}`);
    await json('DELETE', `/api/v1/events/${id}/faqs/${faq2.json().faqId}`);
    expect(event.hosts).toEqual([expect.objectContaining({ hostType: 'MEMBER', id: 'member-03', roles: ['SPEAKER'] })]);
    await json('PATCH', `/api/v1/events/${id}/sessions/${session.sessionId}`, { title: '오프닝 키노트' });
    await json('PATCH', `/api/v1/events/${id}/faqs/${faq.faqId}`, { answer: '2시간 무료' });
    await json('PATCH', `/api/v1/events/${id}/hosts/${host.json().hostId}`, { roles: ['SPEAKER', 'SPONSOR'] });
    event = await read(id);
    expect(event.sessions[0].title).toBe('오프닝 키노트');
    expect(event.faqs[0].answer).toBe('2시간 무료');
    expect(event.hosts[0].roles).toEqual(['SPEAKER', 'SPONSOR']);
    expect(
      (
        await json('POST', `/api/v1/events/${id}/hosts`, { hostType: 'COMPANY', id: 'nobody', roles: ['SPONSOR'] })
      ).json().code,
    ).toBe('C0008');
    for (const [kind, subId] of [
      ['sessions', session.sessionId],
      ['faqs', faq.faqId],
      ['hosts', host.json().hostId],
    ]) {
      expect((await json('DELETE', `/api/v1/events/${id}/${kind}/${subId}`)).statusCode).toBe(204);
    }
    event = await read(id);
    expect([event.sessions, event.faqs, event.hosts]).toEqual([[], [], []]);
  });

  it('deletes an event, which then disappears from reads and refuses further writes', async () => {
    const id = await create();
    expect((await json('DELETE', `/api/v1/events/${id}`)).statusCode).toBe(204);
    expect((await t.get(`/api/v1/events/${id}`)).json().code).toBe('EV001');
    expect((await json('DELETE', `/api/v1/events/${id}`)).json().code).toBe('EV001');
    expect((await json('POST', `/api/v1/events/${id}/faqs`, { question: 'q', answer: 'a' })).json().code).toBe('EV001');
  });

  it('refuses to delete an event that has tickets or guests with 409 EV022, and deletes it once its tickets are gone', async () => {
    const id = await create();
    const ticket = (await json('POST', `/api/v1/events/${id}/tickets/free`, { ticketName: '입장권' })).json().ticketId;
    const refused = await json('DELETE', `/api/v1/events/${id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'EV022', details: 'eventId' });
    expect((await t.get(`/api/v1/events/${id}`)).statusCode).toBe(200);
    expect((await json('DELETE', `/api/v1/events/${id}/tickets/${ticket}`)).statusCode).toBe(204);
    expect((await json('DELETE', `/api/v1/events/${id}`)).statusCode).toBe(204);
    const withGuests = await create();
    await t.db.database.db.updateTable('events').set({ guest_count: 3 }).where('id', '=', withGuests).execute();
    expect((await json('DELETE', `/api/v1/events/${withGuests}`)).json().code).toBe('EV022');
  });

  it('needs the event:write scope', async () => {
    const other = await accessToken(t, 'profile');
    const res = await t.request({
      method: 'DELETE',
      url: `/api/v1/events/${t.demo.events.first}`,
      headers: bearer(other),
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('C0011');
    expect(res.headers['www-authenticate']).toContain('scope="event:write"');
  });
});
