import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { buildApp } from '../src/app.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { generateDemoData, type DemoManifest } from '../src/demo/demo-generator.js';
import { ImageProcess, ImageProcessFailed } from '../src/media/image-process.js';
import { jpeg, png } from './helpers/images.js';
import { imagePart, jsonPart, multipart, type Part } from './helpers/multipart.js';
import { freePort } from '../support/free-port.js';
import { childrenOf, processCpuMs } from '../support/proc.js';
import { scratchStorage, type ScratchStorage } from './helpers/scratch-storage.js';
import { serverProcess } from './helpers/server-process.js';
import { GENEROUS_LIMITS, testConfig, type TestContext } from './helpers/test-app.js';
import { accessToken } from './helpers/tokens.js';
import { realWait } from './helpers/real-time.js';

const SECRET = 'image-library-test-signing-secret-0123456789';

/** Whether the process has libvips (sharp's image library) mapped into its memory. */
const hasLibvips = (pid: number) => fs.readFileSync(`/proc/${pid}/maps`, 'utf8').includes('libvips');

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(what: string, condition: () => boolean, ms = 10_000): Promise<void> {
  for (const started = Date.now(); !condition(); await realWait(20, 'poll')) {
    if (Date.now() - started > ms) throw new Error(`waited ${ms} ms for ${what}`);
  }
}

/**
 * Uploads are decoded in a separate process (src/media/image-process.ts), started at the first upload: the
 * server never maps libvips (~19 MB, and the memory decoding takes), and a crash in it costs the upload it held,
 * not the server. Read off the real server's processes and memory maps (Linux).
 */
