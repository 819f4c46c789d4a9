import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { generateDemoData, type DemoManifest } from '../src/demo/demo-generator.js';
import { png } from './helpers/images.js';
import { imagePart, jsonPart, multipart } from './helpers/multipart.js';
import { freePort } from './helpers/free-port.js';
import { scratchStorage, type ScratchStorage } from './helpers/scratch-storage.js';
import { serverProcess } from './helpers/server-process.js';
import { testConfig, type TestContext } from './helpers/test-app.js';
import { accessToken } from './helpers/tokens.js';

const SECRET = 'image-library-test-signing-secret-0123456789';

/** Whether the process has libvips (sharp's image library) mapped into its memory. */
const hasLibvips = (pid: number) => fs.readFileSync(`/proc/${pid}/maps`, 'utf8').includes('libvips');

/**
 * The image library is loaded at the first upload, not at start: libvips and its libraries take ~19 MB of the
 * process's resident memory (docs/performance.md), which an instance that only serves reads never needs.
 * Read off the real server's own memory map (Linux).
 */
describe.runIf(process.platform === 'linux')('the image library of the real server', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-image-library-'));
  let store: ScratchStorage;
  let demo: DemoManifest;
  let token = '';
  let base = '';
  let port = 0;
  const server = serverProcess(() => base, () => ({
    PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dir, DATABASE_URL: store.url, LOG_LEVEL: 'silent',
    PUBLIC_BASE_URL: base, SIGNING_KEY_SECRET: SECRET, INSTANCE_NAME: 'image-library-test', REDIS_URL: '',
  }));

  beforeAll(async () => {
    store = await scratchStorage('sqlite', dir, 'image-library');
    port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const database = store.open();
    await migrateToLatest(database);
    demo = await generateDemoData(database, { now: Date.now(), posts: 20, jobs: 5, events: 2 });
    const app = await buildApp({ config: testConfig({ PUBLIC_BASE_URL: base, SIGNING_KEY_SECRET: SECRET, DATA_DIR: dir }), database, logger: false });
    token = await accessToken({ app, demo } as TestContext, 'post:write');
    await app.close();
    await database.close();
    await server.start();
  }, 120_000);

  afterAll(async () => {
    if (server.running) await server.kill();
    await store?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('is loaded at the first image upload, and not before: reads and writes without images do not load it', async () => {
    const pid = server.pid!;
    const read = await fetch(`${base}/api/v1/posts?keyword=${encodeURIComponent('서울')}`, { headers: { 'x-svc-api-key': demo.apiKey } });
    expect(read.status).toBe(200);
    const plain = multipart([jsonPart({ text: 'a post without an image' })]);
    const created = await fetch(`${base}/api/v1/posts`, { method: 'POST', headers: { ...plain.headers, authorization: `Bearer ${token}` }, body: plain.payload });
    expect(created.status).toBe(201);
    expect(hasLibvips(pid)).toBe(false);

    const withImage = multipart([jsonPart({ text: 'a post with an image' }), imagePart(png(40, 30))]);
    const uploaded = await fetch(`${base}/api/v1/posts`, { method: 'POST', headers: { ...withImage.headers, authorization: `Bearer ${token}` }, body: withImage.payload });
    expect(uploaded.status).toBe(201);
    expect((await uploaded.json() as { images: Array<{ width: number; height: number }> }).images).toMatchObject([{ width: 40, height: 30 }]);
    expect(hasLibvips(pid)).toBe(true);
  }, 60_000);
});
