import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solidPng } from '../src/media/png.js';
import { gif, jpeg, png } from './helpers/images.js';
import { imagePart, jsonPart, multipart, type Part } from './helpers/multipart.js';
import { createTestApp, type TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';
import { accessToken, bearer } from './helpers/tokens.js';

/** A PNG whose header claims `width` x `height` while its pixel data is that of a 1x1 image. */
function pngClaiming(width: number, height: number): Buffer {
  const real = solidPng(1, 1);
  const forged = Buffer.from(real);
  forged.writeUInt32BE(width, 16);
  forged.writeUInt32BE(height, 20);
  return forged;
}

/** Images are decoded and re-encoded: what is stored and served is pixels only, measured from the decoded image. */
describe.each(ENGINES)('image uploads on %s', (engine) => {
  let t: TestContext;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp(engine);
    token = await accessToken(t, 'post:write');
  });
  afterAll(async () => {
    await t?.close();
  });

  const create = (text: string, images: Part[]) => {
    const body = multipart([jsonPart({ text }), ...images]);
    return t.request({
      method: 'POST',
      url: '/api/v1/posts',
      headers: { ...body.headers, ...bearer(token) },
      payload: body.payload,
    });
  };
  const served = async (url: string) => (await t.app.inject({ method: 'GET', url: new URL(url).pathname })).rawPayload;
  const mediaCount = async () =>
    Number(
      (
        await t.db.database.db
          .selectFrom('post_images')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('refuses a PNG whose header claims 100000 x 100000 pixels with 400 P0011, storing nothing', async () => {
    const before = await mediaCount();
    const res = await create('decompression bomb', [imagePart(pngClaiming(100_000, 100_000))]);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code: 'P0011', details: 'images' });
    expect(await mediaCount()).toBe(before);
  });

  it('refuses a truncated PNG, and bytes that only start like an image, with 400 P0012', async () => {
    const whole = png(200, 200);
    for (const bytes of [
      whole.subarray(0, whole.length - 30),
      pngClaiming(3_000, 2_000),
      Buffer.concat([whole.subarray(0, 8), Buffer.from('<html>')]),
    ]) {
      const res = await create('broken image', [imagePart(bytes)]);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code: 'P0012' });
    }
  });

  it('serves polyglots as clean images: the GIF loses its HTML, the JPEG its script', async () => {
    const gifHtml = Buffer.concat([await gif(16, 16), Buffer.from('<html><script>alert("gif")</script></html>')]);
    const jpegJs = await jpeg(16, 16);
    // A comment segment (COM) right after SOI, the classic place for a JPEG/JavaScript polyglot's payload.
    const script = Buffer.from('*/=1;alert("jpeg");/*');
    const com = Buffer.concat([Buffer.from([0xff, 0xfe, 0, script.length + 2]), script]);
    const polyglot = Buffer.concat([jpegJs.subarray(0, 2), com, jpegJs.subarray(2)]);
    const res = await create('polyglots', [
      imagePart(gifHtml, 'a.gif', 'images', 'image/gif'),
      imagePart(polyglot, 'b.jpg', 'images', 'image/jpeg'),
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const [first, second] = res.json().images;
    const gifOut = await served(first.url);
    const jpegOut = await served(second.url);
    expect(gifOut.includes('<script')).toBe(false);
    expect(jpegOut.includes('alert(')).toBe(false);
    expect(await sharp(gifOut).metadata()).toMatchObject({ format: 'gif', width: 16, height: 16 });
    expect(await sharp(jpegOut).metadata()).toMatchObject({ format: 'jpeg', width: 16, height: 16 });
  });

  it('applies the EXIF orientation, reports the oriented size, and strips EXIF (GPS included) from what it serves', async () => {
    const photo = await sharp({ create: { width: 40, height: 20, channels: 3, background: { r: 10, g: 20, b: 30 } } })
      .withExif({ IFD0: { Copyright: 'SECRET-OWNER' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '37/1 24/1 0/1' } })
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    const res = await create('a photo taken sideways', [imagePart(photo, 'photo.jpg', 'images', 'image/jpeg')]);
    expect(res.statusCode, res.body).toBe(201);
    const image = res.json().images[0];
    expect([image.width, image.height]).toEqual([20, 40]);
    const out = await served(image.url);
    const meta = await sharp(out).metadata();
    expect(meta).toMatchObject({ width: 20, height: 40 });
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect(out.includes('SECRET-OWNER')).toBe(false);
  });
});
