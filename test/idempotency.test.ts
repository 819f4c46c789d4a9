import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { png } from './helpers/images.js';
import { imagePart, jsonPart, multipart, type Part } from './helpers/multipart.js';
import { anotherInstance, createTestApp, TEST_NOW, type TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';
import { accessToken, bearer, createUser } from './helpers/tokens.js';
import { fingerprint } from '../src/db/idempotency.js';
import { realWait } from './helpers/real-time.js';

/** What a keyed event create and a keyed ticket create send, the key's claim included. */
// Each with the search log's row and the events data version's bump (events are on the search index).
const EVENT_CREATE_STATEMENTS = { sqlite: 12, postgres: 12 };
const TICKET_CREATE_STATEMENTS = { sqlite: 12, postgres: 12 };

describe.each(ENGINES)('Idempotency-Key on %s', (engine) => {
  let t: TestContext;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp(engine);
    token = await accessToken(t, 'post:write event:write job:write');
  });
  afterAll(async () => {
    await t?.close();
  });

  const postCreate = (key: string | undefined, parts: Part[], authToken = token) => {
    const body = multipart(parts);
    return {
      method: 'POST' as const,
      url: '/api/v1/posts',
      headers: { ...body.headers, ...bearer(authToken), ...(key ? { 'idempotency-key': key } : {}) },
      payload: body.payload,
    };
  };
  const createPost = (key: string | undefined, parts: Part[], authToken = token) =>
    t.request(postCreate(key, parts, authToken));
  const acmeEvent = () =>
    t.db.database.db
      .selectFrom('events')
      .innerJoin('companies', 'companies.id', 'events.company_id')
      .select('events.id')
      .where('companies.handle', '=', 'acme-labs')
      .where('events.status', '=', 'published')
      .executeTakeFirstOrThrow();
  const postsWith = async (text: string) =>
    (await t.db.database.db.selectFrom('posts').select('id').where('content', '=', text).execute()).length;

  it('returns the first response to a retry without creating again', async () => {
    const parts = [jsonPart({ text: 'idempotent once' }), imagePart(png(5, 5))];
    const first = await createPost('key-retry-1', parts);
    const retry = await createPost('key-retry-1', parts);
    expect(first.statusCode).toBe(201);
    expect(retry.statusCode).toBe(201);
    expect(retry.json()).toEqual(first.json());
    expect(retry.headers.location).toBe(first.headers.location);
    expect(retry.headers['idempotency-replayed']).toBe('true');
    expect(first.headers['idempotency-replayed']).toBeUndefined();
    expect(await postsWith('idempotent once')).toBe(1);
  });

  it('refuses the same key with a different request with 409 C0009', async () => {
    await createPost('key-mismatch', [jsonPart({ text: 'original' })]);
    const other = await createPost('key-mismatch', [jsonPart({ text: 'something else' })]);
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({ code: 'C0009', details: 'Idempotency-Key' });
    expect(await postsWith('something else')).toBe(0);
    const otherImage = await createPost('key-mismatch', [jsonPart({ text: 'original' }), imagePart(png(3, 3))]);
    expect(otherImage.statusCode).toBe(409);
  });

  it('creates exactly once for 10 concurrent requests with one key', async () => {
    const parts = [jsonPart({ text: 'concurrent create' })];
    const responses = await Promise.all(Array.from({ length: 10 }, () => createPost('key-concurrent', parts)));
    expect(responses.map((r) => r.statusCode)).toEqual(Array(10).fill(201));
    expect(new Set(responses.map((r) => r.json().postId)).size).toBe(1);
    expect(await postsWith('concurrent create')).toBe(1);
  });

  it('keeps keys apart per user, creates anew without a key, and after 24 hours', async () => {
    const stranger = await createUser(t, 'stranger-idem');
    const strangerToken = await accessToken(t, 'post:write', stranger);
    await createPost('shared-key', [jsonPart({ text: 'per user' })]);
    await createPost('shared-key', [jsonPart({ text: 'per user' })], strangerToken);
    expect(await postsWith('per user')).toBe(2);
    await createPost(undefined, [jsonPart({ text: 'no key' })]);
    await createPost(undefined, [jsonPart({ text: 'no key' })]);
    expect(await postsWith('no key')).toBe(2);
    await createPost('key-expiry', [jsonPart({ text: 'expiring key' })]);
    t.clock.now = TEST_NOW + 24 * 3_600_000 + 1;
    try {
      const later = await createPost(
        'key-expiry',
        [jsonPart({ text: 'expiring key' })],
        await accessToken(t, 'post:write'),
      );
      expect(later.statusCode).toBe(201);
      expect(later.headers['idempotency-replayed']).toBeUndefined();
    } finally {
      t.clock.now = TEST_NOW;
    }
    expect(await postsWith('expiring key')).toBe(2);
  });

  it('releases the key when the first request fails, and refuses malformed keys', async () => {
    const failed = await createPost('key-after-failure', [jsonPart({ text: 'x', repostedPostId: 999_999 })]);
    expect(failed.statusCode).toBe(404);
    const fixed = await createPost('key-after-failure', [jsonPart({ text: 'x', repostedPostId: 999_999 })]);
    expect(fixed.statusCode).toBe(404);
    expect((await createPost('bad key with spaces', [jsonPart({ text: 'x' })])).json()).toMatchObject({
      code: 'C0002',
      details: 'Idempotency-Key',
    });
  });

  /** A claim on `key` for `text` as a process that died mid-create would leave it: no response, held by `owner`. */
  const abandonClaim = async (
    key: string,
    text: string,
    owner: string | null,
    leaseExpiresAt: number | null,
    resourceId: string | null = null,
  ) => {
    await createPost('scope-probe', [jsonPart({ text: 'scope probe' })]);
    const { scope } = await t.db.database.db
      .selectFrom('idempotency_keys')
      .select('scope')
      .where('idempotency_key', '=', 'scope-probe')
      .executeTakeFirstOrThrow();
    await t.db.database.db
      .insertInto('idempotency_keys')
      .values({
        scope,
        idempotency_key: key,
        request_hash: fingerprint('POST /api/v1/posts', { text }),
        response_status: null,
        response_body: null,
        response_location: null,
        created_at: TEST_NOW,
        expires_at: TEST_NOW + 24 * 3_600_000,
        owner,
        lease_expires_at: leaseExpiresAt,
        resource_id: resourceId,
      })
      .execute();
  };

  it('releases the claims a crashed run of this instance left, when it starts again: the retry creates', async () => {
    await abandonClaim(
      'key-crashed-here',
      'crashed before answering',
      `${t.config.instanceName}/boot-before-the-crash`,
      TEST_NOW + 3_600_000,
    );
    await abandonClaim('key-crashed-old', 'claimed before claims had owners', null, null);
    const restarted = await anotherInstance(t);
    try {
      const retry = await restarted.inject(
        postCreate('key-crashed-here', [jsonPart({ text: 'crashed before answering' })]),
      );
      expect(retry.statusCode).toBe(201);
      expect(retry.headers['idempotency-replayed']).toBeUndefined();
      expect(await postsWith('crashed before answering')).toBe(1);
      const again = await createPost('key-crashed-here', [jsonPart({ text: 'crashed before answering' })]);
      expect(again.headers['idempotency-replayed']).toBe('true');
      expect(again.json()).toEqual(retry.json());
      expect(
        (await createPost('key-crashed-old', [jsonPart({ text: 'claimed before claims had owners' })])).statusCode,
      ).toBe(201);
    } finally {
      await restarted.close();
    }
  });

  it('takes over a claim whose process stopped renewing it once its lease runs out', async () => {
    await abandonClaim(
      'key-crashed-elsewhere',
      'crashed on another instance',
      'another-host:8080/some-boot',
      TEST_NOW + 10_000,
    );
    t.clock.now = TEST_NOW + 10_001;
    try {
      const retry = await createPost('key-crashed-elsewhere', [jsonPart({ text: 'crashed on another instance' })]);
      expect(retry.statusCode).toBe(201);
      expect(await postsWith('crashed on another instance')).toBe(1);
      const row = await t.db.database.db
        .selectFrom('idempotency_keys')
        .selectAll()
        .where('idempotency_key', '=', 'key-crashed-elsewhere')
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ response_status: 201, owner: null, lease_expires_at: null });
    } finally {
      t.clock.now = TEST_NOW;
    }
  });

  it('answers a claim whose process died after its create committed with what it created, creating nothing more', async () => {
    // The create committed (its transaction recorded the post on the claim); the process died before answering.
    const committed = await createPost(undefined, [jsonPart({ text: 'committed, then the process died' })]);
    const postId = String(committed.json().postId);
    await abandonClaim(
      'key-committed-then-crashed',
      'committed, then the process died',
      'another-host:8080/dead',
      TEST_NOW - 1,
      postId,
    );
    const retry = await createPost('key-committed-then-crashed', [
      jsonPart({ text: 'committed, then the process died' }),
    ]);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotency-replayed']).toBe('true');
    expect(retry.headers.location).toBe(`/api/v1/posts/${postId}`);
    expect(retry.json()).toEqual(committed.json());
    expect(await postsWith('committed, then the process died')).toBe(1);
    const again = await createPost('key-committed-then-crashed', [
      jsonPart({ text: 'committed, then the process died' }),
    ]);
    expect(again.json()).toEqual(committed.json());
  });

  it("records the created resource on the claim in the create's own transaction", async () => {
    const res = await createPost('key-records-resource', [jsonPart({ text: 'records its resource' })]);
    const row = await t.db.database.db
      .selectFrom('idempotency_keys')
      .select(['resource_id', 'response_status'])
      .where('idempotency_key', '=', 'key-records-resource')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ resource_id: String(res.json().postId), response_status: 201 });
    const ticket = await t.request({
      method: 'POST',
      url: `/api/v1/events/${(await acmeEvent()).id}/tickets/free`,
      headers: { ...bearer(token), 'content-type': 'application/json', 'idempotency-key': 'key-ticket-resource' },
      payload: JSON.stringify({ ticketName: '자원 기록' }),
    });
    const ticketRow = await t.db.database.db
      .selectFrom('idempotency_keys')
      .select('resource_id')
      .where('idempotency_key', '=', 'key-ticket-resource')
      .executeTakeFirstOrThrow();
    expect(ticketRow.resource_id).toBe(String(ticket.json().ticketId));
  });

  it("keeps a keyed event's and ticket's answer in the create's own transaction: nothing is written after the commit", async () => {
    const statements = () => t.db.database.statements.count;
    /** The statements a request sends before its answer, counted once what earlier requests left running is done. */
    const counted = async (request: () => Promise<{ statusCode: number; body: string }>) => {
      for (let last = -1; last !== statements(); ) {
        last = statements();
        await realWait(50, 'poll');
      }
      const before = statements();
      const res = await request();
      expect(res.statusCode, res.body).toBe(201);
      return statements() - before;
    };
    const eventCreate = (key: string) => {
      const body = multipart([
        jsonPart({
          eventName: '답은 거래 안에',
          startAt: '2026-12-05T19:00:00+09:00',
          endAt: '2026-12-05T21:00:00+09:00',
        }),
      ]);
      return t.request({
        method: 'POST',
        url: '/api/v1/events?companyId=acme-labs',
        headers: { ...body.headers, ...bearer(token), 'idempotency-key': key },
        payload: body.payload,
      });
    };
    const ticketCreate = (eventId: string, key: string) =>
      t.request({
        method: 'POST',
        url: `/api/v1/events/${eventId}/tickets/free`,
        headers: { ...bearer(token), 'content-type': 'application/json', 'idempotency-key': key },
        payload: JSON.stringify({ ticketName: '답은 거래 안에' }),
      });
    const warm = await eventCreate('event-answer-warm'); // the operation's rate-limit units and the keys' sweep, kept from here on
    await ticketCreate(warm.json().eventId, 'ticket-answer-warm');
    // Stored after the commit, the answer was one statement more for each (and a new event's codes were deleted
    // before they were inserted: two more).
    expect(await counted(() => eventCreate('event-answer-in-transaction'))).toBe(EVENT_CREATE_STATEMENTS[engine]);
    expect(await counted(() => ticketCreate(warm.json().eventId, 'ticket-answer-in-transaction'))).toBe(
      TICKET_CREATE_STATEMENTS[engine],
    );
    for (const key of ['event-answer-in-transaction', 'ticket-answer-in-transaction']) {
      const row = await t.db.database.db
        .selectFrom('idempotency_keys')
        .selectAll()
        .where('idempotency_key', '=', key)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ response_status: 201, owner: null, lease_expires_at: null });
    }
    const again = await eventCreate('event-answer-in-transaction');
    expect(again.headers['idempotency-replayed']).toBe('true');
  });

  it('covers JSON creates too: a retried ticket is created once', async () => {
    const event = await acmeEvent();
    const sendTo = (id: string) =>
      t.request({
        method: 'POST',
        url: `/api/v1/events/${id}/tickets/free`,
        headers: { ...bearer(token), 'content-type': 'application/json', 'idempotency-key': 'ticket-1' },
        payload: JSON.stringify({ ticketName: '재시도 티켓' }),
      });
    const a = await sendTo(event.id);
    const b = await sendTo(event.id);
    expect(a.statusCode).toBe(201);
    expect(b.json()).toEqual(a.json());
    const tickets = await t.db.database.db
      .selectFrom('event_tickets')
      .select('id')
      .where('ticket_name', '=', '재시도 티켓')
      .execute();
    expect(tickets).toHaveLength(1);
  });
});
