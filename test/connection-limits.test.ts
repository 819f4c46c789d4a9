import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startListeningApp, type ListeningApp } from './helpers/listening-app.js';
import { realWait } from './helpers/real-time.js';

const LIMITS = {
  HTTP_HEADERS_TIMEOUT_MS: '600',
  HTTP_REQUEST_TIMEOUT_MS: '1200',
  HTTP_IDLE_TIMEOUT_MS: '800',
  HTTP_KEEP_ALIVE_TIMEOUT_MS: '300',
  HTTP_MAX_CONNECTIONS: '20',
};

/** A raw socket to the server that records what comes back and when it is closed. */
function connect(base: string): Promise<{ socket: net.Socket; received: () => string; closed: Promise<number> }> {
  const { port } = new URL(base);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let data = '';
    const socket = net.connect(Number(port), '127.0.0.1');
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      data += chunk;
    });
    socket.on('error', () => undefined);
    const closed = new Promise<number>((done) => socket.on('close', () => done(Date.now() - started)));
    socket.once('connect', () => resolve({ socket, received: () => data, closed }));
    socket.once('error', reject);
  });
}

const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`still open after ${ms} ms`)), ms)),
  ]);

describe('connection limits (a real listening server)', () => {
  let s: ListeningApp;
  beforeAll(async () => {
    s = await startListeningApp('sqlite', LIMITS);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('closes sockets that send nothing', async () => {
    const silent = await Promise.all(Array.from({ length: 10 }, () => connect(s.base)));
    const lifetimes = await within(Promise.all(silent.map((c) => c.closed)), 5_000);
    for (const ms of lifetimes) expect(ms).toBeLessThan(3_000);
  });

  it('answers headers trickled a byte at a time with 408 in the ErrorResponse body, and closes', async () => {
    const c = await connect(s.base);
    const head = 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ' + 'a'.repeat(100);
    let i = 0;
    const drip = setInterval(() => {
      if (!c.socket.destroyed && i < head.length) c.socket.write(head[i++]!);
    }, 50);
    try {
      await within(c.closed, 5_000);
    } finally {
      clearInterval(drip);
    }
    expect(c.received()).toMatch(/^HTTP\/1\.1 408/);
    const body = JSON.parse(c.received().split('\r\n\r\n')[1]!);
    expect(body).toMatchObject({
      code: 'C0002',
      message: expect.stringContaining('did not arrive in time'),
      details: null,
    });
  });

  it('ends a request whose body trickles in past the request deadline', async () => {
    const c = await connect(s.base);
    c.socket.write(
      'POST /oauth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\n',
    );
    const drip = setInterval(() => {
      if (!c.socket.destroyed) c.socket.write('a');
    }, 100);
    try {
      const lifetime = await within(c.closed, 5_000);
      expect(lifetime).toBeLessThan(4_000);
    } finally {
      clearInterval(drip);
    }
  });

  it('closes an idle keep-alive connection after its timeout', async () => {
    const c = await connect(s.base);
    c.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    const lifetime = await within(c.closed, 3_000);
    expect(c.received()).toMatch(/^HTTP\/1\.1 200/);
    expect(lifetime).toBeLessThan(2_000);
  });

  it('refuses connections past the cap, and serves again once they are gone', async () => {
    const held = await Promise.all(Array.from({ length: 20 }, () => connect(s.base)));
    const extra = await connect(s.base);
    extra.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    await within(extra.closed, 2_000);
    expect(extra.received()).toBe('');
    for (const c of held) c.socket.destroy();
    await realWait(100, 'quiet');
    expect((await fetch(`${s.base}/healthz`)).status).toBe(200);
  });

  it('answers headers over the size limit with 431 in the ErrorResponse body', async () => {
    const c = await connect(s.base);
    c.socket.write(`GET /api/v1/posts HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`);
    await within(c.closed, 3_000);
    expect(c.received()).toMatch(/^HTTP\/1\.1 431/);
    expect(JSON.parse(c.received().split('\r\n\r\n')[1]!)).toMatchObject({
      code: 'C0002',
      timestamp: expect.any(String),
    });
  });

  it("answers the same on the OAuth endpoints in OAuth's error shape", async () => {
    const c = await connect(s.base);
    c.socket.write(
      `POST /oauth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`,
    );
    await within(c.closed, 3_000);
    expect(c.received()).toMatch(/^HTTP\/1\.1 431/);
    expect(JSON.parse(c.received().split('\r\n\r\n')[1]!)).toEqual({
      error: 'invalid_request',
      error_description: expect.stringContaining('16 KiB'),
    });
  });
});

describe('header size on a real listening server', () => {
  let s: ListeningApp;
  beforeAll(async () => {
    s = await startListeningApp('sqlite');
  });
  afterAll(async () => {
    await s?.close();
  });
  const pause = () => realWait(30, 'pace');

  it.each([
    ['/oauth/token', { error: 'invalid_request', error_description: expect.stringContaining('16 KiB') }],
    [
      '/api/v1/posts',
      { code: 'C0002', message: expect.stringContaining('16 KiB'), timestamp: expect.any(String), details: null },
    ],
  ])(
    'answers headers over 16 KiB sent in many reads to %s in its own error shape, the connection then closed',
    async (path, body) => {
      const c = await connect(s.base);
      // As a client on a slow link sends it: the request line, then the headers a few KiB at a time.
      c.socket.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n`);
      for (let i = 0; i < 6; i++) {
        await pause();
        c.socket.write(`X-Part-${i}: ${'p'.repeat(4_000)}\r\n`);
      }
      await pause();
      c.socket.write('Content-Length: 0\r\n\r\n');
      await within(c.closed, 3_000);
      expect(c.received()).toMatch(/^HTTP\/1\.1 431/);
      expect(JSON.parse(c.received().split('\r\n\r\n')[1]!)).toEqual(body);
    },
  );

  it.each(['/oauth/authorize', '/console/sign-in', '/'])(
    'answers a page over the header limit (a 16 KiB Accept-Language, cookies grown too large) as a page: %s',
    async (path) => {
      const res = await fetch(`${s.base}${path}`, {
        method: path === '/oauth/authorize' ? 'POST' : 'GET',
        headers: { 'accept-language': `en;q=0.9,${'ko;q=0.1,'.repeat(1_900)}`, 'content-type': 'text/plain' },
        body: path === '/oauth/authorize' ? 'decision=allow' : undefined,
      });
      expect(res.status).toBe(431);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await res.text()).toContain('<h1>The request cannot be completed</h1>');
    },
  );

  it('takes headers just under 16 KiB', async () => {
    const res = await fetch(`${s.base}/healthz`, { headers: { 'x-padding': 'p'.repeat(15_500) } });
    expect(res.status).toBe(200);
  });
});

describe('connection limits as settings', () => {
  it('refuses a header deadline longer than the request deadline', async () => {
    const { loadConfig } = await import('../src/config.js');
    expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '1000' })).toThrow(
      /HTTP_HEADERS_TIMEOUT_MS/,
    );
  });
});