describe.runIf(process.platform === 'linux')('the image process of the real server', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-image-library-'));
  let store: ScratchStorage;
  let demo: DemoManifest;
  let token = '';
  let base = '';
  let port = 0;
  const server = serverProcess(
    () => base,
    () => ({
      ...GENEROUS_LIMITS,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      DATABASE_URL: store.url,
      LOG_LEVEL: 'silent',
      PUBLIC_BASE_URL: base,
      SIGNING_KEY_SECRET: SECRET,
      INSTANCE_NAME: 'image-library-test',
      REDIS_URL: '',
    }),
  );

  beforeAll(async () => {
    store = await scratchStorage('sqlite', dir, 'image-library');
    port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const database = store.open();
    await migrateToLatest(database);
    demo = await generateDemoData(database, { now: Date.now(), posts: 20, jobs: 5, events: 2 });
    const app = await buildApp({
      config: testConfig({ PUBLIC_BASE_URL: base, SIGNING_KEY_SECRET: SECRET, DATA_DIR: dir }),
      database,
      logger: false,
    });
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

  const post = (parts: Part[]) => {
    const body = multipart(parts);
    return fetch(`${base}/api/v1/posts`, {
      method: 'POST',
      headers: { ...body.headers, authorization: `Bearer ${token}` },
      body: body.payload,
    });
  };

  it('is started at the first image upload, and not before; libvips is mapped there, never in the server', async () => {
    const pid = server.pid!;
    const read = await fetch(`${base}/api/v1/posts?keyword=${encodeURIComponent('서울')}`, {
      headers: { 'x-svc-api-key': demo.apiKey },
    });
    expect(read.status).toBe(200);
    expect((await post([jsonPart({ text: 'a post without an image' })])).status).toBe(201);
    expect(childrenOf(pid)).toEqual([]);

    const uploaded = await post([jsonPart({ text: 'a post with an image' }), imagePart(png(40, 30))]);
    expect(uploaded.status).toBe(201);
    expect(((await uploaded.json()) as { images: Array<{ width: number; height: number }> }).images).toMatchObject([
      { width: 40, height: 30 },
    ]);
    const [images, ...others] = childrenOf(pid);
    expect(others).toEqual([]);
    expect(hasLibvips(images!)).toBe(true);
    expect(hasLibvips(pid)).toBe(false);
    // It gets none of the server's settings: a decoder exploited by a crafted file finds no secret in its environment.
    const environment = fs
      .readFileSync(`/proc/${images}/environ`, 'utf8')
      .split('\0')
      .filter(Boolean)
      .map((entry) => entry.slice(0, entry.indexOf('=')));
    expect(fs.readFileSync(`/proc/${pid}/environ`, 'utf8')).toContain(SECRET);
    // Node.js adds the IPC channel's own (NODE_CHANNEL_FD, NODE_CHANNEL_SERIALIZATION_MODE).
    expect(
      environment
        .filter((name) => !name.startsWith('NODE_CHANNEL_'))
        .every((name) => ['PATH', 'TMPDIR', 'LANG'].includes(name)),
      environment.join(' '),
    ).toBe(true);
    expect(fs.readFileSync(`/proc/${images}/environ`, 'utf8')).not.toContain(SECRET);
  }, 60_000);

  it('when it dies decoding, that upload is answered 502 P0013 and stores nothing; the server goes on, the next upload starts a new one', async () => {
    const pid = server.pid!;
    const [images] = childrenOf(pid);
    // 36 megapixels: ~1.5 s of a core to decode and encode again, under the default limits.
    const large = await jpeg(6_000, 6_000);
    const before = processCpuMs(images!);
    const answer = post([
      jsonPart({ text: 'a post whose image crashes the decoder' }),
      imagePart(large, 'large.jpg', 'images', 'image/jpeg'),
    ]);
    await until('the decode to be under way', () => processCpuMs(images!) > before + 200);
    process.kill(images!, 'SIGKILL');
    const res = await answer;
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({ code: 'P0013', details: 'images' });
    const listed = await fetch(`${base}/api/v1/posts?keyword=${encodeURIComponent('crashes the decoder')}`, {
      headers: { 'x-svc-api-key': demo.apiKey },
    });
    expect(((await listed.json()) as { totalItems: number }).totalItems).toBe(0);

    expect((await post([jsonPart({ text: 'after the crash' }), imagePart(png(12, 10))])).status).toBe(201);
    const [next] = childrenOf(pid);
    expect(next).toBeDefined();
    expect(next).not.toBe(images);
  }, 60_000);

  it('ends with the server: a server killed with SIGKILL leaves no image process behind', async () => {
    const [images] = childrenOf(server.pid!);
    expect(images).toBeDefined();
    await server.kill();
    await until('the image process to end', () => !isRunning(images!));
  }, 60_000);
});

describe.runIf(process.platform === 'linux')("the image process's own limits", () => {
  const limits = { maxPixels: 40_000_000, maxDecodedBytes: 160 * 1024 * 1024 };
  const log = pino({ level: 'silent' });

  it('stops a decode that runs past its time, failing that image, and starts afresh for the next', async () => {
    const images = new ImageProcess(log, { timeoutMs: 300, idleMs: 60_000 });
    try {
      const slow = images.process(await jpeg(6_000, 6_000), limits);
      const pid = images.pid!;
      await expect(slow).rejects.toThrow(ImageProcessFailed);
      await expect(slow).rejects.toThrow('an image took more than 300 ms');
      expect(isRunning(pid)).toBe(false);
      expect(await images.process(png(30, 20), limits)).toMatchObject({
        width: 30,
        height: 20,
        contentType: 'image/png',
      });
      expect(images.pid).not.toBe(pid);
    } finally {
      await images.close();
    }
  }, 30_000);

  it('ends after its idle time, and when closed; the next image starts it again', async () => {
    const images = new ImageProcess(log, { timeoutMs: 30_000, idleMs: 200 });
    expect(await images.process(png(8, 8), limits)).toMatchObject({ width: 8 });
    const first = images.pid!;
    await until('the idle process to end', () => !isRunning(first));
    expect(images.pid).toBeUndefined();

    expect(await images.process(png(9, 9), limits)).toMatchObject({ width: 9 });
    const second = images.pid!;
    expect(second).not.toBe(first);
    await images.close();
    expect(isRunning(second)).toBe(false);
  }, 30_000);
});
