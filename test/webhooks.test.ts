import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { verifyWebhook } from '../sdk/src/index.js';
import { RETRY_DELAYS_MS } from '../src/modules/webhooks/retry-policy.js';
import { keyEncryptionKey } from '../src/modules/oauth/signing-keys.js';
import { targetProblem } from '../src/modules/webhooks/target-address.js';
import { WebhookEndpoints } from '../src/modules/webhooks/webhook-endpoints.js';
import { CONSOLE_TEXT } from '../src/modules/console/console-text.js';
import { ConsoleForms } from './helpers/console-forms.js';
import { jsonPart, multipart } from './helpers/multipart.js';
import {
  startListeningApp,
  startSecondInstance,
  type ListeningApp,
  type SecondInstance,
} from './helpers/listening-app.js';
import { injectSend } from './helpers/oauth-browser.js';
import { createTestApp, type TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';
import { accessToken, bearer, createUser } from './helpers/tokens.js';
import { startReceiver, type Receiver, type Received } from '../support/webhook-receiver.js';
import { realWait } from './helpers/real-time.js';

const payloadOf = (r: Received) =>
  JSON.parse(r.body) as { id: string; type: string; resource: { id: string }; data: unknown };

describe.each(ENGINES)('webhooks on %s', (engine) => {
  let t: TestContext;
  let token: string;
  let forms: ConsoleForms;
  let appId: number;
  let receiver: Receiver;

  beforeAll(async () => {
    // One connection per endpoint: endpoints on one host must not wait for each other's (the isolation test).
    t = await createTestApp(engine, {
      config: { WEBHOOKS_ALLOW_LOOPBACK: 'true', WEBHOOK_TIMEOUT_MS: '1000', WEBHOOK_CONCURRENCY: '1' },
    });
    forms = new ConsoleForms(injectSend(t.app));
    await forms.signIn(t.demo.user);
    ({ appId } = await forms.createApp('웹훅 시험'));
    receiver = await startReceiver();
  });
  /** A fresh access token and console session: tests move the clock by hours and days. */
  const refresh = async () => {
    token = await accessToken(t, 'post:write');
    forms = new ConsoleForms(injectSend(t.app));
    await forms.signIn(t.demo.user);
  };
  beforeEach(refresh);
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });
  afterEach(async () => {
    // Each test's endpoints go, so the next one starts with none.
    await t.db.database.db.deleteFrom('webhook_endpoints').execute();
    receiver.reset();
  });

  const writePost = async (text: string): Promise<number> => {
    const body = multipart([jsonPart({ text })]);
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/posts',
      headers: { ...body.headers, ...bearer(token) },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().postId as number;
  };
  const updatePost = async (id: number, text: string) => {
    const body = multipart([jsonPart({ text })]);
    const res = await t.request({
      method: 'PUT',
      url: `/api/v1/posts/${id}`,
      headers: { ...body.headers, ...bearer(token) },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const settle = () => t.app.webhooks.settle();
  const advance = async (ms: number) => {
    t.clock.now += ms;
    await settle();
  };
  const endpointPage = async (endpointId: string, query = '') =>
    (await forms.browser.request('GET', `/console/apps/${appId}/webhooks/${endpointId}${query}`)).body;

  it("shows the signing secret once and delivers a write signed per Standard Webhooks, the body the feed's item", async () => {
    const cursor = (await t.get('/api/v1/changes?after=now')).json().nextCursor as string;
    const { endpointId, secret } = await forms.createEndpoint(appId, receiver.url());
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(await endpointPage(endpointId)).not.toContain(secret);

    const postId = await writePost('웹훅 첫 글');
    await settle();
    expect(receiver.received).toHaveLength(1);
    const [delivery] = receiver.received;
    // The standardwebhooks package, an independent implementation, verifies the signature.
    const verified = new Webhook(secret).verify(delivery!.body, delivery!.headers) as { id: string };
    // The SDK's verifier too, typed by the change's type.
    const typed = await verifyWebhook(secret, delivery!.headers, delivery!.body);
    expect(typed.type === 'post.created' && typed.data?.postId).toBe(postId);
    const item = (await t.get(`/api/v1/changes?after=${cursor}`)).json().items[0];
    expect(verified).toEqual(item);
    expect(item).toMatchObject({ type: 'post.created', resource: { type: 'post', id: String(postId) } });
    expect(delivery!.headers['webhook-id']).toBe(item.id);
    expect(delivery!.headers['content-type']).toBe('application/json');
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(24, 7).toString('base64')}`).verify(delivery!.body, delivery!.headers),
    ).toThrow();

    const page = await endpointPage(endpointId);
    expect(page).toContain('post.created');
    expect(page).toContain(`post:${postId}`);
  });

  it('pings a new endpoint, and sends a test event of any type from the console, each signed and listed like any delivery', async () => {
    const { endpointId, secret } = await forms.createEndpoint(appId, receiver.url(), ['post.updated']);
    await settle();
    // The ping: signed, verified by both implementations, naming the endpoint and what it wants; no change of the feed.
    expect(receiver.pings).toHaveLength(1);
    const ping = receiver.pings[0]!;
    const verified = await verifyWebhook(secret, ping.headers, ping.body);
    expect(new Webhook(secret).verify(ping.body, ping.headers)).toEqual(verified);
    expect(verified).toMatchObject({
      type: 'webhook.ping',
      test: true,
      resource: { type: 'webhook_endpoint', id: endpointId },
      data: { endpointId, url: receiver.url(), types: ['post.updated'] },
    });
    expect(receiver.received).toHaveLength(0);

    // A test event of a type the endpoint does not even want: shaped as that type's changes, the latest one's data.
    const postId = await writePost('시험 이벤트의 본보기');
    await settle();
    const sent = await forms.post(`/console/apps/${appId}/webhooks/${endpointId}/test`, { type: 'post.created' });
    expect(sent.status).toBe(303);
    expect((await forms.browser.request('GET', sent.headers.location as string)).body).toContain(
      CONSOLE_TEXT.ko.wh.testSent,
    );
    const gone = await forms.post(`/console/apps/${appId}/webhooks/${endpointId}/test`, { type: 'event.deleted' });
    expect(gone.status).toBe(303);
    expect(
      (await forms.post(`/console/apps/${appId}/webhooks/${endpointId}/test`, { type: 'post.exploded' })).status,
    ).toBe(400);
    await settle();
    const tests = receiver.received.map(
      (r) =>
        new Webhook(secret).verify(r.body, r.headers) as {
          id: string;
          type: string;
          test?: boolean;
          resource: { id: string } | null;
          data: { postId?: number } | null;
        },
    );
    expect(tests.map((e) => [e.type, e.test, e.data?.postId ?? null])).toEqual([
      ['post.created', true, postId],
      ['event.deleted', true, null],
    ]);
    // The feed holds no event.deleted: no resource to name, so no placeholder id either.
    expect(tests.map((e) => e.resource?.id ?? null)).toEqual([String(postId), null]);
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual(tests.map((e) => e.id));
    // The feed is untouched: a test event is no change.
    expect(
      await t.db.database.db
        .selectFrom('change_events')
        .select('position')
        .where(
          'event_id',
          'in',
          tests.map((e) => e.id),
        )
        .execute(),
    ).toEqual([]);

    // Listed with the endpoint's deliveries; a delivery's page shows the body it sends.
    const page = await endpointPage(endpointId);
    for (const type of ['webhook.ping', 'post.created', 'event.deleted']) expect(page).toContain(type);
    const pingRow = await t.db.database.db
      .selectFrom('webhook_deliveries')
      .select(['id', 'state'])
      .where('endpoint_id', '=', endpointId)
      .where('event_type', '=', 'webhook.ping')
      .executeTakeFirstOrThrow();
    expect(pingRow.state).toBe('delivered');
    const detail = await forms.browser.request(
      'GET',
      `/console/apps/${appId}/webhooks/${endpointId}/deliveries/${pingRow.id}`,
    );
    expect(detail.body).toContain('webhook_endpoint');
  });

  it('sends only the types an endpoint wants, and nothing from before it existed', async () => {
    await writePost('엔드포인트 전');
    await settle();
    await forms.createEndpoint(appId, receiver.url(), ['post.updated']);
    const id = await writePost('만들기는 보내지 않음');
    await updatePost(id, '고치기는 보냄');
    await settle();
    expect(receiver.received.map((r) => payloadOf(r).type)).toEqual(['post.updated']);
  });

  it('retries a failed delivery on the schedule with the same webhook-id, and the console lists every attempt', async () => {
    const { endpointId, secret } = await forms.createEndpoint(appId, receiver.url());
    receiver.answer(() => ({ status: 500 }));
    await writePost('재시도');
    await settle();
    expect(receiver.received).toHaveLength(1);
    await advance(RETRY_DELAYS_MS[0]! - 1);
    expect(receiver.received).toHaveLength(1);
    await advance(1);
    expect(receiver.received).toHaveLength(2);
    receiver.answer(() => ({ status: 200 }));
    await advance(RETRY_DELAYS_MS[1]! - 1);
    expect(receiver.received).toHaveLength(2);
    await advance(1);
    expect(receiver.received).toHaveLength(3);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    for (const r of receiver.received) expect(() => new Webhook(secret).verify(r.body, r.headers)).not.toThrow();
    await advance(86_400_000);
    expect(receiver.received).toHaveLength(3);
    await refresh();

    const list = await endpointPage(endpointId);
    const deliveryId = /deliveries\/(dlv_[0-9A-Za-z]+)"/.exec(list)![1]!;
    const detail = (
      await forms.browser.request('GET', `/console/apps/${appId}/webhooks/${endpointId}/deliveries/${deliveryId}`)
    ).body;
    const rows = [...detail.matchAll(/<tr>\s*<td>(\d+)<\/td>\s*<td>[^<]*<\/td>\s*<td>(\d+)/g)].map((m) => [
      Number(m[1]),
      Number(m[2]),
    ]);
    expect(rows).toEqual([
      [3, 200],
      [2, 500],
      [1, 500],
    ]);
    expect(detail).toContain(receiver.received[0]!.headers['webhook-id']);
  });

  it('gives a delivery up after ten attempts over about three days, and disables an endpoint failing that long', async () => {
    const { endpointId } = await forms.createEndpoint(appId, receiver.url());
    receiver.answer(() => ({ status: 503 }));
    await writePost('늘 실패');
    await settle();
    for (const delay of RETRY_DELAYS_MS) await advance(delay);
    expect(receiver.received).toHaveLength(RETRY_DELAYS_MS.length + 1);
    const total = RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);
    expect(total / 3_600_000).toBeGreaterThan(72);
    expect(total / 3_600_000).toBeLessThan(78);
    await advance(86_400_000);
    expect(receiver.received).toHaveLength(RETRY_DELAYS_MS.length + 1);
    await refresh();

    const page = await endpointPage(endpointId);
    expect(page).toMatch(/id="endpoint-state"><strong>[^<]*every attempt failed for 3 days/);
    // Disabled: a new write is not sent; enabled again, the changes from then on are.
    receiver.answer(() => ({ status: 204 }));
    await writePost('중지된 동안');
    await settle();
    expect(receiver.received).toHaveLength(RETRY_DELAYS_MS.length + 1);
    expect((await forms.post(`/console/apps/${appId}/webhooks/${endpointId}/enable`)).status).toBe(200);
    const after = await writePost('다시 사용');
    await settle();
    expect(receiver.received.map((r) => payloadOf(r).resource.id).at(-1)).toBe(String(after));
    expect(receiver.received).toHaveLength(RETRY_DELAYS_MS.length + 2);
  });

  it("keeps each resource's deliveries in order while other resources go ahead", async () => {
    await forms.createEndpoint(appId, receiver.url());
    const held = new Set<string>();
    receiver.answer((r) => ({ status: held.has(payloadOf(r).resource.id) ? 500 : 204 }));
    const first = await writePost('먼저');
    held.add(String(first));
    await updatePost(first, '먼저, 고침');
    const second = await writePost('나중');
    await settle();
    const seen = () => receiver.received.map((r) => `${payloadOf(r).type} ${payloadOf(r).resource.id}`);
    // The update of the first post waits behind its failed creation; the second post is not held up.
    expect(seen()).toEqual([`post.created ${first}`, `post.created ${second}`]);
    held.clear();
    await advance(RETRY_DELAYS_MS[0]!);
    expect(seen()).toEqual([
      `post.created ${first}`,
      `post.created ${second}`,
      `post.created ${first}`,
      `post.updated ${first}`,
    ]);
  });

  it('does not let a slow endpoint or a failing one hold up a healthy one', async () => {
    const slow = await forms.createEndpoint(appId, receiver.url('/slow'));
    const failing = await forms.createEndpoint(appId, receiver.url('/failing'));
    const healthy = await forms.createEndpoint(appId, receiver.url('/healthy'));
    const answered: string[] = [];
    // The receiver tells the endpoints apart by the secret that verifies the delivery.
    const which = (r: Received) =>
      [slow, failing, healthy].find((e) => {
        try {
          new Webhook(e.secret).verify(r.body, r.headers);
          return true;
        } catch {
          return false;
        }
      });
    receiver.answer((r) => {
      const endpoint = which(r);
      if (endpoint === slow) return { status: 204, delayMs: 3_000 };
      if (endpoint === failing) return { status: 500 };
      answered.push('healthy');
      return { status: 204 };
    });
    await writePost('격리');
    const settled = settle();
    // The healthy endpoint's delivery arrives while the slow one is still waiting for its answer (1 s timeout).
    await expect.poll(() => answered.length, { timeout: 900, interval: 10 }).toBe(1);
    await settled;
    expect(receiver.received.filter((r) => which(r) === slow)).toHaveLength(1);
    expect(await endpointPage(slow.endpointId)).toContain('no answer within 1000 ms');
  });

  it('redelivers one delivery and replays a time range from the console, with the same webhook-ids', async () => {
    const before = await writePost('엔드포인트 전에 쓴 글');
    const { endpointId } = await forms.createEndpoint(appId, receiver.url());
    const after = await writePost('엔드포인트 뒤에 쓴 글');
    await settle();
    expect(receiver.received.map((r) => payloadOf(r).resource.id)).toEqual([String(after)]);
    const firstId = receiver.received[0]!.headers['webhook-id'];

    const list = await endpointPage(endpointId);
    const deliveryId = /deliveries\/(dlv_[0-9A-Za-z]+)"/.exec(list)![1]!;
    const redelivered = await forms.post(
      `/console/apps/${appId}/webhooks/${endpointId}/deliveries/${deliveryId}/redeliver`,
    );
    expect(redelivered.status).toBe(303);
    await settle();
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([firstId, firstId]);

    const minute = (ms: number) => new Date(ms).toISOString().slice(0, 16);
    const replay = await forms.post(`/console/apps/${appId}/webhooks/${endpointId}/replay`, {
      from: minute(t.clock.now - 60_000),
      to: minute(t.clock.now),
    });
    expect(replay.status, replay.body).toBe(200);
    await settle();
    const replayed = receiver.received.slice(2).map((r) => payloadOf(r).resource.id);
    expect(replayed).toContain(String(before));
    expect(replayed).toContain(String(after));
    expect(
      (
        await forms.post(`/console/apps/${appId}/webhooks/${endpointId}/replay`, {
          from: 'yesterday',
          to: minute(t.clock.now),
        })
      ).status,
    ).toBe(400);
  });

  it('sends nothing of a deleted post again: its pending retry, a redelivery and a replay carry its changes without content', async () => {
    const { endpointId, secret } = await forms.createEndpoint(appId, receiver.url());
    receiver.answer(() => ({ status: 500 }));
    const post = await writePost('곧 지울 글 deleted-content-canary');
    await settle();
    // While the post was public, its content went out once (and was refused).
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.body).toContain('deleted-content-canary');
    const deleted = await t.request({ method: 'DELETE', url: `/api/v1/posts/${post}`, headers: bearer(token) });
    expect(deleted.statusCode).toBe(204);
    receiver.answer(() => ({ status: 200 }));

    // The pending retry of post.created, then post.deleted.
    await advance(RETRY_DELAYS_MS[0]!);
    expect(receiver.received.slice(1).map((r) => [payloadOf(r).type, payloadOf(r).data])).toEqual([
      ['post.created', null],
      ['post.deleted', null],
    ]);
    expect(receiver.received[1]!.headers['webhook-id']).toBe(receiver.received[0]!.headers['webhook-id']);

    const list = await endpointPage(endpointId);
    // The page lists the endpoint's ping and the post's two changes; the changes are sent again.
    const pings = (
      await t.db.database.db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('endpoint_id', '=', endpointId)
        .where('payload', 'is not', null)
        .execute()
    ).map((d) => d.id);
    const deliveryIds = [...list.matchAll(/deliveries\/(dlv_[0-9A-Za-z]+)"/g)]
      .map((m) => m[1]!)
      .filter((id) => !pings.includes(id));
    expect(pings).toHaveLength(1);
    expect(deliveryIds).toHaveLength(2);
    for (const deliveryId of deliveryIds) {
      expect(
        (await forms.post(`/console/apps/${appId}/webhooks/${endpointId}/deliveries/${deliveryId}/redeliver`)).status,
      ).toBe(303);
    }
    await settle();
    const minute = (ms: number) => new Date(ms).toISOString().slice(0, 16);
    expect(
      (
        await forms.post(`/console/apps/${appId}/webhooks/${endpointId}/replay`, {
          from: minute(t.clock.now - 3_600_000),
          to: minute(t.clock.now),
        })
      ).status,
    ).toBe(200);
    await settle();
    // The replay sends the range's other changes too (earlier tests' posts); this post's: the retry and the deletion,
    // the two redeliveries, the replay's two.
    const later = receiver.received.slice(1);
    const ofPost = later.filter((r) => payloadOf(r).resource.id === String(post));
    // (A redelivery may go out as soon as it is asked for: the order among the sends again is not the point here.)
    expect(ofPost.map((r) => payloadOf(r).type).sort()).toEqual([
      'post.created',
      'post.created',
      'post.created',
      'post.deleted',
      'post.deleted',
      'post.deleted',
    ]);
    for (const r of ofPost) {
      expect(payloadOf(r).data).toBeNull();
      expect(() => new Webhook(secret).verify(r.body, r.headers)).not.toThrow();
    }
    for (const r of later) expect(r.body).not.toContain('deleted-content-canary');
  });

  it('sends a change as the feed holds it when it goes out: a post deleted while its round is under way goes out empty', async () => {
    const { endpointId } = await forms.createEndpoint(appId, receiver.url());
    const first = await writePost('먼저 쓴 글');
    const second = await writePost('둘째 글 deleted-mid-round-canary');
    await settle();
    const sent = receiver.received.length;
    // A replay queues both creations at once, so one round reads both; they go out one at a time
    // (WEBHOOK_CONCURRENCY=1), and the second post is deleted while the receiver answers the first.
    receiver.answer(async (received) => {
      if (JSON.parse(received.body).resource.id === String(first)) {
        expect(
          (await t.request({ method: 'DELETE', url: `/api/v1/posts/${second}`, headers: bearer(token) })).statusCode,
        ).toBe(204);
      }
      return { status: 200 };
    });
    const minute = new Date(t.clock.now).toISOString().slice(0, 16);
    expect(
      (await forms.post(`/console/apps/${appId}/webhooks/${endpointId}/replay`, { from: minute, to: minute })).status,
    ).toBe(200);
    await settle();
    const replayed = receiver.received.slice(sent);
    const ofSecond = replayed.map(payloadOf).filter((p) => p.resource.id === String(second));
    expect(ofSecond.map((p) => [p.type, p.data])).toEqual([
      ['post.created', null],
      ['post.deleted', null],
    ]);
    for (const r of replayed) expect(r.body).not.toContain('deleted-mid-round-canary');
  });

  it.each(['the app is deleted', 'the endpoint is disabled'])(
    'sends nothing more once %s, a round under way included',
    async (what) => {
      t.clock.now += 60_000; // a minute of its own: the replay below holds this test's changes only
      const own = await forms.createApp(`멈춤 ${what}`);
      const { endpointId } = await forms.createEndpoint(own.appId, receiver.url());
      const posts = [await writePost('멈추기 전 1'), await writePost('멈추기 전 2'), await writePost('멈추기 전 3')];
      await settle();
      const sent = receiver.received.length;
      // A replay queues the three creations into one round; they go out one at a time (WEBHOOK_CONCURRENCY=1), and the
      // owner acts while the receiver answers the first.
      receiver.answer(async (received) => {
        if (JSON.parse(received.body).resource.id === String(posts[0])) {
          const stop =
            what === 'the app is deleted'
              ? await forms.post(`/console/apps/${own.appId}/delete`, { confirm: 'yes' })
              : await forms.post(`/console/apps/${own.appId}/webhooks/${endpointId}/disable`, { confirm: 'yes' });
          expect(stop.status).toBe(what === 'the app is deleted' ? 303 : 200);
        }
        return { status: 500 };
      });
      const minute = new Date(t.clock.now).toISOString().slice(0, 16);
      expect(
        (await forms.post(`/console/apps/${own.appId}/webhooks/${endpointId}/replay`, { from: minute, to: minute }))
          .status,
      ).toBe(200);
      await settle();
      await advance(RETRY_DELAYS_MS[0]!);
      expect(receiver.received.slice(sent).map((r) => payloadOf(r).resource.id)).toEqual([String(posts[0])]);
      const left = await t.db.database.db
        .selectFrom('webhook_deliveries')
        .select(['state'])
        .where('endpoint_id', '=', endpointId)
        .where('payload', 'is', null)
        .execute();
      // Disabled: the attempt on the wire is recorded and, failed, given up like the rest, none left to send on enabling.
      expect(left.map((d) => d.state)).toEqual(what === 'the app is deleted' ? [] : ['failed', 'failed', 'failed']);
    },
  );

  it("signs with both secrets while a rotated secret's overlap runs, then with the new one only", async () => {
    const { endpointId, secret: old } = await forms.createEndpoint(appId, receiver.url());
    const rotated = await forms.shown(
      await forms.post(`/console/apps/${appId}/webhooks/${endpointId}/rotate-secret`, { overlap: '1h' }),
    );
    const fresh = /id="signing-secret">([^<]+)</.exec(rotated.body)![1]!;
    expect(fresh).not.toBe(old);
    await writePost('겹치는 동안');
    await settle();
    const during = receiver.received[0]!;
    expect(during.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(() => new Webhook(old).verify(during.body, during.headers)).not.toThrow();
    expect(() => new Webhook(fresh).verify(during.body, during.headers)).not.toThrow();
    t.clock.now += 3_600_001;
    await refresh();
    await writePost('겹침이 끝난 뒤');
    await settle();
    const afterwards = receiver.received[1]!;
    expect(() => new Webhook(fresh).verify(afterwards.body, afterwards.headers)).not.toThrow();
    expect(() => new Webhook(old).verify(afterwards.body, afterwards.headers)).toThrow();
  });

  it('signs with the new secret only from the moment a rotation with no overlap commits, a "Send again" at once included', async () => {
    const { endpointId, secret: old } = await forms.createEndpoint(appId, receiver.url());
    await writePost('돌리기 전');
    // Sent as the write commits; the endpoint's run then lingers for more, holding what it read of the endpoint.
    await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(1);
    expect(() => new Webhook(old).verify(receiver.received[0]!.body, receiver.received[0]!.headers)).not.toThrow();
    const rotated = await forms.shown(
      await forms.post(`/console/apps/${appId}/webhooks/${endpointId}/rotate-secret`, { overlap: 'none' }),
    );
    const fresh = /id="signing-secret">([^<]+)</.exec(rotated.body)![1]!;
    const deliveryId = /deliveries\/(dlv_[0-9A-Za-z]+)"/.exec(await endpointPage(endpointId))![1]!;
    expect(
      (await forms.post(`/console/apps/${appId}/webhooks/${endpointId}/deliveries/${deliveryId}/redeliver`)).status,
    ).toBe(303);
    // The next look for work (the poll's) finds the redelivery and wakes the lingering run.
    t.app.webhooks.wake();
    await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(2);
    await settle();
    const again = receiver.received[1]!;
    expect(again.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(() => new Webhook(fresh).verify(again.body, again.headers)).not.toThrow();
    expect(() => new Webhook(old).verify(again.body, again.headers)).toThrow();
  });

  it('refuses targets outside the rules in the form, keeping what was typed', async () => {
    for (const url of [
      'https://10.0.0.8/hooks',
      'https://169.254.169.254/latest',
      'http://example.com/hooks',
      'ftp://example.com',
      'https://user:pw@example.com/x',
      'not a url',
    ]) {
      const res = await forms.post(`/console/apps/${appId}/webhooks`, { url });
      expect(res.status, url).toBe(400);
      expect(res.body).toContain('aria-invalid="true"');
    }
    expect(await t.db.database.db.selectFrom('webhook_endpoints').select('id').execute()).toEqual([]);
  });

  it("keeps another user's endpoints out of reach (404)", async () => {
    const { endpointId } = await forms.createEndpoint(appId, receiver.url());
    const stranger = new ConsoleForms(injectSend(t.app));
    const { createUser } = await import('./helpers/tokens.js');
    await stranger.signIn(await createUser(t, `stranger-${engine}`));
    expect((await stranger.browser.request('GET', `/console/apps/${appId}/webhooks/${endpointId}`)).status).toBe(404);
    expect(
      (await stranger.post(`/console/apps/${appId}/webhooks/${endpointId}/delete`, { confirm: 'yes' })).status,
    ).toBe(404);
  });
});

describe('where deliveries may go', () => {
  it('is https to public addresses, and loopback only when the setting allows it', () => {
    expect(targetProblem('https://hooks.example.com/in', false)).toBeNull();
    expect(targetProblem('http://127.0.0.1:8080/in', false)).not.toBeNull();
    expect(targetProblem('https://localhost/in', false)).not.toBeNull();
    expect(targetProblem('http://127.0.0.1:8080/in', true)).toBeNull();
    expect(targetProblem('http://[::1]:8080/in', true)).toBeNull();
    expect(targetProblem('https://[::ffff:10.0.0.1]/in', true)).not.toBeNull();
    expect(targetProblem('https://192.168.1.20/in', true)).not.toBeNull();
  });

  it("checks the address a delivery connects to, whatever the endpoint's row says", async () => {
    const t = await createTestApp('sqlite');
    const receiver = await startReceiver();
    try {
      const forms = new ConsoleForms(injectSend(t.app));
      await forms.signIn(t.demo.user);
      const { appId } = await forms.createApp('주소 검사');
      const token = await accessToken(t, 'post:write');
      // As an older rule or a hand edit might leave them: a literal loopback address, and a name that resolves to one;
      // and a name that resolves to nothing at all (.invalid never does).
      for (const url of [
        receiver.url(),
        receiver.url().replace('127.0.0.1', 'localhost'),
        'https://no-such-host.invalid/in',
      ]) {
        const { endpointId } = await forms.createEndpoint(appId, 'https://hooks.example.com/in');
        await t.db.database.db.updateTable('webhook_endpoints').set({ url }).where('id', '=', endpointId).execute();
      }
      const body = multipart([jsonPart({ text: '보내면 안 되는 곳' })]);
      expect(
        (
          await t.request({
            method: 'POST',
            url: '/api/v1/posts',
            headers: { ...body.headers, ...bearer(token) },
            payload: body.payload,
          })
        ).statusCode,
      ).toBe(201);
      await t.app.webhooks.settle();
      expect(receiver.received).toEqual([]);
      const errors = (await t.db.database.db.selectFrom('webhook_attempts').select('error').execute()).map(
        (a) => a.error,
      );
      // Each endpoint's ping and the post's change: six attempts, none sent.
      expect(errors).toHaveLength(6);
      expect(errors.join('\n')).toMatch(/127\.0\.0\.1 is not an address webhooks may be sent to/);
      // An internal name and a name with no address at all read the same: the record maps nothing inside.
      expect(errors).toContain('localhost does not resolve to a public address');
      expect(errors).toContain('no-such-host.invalid does not resolve to a public address');
    } finally {
      await t.close();
      await receiver.close();
    }
  });
});

describe.each(ENGINES)('webhooks from two instances on %s', (engine) => {
  let first: ListeningApp;
  let second: SecondInstance;
  let receiver: Receiver;
  // The test's fetches keep their connections to both instances alive between requests. fetch lets an idle one go
  // about a second before the server's keep-alive timeout, by a timer of about a second's grain: on a loaded machine
  // the server can close one just as fetch sends on it (ECONNRESET). Here no connection idles long enough to be let go.
  const settings = { WEBHOOKS_ALLOW_LOOPBACK: 'true', HTTP_KEEP_ALIVE_TIMEOUT_MS: '25000' };
  beforeAll(async () => {
    first = await startListeningApp(engine, settings);
    second = await startSecondInstance(first, settings);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await receiver?.close();
  });

  it('sends each change once, in order per resource, whichever instance wrote it and both polling', async () => {
    const forms = new ConsoleForms(first.base);
    await forms.signIn(first.demo.user);
    const { appId } = await forms.createApp('두 인스턴스');
    const { secret } = await forms.createEndpoint(appId, receiver.url());
    const token = await accessToken({ app: first.app, demo: first.demo } as TestContext, 'post:write');
    const written: number[] = [];
    for (let i = 0; i < 12; i++) {
      const base = i % 2 === 0 ? first.base : second.base;
      const body = multipart([jsonPart({ text: `두 인스턴스 ${i}` })]);
      const created = await fetch(`${base}/api/v1/posts`, {
        method: 'POST',
        headers: { ...body.headers, ...bearer(token) },
        body: body.payload,
      });
      expect(created.status).toBe(201);
      const id = ((await created.json()) as { postId: number }).postId;
      written.push(id);
      const edit = multipart([jsonPart({ text: `두 인스턴스 ${i} 고침` })]);
      // The edit through the other instance: its change must still follow the creation's.
      const other = base === first.base ? second.base : first.base;
      expect(
        (
          await fetch(`${other}/api/v1/posts/${id}`, {
            method: 'PUT',
            headers: { ...edit.headers, ...bearer(token) },
            body: edit.payload,
          })
        ).status,
      ).toBe(200);
    }
    await expect.poll(() => receiver.received.length, { timeout: 15_000, interval: 50 }).toBe(written.length * 2);
    await realWait(600, 'quiet');
    expect(receiver.received).toHaveLength(written.length * 2);
    const ids = receiver.received.map((r) => r.headers['webhook-id']);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of receiver.received) expect(() => new Webhook(secret).verify(r.body, r.headers)).not.toThrow();
    for (const id of written) {
      expect(
        receiver.received
          .map(payloadOf)
          .filter((p) => p.resource.id === String(id))
          .map((p) => p.type),
      ).toEqual(['post.created', 'post.updated']);
    }
  });
});

describe.each(ENGINES)('webhooks on one listening instance on %s', (engine) => {
  let s: ListeningApp;
  let receiver: Receiver;
  /** The service's error-level log lines. */
  const errors: string[] = [];
  beforeAll(async () => {
    s = await startListeningApp(
      engine,
      { WEBHOOKS_ALLOW_LOOPBACK: 'true' },
      {
        level: 'error',
        stream: {
          write: (line: string) => {
            errors.push(line);
          },
        },
      },
    );
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await s?.close();
    await receiver?.close();
  });

  it('ends the run of an endpoint deleted while it waits for changes without an error', async () => {
    const forms = new ConsoleForms(s.base);
    await forms.signIn(s.demo.user);
    const { appId } = await forms.createApp('지운 엔드포인트');
    await forms.createEndpoint(appId, receiver.url());
    const token = await accessToken({ app: s.app, demo: s.demo } as TestContext, 'post:write');
    const write = async (text: string) => {
      const body = multipart([jsonPart({ text })]);
      expect(
        (
          await fetch(`${s.base}/api/v1/posts`, {
            method: 'POST',
            headers: { ...body.headers, ...bearer(token) },
            body: body.payload,
          })
        ).status,
      ).toBe(201);
    };
    await write('지우기 전');
    await expect.poll(() => receiver.received.length, { timeout: 10_000, interval: 20 }).toBe(1);
    // The endpoint now waits with its lease for the next change (two seconds); it goes, and a change comes.
    await s.db.database.db.deleteFrom('webhook_endpoints').execute();
    await write('지운 뒤');
    await realWait(500, 'quiet');
    expect(receiver.received).toHaveLength(1);
    expect(errors).toEqual([]);
  });

  it("lets no builder's slow endpoints delay another builder's: 210 endpoints holding their answers beside one healthy endpoint", async () => {
    const { db } = s.db.database;
    const crowd = new WebhookEndpoints(db, keyEncryptionKey(s.config.signingKeySecret, s.config.dataDir), 10);
    // Builder X: 21 apps of 10 endpoints each, every one holding its answer until the test lets it go (more endpoints
    // than an instance works at once). Builder Y: one app, one endpoint that answers at once.
    for (let i = 0; i < 21; i++) {
      const { id } = await db
        .insertInto('apps')
        .values({
          name: `느린 앱 ${i}`,
          description: '',
          owner_user_id: s.demo.user.id,
          created_at: Date.now(),
          homepage_url: null,
          privacy_url: null,
          deleted_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (let j = 0; j < 10; j++) await crowd.create(id, receiver.url(`/slow-${i}-${j}`), [], Date.now());
    }
    const other = await createUser({ db: s.db, clock: { now: Date.now() } } as unknown as TestContext, 'other-builder');
    const { id: otherApp } = await db
      .insertInto('apps')
      .values({
        name: '다른 빌더',
        description: '',
        owner_user_id: other.id,
        created_at: Date.now(),
        homepage_url: null,
        privacy_url: null,
        deleted_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await crowd.create(otherApp, receiver.url('/healthy'), [], Date.now());
    let open = 0;
    let mostOpen = 0;
    let letSlowAnswer = () => {};
    const slowAnswers = new Promise<void>((resolve) => {
      letSlowAnswer = resolve;
    });
    onTestFinished(() => letSlowAnswer());
    receiver.answer(async (r) => {
      if (!r.path.startsWith('/slow')) return { status: 204 };
      mostOpen = Math.max(mostOpen, ++open);
      await slowAnswers;
      open--;
      return { status: 204 };
    });
    const token = await accessToken({ app: s.app, demo: s.demo } as TestContext, 'post:write');
    const body = multipart([jsonPart({ text: '공정한 배달' })]);
    const written = await fetch(`${s.base}/api/v1/posts`, {
      method: 'POST',
      headers: { ...body.headers, ...bearer(token) },
      body: body.payload,
    });
    expect(written.status).toBe(201);
    const answered = Date.now();
    // The healthy endpoint's delivery arrives while every slow one still waits for its answer.
    await expect
      .poll(() => receiver.received.some((r) => r.path === '/healthy'), { timeout: 10_000, interval: 10 })
      .toBe(true);
    const healthy = receiver.received.find((r) => r.path === '/healthy')!;
    console.warn(
      `[webhooks, ${engine}] the other builder's delivery arrived ${healthy.at - answered} ms after the write's answer, beside 210 slow endpoints`,
    );
    // Builder X never has more than WEBHOOK_BUILDER_CONCURRENCY (32) deliveries on the wire at once.
    await expect
      .poll(() => receiver.received.filter((r) => r.path.startsWith('/slow')).length, { timeout: 5_000, interval: 50 })
      .toBeGreaterThanOrEqual(32);
    expect(mostOpen).toBe(32);
    letSlowAnswer();
    await db.deleteFrom('webhook_endpoints').execute();
    receiver.reset();
  });
});
