import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { png } from './helpers/images.js';
import { createTestApp, type TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';
import { accessToken } from './helpers/tokens.js';

/** curl in its own process: the client takes no turns of the service's event loop. */
function curl(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', ...args]);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => { out += chunk.toString(); });
    child.on('error', reject);
    child.on('close', () => resolve(out));
  });
}

/**
 * How many turns of the event loop a write waits for, counted on a loop kept busy (each turn takes 10 ms of
 * work, as reads queued under load do): every asynchronous step of a write costs it one such turn. An upload's
 * image is decoded in two steps of libvips (its header, then the pixels), and stored durably without more
 * (DiskMediaStore.put): a post with an image waits at most two turns more than the same post without one. On
 * PostgreSQL, where each statement is a turn of its own (its answer comes over the network), one more: the
 * image's row is a statement of its own.
 */
describe.each(ENGINES)('loop turns of a write on %s', (engine) => {
  let t: TestContext;
  let token: string;
  let base: string;
  const image = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'turns-')), 'a.png');

  beforeAll(async () => {
    t = await createTestApp(engine);
    token = await accessToken(t, 'post:write');
    fs.writeFileSync(image, png(64, 48));
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  });
  afterAll(async () => { await t?.close(); });

  /** The turns between the end of a post create's body and its answer. */
  const turnsOf = async (withImage: boolean): Promise<number> => {
    let turns = 0;
    let busy = true;
    const turn = () => {
      turns++;
      const until = performance.now() + 10;
      while (performance.now() < until);
      if (busy) setImmediate(turn);
    };
    let bodyEnd = -1;
    let answered = -1;
    const onRequest = (req: NodeJS.ReadableStream, res: NodeJS.WritableStream) => {
      req.on('end', () => { bodyEnd = turns; });
      res.on('finish', () => { answered = turns; });
    };
    t.app.server.on('request', onRequest);
    setImmediate(turn);
    const args = ['-H', `authorization: Bearer ${token}`, '-H', `idempotency-key: turns-${Math.random()}`,
      '-F', `request=${JSON.stringify({ text: `차례 세기 ${Math.random()}` })}`];
    if (withImage) args.push('-F', `images=@${image};type=image/png`);
    const status = await curl([...args, `${base}/api/v1/posts`]);
    busy = false;
    t.app.server.off('request', onRequest);
    expect(status).toBe('201');
    expect(bodyEnd).toBeGreaterThanOrEqual(0);
    return answered - bodyEnd;
  };

  it('answers a post with an image at most two turns (on PostgreSQL three) after the same post without one', async () => {
    await turnsOf(true); // the image library loads at the first upload
    const text = await turnsOf(false);
    const withImage = await turnsOf(true);
    expect(withImage - text).toBeLessThanOrEqual(engine === 'postgres' ? 3 : 2);
  });
});
