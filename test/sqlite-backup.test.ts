import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../src/app.js';
import { runCli } from '../src/cli/main.js';
import { openDatabase, type Database } from '../src/db/database.js';
import { jsonPart, multipart } from './helpers/multipart.js';
import { createTestApp, type TestContext } from './helpers/test-app.js';
import { accessToken, bearer } from './helpers/tokens.js';
import { realWait } from './helpers/real-time.js';

const ROOT = path.resolve(new URL('..', import.meta.url).pathname);

/** The CLI as an operator runs it, in its own process: exit code and what it printed. */
function cli(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('close', (code) => resolve({ code, output }));
  });
}

function inProcess(args: string[], env: Record<string, string>) {
  const lines: string[] = [];
  const io = { out: (line: string) => lines.push(line), err: (line: string) => lines.push(line) };
  return runCli(args, io, env).then((code) => ({ code, output: lines.join('\n') }));
}

/** A word the tokenizer keeps whole and no demo text contains: `backupmark` and the number in letters. */
const mark = (n: number) =>
  `backupmark${n
    .toString(26)
    .split('')
    .map((d) => String.fromCharCode(97 + parseInt(d, 26)))
    .join('')}`;

describe('SQLite backup and restore (db backup, db verify, db restore)', () => {
  let t: TestContext;
  let file: string;
  let env: Record<string, string>;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-backup-'));
  const backup = path.join(dir, 'backup.sqlite');
  let restored: { app: App; database: Database } | null = null;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    file = t.db.file!;
    env = { DATABASE_URL: file, DATA_DIR: t.config.dataDir, LOG_LEVEL: 'silent' };
  });
  afterAll(async () => {
    await restored?.app.close();
    await restored?.database.close();
    await t.db.drop();
    fs.rmSync(t.config.dataDir, { recursive: true, force: true });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const written: Array<{ id: number; word: string; sentAt: number; answeredAt: number }> = [];
  let backupStartedAt = 0;
  let backupEndedAt = 0;
  let feedCursor = '';

  it('backs up while the service serves writes: every write succeeds, the copy verifies', async () => {
    const token = await accessToken(t, 'post:write');
    feedCursor = (await t.get('/api/v1/changes?after=now')).json().nextCursor;
    let writing = true;
    const writer = (async () => {
      for (let n = 0; writing; n++) {
        const word = mark(n);
        const body = multipart([jsonPart({ text: `백업 중에도 쓰기 ${word}` })]);
        const sentAt = Date.now();
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/v1/posts',
          headers: { ...body.headers, ...bearer(token) },
          payload: body.payload,
        });
        expect(res.statusCode, res.body).toBe(201);
        written.push({ id: res.json<{ postId: number }>().postId, word, sentAt, answeredAt: Date.now() });
      }
    })();
    await realWait(300, 'pace');
    backupStartedAt = Date.now();
    const run = await cli(['db', 'backup', '--to', backup], env);
    backupEndedAt = Date.now();
    await realWait(300, 'pace');
    writing = false;
    await writer;
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain(`${backup}: ok`);
    expect(run.output).toMatch(/Rows: users \d+, apps \d+, posts \d+/);
    // Writes went on, and succeeded, while the copy was taken.
    expect(written.filter((w) => w.sentAt > backupStartedAt && w.answeredAt < backupEndedAt).length).toBeGreaterThan(3);

    // The live database, its log and the copy hold password and key hashes and sealed secrets: their owner's alone.
    const mode = (f: string) => (fs.statSync(f).mode & 0o777).toString(8);
    expect(
      [file, `${file}-wal`, `${file}-shm`, backup].filter(fs.existsSync).map((f) => [path.basename(f), mode(f)]),
    ).toEqual([
      [path.basename(file), '600'],
      [`${path.basename(file)}-wal`, '600'],
      [`${path.basename(file)}-shm`, '600'],
      ['backup.sqlite', '600'],
    ]);

    const verified = await cli(['db', 'verify', '--file', backup], env);
    expect(verified.code, verified.output).toBe(0);
    expect(verified.output).toContain('Migrations: ');
    expect(verified.output).toContain('up to date');
  }, 60_000);

  it('refuses to back up over an existing file, and to restore while an instance has the database open', async () => {
    const again = await inProcess(['db', 'backup', '--to', backup], env);
    expect(again.code).toBe(1);
    expect(again.output).toContain('exists');
    const before = fs.statSync(file).mtimeMs;
    const refused = await inProcess(['db', 'restore', '--from', backup], env);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain('is in use');
    expect(refused.output).toContain('nothing was changed');
    expect(fs.statSync(file).mtimeMs).toBe(before);
    const res = await t.get(`/api/v1/posts/${written.at(-1)!.id}`);
    expect(res.statusCode).toBe(200);
  });

  it('refuses a file that is not a sound backup of this service, and changes nothing', async () => {
    const broken = path.join(dir, 'broken.sqlite');
    const bytes = fs.readFileSync(backup);
    bytes.fill(0x41, 8_192, 40_960);
    fs.writeFileSync(broken, bytes);
    const verify = await inProcess(['db', 'verify', '--file', broken], env);
    expect(verify.code).toBe(1);
    const notOurs = path.join(dir, 'other.sqlite');
    fs.writeFileSync(notOurs, '');
    const other = await inProcess(['db', 'verify', '--file', notOurs], env);
    expect(other.code).toBe(1);
    expect(other.output).toContain("not the service's database");
  });

  it("restores with every instance stopped: the backup's writes are all there, later ones are not, search agrees", async () => {
    await t.app.close();
    await t.db.database.close();
    expect(fs.readdirSync(path.join(t.config.dataDir, 'search-index')).length).toBeGreaterThan(0);

    const run = await inProcess(['db', 'restore', '--from', backup], env);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain('is kept as');
    expect(fs.readdirSync(path.dirname(file)).some((name) => name.includes('.before-restore-'))).toBe(true);
    expect(fs.readdirSync(path.join(t.config.dataDir, 'search-index')).filter((name) => name.endsWith('.idx'))).toEqual(
      [],
    );
    expect((await inProcess(['db', 'verify'], env)).code).toBe(0);

    const database = openDatabase({ kind: 'sqlite', url: file });
    const app = await buildApp({ config: t.config, database, clock: () => t.clock.now, logger: false });
    restored = { app, database };
    const read = (url: string) => app.inject({ method: 'GET', url, headers: { 'x-svc-api-key': t.demo.apiKey } });
    const before = written.filter((w) => w.answeredAt < backupStartedAt);
    const after = written.filter((w) => w.sentAt > backupEndedAt);
    expect(before.length).toBeGreaterThan(0);
    expect(after.length).toBeGreaterThan(0);
    for (const w of before) expect((await read(`/api/v1/posts/${w.id}`)).statusCode, `post ${w.id}`).toBe(200);
    for (const w of after) expect((await read(`/api/v1/posts/${w.id}`)).statusCode, `post ${w.id}`).toBe(404);
    // The search index was built from the restored tables: it finds what the backup holds, and nothing later.
    const found = async (word: string) =>
      (await read(`/api/v1/posts?keyword=${word}`))
        .json<{ items: Array<{ postId: number }> }>()
        .items.map((p) => p.postId);
    expect(await found(before.at(-1)!.word)).toEqual([before.at(-1)!.id]);
    expect(await found(after[0]!.word)).toEqual([]);
    // The change feed of the restored copy has a new epoch: a cursor handed out before is told to read the state again.
    const stale = await read(`/api/v1/changes?after=${feedCursor}`);
    expect(stale.statusCode).toBe(410);
    expect(stale.json()).toMatchObject({ code: 'C0013' });
    // `changes new-epoch` does the same by hand (after a PostgreSQL restore).
    const fresh = (await read('/api/v1/changes?after=now')).json().nextCursor as string;
    expect((await read(`/api/v1/changes?after=${fresh}`)).statusCode).toBe(200);
    expect((await inProcess(['changes', 'new-epoch'], env)).code).toBe(0);
    expect((await read(`/api/v1/changes?after=${fresh}`)).statusCode).toBe(410);
  }, 60_000);
});
