import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceEnv, serviceNodeFlags } from '../support/service-flags.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { openDatabase } from '../src/db/database.js';
import { generateDemoData } from '../src/demo/demo-generator.js';
import { freePort } from '../support/free-port.js';
import { serverProcess } from './helpers/server-process.js';

/**
 * Nothing an app key can send to /mcp makes the process run out of memory (docs/security.md). The real server, with
 * npm start's heap limits (256 MB), takes rounds of 12 parallel JSON-RPC batches of 100 `tools/list` each (5.4 KB in;
 * 7.1 MB out apiece when batches were answered, which ended the process twice in two tries): each is refused with
 * 400 and JSON-RPC's invalid request, and the server answers the API afterwards. The same 12 requests sent one message
 * each are answered from the list serialized once and counted against the app's limit: the 61st of a minute is 429.
 */
describe('a flood of JSON-RPC batches at /mcp', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-mcp-flood-'));
  const file = path.join(dir, 'service.sqlite');
  let base = '';
  let port = 0;
  let apiKey = '';
  const server = serverProcess(
    () => base,
    () => ({
      ...serviceEnv(),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      DATABASE_URL: file,
      LOG_LEVEL: 'silent',
      PUBLIC_BASE_URL: base,
      REDIS_URL: '',
    }),
    serviceNodeFlags(),
  );

  beforeAll(async () => {
    port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const database = openDatabase({ kind: 'sqlite', url: file });
    await migrateToLatest(database);
    apiKey = (await generateDemoData(database, { now: Date.now(), posts: 20, jobs: 10, events: 3 })).apiKey;
    await database.close();
    await server.start();
  }, 120_000);
  afterAll(async () => {
    await server.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const send = (body: string) =>
    fetch(`${base}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'x-svc-api-key': apiKey,
      },
      body,
    });

  it("refuses every batch and keeps serving, under npm start's heap limit", async () => {
    const batch = JSON.stringify(
      Array.from({ length: 100 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'tools/list' })),
    );
    for (let round = 0; round < 5; round++) {
      const answers = await Promise.all(
        Array.from({ length: 12 }, async () => {
          const res = await send(batch);
          return { status: res.status, body: (await res.json()) as { error?: { code: number } } };
        }),
      );
      for (const answer of answers) expect([answer.status, answer.body.error?.code]).toEqual([400, -32600]);
    }
    expect(server.exitCode).toBeNull();
    expect((await fetch(`${base}/api/v1/codes/work-types`, { headers: { 'x-svc-api-key': apiKey } })).status).toBe(200);
  }, 120_000);

  it("answers single tools/list messages and counts them against the app's limit", async () => {
    const statuses: number[] = [];
    // The limit counts per minute of the clock: when a minute turns during the rounds, the count starts again, so up
    // to 60 + 61 requests may come before the 429 (11 rounds of 12 hold them); it stops at the first.
    for (let round = 0; round < 11 && !statuses.includes(429); round++) {
      statuses.push(
        ...(await Promise.all(
          Array.from({ length: 12 }, async (_, i) => {
            const res = await send(JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/list' }));
            await res.arrayBuffer();
            return res.status;
          }),
        )),
      );
    }
    expect(statuses).toContain(200);
    expect(statuses).toContain(429);
    expect(server.exitCode).toBeNull();
  }, 120_000);
});
