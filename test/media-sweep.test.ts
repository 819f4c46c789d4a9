import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../src/app.js';
import { mediaStoreFor } from '../src/media/media-store-factory.js';
import { png } from './helpers/images.js';
import { imagePart, jsonPart, multipart } from './helpers/multipart.js';
import { createTestApp, type TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';
import { accessToken, bearer } from './helpers/tokens.js';

const HOUR = 3_600_000;
const CASES = ENGINES.flatMap((engine) => (['disk', 'database'] as const).map((store) => [engine, store] as const));

describe.each(CASES)('media sweep on %s with the %s store', (engine, storeKind) => {
  let t: TestContext | null = null;
  let restarted: App | null = null;
  afterEach(async () => {
    await restarted?.close();
    await t?.close();
  });

  it('removes at start the uploads a crash left with no row, and temporary files, but nothing in use or recent', async () => {
    t = await createTestApp(engine, { config: { MEDIA_STORE: storeKind } });
    const token = await accessToken(t, 'post:write');
    const body = multipart([jsonPart({ text: 'an image in use' }), imagePart(png(12, 8))]);
    const created = await t.request({
      method: 'POST',
      url: '/api/v1/posts',
      headers: { ...body.headers, ...bearer(token) },
      payload: body.payload,
    });
    expect(created.statusCode).toBe(201);
    const inUse = new URL(created.json().images[0].url).pathname;

    // What a process that died between storing uploads and writing their rows leaves behind.
    const store = mediaStoreFor(t.config, t.db.database, () => t!.clock.now);
    await store.put('posts/crashed-before-its-row.png', png(4, 4), 'image/png');
    await store.put('jobs/crashed-too.png', png(4, 4), 'image/png');
    await store.put('demo/seeded-by-an-operator.png', png(4, 4), 'image/png');
    const later = Date.now() + 2 * HOUR;
    // Uploaded a moment before the sweep: a create still in progress, whose rows are not written yet.
    const recent = mediaStoreFor(t.config, t.db.database, () => later);
    await recent.put('posts/create-in-progress.png', png(4, 4), 'image/png');
    const mediaDir = path.join(t.config.dataDir, 'media');
    if (storeKind === 'disk') {
      fs.utimesSync(path.join(mediaDir, 'posts', 'create-in-progress.png'), new Date(later), new Date(later));
      fs.writeFileSync(path.join(mediaDir, 'posts', 'half-written.png.0a1b2c.tmp'), 'partial');
    }

    restarted = await buildApp({ config: t.config, database: t.db.database, clock: () => later, logger: false });
    expect(await restarted.mediaSweep.firstRun).toEqual({ orphans: 2, unfinished: storeKind === 'disk' ? 1 : 0 });

    const status = async (p: string) => (await restarted!.inject({ method: 'GET', url: p })).statusCode;
    expect(await status(inUse)).toBe(200);
    expect(await status('/media/posts/crashed-before-its-row.png')).toBe(404);
    expect(await status('/media/jobs/crashed-too.png')).toBe(404);
    expect(await status('/media/posts/create-in-progress.png')).toBe(200);
    expect(await status('/media/demo/seeded-by-an-operator.png')).toBe(200);
    if (storeKind === 'disk')
      expect(fs.existsSync(path.join(mediaDir, 'posts', 'half-written.png.0a1b2c.tmp'))).toBe(false);
  });
});
