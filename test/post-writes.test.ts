import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPublicAddress } from '../src/net/safe-fetch.js';
import { failingMediaStore } from './helpers/failing-media-store.js';
import { jpeg, png } from './helpers/images.js';
import { imagePart, jsonPart, multipart, type Part } from './helpers/multipart.js';
import { startOgServer } from './helpers/og-server.js';
import { createTestApp, type TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';
import { accessToken, bearer, createUser } from './helpers/tokens.js';
import { realWait } from './helpers/real-time.js';

describe.each(ENGINES)('post writes on %s', (engine) => {
  let t: TestContext;
  let token: string;
  let og: Awaited<ReturnType<typeof startOgServer>>;
  beforeAll(async () => {
    og = await startOgServer();
    t = await createTestApp(engine, {
      config: {
        OG_FETCH_ALLOWED_HOSTS: `localhost:${og.port}`,
        OG_FETCH_TIMEOUT_MS: '1000',
        OG_FETCH_MAX_BYTES: '65536',
      },
    });
    token = await accessToken(t, 'post:write profile');
  });
  afterAll(async () => {
    await t?.close();
    await og?.close();
  });

  const send = (method: 'POST' | 'PUT', url: string, parts: Part[], authToken = token) => {
    const body = multipart(parts);
    return t.request({ method, url, headers: { ...body.headers, ...bearer(authToken) }, payload: body.payload });
  };
  const create = (request: unknown, extra: Part[] = []) => send('POST', '/api/v1/posts', [jsonPart(request), ...extra]);
  const detail = async (id: number) => (await t.get(`/api/v1/posts/${id}`, bearer(token))).json();
  const postCount = async () =>
    Number(
      (
        await t.db.database.db
          .selectFrom('posts')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const local = (pathname: string) => `http://localhost:${og.port}${pathname}`;

  describe('POST /api/v1/posts', () => {
    it('creates a post with measured images, mentions and an Open Graph card', async () => {
      const res = await create(
        { text: '새 글입니다 @acme-labs 와 @member-01 그리고 @nobody', og: { link: local('/page') } },
        [imagePart(png(640, 480)), imagePart(await jpeg(1200, 800), 'b.jpg', 'images', 'image/jpeg')],
      );
      expect(res.statusCode, res.body).toBe(201);
      const post = res.json();
      expect(res.headers.location).toBe(`/api/v1/posts/${post.postId}`);
      expect(Object.keys(post).sort()).toEqual([
        'content',
        'images',
        'og',
        'postId',
        'postedAt',
        'updatedAt',
        'webUrl',
      ]);
      expect(post.images.map((i: { width: number; height: number }) => [i.width, i.height])).toEqual([
        [640, 480],
        [1200, 800],
      ]);
      expect(post.images[0].url).toMatch(/^https:\/\/api\.test\.example\/media\/posts\/.+\.png$/);
      expect(post.og).toEqual({
        link: local('/page'),
        title: 'Hiring at Acme & friends',
        description: 'We build APIs.',
        image: `http://localhost:${og.port}/img/card.png`,
        source: 'Acme Blog',
      });
      expect(post.postedAt).toMatch(/Z$/);
      const read = await detail(post.postId);
      expect(read).toMatchObject({ owned: true, language: 'ko', author: { type: 'MEMBER', id: 'demo-user' } });
      // The answer is built from what was written, not read back: the post read back says the same.
      const { postId, content, images, og: card, postedAt, updatedAt, webUrl } = read;
      expect(post).toEqual({ postId, content, images, og: card, postedAt, updatedAt, webUrl });
      expect(read.mentions).toEqual({
        companies: [{ name: 'Acme Labs', id: 'acme-labs' }],
        users: [{ name: expect.any(String), id: 'member-01' }],
      });
      const image = await t.app.inject({ method: 'GET', url: new URL(post.images[1].url).pathname });
      expect(image.headers['content-type']).toBe('image/jpeg');
      expect(await sharp(image.rawPayload).metadata()).toMatchObject({ format: 'jpeg', width: 1200, height: 800 });
      const found = (await t.get(`/api/v1/posts?keyword=${encodeURIComponent('새 글')}&sort=RECENT`)).json();
      expect(found.items[0].postId).toBe(post.postId);
    });

    it('answers a create with what it wrote, reading nothing back', async () => {
      await create({ text: 'warm' }); // the token's checks and the operation's rate-limit units, kept from here on
      // What that create does after its answer (its change completed, webhook deliveries looked for) is done first.
      for (let last = -1; last !== t.db.database.statements.count; ) {
        last = t.db.database.statements.count;
        await realWait(50, 'poll');
      }
      const before = t.db.database.statements.count;
      const res = await create({ text: '다시 읽지 않는 답' });
      expect(res.statusCode, res.body).toBe(201);
      // The transaction alone: its begin, the post, its search change, the data version, the feed's position and
      // change, the commit. Reading the post back for the answer was an eighth.
      expect(t.db.database.statements.count - before).toBe(7);
    });

    it("keeps a keyed create's answer in its own transaction: nothing is written after the commit", async () => {
      const keyed = (key: string, text: string) => {
        const body = multipart([jsonPart({ text })]);
        return t.request({
          method: 'POST',
          url: '/api/v1/posts',
          headers: { ...body.headers, ...bearer(token), 'idempotency-key': key },
          payload: body.payload,
        });
      };
      await keyed('answer-warm', 'warm'); // the token's checks, the rate-limit units and the keys' sweep, kept from here on
      for (let last = -1; last !== t.db.database.statements.count; ) {
        last = t.db.database.statements.count;
        await realWait(50, 'poll');
      }
      const before = t.db.database.statements.count;
      const res = await keyed('answer-in-transaction', '답은 거래 안에');
      expect(res.statusCode, res.body).toBe(201);
      // The key's claim, then the transaction's seven and the claim's answer as its last statement. The answer was
      // stored after the commit before: a tenth.
      expect(t.db.database.statements.count - before).toBe(9);
      const row = await t.db.database.db
        .selectFrom('idempotency_keys')
        .selectAll()
        .where('idempotency_key', '=', 'answer-in-transaction')
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        resource_id: String(res.json().postId),
        response_status: 201,
        response_location: res.headers.location,
        owner: null,
        lease_expires_at: null,
      });
      expect(JSON.parse(row.response_body!)).toEqual(res.json());
      const retry = await keyed('answer-in-transaction', '답은 거래 안에');
      expect(retry.headers['idempotency-replayed']).toBe('true');
      expect(retry.json()).toEqual(res.json());
    });

    it('makes a repost, and refuses one of a missing post', async () => {
      const res = await create({ repostedPostId: t.demo.posts.company });
      expect(res.statusCode).toBe(201);
      expect((await detail(res.json().postId)).repostedPost.postId).toBe(t.demo.posts.company);
      const missing = await create({ text: 'x', repostedPostId: 999_999 });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toMatchObject({ code: 'P0002', details: 'request.repostedPostId' });
    });

    it.each([
      ['a text over 3000 characters', [jsonPart({ text: 'a'.repeat(3001) })], 400, 'C0002', 'request.text'],
      [
        'an og link that is not http(s)',
        [jsonPart({ text: 'x', og: { link: 'ftp://example.com/x' } })],
        400,
        'C0002',
        'request.og.link',
      ],
      ['an empty post', [jsonPart({ text: '   ' })], 400, 'C0002', 'request.text'],
      ['an unknown field', [jsonPart({ text: 'x', mood: 'happy' })], 400, 'C0002', 'request'],
      [
        '11 images',
        [jsonPart({ text: 'x' }), ...Array.from({ length: 11 }, () => imagePart(png(2, 2)))],
        400,
        'P0010',
        'images',
      ],
      [
        'a non-image with an image name',
        [jsonPart({ text: 'x' }), imagePart(Buffer.from('%PDF-1.7 not an image'), 'cat.jpg')],
        400,
        'P0012',
        'images',
      ],
      ['no request part', [imagePart(png(2, 2))], 400, 'C0002', 'request'],
    ])('refuses %s with %i %s and creates nothing', async (_label, parts, status, code, details) => {
      const before = await postCount();
      const res = await send('POST', '/api/v1/posts', parts);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json()).toMatchObject({ code, details });
      expect(await postCount()).toBe(before);
    });

    it('needs a token with post:write', async () => {
      const body = multipart([jsonPart({ text: 'x' })]);
      expect(
        (await t.request({ method: 'POST', url: '/api/v1/posts', headers: body.headers, payload: body.payload })).json()
          .code,
      ).toBe('C0003');
      const other = await accessToken(t, 'profile');
      expect((await send('POST', '/api/v1/posts', [jsonPart({ text: 'x' })], other)).json().code).toBe('C0011');
    });
  });

  describe('Open Graph fetching is protected against SSRF, and the post is saved either way', () => {
    const card = async (link: string) => {
      const res = await create({ text: `링크 ${link}`, og: { link } });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().og;
    };
    const empty = (link: string) => ({ link, title: null, source: null, image: null, description: null });

    it('refuses loopback addresses by default, by name and by number, without sending a request', async () => {
      const before = og.hits.length;
      expect(await card(`http://127.0.0.1:${og.port}/page`)).toEqual(empty(`http://127.0.0.1:${og.port}/page`));
      expect(og.hits.length).toBe(before);
    });

    it('judges IPv6 forms that carry an IPv4 address by that address', () => {
      // new URL() writes [::127.0.0.1] as [::7f00:1], which ipaddr.js alone calls a public unicast address.
      const hostOf = (url: string) => new URL(url).hostname.replace(/^\[|\]$/g, '');
      for (const url of [
        'http://[::127.0.0.1]/',
        'http://[::ffff:127.0.0.1]/',
        'http://[::169.254.169.254]/',
        'http://[::ffff:10.1.2.3]/',
        'http://[::1]/',
        'http://[::]/',
      ]) {
        expect(isPublicAddress(hostOf(url)), url).toBe(false);
      }
      expect(isPublicAddress(hostOf('http://[::8.8.8.8]/'))).toBe(true);
      expect(isPublicAddress(hostOf('http://[2606:4700::1111]/'))).toBe(true);
    });

    it('fetches an allow-listed host', async () => {
      expect(await card(local('/plain'))).toEqual({
        link: local('/plain'),
        title: 'Only a title',
        description: 'Plain description',
        image: null,
        source: null,
      });
    });

    it('re-checks every redirect: to a private address, to cloud metadata, and too many', async () => {
      const toPrivate = local(`/redirect?to=${encodeURIComponent(`http://127.0.0.1:${og.port}/page`)}`);
      const hitsBefore = og.hits.filter((h) => h === '/page').length;
      expect(await card(toPrivate)).toEqual(empty(toPrivate));
      expect(og.hits.filter((h) => h === '/page').length).toBe(hitsBefore);
      const toMetadata = local(`/redirect?to=${encodeURIComponent('http://169.254.169.254/latest/meta-data/')}`);
      expect(await card(toMetadata)).toEqual(empty(toMetadata));
      expect(await card(local('/loop'))).toEqual(empty(local('/loop')));
      expect(og.hits.filter((h) => h.startsWith('/loop')).length).toBe(4);
      const followed = local(`/redirect?to=${encodeURIComponent('/page')}`);
      expect((await card(followed)).title).toBe('Hiring at Acme & friends');
    });

    it('cuts off a slow page at the timeout and a huge one at the size cap', async () => {
      const started = Date.now();
      expect(await card(local('/slow'))).toEqual(empty(local('/slow')));
      expect(Date.now() - started).toBeLessThan(3_000);
      const huge = await card(local('/huge'));
      expect(huge.title).toBeNull();
    });

    it('refuses other schemes and unresolvable names', async () => {
      expect(await card('http://no-such-host.invalid/')).toEqual(empty('http://no-such-host.invalid/'));
    });
  });

  describe('PUT /api/v1/posts/{postId}', () => {
    it("replaces the body, mentions and card of the user's own post and drops stale translations", async () => {
      const translated = await t.db.database.db
        .selectFrom('post_translations')
        .select('post_id')
        .where('post_id', '=', t.demo.posts.repostOfDeleted)
        .execute();
      expect(translated.length).toBeGreaterThan(0);
      const res = await send('PUT', `/api/v1/posts/${t.demo.posts.repostOfDeleted}`, [
        jsonPart({ text: 'Updated with @pixel-studio', og: { link: local('/plain') } }),
      ]);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ content: 'Updated with @pixel-studio', og: { title: 'Only a title' } });
      expect(Date.parse(res.json().updatedAt)).toBeGreaterThanOrEqual(Date.parse(res.json().postedAt));
      const read = await detail(t.demo.posts.repostOfDeleted);
      expect(read.mentions.companies).toEqual([{ name: 'Pixel Studio', id: 'pixel-studio' }]);
      expect(read.language).toBe('en');
      expect(
        await t.db.database.db
          .selectFrom('post_translations')
          .select('post_id')
          .where('post_id', '=', t.demo.posts.repostOfDeleted)
          .execute(),
      ).toEqual([]);
      const removed = await send('PUT', `/api/v1/posts/${t.demo.posts.repostOfDeleted}`, [jsonPart({ og: null })]);
      expect(removed.json()).toMatchObject({ content: 'Updated with @pixel-studio', og: null });
    });

    it("refuses someone else's post with 403 P0003 and changes nothing", async () => {
      const before = await detail(t.demo.posts.company);
      const res = await send('PUT', `/api/v1/posts/${t.demo.posts.company}`, [jsonPart({ text: 'hijacked' })]);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('P0003');
      expect((await detail(t.demo.posts.company)).content).toBe(before.content);
    });

    it('refuses images, a repost change and an empty update; 404 for a missing post', async () => {
      const own = (await create({ text: 'mine' })).json().postId;
      expect(
        (await send('PUT', `/api/v1/posts/${own}`, [jsonPart({ text: 'x' }), imagePart(png(2, 2))])).json(),
      ).toMatchObject({ code: 'C0002', details: 'images' });
      expect((await send('PUT', `/api/v1/posts/${own}`, [jsonPart({ repostedPostId: 1 })])).json()).toMatchObject({
        code: 'C0002',
      });
      expect((await send('PUT', `/api/v1/posts/${own}`, [jsonPart({})])).json()).toMatchObject({ code: 'C0002' });
      expect((await send('PUT', '/api/v1/posts/999999', [jsonPart({ text: 'x' })])).json().code).toBe('P0002');
    });
  });

  describe('DELETE /api/v1/posts/{postId}', () => {
    it("deletes the user's own post with its images, which stop being served", async () => {
      const post = (
        await create({ text: '곧 지울 글 @acme-labs', og: { link: local('/page') } }, [imagePart(png(20, 20))])
      ).json();
      const imagePath = new URL(post.images[0].url).pathname;
      expect((await t.app.inject({ method: 'GET', url: imagePath })).statusCode).toBe(200);
      const res = await t.request({ method: 'DELETE', url: `/api/v1/posts/${post.postId}`, headers: bearer(token) });
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect((await t.get(`/api/v1/posts/${post.postId}`)).json().code).toBe('P0002');
      expect((await t.app.inject({ method: 'GET', url: imagePath })).statusCode).toBe(404);
      for (const table of ['post_images', 'post_mentions', 'post_og_cards', 'post_translations'] as const) {
        expect(
          await t.db.database.db.selectFrom(table).select('post_id').where('post_id', '=', post.postId).execute(),
        ).toEqual([]);
      }
      expect(
        (await t.request({ method: 'DELETE', url: `/api/v1/posts/${post.postId}`, headers: bearer(token) })).statusCode,
      ).toBe(404);
    });

    it("refuses someone else's post with 403 P0003", async () => {
      const stranger = await createUser(t, 'stranger-posts');
      const strangerToken = await accessToken(t, 'post:write', stranger);
      const res = await t.request({
        method: 'DELETE',
        url: `/api/v1/posts/${t.demo.posts.byDemoUser[0]}`,
        headers: bearer(strangerToken),
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('P0003');
      expect((await t.get(`/api/v1/posts/${t.demo.posts.byDemoUser[0]}`)).statusCode).toBe(200);
    });
  });

  it('keeps a created post across a restart', async () => {
    const id = (await create({ text: 'durable' })).json().postId;
    const reopened = t.db.reopen();
    try {
      expect(await reopened.db.selectFrom('posts').select('content').where('id', '=', id).executeTakeFirst()).toEqual({
        content: 'durable',
      });
    } finally {
      await reopened.close();
    }
  });
});

describe.each(ENGINES)('a post create that fails part-way on %s', (engine) => {
  it('leaves no post and no files when the media store fails on the third image', async () => {
    const failing = failingMediaStore(3);
    const t = await createTestApp(engine, { mediaStore: failing.store });
    const dir = path.join(t.config.dataDir, 'media');
    failing.useFolder(dir);
    try {
      const token = await accessToken(t, 'post:write');
      const before = await t.db.database.db.selectFrom('posts').select('id').execute();
      const body = multipart([jsonPart({ text: 'four images' }), ...[1, 2, 3, 4].map(() => imagePart(png(10, 10)))]);
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/posts',
        headers: { ...body.headers, ...bearer(token) },
        payload: body.payload,
      });
      expect(res.statusCode).toBe(502);
      expect(res.json().code).toBe('P0013');
      expect(await t.db.database.db.selectFrom('posts').select('id').execute()).toEqual(before);
      const files = fs.existsSync(dir)
        ? fs.readdirSync(dir, { recursive: true }).filter((f) => String(f).includes('.'))
        : [];
      expect(files).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
