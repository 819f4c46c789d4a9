import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/main.js';
import { verifyWebhook } from '../sdk/src/webhooks.js';
import { freePort } from '../support/free-port.js';
import { startListeningApp, type ListeningApp } from './helpers/listening-app.js';
import { jsonPart, multipart } from './helpers/multipart.js';
import type { TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';
import { accessToken, bearer } from './helpers/tokens.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';

/** `changes listen` run in this process until `stop()`; its lines in `out` and `err`. */
function listen(env: Record<string, string>, ...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const controller = new AbortController();
  const done = runCli(
    ['changes', 'listen', ...argv],
    {
      out: (l) => {
        out.push(l);
      },
      err: (l) => {
        err.push(l);
      },
    },
    env,
    controller.signal,
  );
  return {
    out,
    err,
    done,
    stop: () => {
      controller.abort();
      return done;
    },
  };
}

describe.each(ENGINES)('changes listen on %s', (engine) => {
  let s: ListeningApp;
  let receiver: Receiver;
  let token: string;
  let env: Record<string, string>;
  let dir: string;

  beforeAll(async () => {
    s = await startListeningApp(engine);
    receiver = await startReceiver();
    token = await accessToken({ app: s.app, demo: s.demo } as TestContext, 'post:write');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-listen-'));
    env = { DATA_DIR: dir, LOG_LEVEL: 'silent', PUBLIC_BASE_URL: s.base };
  });
  afterAll(async () => {
    await s?.close();
    await receiver?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const writePost = async (text: string): Promise<number> => {
    const body = multipart([jsonPart({ text })]);
    const res = await fetch(`${s.base}/api/v1/posts`, {
      method: 'POST',
      headers: { ...body.headers, ...bearer(token) },
      body: body.payload,
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { postId: number }).postId;
  };
  const deletePost = async (id: number) => {
    expect((await fetch(`${s.base}/api/v1/posts/${id}`, { method: 'DELETE', headers: bearer(token) })).status).toBe(
      204,
    );
  };

  it('forwards each change from now on as a signed delivery, one line each, and says where to go on when stopped', async () => {
    const before = await writePost('듣기 전에 쓴 글');
    const run = listen(env, '--api-key', s.demo.apiKey, '--forward-to', receiver.url('/local'), '--interval', '1');
    await expect
      .poll(() => run.out.join('\n'), { timeout: 10_000, interval: 20 })
      .toContain('Signing secret for this session');
    const secret = /whsec_[A-Za-z0-9+/=]+/.exec(run.out.join('\n'))![0];

    const id = await writePost('노트북에서 받는 웹훅');
    await deletePost(id);
    await expect.poll(() => receiver.received.length, { timeout: 10_000, interval: 20 }).toBe(2);
    const lines = await run.stop();
    expect(lines).toBe(0);

    // What arrived is the feed's items exactly, in order, verified as the service's own deliveries are.
    const feed = (await (
      await fetch(`${s.base}/api/v1/changes?types=post.created,post.deleted`, {
        headers: { 'x-svc-api-key': s.demo.apiKey },
      })
    ).json()) as { items: { id: string; resource: { id: string } }[] };
    const expected = feed.items.filter((c) => c.resource.id === String(id));
    expect(receiver.received.map((r) => r.path)).toEqual(['/local', '/local']);
    expect(receiver.received.map((r) => JSON.parse(r.body))).toEqual(expected);
    for (const r of receiver.received) {
      expect(new Webhook(secret).verify(r.body, r.headers)).toEqual(JSON.parse(r.body));
      expect(r.headers['webhook-id']).toBe(JSON.parse(r.body).id);
      expect(await verifyWebhook(secret, r.headers, r.body)).toEqual(JSON.parse(r.body));
    }
    expect(receiver.received.some((r) => r.body.includes(`"id":"${before}"`))).toBe(false);

    const text = run.out.join('\n');
    expect(text).toContain(`Forwarding the changes of ${s.base} from now on (every type) to ${receiver.url('/local')}`);
    expect(text).toMatch(new RegExp(`post\\.created\\s+${expected[0]!.id}  post ${id}  → 204 in \\d+ ms`));
    expect(text).toMatch(new RegExp(`post\\.deleted\\s+${expected[1]!.id}  post ${id}  → 204 in \\d+ ms`));
    expect(text).toMatch(/Stopped\. To go on from here: --after \S+$/);
    expect(run.err).toEqual([]);
    receiver.reset();
  });

  it('goes on from a cursor with only the types asked for, signed with the secret given, and reports failed answers', async () => {
    const first = listen(env, '--api-key', s.demo.apiKey, '--forward-to', receiver.url(), '--interval', '1');
    await expect.poll(() => first.out.join('\n'), { timeout: 10_000, interval: 20 }).toContain('Ctrl+C stops');
    await first.stop();
    const cursor = /--after (\S+)$/.exec(first.out.at(-1)!)![1]!;

    // Written while nothing listens: the next run starts from the cursor and finds them.
    const a = await writePost('멈춘 사이에 쓴 글');
    await deletePost(a);
    const b = await writePost('남은 글');
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    receiver.answer((r) => ({ status: r.body.includes(`"id":"${b}"`) ? 204 : 500 }));
    const run = listen(
      env,
      '--api-key',
      s.demo.apiKey,
      '--forward-to',
      receiver.url(),
      '--after',
      cursor,
      '--types',
      'post.deleted',
      '--secret',
      secret,
      '--interval',
      '1',
    );
    await expect.poll(() => receiver.received.length, { timeout: 10_000, interval: 20 }).toBe(1);
    await deletePost(b);
    await expect.poll(() => receiver.received.length, { timeout: 10_000, interval: 20 }).toBe(2);
    await run.stop();

    expect(receiver.received.map((r) => JSON.parse(r.body).type)).toEqual(['post.deleted', 'post.deleted']);
    expect(receiver.received.map((r) => JSON.parse(r.body).resource.id)).toEqual([String(a), String(b)]);
    for (const r of receiver.received) expect(() => new Webhook(secret).verify(r.body, r.headers)).not.toThrow();
    const text = run.out.join('\n');
    expect(text).toContain(`after ${cursor} (post.deleted)`);
    expect(text).toContain('Signing with the secret given by --secret.');
    expect(text).not.toContain(secret);
    expect(text).toMatch(new RegExp(`post ${a}  → 500 in \\d+ ms`));
    expect(text).toMatch(new RegExp(`post ${b}  → 204 in \\d+ ms`));
    receiver.reset();
  });

  it('says when the local receiver does not answer, and goes on', async () => {
    const closed = `http://127.0.0.1:${await freePort()}/hooks`;
    const run = listen(env, '--api-key', s.demo.apiKey, '--forward-to', closed, '--interval', '1');
    await expect.poll(() => run.out.join('\n'), { timeout: 10_000, interval: 20 }).toContain('Ctrl+C stops');
    const id = await writePost('아무도 안 받는 글');
    await expect
      .poll(() => run.out.join('\n'), { timeout: 10_000, interval: 20 })
      .toMatch(new RegExp(`post ${id}  → failed after \\d+ ms: .*ECONNREFUSED`));
    expect(await run.stop()).toBe(0);
  });

  it('stops with exit code 1 when the feed refuses the key or the cursor', async () => {
    const wrongKey = listen(env, '--api-key', 'svck_Wrong000000000000000000000000000', '--forward-to', receiver.url());
    expect(await wrongKey.done).toBe(1);
    expect(wrongKey.err.join('\n')).toMatch(/The change feed refused the request \(401 C0001: /);
    expect(wrongKey.err.join('\n')).not.toContain('svck_Wrong');

    const badCursor = listen(
      env,
      '--api-key',
      s.demo.apiKey,
      '--forward-to',
      receiver.url(),
      '--after',
      'not-a-cursor',
    );
    expect(await badCursor.done).toBe(1);
    expect(badCursor.err.join('\n')).toMatch(/400 C0005/);
    expect(receiver.received).toEqual([]);
  });

  it.each([
    [['--forward-to', 'http://localhost:3000/hooks'], '--api-key is required'],
    [['--api-key', 'k'], '--forward-to is required'],
    [['--api-key', 'k', '--forward-to', 'ftp://localhost/hooks'], '--forward-to must be an http or https URL'],
    [
      ['--api-key', 'k', '--forward-to', 'http://localhost:3000/', '--types', 'post.created,post.exploded'],
      '--types takes a comma list of',
    ],
    [
      ['--api-key', 'k', '--forward-to', 'http://localhost:3000/', '--secret', 'whsec_c2hvcnQ='],
      '--secret must be whsec_',
    ],
    [
      ['--api-key', 'k', '--forward-to', 'http://localhost:3000/', '--interval', '0'],
      '--interval must be 1 to 300 seconds',
    ],
  ])('refuses %j as a usage error (exit code 2)', async (argv, message) => {
    const run = listen(env, ...argv);
    expect(await run.done).toBe(2);
    expect(run.err[0]).toContain(message);
  });
});

/**
 * Against a hostile or broken service (issue 67 row 11): a feed server of the test's own answers what the case says.
 * `changes listen` prints only safe text, never takes the app key to another origin, reads a bounded amount, backs
 * off when a page says more waits but gives nothing, and reports an item that is not a change instead of crashing.
 */
describe('changes listen against a hostile or broken service', () => {
  type Handler = (request: http.IncomingMessage, response: http.ServerResponse) => void;
  let handler: Handler;
  let feed: http.Server;
  let elsewhere: http.Server;
  const elsewhereRequests: http.IncomingHttpHeaders[] = [];
  let requests = 0;
  let receiver: Receiver;
  let env: Record<string, string>;
  let dir: string;
  const base = () => `http://127.0.0.1:${(feed.address() as AddressInfo).port}`;
  const change = (id: string, type = 'post.created') => ({
    id,
    type,
    occurredAt: '2026-12-01T00:00:00.000Z',
    resource: { type: 'post', id: '7', webUrl: 'https://x/7', companyId: null },
    data: null,
  });
  const page = (items: unknown[], hasMore = false, nextCursor = 'c2') => JSON.stringify({ items, nextCursor, hasMore });
  /** Answers the first request (`after=now`) with an empty page, the rest with `rest`. */
  const afterNow =
    (rest: Handler): Handler =>
    (request, response) => {
      if (new URL(request.url!, base()).searchParams.get('after') === 'now') response.end(page([], false, 'c1'));
      else rest(request, response);
    };

  beforeAll(async () => {
    feed = http.createServer((request, response) => {
      requests++;
      handler(request, response);
    });
    elsewhere = http.createServer((request, response) => {
      elsewhereRequests.push(request.headers);
      response.end(page([]));
    });
    await Promise.all(
      [feed, elsewhere].map((server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))),
    );
    receiver = await startReceiver();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-listen-hostile-'));
    env = { DATA_DIR: dir, LOG_LEVEL: 'silent', PUBLIC_BASE_URL: 'http://127.0.0.1:9' };
  });
  afterAll(async () => {
    for (const server of [feed, elsewhere]) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    await receiver?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const run = () =>
    listen(
      env,
      '--api-key',
      'svck_SecretOfTheBuilder00000000000000',
      '--forward-to',
      receiver.url(),
      '--api-url',
      base(),
      '--interval',
      '1',
    );

  it('prints terminal escape sequences and bidirectional overrides as escapes, never raw', async () => {
    handler = afterNow((_request, response) =>
      response.end(page([change('evt_\u001b]0;owned\u0007\u202e', '\u001b[2Jpost.created')])),
    );
    const listening = run();
    await expect
      .poll(() => listening.out.join('\n'), { timeout: 10_000, interval: 20 })
      .toContain('evt_\\u{1b}]0;owned\\u{7}\\u{202e}');
    expect(await listening.stop()).toBe(0);
    const raw = [...listening.out.join('\n')].filter(
      (c) => c !== '\n' && (c.codePointAt(0)! < 0x20 || c === '\u007f' || c === '\u202e'),
    );
    expect(raw).toEqual([]);
  });

  it('never follows a redirect to another origin with the app key', async () => {
    handler = (_request, response) => {
      response
        .writeHead(302, { location: `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/api/v1/changes` })
        .end();
    };
    const listening = run();
    expect(await listening.done).toBe(1);
    expect(listening.err.join('\n')).toMatch(/redirected to http:\/\/127\.0\.0\.1:\d+: not followed/);
    expect(elsewhereRequests).toEqual([]);
  });

  it('reads at most a bounded page: an endless body is cut off and asked for again later', async () => {
    const chunk = Buffer.alloc(1 << 20, 0x20);
    handler = afterNow((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      const more = () => {
        while (!response.destroyed && response.write(chunk));
      };
      response.on('drain', more);
      response.write('{"items":[');
      more();
    });
    const listening = run();
    await expect
      .poll(() => listening.out.join('\n'), { timeout: 20_000, interval: 20 })
      .toMatch(/did not answer \(the answer is larger than 16777216 bytes\); asking again in 1 s/);
    expect(await listening.stop()).toBe(0);
  });

  it('backs off when a page says more changes wait but gives none, instead of asking again at once', async () => {
    requests = 0;
    handler = afterNow((_request, response) => response.end(page([], true, 'c1')));
    const listening = run();
    // Two empty pages, each followed by a wait that grows: 1, then 2 s (it used to ask again at once, 166 times in 12 s).
    await expect
      .poll(() => listening.out.filter((line) => line.includes('gave none')).length, { timeout: 20_000, interval: 20 })
      .toBe(2);
    expect(await listening.stop()).toBe(0);
    expect(requests).toBeLessThanOrEqual(4);
    expect(listening.out.join('\n')).toMatch(/gave none; asking again in 1 s[\s\S]*gave none; asking again in 2 s/);
  });

  it('goes where the demo last served when given no --api-url and no address setting', async () => {
    handler = afterNow((_request, response) => response.end(page([])));
    const demoDir = fs.mkdtempSync(path.join(dir, 'demo-'));
    fs.writeFileSync(path.join(demoDir, 'demo-credentials.json'), JSON.stringify({ apiKey: 'svck_x', apiUrl: base() }));
    const listening = listen(
      { DATA_DIR: demoDir, LOG_LEVEL: 'silent' },
      '--api-key',
      'svck_SecretOfTheBuilder00000000000000',
      '--forward-to',
      receiver.url(),
    );
    await expect
      .poll(() => listening.out.join('\n'), { timeout: 10_000, interval: 20 })
      .toContain(`Forwarding the changes of ${base()} from now on`);
    expect(await listening.stop()).toBe(0);
  });

  it('waits for a service that answered once and then does not, asking again with a growing wait', async () => {
    handler = afterNow((request) => {
      request.socket.destroy();
    });
    const listening = run();
    await expect
      .poll(() => listening.out.join('\n'), { timeout: 10_000, interval: 20 })
      .toMatch(/did not answer \(.*\); asking again in 1 s/);
    expect(await listening.stop()).toBe(0);
  });

  it('stops at once with a clear error when nothing answers at the address at the start', async () => {
    const nobody = await freePort();
    const listening = listen(
      env,
      '--api-key',
      'svck_SecretOfTheBuilder00000000000000',
      '--forward-to',
      receiver.url(),
      '--api-url',
      `http://127.0.0.1:${nobody}`,
    );
    expect(await listening.done).toBe(1);
    expect(listening.err.join('\n')).toMatch(
      new RegExp(
        `Nothing answers at http://127\\.0\\.0\\.1:${nobody} \\(.*ECONNREFUSED.*\\)\\. Is the service running there\\? \`npm run demo\` prints the address it serves on; give it with --api-url\\.`,
      ),
    );
    expect(listening.out.join('\n')).not.toContain('asking again');
  });

  it('reports an item that is not a change and goes on with the rest', async () => {
    receiver.reset();
    handler = afterNow((_request, response) =>
      response.end(page([{ id: 5 }, { id: 'evt_x', type: 'post.created', resource: 'post 7' }, change('evt_good')])),
    );
    const listening = run();
    await expect.poll(() => receiver.received.length, { timeout: 10_000, interval: 20 }).toBeGreaterThan(0);
    expect(await listening.stop()).toBe(0);
    const lines = listening.out.join('\n');
    expect(lines).toContain('skipped an item of the feed that is not a change: it has no string id and type');
    expect(lines).toContain('skipped an item of the feed that is not a change: evt_x names no resource type and id');
    expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({ id: 'evt_good' });
  });
});

describe('changes listen as a program', () => {
  it('stops on Ctrl+C (SIGINT) with exit code 0 and the cursor to go on from', async () => {
    const s = await startListeningApp('sqlite');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-listen-'));
    try {
      const child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          'src/cli/main.ts',
          'changes',
          'listen',
          '--api-key',
          s.demo.apiKey,
          '--forward-to',
          'http://127.0.0.1:9/hooks',
        ],
        {
          env: { ...process.env, DATA_DIR: dir, LOG_LEVEL: 'silent', PUBLIC_BASE_URL: s.base },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
      });
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      await expect.poll(() => out, { timeout: 20_000, interval: 50 }).toContain('Ctrl+C stops');
      child.kill('SIGINT');
      expect(await exited).toBe(0);
      expect(out).toMatch(/Stopped\. To go on from here: --after \S+\n$/);
    } finally {
      await s.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
