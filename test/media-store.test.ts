import sharp from 'sharp';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { png } from './helpers/images.js';
import { imagePart, jsonPart, multipart } from './helpers/multipart.js';
import { createTestApp, type TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';
import { accessToken, bearer } from './helpers/tokens.js';

describe.each(ENGINES)('the shared (database) media store on %s', (engine) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp(engine, { config: { MEDIA_STORE: 'database' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('stores uploads in the database, serves them, and removes them with their post', async () => {
    const token = await accessToken(t, 'post:write');
    const body = multipart([jsonPart({ text: 'shared media' }), imagePart(png(33, 22))]);
    const created = await t.request({
      method: 'POST',
      url: '/api/v1/posts',
      headers: { ...body.headers, ...bearer(token) },
      payload: body.payload,
    });
    expect(created.statusCode).toBe(201);
    const image = created.json().images[0];
    expect([image.width, image.height]).toEqual([33, 22]);
    const served = await t.app.inject({ method: 'GET', url: new URL(image.url).pathname });
    expect(served.statusCode).toBe(200);
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({ format: 'png', width: 33, height: 22 });
    expect(await t.db.database.db.selectFrom('media_objects').select('media_key').execute()).toHaveLength(1);
    expect(fs.existsSync(path.join(t.config.dataDir, 'media'))).toBe(false);
    await t.request({ method: 'DELETE', url: `/api/v1/posts/${created.json().postId}`, headers: bearer(token) });
    expect((await t.app.inject({ method: 'GET', url: new URL(image.url).pathname })).statusCode).toBe(404);
    expect(await t.db.database.db.selectFrom('media_objects').select('media_key').execute()).toEqual([]);
  });
});
